/* Readable frame names (present.h, "shortname.c"): --frame=short.
 *
 * Callgrind names JIT code after the perf map the runtime writes
 * (/tmp/perf-<pid>.map, "ADDR SIZE NAME" lines), so frames read like
 * "JS:*fib /home/user/project/benches/work.js:5:13". A short name keeps
 * the function and a short location, "fib  work.js:5": two spaces between
 * them, the column left out. The names are told apart by their prefix:
 *
 *   V8, "TAG:[MARKER]NAME[ LOCATION]": as its CodeEventLogger writes
 *   it for node --perf-basic-prof (src/logging/log.cc, the tags of
 *   code-events.h: JS:), or a writer of the code event API does
 *   (v8-profiler.h's CODE_EVENTS_LIST: Function:, as CodSpeed's node
 *   addon). MARKER is the tier: "~" interpreted (Ignition), "^" baseline
 *   (Sparkplug), "+" Maglev, "*" TurboFan; it is left out, so one
 *   function's tiers read alike. LOCATION is "FILE:LINE:COLUMN", FILE
 *   empty for code without a script (":0:0", ":1:20"); it starts at the
 *   first space followed by "/", ":" or "scheme:", since names ("get
 *   name") and paths can hold spaces.
 *     JS:, Function:, LazyCompile:,   NAME  FILE:LINE   ("(anonymous)"
 *     InterpretedFunction:            when NAME is empty)
 *     Eval:                           NAME  FILE:LINE   ("(eval)": a
 *                                     module's or eval'd top-level code)
 *     Script:                         (script)  FILE    (NAME is the
 *                                     script's URL)
 *     Builtin:, BytecodeHandler:,     TAG:NAME          (V8's own code:
 *     Handler:, Stub:, Callback:,                       the tag stays, so
 *     RegExp:, Relocation:                              it is not taken
 *                                                       for the user's)
 *   CPython 3.12+ perf trampolines (python -X perf), "py::QUALNAME:FILE"
 *   (Python/perf_trampoline.c): QUALNAME without its ".<locals>" parts,
 *   "parse_rows.<locals>.<genexpr>" -> "parse_rows.<genexpr>  FILE".
 *   Anything else (C, C++, Rust, "(below main)", "0x..."): unchanged,
 *   as callgrind demangled it (what c++filt prints), unless `templates`.
 *
 * FILE: "file://" URLs become their path; paths under node_modules/,
 * site-packages/, dist-packages/ or lib/pythonX.Y/ are shown from there
 * on (json/decoder.py, tinybench/dist/index.js); other absolute paths
 * relative to the profile's root, the longest directory all of them
 * share (only the base name when they are all in one directory); other
 * names ("node:internal/url", "<frozen abc>", "<string>") unchanged. The
 * root needs every name first: shortnames_note them all, then
 * shortnames_make each.
 *
 * `templates` shortens C++ names. Linux perf, unless verbose, demangles
 * without DMGL_PARAMS (util/symbol-elf.c: what c++filt -p prints): no
 * return type, no parameters, template arguments kept. Here template
 * arguments go too, and a parameter list is kept as a mark: "(...)", or
 * "()" when empty; the return type (printed for function templates) goes
 * as perf does, and the rest stays (" const", " [clone .cold]").
 * Brackets that do not balance leave the name unchanged.
 *
 * Order: callgrind's clone suffix ("'2", frame_base_length) and
 * " [inlined]" are taken off first and put back after. A short name never
 * contains ';' and is never empty (the raw name is kept instead). */
#include "present.h"
#include "callarcs.h"
#include "symlabel.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the parts of a perf-map name ---------------------------------------- */

enum jit_kind { NOT_JIT, JS_FUNCTION, JS_EVAL, JS_SCRIPT, V8_INTERNAL, PYTHON };

struct span {
    const char *s;
    size_t n;
};

