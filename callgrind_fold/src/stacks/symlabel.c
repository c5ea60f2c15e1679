/* Readable labels of C++ and Rust functions (present.h, "shortname.c"):
 * the default of --frame=short for names that are not perf-map names.
 *
 * A person names a function by its scope and name: std::__introsort_loop,
 * std::_Rb_tree::_M_insert_unique, Index::add, wc::count_words,
 * HashMap::rustc_entry, Adapter::write_str. Callgrind names it as its
 * demangler does, with everything else: the return type of a function
 * template, template or generic arguments, the parameter list and its
 * qualifiers, "<T as Trait>" around Rust's methods. The label keeps
 *
 *   C++ (a name with a parameter list, as c++filt prints it): the
 *     qualified name without return type, template arguments, parameter
 *     lists (also an enclosing function's: foo(int)::Local::run ->
 *     foo::Local::run), " const", "&", "noexcept" and ABI tags
 *     ("[abi:cxx11]"); the inline namespaces std::__cxx11 and std::__1
 *     read as std; a lambda is "{lambda#N}", and its operator() is the
 *     lambda ("main::{lambda#1}"); operators stay ("operator<",
 *     "operator new"), and so do "[clone .isra.0]"-style suffixes and
 *     the demangler's prefixes ("non-virtual thunk to ").
 *   Rust (any other name, as legacy and v0 demangling print them): a
 *     method is Type::method, its type's last path segment without its
 *     generic arguments: "<std::io::default_write_fmt::Adapter<T> as
 *     core::fmt::Write>::write_str" -> "Adapter::write_str",
 *     "hashbrown::rustc_entry::<impl hashbrown::map::HashMap<K,V,S,A>>::
 *     rustc_entry" -> "HashMap::rustc_entry", "alloc::raw_vec::RawVec<T,
 *     A>::grow_one" -> "RawVec::grow_one" (a type is a "<...>" segment or
 *     one in CamelCase, as Rust names types); a type that is no path
 *     stays in brackets ("<[T]>::sort_by", "<&mut W>::write_str"); a free
 *     function keeps its path ("wc::count_words"); generic arguments go
 *     ("core::ptr::drop_in_place<T>", "::<T>"), closures and shims stay
 *     ("{{closure}}", "{closure#0}", "{shim:vtable#0}").
 *
 * C names, "(below main)", "0x..." have none of that and stay. A name
 * whose brackets do not balance stays as it is. Two functions whose
 * labels read alike stay two frames (stacks_shorten); the tooltip, with
 * the raw name, tells them apart. */
#include "present.h"
#include "symlabel.h"
#include "util/util.h"

#include <string.h>

#define MAX_NESTING 64

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || (unsigned char)c >= 0x80;
}

static bool starts(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return n >= k && memcmp(s, prefix, k) == 0;
}

static char closing(char open)
{
    return open == '(' ? ')' : open == '<' ? '>' : open == '[' ? ']' : '}';
}

/* The index after the bracket that closes s[i] ('(', '<', '[' or '{'),
 * or 0 when it does not close. Parentheses hold anything ("(3>2)",
 * "a->b"), so only parentheses count inside them; inside the others
 * every kind of bracket nests, but '<' only within '<'. */
static size_t group_end(const char *s, size_t n, size_t i, int depth)
{
    char open = s[i], close = closing(open);
    if (depth > MAX_NESTING)
        return 0;
    for (size_t k = i + 1; k < n; k++) {
        char c = s[k];
        if (c == close)
            return k + 1;
        bool nests = open == '(' ? c == '(' : c == '(' || c == '[' || c == '{' ||
                                                  (c == '<' && open == '<');
        if (nests) {
            size_t e = group_end(s, n, k, depth + 1);
            if (!e)
                return 0;
            k = e - 1;
        } else if (open != '(' && (c == ')' || c == ']' || c == '}' || (c == '>' && open == '<'))) {
            return 0; /* another group's closer */
        }
    }
    return 0;
}

