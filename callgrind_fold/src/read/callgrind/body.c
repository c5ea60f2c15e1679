/* Position lines of callgrind.out ("fn=", "cfn=", "calls=", "jump=" ...):
 * takes their values, hands on the function and call the next cost lines
 * are of (parser.body). */
#include "parser.h"
#include "read/lex.h"

#include <string.h>

/* "cfni=NAME": the costs that follow, up to the next "cfni=" or "fn=",
 * are of code inlined from NAME into the current function ("???": its
 * own code again).  They go to a frame "NAME [inlined]" below it, named as
 * --inline names the frames it finds in the debug info.  With --inline
 * the line is ignored: the debug info gives the whole chain of inlined
 * frames, where cfni= names only the innermost. */
static void inlined_frame(struct parser *P, const char *value, const char *end)
{
    size_t len = (size_t)(end - value);
    P->body.inlined = NO_NODE;
    if (P->body.part.by_address || (len == 3 && memcmp(value, "???", 3) == 0))
        return;
    if (P->body.function == NO_NODE)
        fail(P, "\"cfni=\" line before any \"fn=\" line");
    if (len == 0)
        fail(P, "\"cfni=\" line without a name");
    P->names.scratch.len = 0;
    buf_append(&P->names.scratch, value, len);
    buf_append(&P->names.scratch, INLINE_MARK, sizeof INLINE_MARK - 1);
    uint32_t name = strtab_intern(P->names.tab, P->names.scratch.data, P->names.scratch.len);
    size_t before = P->body.prof->nnodes;
    P->body.inlined =
        profile_inlined_node(P->body.prof, &P->body.inlined_nodes, P->body.function, name);
    /* the inlined code's file is the one "fi="/"fe=" named before it, not
     * the function's: the frame's source (pprof's Function) */
    if (P->body.prof->nnodes > before)
        P->body.prof->nodes[P->body.inlined].file = P->body.file;
}

/* Function `name` of `object` as every stage and output names it: code
 * without a symbol, which callgrind names by its offset
 * ("0x000000000001ab70"), by the object's base name and the offset when
 * the object is a file ("ld-linux-x86-64.so.2+0x1ab70", addrname.c). */
static uint32_t name_in_object(struct parser *P, uint32_t object, uint32_t name)
{
    const struct strtab *tab = P->names.tab;
    struct buf *b = &P->names.scratch;
    b->len = 0;
    if (!addr_name_by_object(b, strtab_str(tab, name), strtab_len(tab, name),
                             strtab_str(tab, object), strtab_len(tab, object)))
        return name;
    return strtab_intern(P->names.tab, b->data, b->len);
}

/* The node of a function, made on first use.  `object` is the one of its
 * "ob=" (of "cob=" for a callee, else the caller's, as the format says):
 * a callee's node and its "fn=" node are named alike. */
static uint32_t function_node(struct parser *P, uint32_t object, uint32_t file,
                              uint32_t name)
{
    struct node_memo *m = name < P->body.node_memo_cap ? &P->body.node_memo[name] : NULL;
    if (m && m->node != NO_NODE && m->object == object && m->file == file)
        return m->node;
    uint32_t node =
        profile_function(P->body.prof, object, file, name_in_object(P, object, name));
    if (!m) {
        size_t old = P->body.node_memo_cap;
        GROW(P->body.node_memo, P->body.node_memo_cap, (size_t)name);
        for (size_t i = old; i < P->body.node_memo_cap; i++)
            P->body.node_memo[i].node = NO_NODE;
        m = &P->body.node_memo[name];
    }
    *m = (struct node_memo){object, file, node};
    return node;
}

/* An object's name: with by_address, the next stage may start preparing
 * its debug file while the rest is read. */
void note_object(struct parser *P, uint32_t name)
{
    if (P->body.part.by_address && P->t->sink.object)
        P->t->sink.object(P->t->sink.arg, name, strtab_str(P->names.tab, name));
}

/* check_arc() for what callgrind writes ("jump=3 +2 *", "jcnd=5/9 0x1a 3",
 * "calls=1 0x4a0 12"), in one pass that stops at the first non-digit
 * (the line is followed by '\n' or '\r', linereader.h).  False, with
 * nothing done, for anything else: check_arc_exact() then reads the line
 * and gives the error if there is one. */
static inline bool fast_arc(const struct parser *P, const char *p, const char *end,
                            bool two_counts, uint64_t *first)
{
    uint64_t v, second;
    while (is_blank(*p))
        p++;
    const char *t = scan_uint(p, &v);
    if (!t)
        return false;
    if (two_counts) {
        if (*t == '/') {
            t++;
        } else {
            if (!is_blank(*t))
                return false;
            while (is_blank(*t))
                t++;
        }
        t = scan_uint(t, &second);
        if (!t)
            return false;
    }
    for (size_t n = 0;; n++) { /* the target's subpositions, only checked */
        p = t;
        while (is_blank(*p))
            p++;
        if (p == end)
            break;
        if (p == t || n == P->header.npositions)
            return false; /* no blank before the token, or one too many */
        char c = *p;
        if (c == '*')
            t = p + 1;
        else if (!(t = scan_uint(p + (c == '+' || c == '-'), &second)))
            return false;
    }
    *first = v;
    return true;
}