struct jit_name {
    enum jit_kind kind;
    struct span tag;  /* "Builtin:" (V8_INTERNAL only) */
    struct span name; /* the function; for Script, the script's URL */
    struct span file; /* may be empty */
    struct span line; /* digits, or empty */
};

static const struct {
    const char *tag;
    enum jit_kind kind;
} v8_tags[] = {
    {"JS:", JS_FUNCTION},         {"Function:", JS_FUNCTION},
    {"LazyCompile:", JS_FUNCTION}, {"InterpretedFunction:", JS_FUNCTION},
    {"Eval:", JS_EVAL},           {"Script:", JS_SCRIPT},
    {"Builtin:", V8_INTERNAL},    {"BytecodeHandler:", V8_INTERNAL},
    {"Handler:", V8_INTERNAL},    {"Stub:", V8_INTERNAL},
    {"Callback:", V8_INTERNAL},   {"RegExp:", V8_INTERNAL},
    {"Relocation:", V8_INTERNAL},
};

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Does a location start here: "/...", ":..." (no file) or "scheme:..."
 * ("file:", "node:")? Names can hold spaces ("get name") and so can
 * paths, so the location starts at the first space followed by one. */
static bool starts_location(const char *s, size_t n)
{
    if (n == 0)
        return false;
    if (s[0] == '/' || s[0] == ':')
        return true;
    size_t i = 0;
    while (i < n && (is_alpha(s[i]) || (i > 0 && (is_digit(s[i]) || s[i] == '+' ||
                                                  s[i] == '.' || s[i] == '-'))))
        i++;
    return i > 0 && i < n && s[i] == ':';
}

/* Digits ending the span after a ':', as a span; empty if none. */
static struct span take_number(struct span *sp)
{
    size_t i = sp->n;
    while (i > 0 && is_digit(sp->s[i - 1]))
        i--;
    if (i == sp->n || i == 0 || sp->s[i - 1] != ':')
        return (struct span){sp->s + sp->n, 0};
    struct span num = {sp->s + i, sp->n - i};
    sp->n = i - 1;
    return num;
}

/* "FILE:LINE:COLUMN", "FILE:LINE" or "FILE" into file and line. */
static void split_location(struct span loc, struct jit_name *j)
{
    struct span last = take_number(&loc);
    struct span before = last.n ? take_number(&loc) : last;
    j->line = before.n ? before : last;
    j->file = loc;
    if (j->line.n == 1 && j->line.s[0] == '0') /* ":0:0": no line either */
        j->line.n = 0;
}

static bool parse_v8(const char *s, size_t n, struct jit_name *j)
{
    size_t k = 0;
    for (; k < sizeof v8_tags / sizeof *v8_tags; k++)
        if (starts_with(s, n, v8_tags[k].tag))
            break;
    if (k == sizeof v8_tags / sizeof *v8_tags)
        return false;
    size_t i = strlen(v8_tags[k].tag);
    if (i < n && s[i] == ':') /* "Function::x" is C++ */
        return false;
    j->kind = v8_tags[k].kind;
    j->tag = (struct span){s, i};
    if (j->kind != V8_INTERNAL)
        while (i < n && s[i] && strchr("~^+*", s[i]))
            i++;
    size_t split = n; /* where " LOCATION" starts */
    for (size_t p = i; p < n; p++)
        if (s[p] == ' ' && starts_location(s + p + 1, n - p - 1)) {
            split = p;
            break;
        }
    if (split == n) { /* "evalmachine.<anonymous>:3:1": the last space */
        size_t p = n;
        while (p > i && s[p - 1] != ' ')
            p--;
        struct span rest = {s + p, n - p};
        if (p > i && take_number(&rest).n)
            split = p - 1;
    }
    j->name = (struct span){s + i, split - i};
    if (split < n)
        split_location((struct span){s + split + 1, n - split - 1}, j);
    if (j->kind == JS_SCRIPT && j->name.n) { /* "Script:file:///x.mjs :0:0" */
        j->file = j->name;
        j->line.n = 0;
    }
    return true;
}