/* Length of the operator's token after "operator" at s, 0 for none. */
static size_t operator_token(const char *s, size_t n)
{
    static const char *const tokens[] = {
        " new[]", " delete[]", " new", " delete", "<=>", "->*", "<<=", ">>=", "<<", ">>",
        "<=", ">=", "==", "!=", "&&", "||", "++", "--", "->", "+=", "-=", "*=", "/=", "%=",
        "&=", "|=", "^=", "()", "[]", "<", ">", "=", "!", "+", "-", "*", "/", "%", "&",
        "|", "^", "~", ",", "\"\" "};
    for (size_t k = 0; k < sizeof tokens / sizeof *tokens; k++) {
        size_t t = strlen(tokens[k]);
        if (starts(s, n, tokens[k]) && (t == n || !is_ident_char(s[t]) || tokens[k][0] != ' '))
            return t;
    }
    return 0;
}

size_t cxx_operator_take(const char *s, size_t n, size_t *i, struct buf *out)
{
    size_t at = *i;
    if (!starts(s + at, n - at, "operator") || (at > 0 && is_ident_char(s[at - 1])) ||
        (at + 8 < n && is_ident_char(s[at + 8])))
        return NO_OPERATOR;
    size_t t = operator_token(s + at + 8, n - at - 8);
    if (out)
        buf_append(out, s + at, 8 + t);
    *i = at + 8 + t;
    return t;
}

/* ---- the parts of a name -------------------------------------------------- */

struct span {
    const char *s;
    size_t n;
};

/* A demangler's prefix naming another function ("non-virtual thunk to ",
 * "transaction clone for "): its length, kept as it is. */
static size_t prefix_length(const char *s, size_t n)
{
    static const char *const prefixes[] = {
        "non-virtual thunk to ", "virtual thunk to ", "covariant return thunk to ",
        "transaction clone for ", "TLS init function for ", "TLS wrapper function for ",
        "guard variable for ", "construction vtable for ", "typeinfo name for ",
        "typeinfo for ", "vtable for ", "VTT for "};
    size_t len = 0;
    for (bool more = true; more;) {
        more = false;
        for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++)
            if (starts(s + len, n - len, prefixes[k])) {
                len += strlen(prefixes[k]);
                more = true;
            }
    }
    return len;
}

/* The qualified name of s, in `name` with template arguments, ABI tags
 * and enclosing functions' parameter lists left out (Rust's "<...>"
 * segments are kept: the segments sort them out); `params` set when the
 * name ends in a parameter list (C++); `tail` the clone suffixes after
 * it. False when brackets do not balance. */
static bool split_name(const char *s, size_t n, struct buf *name, bool *params, struct buf *tail)
{
    size_t i = 0;
    bool after_name = false, conversion = false;
    *params = false;
    name->len = 0;
    tail->len = 0;
    while (i < n) {
        char c = s[i];
        size_t t = cxx_operator_take(s, n, &i, name);
        if (t != NO_OPERATOR) {
            conversion = t == 0; /* "operator bool": the type follows */
            after_name = true;
            if (t && i + 1 < n && s[i] == ' ' && s[i + 1] == '<') /* "operator< <T>" */
                i++;
            continue;
        }
        if (c == '(' || c == '<' || c == '[' || c == '{') {
            size_t e = group_end(s, n, i, 0);
            if (!e)
                return false;
            if (c == '(' && after_name) {
                if (e + 1 < n && s[e] == ':' && s[e + 1] == ':') { /* foo(int)::bar */
                    i = e;
                    after_name = false;
                    continue;
                }
                *params = true;
                i = e;
                break;
            }
            bool drop = (c == '<' && after_name) || (c == '[' && starts(s + i, n - i, "[abi:"));
            if (!drop)
                buf_append(name, s + i, e - i);
            i = e;
            after_name = after_name || c == '{' || c == '[';
            continue;
        }
        if (c == ' ' && !conversion) { /* the return type ends here */
            name->len = 0;
            after_name = false;
            i++;
            continue;
        }
        buf_putc(name, c);
        after_name = is_ident_char(c) || (conversion && c != ':');
        i++;
    }
    if (!*params)
        return i == n;
    /* After the parameters: qualifiers (dropped), clone suffixes (kept). */
    while (i < n) {
        if (s[i] == ' ') {
            i++;
            continue;
        }
        if (s[i] == '[') {
            size_t e = group_end(s, n, i, 0);
            if (!e)
                return false;
            if (starts(s + i, n - i, "[clone ")) {
                buf_putc(tail, ' ');
                buf_append(tail, s + i, e - i);
            }
            i = e;
            continue;
        }
        size_t k = i;
        while (k < n && (is_ident_char(s[k]) || s[k] == '&'))
            k++;
        if (k == i)
            return false; /* something else: not a name as c++filt prints it */
        if (k < n && s[k] == '(') { /* noexcept(...) */
            size_t e = group_end(s, n, k, 0);
            if (!e)
                return false;
            k = e;
        }
        i = k;
    }
    return true;
}