/* "calls=COUNT TARGET" or "jump=COUNT TARGET" or "jcnd=EXE/JUMP TARGET":
 * a count (two for jcnd) and up to npositions subpositions. Returns the
 * first count. */
static uint64_t check_arc(struct parser *P, const char *p, const char *end, bool two_counts)
{
    uint64_t first;
    if (P->body.fast_tiers && fast_arc(P, p, end, two_counts, &first))
        return first;
    return check_arc_exact(P, p, end, two_counts);
}

/* "fn=": the lines that follow are function `name`'s. */
void enter_function(struct parser *P, uint32_t name)
{
    P->body.function = function_node(P, P->body.object, P->body.file, name);
    P->body.prof->nodes[P->body.function].defined = true;
    P->body.call_object = P->body.call_file = P->body.call_name = NO_NAME;
    P->body.inlined = NO_NODE;
    P->addr.last_instr = 0; /* callgrind restarts positions per function */
    P->addr.last_line = 0;
}

/* "calls=": its count read (first), the callee's node made; its cost
 * line comes next. */
void start_call(struct parser *P, uint64_t first)
{
    P->body.call_count = first;
    if (P->body.function == NO_NODE)
        fail(P, "\"calls=\" line before any \"fn=\" line");
    if (P->body.call_name == NO_NAME)
        fail(P, "\"calls=\" line without a \"cfn=\" line naming the callee");
    P->body.callee = function_node(
        P, P->body.call_object != NO_NAME ? P->body.call_object : P->body.object,
        P->body.call_file != NO_NAME ? P->body.call_file : P->body.file, P->body.call_name);
    P->body.call_pending = true;
    P->body.call_line = P->r->lineno;
}

void position_line(struct parser *P, const char *key, size_t keylen,
                          const char *value, const char *end)
{
    if (P->body.call_pending)
        fail_at(P, P->body.call_line,
                "\"calls=\" line must be followed by its cost line");
    P->body.jump_pending = false;
    switch (keylen) {
    case 2:
        if (key_is(key, 2, "fn")) {
            enter_function(P, parse_name(P, KIND_FUNCTION, value, end));
        } else if (key_is(key, 2, "ob")) {
            P->body.object = parse_name(P, KIND_OBJECT, value, end);
            note_object(P, P->body.object);
        } else if (key_is(key, 2, "fl") || key_is(key, 2, "fi") || key_is(key, 2, "fe")) {
            /* fi=/fe= switch the source file for inlined code; the
             * function stays the same. */
            P->body.file = parse_name(P, KIND_FILE, value, end);
        } else if (key_is(key, 2, "ln") || key_is(key, 2, "bb")) {
            /* --dump-bbs=yes detail, not needed */
        } else {
            break;
        }
        return;
    case 3:
        if (key_is(key, 3, "cfn")) {
            P->body.call_name = parse_name(P, KIND_FUNCTION, value, end);
        } else if (key_is(key, 3, "cfi") || key_is(key, 3, "cfl")) {
            P->body.call_file = parse_name(P, KIND_FILE, value, end);
        } else if (key_is(key, 3, "cob")) {
            P->body.call_object = parse_name(P, KIND_OBJECT, value, end);
            /* A callee's object is often named here long before its own
             * "ob=" (libc's, say, 1% into a file and its "ob=" at 40%). */
            note_object(P, P->body.call_object);
        } else if (key_is(key, 3, "jfi")) {
            parse_name(P, KIND_FILE, value, end); /* may define an id */
        } else if (key_is(key, 3, "jfn")) {
            parse_name(P, KIND_FUNCTION, value, end);
        } else if (key_is(key, 3, "rec")) {
            /* --mangle-names=no recursion level: not needed */
        } else {
            break;
        }
        return;
    case 4:
        if (key_is(key, 4, "jump")) {
            check_arc(P, value, end, false);
            P->body.jump_pending = true; /* its source position line follows */
        } else if (key_is(key, 4, "jcnd")) {
            check_arc(P, value, end, true);
            P->body.jump_pending = true;
        } else if (key_is(key, 4, "cfni")) {
            inlined_frame(P, value, end);
        } else if (key_is(key, 4, "frfn")) {
            /* --mangle-names=no caller context; "(spontaneous)" is no id */
            if (!key_is(value, (size_t)(end - value), "(spontaneous)"))
                parse_name(P, KIND_FUNCTION, value, end);
        } else {
            break;
        }
        return;
    case 5:
        if (key_is(key, 5, "calls")) {
            start_call(P, check_arc(P, value, end, false));
            return;
        }
        break;
    }
    fail(P, "unknown line type \"%.*s=\"", (int)keylen, key);
}