static bool parse_python(const char *s, size_t n, struct jit_name *j)
{
    if (!starts_with(s, n, "py::"))
        return false;
    const char *colon = memchr(s + 4, ':', n - 4);
    if (!colon || colon == s + 4) /* no qualified name: not CPython's */
        return false;
    j->kind = PYTHON;
    j->name = (struct span){s + 4, (size_t)(colon - s - 4)};
    j->file = (struct span){colon + 1, (size_t)(s + n - colon - 1)};
    return true;
}

static bool parse_jit(const char *s, size_t n, struct jit_name *j)
{
    memset(j, 0, sizeof *j);
    return parse_python(s, n, j) || parse_v8(s, n, j);
}

/* ---- paths --------------------------------------------------------------- */

/* A file as a path: "file://" taken off; NULL span when not absolute. */
static struct span as_path(struct span file)
{
    if (starts_with(file.s, file.n, "file://"))
        file = (struct span){file.s + 7, file.n - 7};
    if (file.n == 0 || file.s[0] != '/')
        return (struct span){NULL, 0};
    return file;
}

static bool component_is(const char *c, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(c, word, n) == 0;
}

/* Offset in path after the last library directory (node_modules/,
 * site-packages/, dist-packages/, lib/pythonX.Y/), or 0 when none. */
static size_t library_start(struct span path)
{
    size_t start = 0, prev = 0, prev_len = 0;
    for (size_t i = 0; i < path.n;) {
        size_t end = i;
        while (end < path.n && path.s[end] != '/')
            end++;
        const char *c = path.s + i;
        size_t len = end - i;
        bool lib = component_is(c, len, "node_modules") ||
                   component_is(c, len, "site-packages") ||
                   component_is(c, len, "dist-packages") ||
                   (len > 6 && memcmp(c, "python", 6) == 0 && is_digit(c[6]) &&
                    (component_is(path.s + prev, prev_len, "lib") ||
                     component_is(path.s + prev, prev_len, "lib64")));
        if (lib && end < path.n)
            start = end + 1;
        prev = i;
        prev_len = len;
        i = end + 1;
    }
    return start;
}

void shortnames_init(struct shortnames *sn, bool templates)
{
    memset(sn, 0, sizeof *sn);
    sn->templates = templates;
}

void shortnames_free(struct shortnames *sn)
{
    buf_free(&sn->root);
    buf_free(&sn->out);
}

/* Length of a " [object]" suffix (--frame=fn+obj frames, also read from
 * folded input) at the end of name, or 0: not " [inlined]", nor a C++
 * name's "[clone .cold]" or "[abi:cxx11]". */
static size_t object_suffix(const char *name, size_t n)
{
    if (n < 4 || name[n - 1] != ']')
        return 0;
    size_t open = n - 1;
    while (open > 0 && name[open - 1] != '[' && name[open - 1] != ']')
        open--;
    if (open < 2 || name[open - 1] != '[' || name[open - 2] != ' ')
        return 0;
    const char *in = name + open;
    size_t k = n - 1 - open;
    if (k == 0 || (k == 7 && memcmp(in, "inlined", 7) == 0) || starts_with(in, k, "clone ") ||
        starts_with(in, k, "abi:"))
        return 0;
    return n - (open - 2);
}

/* The name without its " [object]", callgrind's clone suffix and
 * " [inlined]": *tail is what follows it, put back after the short name. */
static size_t core_length(const char *name, size_t len, size_t *tail)
{
    size_t mark = strlen(INLINE_MARK), n = len;
    n -= object_suffix(name, n);
    if (n > mark && memcmp(name + n - mark, INLINE_MARK, mark) == 0)
        n -= mark;
    n = frame_base_length(name, n);
    *tail = len - n;
    return n;
}