/* The top-level "::" segments of a qualified name (an operator's token
 * is no bracket: "operator<"). */
static size_t segments(const char *s, size_t n, struct span *seg, size_t max)
{
    size_t count = 0, from = 0;
    for (size_t i = 0; i <= n;) {
        if (i < n && cxx_operator_take(s, n, &i, NULL) != NO_OPERATOR)
            continue;
        if (i == n || (s[i] == ':' && i + 1 < n && s[i + 1] == ':')) {
            if (count == max)
                return 0;
            seg[count++] = (struct span){s + from, i - from};
            if (i == n)
                break;
            i += 2;
            from = i;
            continue;
        }
        if (s[i] == '(' || s[i] == '<' || s[i] == '[' || s[i] == '{') {
            size_t e = group_end(s, n, i, 0);
            if (!e)
                return 0;
            i = e;
            continue;
        }
        i++;
    }
    return count;
}

static struct span trim(struct span t)
{
    while (t.n && t.s[0] == ' ')
        t.s++, t.n--;
    while (t.n && t.s[t.n - 1] == ' ')
        t.n--;
    return t;
}

/* Where `word` (" as ", " for ") is at the top level of s, or n. */
static size_t word_at(const char *s, size_t n, const char *word)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '(' || s[i] == '<' || s[i] == '[' || s[i] == '{') {
            size_t e = group_end(s, n, i, 0);
            if (!e)
                return n;
            i = e - 1;
        } else if (starts(s + i, n - i, word)) {
            return i;
        }
    }
    return n;
}

/* The type of a qualified segment's inside: "T as Trait", "T", "impl
 * T", "impl Trait for T" (legacy) -> T. */
static struct span qualified_type(struct span in)
{
    if (starts(in.s, in.n, "impl ")) {
        in.s += 5;
        in.n -= 5;
        size_t f = word_at(in.s, in.n, " for ");
        if (f < in.n) {
            in.s += f + 5;
            in.n -= f + 5;
        }
        return in;
    }
    in.n = word_at(in.s, in.n, " as ");
    return in;
}

/* A type's name as Rust writes them: CamelCase (not an ALL_CAPS static). */
static bool camel_case(struct span g)
{
    if (!g.n || g.s[0] < 'A' || g.s[0] > 'Z')
        return false;
    for (size_t i = 1; i < g.n; i++)
        if (g.s[i] >= 'a' && g.s[i] <= 'z')
            return true;
    return false;
}

static bool reduce_type(struct buf *out, struct span t, int depth);

/* A path type ("std::io::Adapter<T>", "<X as Y>::Z", "str"): its last
 * segment without generic arguments; a closure's type with the segment
 * before it ("main::{closure#1}"). */