void shortnames_note(struct shortnames *sn, const char *name, size_t len)
{
    size_t tail;
    struct jit_name j;
    if (!parse_jit(name, core_length(name, len, &tail), &j))
        return;
    struct span path = as_path(j.file);
    if (!path.s || library_start(path))
        return;
    size_t dir = path.n;
    while (path.s[dir - 1] != '/')
        dir--;
    if (!sn->have_root) {
        buf_append(&sn->root, path.s, dir);
        sn->have_root = true;
        return;
    }
    size_t common = 0; /* the longest prefix that ends with '/' */
    for (size_t i = 0; i < dir && i < sn->root.len && path.s[i] == sn->root.data[i]; i++)
        if (path.s[i] == '/')
            common = i + 1;
    sn->root.len = common;
}

static void put_span(struct buf *out, struct span sp)
{
    buf_append(out, sp.s, sp.n);
}

static void put_str(struct buf *out, const char *s)
{
    buf_append(out, s, strlen(s));
}

/* FILE as shown: from its library directory on, else relative to the
 * root (when there is one below "/"), else as it is. */
static void put_file(const struct shortnames *sn, struct buf *out, struct span file)
{
    struct span path = as_path(file);
    if (!path.s) {
        put_span(out, file);
        return;
    }
    size_t skip = library_start(path);
    if (!skip && sn->have_root && sn->root.len > 1 && path.n > sn->root.len &&
        memcmp(path.s, sn->root.data, sn->root.len) == 0)
        skip = sn->root.len;
    buf_append(out, path.s + skip, path.n - skip);
}

/* Python's qualified name without the ".<locals>" steps. */
static void put_qualname(struct buf *out, struct span q)
{
    static const char locals[] = ".<locals>";
    size_t k = sizeof locals - 1;
    for (size_t i = 0; i < q.n;) {
        if (q.n - i >= k && memcmp(q.s + i, locals, k) == 0 &&
            (i + k == q.n || q.s[i + k] == '.')) {
            i += k;
            continue;
        }
        buf_putc(out, q.s[i++]);
    }
}

static void put_jit(const struct shortnames *sn, struct buf *out, const struct jit_name *j)
{
    if (j->kind == PYTHON) {
        put_qualname(out, j->name);
    } else if (j->kind == V8_INTERNAL) {
        put_span(out, j->tag);
        put_span(out, j->name);
    } else if (j->kind == JS_SCRIPT) {
        put_str(out, "(script)");
    } else if (j->name.n == 0) {
        put_str(out, j->kind == JS_EVAL ? "(eval)" : "(anonymous)");
    } else {
        put_span(out, j->name);
    }
    if (j->file.n == 0) /* a line without a file says nothing */
        return;
    put_str(out, "  ");
    put_file(sn, out, j->file);
    if (j->line.n) {
        buf_putc(out, ':');
        put_span(out, j->line);
    }
}

/* ---- C++ names: the `templates` option ----------------------------------- */

static bool is_ident(char c)
{
    return is_alpha(c) || is_digit(c) || c == '_';
}

/* Index after the ')' that closes s[i] == '(', or 0. */
static size_t close_paren(const char *s, size_t n, size_t i)
{
    int depth = 0;
    for (; i < n; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            return i + 1;
    }
    return 0;
}

/* Index after the '>' that closes s[i] == '<', or 0. Parenthesised
 * parts are skipped whole: "(3>2)" or "a->b" inside decltype(...). */
static size_t close_angle(const char *s, size_t n, size_t i)
{
    int depth = 0;
    while (i < n) {
        if (s[i] == '(') {
            i = close_paren(s, n, i);
            if (!i)
                return 0;
            continue;
        }
        if (s[i] == '<')
            depth++;
        else if (s[i] == '>' && --depth == 0)
            return i + 1;
        i++;
    }
    return 0;
}

/* Length of a demangler's prefix such as "non-virtual thunk to " or
 * "transaction clone for ": kept, it names another function. */
static size_t special_prefix(const char *s, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n && s[i] != '<' && s[i] != '('; i++)
        if (starts_with(s + i, n - i, " to "))
            len = i + 4;
        else if (starts_with(s + i, n - i, " for "))
            len = i + 5;
    return len;
}

/* The `templates` rule (opening comment) into out; false when brackets do
 * not balance. After a name (an identifier, an operator, template
 * arguments), "<" opens template arguments and "(" parameters; other
 * brackets are kept as they are ("(anonymous namespace)", "{lambda(...)#1}",
 * "[clone .cold]"). */
static bool simplify_cxx(struct buf *out, const char *s, size_t n)
{
    size_t i = special_prefix(s, n);
    buf_append(out, s, i);
    size_t start = out->len;
    size_t name_at = start; /* after the last space that ends a return type */
    int depth = 0;          /* in brackets kept as they are */
    bool in_operator = false, after_name = false;
    while (i < n) {
        char c = s[i];
        size_t t = cxx_operator_take(s, n, &i, out);
        if (t != NO_OPERATOR) {
            in_operator = in_operator || depth == 0;
            after_name = t > 0;
            if (t && i + 1 < n && s[i] == ' ' && s[i + 1] == '<') /* "operator< <T>" */
                buf_putc(out, s[i++]);
        } else if (c == '<' && after_name) {
            size_t end = close_angle(s, n, i);
            if (!end)
                return false;
            put_str(out, "<...>");
            i = end;
        } else if (c == '(' && after_name) {
            size_t end = close_paren(s, n, i);
            if (!end)
                return false;
            if (depth == 0 && name_at > start) { /* the return type goes */
                memmove(out->data + start, out->data + name_at, out->len - name_at);
                out->len -= name_at - start;
                name_at = start;
            }
            put_str(out, end == i + 2 ? "()" : "(...)");
            i = end;
            after_name = false;
        } else {
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                depth--;
            buf_putc(out, c);
            i++;
            after_name = is_ident(c);
            if (c == ' ' && depth == 0 && !in_operator)
                name_at = out->len;
        }
    }
    return true;
}

/* ---- making a name -------------------------------------------------------- */

const char *shortnames_make(struct shortnames *sn, const char *name, size_t len,
                            size_t *out_len)
{
    struct buf *out = &sn->out;
    out->len = 0;
    size_t tail, n = core_length(name, len, &tail);
    struct jit_name j;
    bool made;
    sn->jit = parse_jit(name, n, &j);
    if (sn->jit) {
        put_jit(sn, out, &j);
        made = true;
    } else if (sn->templates) {
        made = simplify_cxx(out, name, n);
    } else {
        made = symbol_label(out, name, n);
    }
    if (!made || out->len == 0) { /* the raw name */
        out->len = 0;
        buf_append(out, name, n);
    }
    buf_append(out, name + n, tail);
    for (size_t i = 0; i < out->len; i++)
        if (out->data[i] == ';')
            out->data[i] = ':';
    *out_len = out->len;
    return buf_cstr(out);
}

/* ---- the stacks, shortened ---------------------------------------------- */

/* A frame several raw names became lists this many of them. */
#define RAW_NAMES_LISTED 4

/* The raw names of out's frames, old frame f having become frame[f]: a
 * frame's own raw name, or "N names: A | B | ..." for a frame several
 * became (in the order of their old ids). None is kept for a frame whose
 * raw name is its text (stacks_frame_raw gives the text). */