static bool reduce_path(struct buf *out, struct span t, int depth)
{
    struct span seg[64];
    size_t n = segments(t.s, t.n, seg, 64);
    if (n == 0 || depth > MAX_NESTING)
        return false;
    struct span last = trim(seg[n - 1]);
    if (n >= 2 && last.n && last.s[0] == '{' && depth < MAX_NESTING) {
        struct span parent = {t.s, (size_t)(seg[n - 2].s + seg[n - 2].n - t.s)};
        if (!reduce_path(out, parent, MAX_NESTING)) /* its last segment only */
            return false;
        buf_append(out, "::", 2);
        buf_append(out, last.s, last.n);
        return true;
    }
    if (last.n && last.s[0] == '<') { /* a qualified type: <X as Y> */
        size_t e = group_end(last.s, last.n, 0, 0);
        if (e != last.n)
            return false;
        struct span inner = qualified_type((struct span){last.s + 1, last.n - 2});
        return reduce_type(out, trim(inner), depth + 1);
    }
    size_t k = 0;
    while (k < last.n && last.s[k] != '<')
        k++;
    if (k == 0)
        return false;
    buf_append(out, last.s, k);
    return true;
}

/* A type as a label shows it: a path by its last segment, other types
 * ("&mut W", "[T]", "(A, B)", "dyn Trait") with their paths so. */
static bool reduce_type(struct buf *out, struct span t, int depth)
{
    t = trim(t);
    if (depth > MAX_NESTING || t.n == 0)
        return false;
    static const char *const refs[] = {"&mut ", "&", "*const ", "*mut ", "dyn ", "impl "};
    for (size_t k = 0; k < sizeof refs / sizeof *refs; k++)
        if (starts(t.s, t.n, refs[k])) {
            size_t p = strlen(refs[k]);
            buf_append(out, refs[k], p);
            struct span rest = {t.s + p, t.n - p};
            if (rest.n && rest.s[0] == '\'') { /* a lifetime: &'a T */
                size_t q = 0;
                while (q < rest.n && rest.s[q] != ' ')
                    q++;
                rest = (struct span){rest.s + q, rest.n - q};
            }
            size_t plus = 0; /* dyn A + B: the first bound */
            while (plus < rest.n && !starts(rest.s + plus, rest.n - plus, " + ")) {
                if (strchr("(<[{", rest.s[plus])) {
                    size_t e = group_end(rest.s, rest.n, plus, 0);
                    if (!e)
                        return false;
                    plus = e;
                } else {
                    plus++;
                }
            }
            rest.n = plus;
            return reduce_type(out, rest, depth + 1);
        }
    if (starts(t.s, t.n, "fn(") || starts(t.s, t.n, "unsafe ") || starts(t.s, t.n, "extern ") ||
        starts(t.s, t.n, "for<")) { /* a function pointer: fn(), fn(...) */
        buf_append(out, starts(t.s, t.n, "fn()") ? "fn()" : "fn(...)",
                   starts(t.s, t.n, "fn()") ? 4 : 7);
        return true;
    }
    if (t.s[0] == '[' || t.s[0] == '(') { /* slice, array, tuple */
        if (group_end(t.s, t.n, 0, 0) != t.n)
            return false;
        char close = t.s[0] == '[' ? ']' : ')';
        buf_putc(out, t.s[0]);
        size_t from = 1;
        for (size_t i = 1; i < t.n - 1;) {
            char c = t.s[i];
            if (c == '(' || c == '<' || c == '[' || c == '{') {
                size_t e = group_end(t.s, t.n - 1, i, 0);
                if (!e)
                    return false;
                i = e;
                continue;
            }
            if (c == ',' || c == ';') {
                if (i > from && !reduce_type(out, (struct span){t.s + from, i - from}, depth + 1))
                    return false;
                if (c == ';') { /* [T; N]: the length as it is */
                    buf_append(out, t.s + i, t.n - 1 - i);
                    from = t.n - 1;
                    break;
                }
                buf_append(out, ", ", 2);
                from = i + 1;
            }
            i++;
        }
        if (from < t.n - 1 &&
            !reduce_type(out, (struct span){t.s + from, t.n - 1 - from}, depth + 1) &&
            trim((struct span){t.s + from, t.n - 1 - from}).n)
            return false;
        if (t.s[0] == '(' && t.s[t.n - 2] == ',') /* (A,) */
            buf_putc(out, ',');
        buf_putc(out, close);
        return true;
    }
    return reduce_path(out, t, depth);
}

/* ---- the label ------------------------------------------------------------ */

struct label_seg {
    size_t from, len; /* in the segments' buffer */
    bool type;        /* a type: "<...>" reduced, or in CamelCase */
};

bool symbol_label(struct buf *out, const char *s, size_t n)
{
    size_t pre = prefix_length(s, n);
    struct buf name = {0}, tail = {0}, text = {0};
    struct label_seg kept[64];
    size_t nkept = 0;
    bool params, ok = split_name(s + pre, n - pre, &name, &params, &tail);
    struct span seg[64];
    size_t nseg = ok ? segments(name.data ? name.data : "", name.len, seg, 64) : 0;
    ok = nseg > 0;
    for (size_t i = 0; ok && i < nseg; i++) {
        struct span g = seg[i];
        size_t from = text.len;
        bool type = false;
        if (g.n && g.s[0] == '<' && (i == 0 || starts(g.s, g.n, "<impl "))) {
            /* <T as Trait>, <T>, <impl T>: the type */
            if (group_end(g.s, g.n, 0, 0) != g.n) {
                ok = false;
                break;
            }
            struct span inner = qualified_type((struct span){g.s + 1, g.n - 2});
            struct buf t = {0};
            ok = reduce_type(&t, inner, 0) && t.len > 0;
            if (ok) { /* types that are no paths stay in brackets: <[T]> */
                bool path = true;
                for (size_t k = 0; k < t.len; k++)
                    path = path && !strchr("&*[]()<>, :", t.data[k]);
                if (!path)
                    buf_putc(&text, '<');
                buf_append(&text, t.data, t.len);
                if (!path)
                    buf_putc(&text, '>');
            }
            buf_free(&t);
            type = true;
        } else if (g.n && g.s[0] == '<') { /* ::<T> of a value path */
            continue;
        } else if (starts(g.s, g.n, "{lambda(")) { /* {lambda(int)#1} */
            size_t e = group_end(g.s, g.n, 7, 0);
            buf_append(&text, "{lambda", 7);
            if (e)
                buf_append(&text, g.s + e, g.n - e);
            else
                ok = false;
        } else if ((g.n == 7 && memcmp(g.s, "__cxx11", 7) == 0) ||
                   (g.n == 3 && memcmp(g.s, "__1", 3) == 0)) {
            /* std's inline namespaces */
            if (nkept == 1 && kept[0].len == 3 && memcmp(text.data + kept[0].from, "std", 3) == 0)
                continue;
            buf_append(&text, g.s, g.n);
        } else if (g.n == 10 && memcmp(g.s, "operator()", 10) == 0 && nkept &&
                   (starts(text.data + kept[nkept - 1].from, kept[nkept - 1].len, "{lambda") ||
                    starts(text.data + kept[nkept - 1].from, kept[nkept - 1].len, "$_"))) {
            continue; /* a lambda's call (clang's lambdas are "$_N"): the lambda */
        } else {
            buf_append(&text, g.s, g.n);
            type = camel_case(g);
        }
        if (nkept == sizeof kept / sizeof *kept) {
            ok = false;
            break;
        }
        kept[nkept++] = (struct label_seg){from, text.len - from, type};
    }
    /* Rust: a method from its type on */
    size_t first = 0;
    for (size_t i = 0; ok && !params && i + 1 < nkept; i++)
        if (kept[i].type)
            first = i;
    ok = ok && nkept > first;
    size_t shown = 0; /* an empty label is none ("f ": a name cut after a space) */
    for (size_t i = first; ok && i < nkept; i++)
        shown += kept[i].len;
    ok = ok && shown > 0;
    if (ok) {
        buf_append(out, s, pre);
        for (size_t i = first; i < nkept; i++) {
            if (i > first)
                buf_append(out, "::", 2);
            buf_append(out, text.data + kept[i].from, kept[i].len);
        }
        buf_append(out, tail.data ? tail.data : "", tail.len);
    }
    buf_free(&name);
    buf_free(&tail);
    buf_free(&text);
    return ok;
}