static void keep_raw_names(struct stacks *out, const struct stacks *s, const uint32_t *frame)
{
    size_t nold = stacks_count_frames(s), nnew = stacks_count_frames(out);
    /* The old frames of each new one, by counting sort: old[start[g]..]. */
    uint32_t *start = xcalloc(nnew + 1, sizeof *start);
    uint32_t *old = xmalloc((nold ? nold : 1) * sizeof *old);
    for (size_t f = 0; f < nold; f++)
        start[frame[f] + 1]++;
    for (size_t g = 0; g < nnew; g++)
        start[g + 1] += start[g];
    uint32_t *at = xmalloc((nnew ? nnew : 1) * sizeof *at);
    memcpy(at, start, (nnew ? nnew : 1) * sizeof *at);
    for (size_t f = 0; f < nold; f++)
        old[at[frame[f]]++] = (uint32_t)f;
    struct buf text = {0};
    for (size_t g = 0; g < nnew; g++) {
        uint32_t n = start[g + 1] - start[g];
        const uint32_t *from = old + start[g];
        text.len = 0;
        if (n > 1) {
            char head[32];
            int hl = snprintf(head, sizeof head, "%" PRIu32 " names: ", n);
            buf_append(&text, head, (size_t)hl);
        }
        for (uint32_t k = 0; k < n && k < RAW_NAMES_LISTED; k++) {
            const char *raw = stacks_frame_raw(s, from[k]);
            if (k)
                buf_append(&text, " | ", 3);
            buf_append(&text, raw, strlen(raw));
        }
        if (n > RAW_NAMES_LISTED)
            buf_append(&text, " | ...", 6);
        size_t len;
        const char *short_text = stacks_frame_text(out, (uint32_t)g, &len);
        if (text.len != len || (len && memcmp(text.data, short_text, len) != 0))
            stacks_frame_set_raw(out, (uint32_t)g, text.data, text.len);
    }
    buf_free(&text);
    free(at);
    free(old);
    free(start);
}

/* The count of stack `id` in column c of s (the current one or another). */

/* s's frame texts and raw names become out's: when no two frames merged,
 * out has the same frames in the same order, so every id stays. */
static void take_names(struct stacks *s, struct stacks *out)
{
    struct strtab frames = s->frames, raw_names = s->raw_names;
    uint32_t *raw = s->raw;
    size_t raw_cap = s->raw_cap;
    bool split_keys = s->split_keys;
    s->frames = out->frames;
    s->raw_names = out->raw_names;
    s->raw = out->raw;
    s->raw_cap = out->raw_cap;
    s->split_keys = out->split_keys;
    out->frames = frames;
    out->raw_names = raw_names;
    out->raw = raw;
    out->raw_cap = raw_cap;
    out->split_keys = split_keys;
}

/* Short names that several raw names make, over every stacks of a run:
 * frames of those that are not perf-map names are kept apart. */
struct alike {
    struct strtab shorts;  /* short name -> id */
    struct strtab raws;    /* raw name -> id */
    uint32_t *first_raw;   /* short name id -> the first raw name's id */
    bool *several;         /* short name id -> made by two raw names or more */
    size_t cap;
};

static void alike_note(struct alike *a, const char *shrt, size_t shrt_len, const char *raw,
                       size_t raw_len)
{
    uint32_t id = strtab_intern(&a->shorts, shrt, shrt_len);
    uint32_t r = strtab_intern(&a->raws, raw, raw_len);
    if (id >= a->cap) {
        size_t old = a->cap;
        GROW(a->first_raw, a->cap, id);
        a->several = xrealloc(a->several, a->cap * sizeof *a->several);
        for (size_t k = old; k < a->cap; k++) {
            a->first_raw[k] = r;
            a->several[k] = false;
        }
    }
    if (a->first_raw[id] != r)
        a->several[id] = true;
}

static bool alike_several(const struct alike *a, const char *shrt, size_t shrt_len)
{
    uint32_t id = strtab_find(&a->shorts, shrt, shrt_len, strtab_hash(shrt, shrt_len));
    return id != UINT32_MAX && a->several[id];
}

/* Every frame of s replaced by its short name: stacks whose frames become
 * alike are merged, in every column, but for the frames `apart` (when
 * not NULL) says are kept apart, whose key is their short name, a NUL and
 * their raw name. Their counts are parts of a total that fits 64 bits,
 * so the sums cannot overflow. Returns the frame ids' map, old -> new
 * (the caller's to free). */
static uint32_t *shorten_stacks(struct stacks *s, struct shortnames *sn,
                                const struct alike *apart)
{
    struct stacks out;
    stacks_init(&out);
    out.keep_sources = s->keep_sources;
    size_t nframes = stacks_count_frames(s);
    uint32_t *frame = xmalloc((nframes ? nframes : 1) * sizeof *frame);
    struct buf key = {0};
    for (size_t f = 0; f < nframes; f++) {
        size_t len, short_len;
        const char *text = stacks_frame_text(s, (uint32_t)f, &len);
        const char *short_text = shortnames_make(sn, text, len, &short_len);
        if (apart && !sn->jit && alike_several(apart, short_text, short_len)) {
            key.len = 0;
            buf_append(&key, short_text, short_len);
            buf_putc(&key, '\0');
            buf_append(&key, text, len);
            frame[f] = stacks_frame(&out, key.data, key.len);
            out.split_keys = true;
        } else {
            frame[f] = stacks_frame(&out, short_text, short_len);
        }
    }
    buf_free(&key);
    keep_raw_names(&out, s, frame);
    if (stacks_count_frames(&out) == nframes) { /* none merged (C profiles): ids stay */
        take_names(s, &out);
        stacks_free(&out);
        return frame;
    }
    for (size_t f = 0; f < nframes; f++) {
        const struct frame_source *src = stacks_source_of(s, (uint32_t)f);
        if (src)
            stacks_frame_source(&out, frame[f], src->object, src->file, src->line);
    }
    stacks_lines_carry(&out, s, frame);
    size_t ncols = stacks_ncols(s);
    for (size_t id = 0; id < stacks_count_ids(s); id++) {
        uint32_t to = UINT32_MAX;
        for (size_t c = 0; c < ncols; c++) {
            uint64_t count = stacks_count(s, c, (uint32_t)id);
            if (count == 0)
                continue;
            if (to == UINT32_MAX)
                to = stacks_intern_mapped(&out, s, (uint32_t)id, frame);
            (void)stacks_count_in(&out, c, to, count);
        }
    }
    stacks_free(s);
    *s = out;
    return frame;
}

void stacks_shorten(struct stacks *const *s, size_t n, bool templates, bool keep_apart,
                    struct callarcs *arcs)
{
    struct shortnames sn;
    shortnames_init(&sn, templates);
    for (size_t k = 0; k < n; k++)
        for (size_t f = 0; f < stacks_count_frames(s[k]); f++) {
            size_t len;
            const char *text = stacks_frame_text(s[k], (uint32_t)f, &len);
            shortnames_note(&sn, text, len);
        }
    /* which short names several raw names make, over all the stacks */
    struct alike apart;
    memset(&apart, 0, sizeof apart);
    strtab_init(&apart.shorts);
    strtab_init(&apart.raws);
    for (size_t k = 0; k < n && keep_apart; k++)
        for (size_t f = 0; f < stacks_count_frames(s[k]); f++) {
            size_t len, short_len;
            const char *text = stacks_frame_text(s[k], (uint32_t)f, &len);
            const char *short_text = shortnames_make(&sn, text, len, &short_len);
            alike_note(&apart, short_text, short_len, text, len);
        }
    for (size_t k = 0; k < n; k++) {
        size_t nframes = stacks_count_frames(s[k]);
        uint32_t *renamed = shorten_stacks(s[k], &sn, keep_apart ? &apart : NULL);
        if (k == 0 && arcs)
            callarcs_rename(arcs, renamed, nframes);
        free(renamed);
    }
    strtab_free(&apart.shorts);
    strtab_free(&apart.raws);
    free(apart.first_raw);
    free(apart.several);
    shortnames_free(&sn);
}
