/* --inline: Rust symbol names demangled as callgrind shows them
 * (rustdemangle.h).
 *
 * Callgrind names functions with Valgrind's copy of libiberty's
 * demangler, which tries Rust's two manglings before C++'s. The --inline
 * stage must spell a symbol the same way: bias.c matches callgrind's
 * names with the ELF symbols, and names.c names inlined scopes after
 * their linkage names, which must read like the out-of-line frames of
 * the same functions. libstdc++'s __cxa_demangle knows C++ only: it reads
 * a legacy Rust symbol as a C++ name with the hash as its last part
 * ("wc::count_words::h0123456789abcdef") and a v0 one not at all.
 *
 * The grammars are rustc's (legacy: an Itanium-like nested name whose
 * last part is "h" and 16 hex digits, with "$LT$"-style escapes; v0: RFC
 * 2603, "Rust symbol name mangling v0"), the output is libiberty's
 * without DMGL_VERBOSE (what `c++filt -i` prints): no hash, no crate
 * disambiguators, no types after constants. What libiberty does not
 * demangle (v0 constants other than integers, bool and char) is not
 * demangled here either, so the name stays mangled on both sides.
 *
 * Malformed input is refused, never read past its end: every read is
 * bounded by the symbol's length, back references must point backwards,
 * nesting is bounded and so is the output (back references can repeat
 * a part exponentially). */
#include "rustdemangle.h"
#include "util/util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Deeper nesting or a longer name than these is refused. */
#define MAX_DEPTH 300
#define MAX_OUTPUT (1u << 20)

struct rdm {
    const char *sym; /* after "_ZN" or "_R" */
    size_t len;      /* without any ".suffix" */
    size_t next;
    bool legacy;
    bool errored;
    bool skipping;   /* parse without printing */
    unsigned depth;
    uint64_t bound_lifetimes;
    struct buf out;
};

struct ident {
    const char *ascii;    /* NULL when empty */
    size_t ascii_len;
    const char *punycode; /* NULL unless "u"-prefixed (v0) */
    size_t punycode_len;
};

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_lower(char c)
{
    return c >= 'a' && c <= 'z';
}

static bool is_upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

static int lower_hex(char c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* ---- reading ------------------------------------------------------------- */

static char peek(const struct rdm *r)
{
    return r->next < r->len ? r->sym[r->next] : 0;
}

static bool eat(struct rdm *r, char c)
{
    if (peek(r) != c)
        return false;
    r->next++;
    return true;
}

static char next(struct rdm *r)
{
    char c = peek(r);
    if (!c)
        r->errored = true;
    else
        r->next++;
    return c;
}

/* Base-62 number ending in '_' ("_" is 0, "0_" is 1, ...). */
static uint64_t integer_62(struct rdm *r)
{
    if (eat(r, '_'))
        return 0;
    uint64_t x = 0;
    while (!r->errored && !eat(r, '_')) {
        char c = next(r);
        uint64_t d;
        if (is_digit(c))
            d = (uint64_t)(c - '0');
        else if (is_lower(c))
            d = 10 + (uint64_t)(c - 'a');
        else if (is_upper(c))
            d = 36 + (uint64_t)(c - 'A');
        else {
            r->errored = true;
            return 0;
        }
        if (x > (UINT64_MAX - 1 - d) / 62) {
            r->errored = true;
            return 0;
        }
        x = x * 62 + d;
    }
    return r->errored ? 0 : x + 1;
}

/* An optional TAG followed by a base-62 number: 0 when absent, else
 * the number + 1. */
static uint64_t opt_integer_62(struct rdm *r, char tag)
{
    if (!eat(r, tag))
        return 0;
    uint64_t x = integer_62(r);
    if (x == UINT64_MAX)
        r->errored = true;
    return x + 1;
}

static struct ident parse_ident(struct rdm *r)
{
    struct ident id = {NULL, 0, NULL, 0};
    bool puny = !r->legacy && eat(r, 'u');
    char c = next(r);
    if (!is_digit(c)) {
        r->errored = true;
        return id;
    }
    size_t len = (size_t)(c - '0');
    if (c != '0')
        while (is_digit(peek(r))) {
            if (len > (SIZE_MAX - 9) / 10) {
                r->errored = true;
                return id;
            }
            len = len * 10 + (size_t)(next(r) - '0');
        }
    if (!r->legacy)
        eat(r, '_');
    if (len > r->len - r->next) {
        r->errored = true;
        return id;
    }
    id.ascii = r->sym + r->next;
    id.ascii_len = len;
    r->next += len;
    if (puny) { /* "ascii_punycode": the last '_' separates them */
        size_t k = len;
        while (k > 0 && id.ascii[k - 1] != '_')
            k--;
        id.punycode = id.ascii + k;
        id.punycode_len = len - k;
        id.ascii_len = k ? k - 1 : 0;
        if (id.punycode_len == 0) {
            r->errored = true;
            return id;
        }
    }
    if (id.ascii_len == 0)
        id.ascii = NULL;
    return id;
}

/* ---- printing ------------------------------------------------------------ */

static void print(struct rdm *r, const char *s, size_t n)
{
    if (r->errored || r->skipping)
        return;
    if (n > MAX_OUTPUT - r->out.len) {
        r->errored = true;
        return;
    }
    buf_append(&r->out, s, n);
}

#define PRINT(r, lit) print((r), (lit), sizeof(lit) - 1)

static void print_u64(struct rdm *r, uint64_t v, bool hex)
{
    char digits[24];
    size_t n = 0;
    do {
        digits[sizeof digits - ++n] = "0123456789abcdef"[v % (hex ? 16 : 10)];
        v /= hex ? 16 : 10;
    } while (v);
    print(r, digits + sizeof digits - n, n);
}

/* A legacy escape at e ("$LT$", "$u20$", ...): its character, 0 when it
 * is none; *n is its length. */
static char legacy_escape(const char *e, size_t len, size_t *n)
{
    static const struct {
        char code[3];
        char c;
    } two[] = {{"SP", '@'}, {"BP", '*'}, {"RF", '&'}, {"LT", '<'},
               {"GT", '>'}, {"LP", '('}, {"RP", ')'}};
    if (len < 3 || e[0] != '$')
        return 0;
    char c = 0;
    size_t body = 0; /* characters between the '$'s */
    if (e[1] == 'C') {
        c = ',';
        body = 1;
    } else if (len > 3) {
        body = 2;
        for (size_t k = 0; k < sizeof two / sizeof *two; k++)
            if (e[1] == two[k].code[0] && e[2] == two[k].code[1])
                c = two[k].c;
        if (!c && e[1] == 'u' && len > 4) {
            int hi = lower_hex(e[2]), lo = lower_hex(e[3]);
            body = 3;
            /* ASCII but its control characters (DEL is taken, as there) */
            if (hi < 0 || lo < 0 || hi > 7 || hi * 16 + lo < 0x20)
                return 0;
            c = (char)(hi * 16 + lo);
        }
    }
    if (!c || len <= body + 1 || e[body + 1] != '$')
        return 0;
    *n = body + 2;
    return c;
}

static void print_legacy_ident(struct rdm *r, const char *s, size_t n)
{
    /* "_$" starts an identifier that begins with an escape */
    if (n >= 2 && s[0] == '_' && s[1] == '$') {
        s++;
        n--;
    }
    while (n > 0) {
        size_t k = 1;
        if (s[0] == '$') {
            char c = legacy_escape(s, n, &k);
            if (!c) { /* not an escape: the rest as it is */
                print(r, s, n);
                return;
            }
            print(r, &c, 1);
        } else if (s[0] == '.') {
            if (n >= 2 && s[1] == '.') {
                PRINT(r, "::");
                k = 2;
            } else {
                PRINT(r, ".");
            }
        } else {
            for (k = 0; k < n && s[k] != '$' && s[k] != '.'; k++)
                ;
            print(r, s, k);
        }
        s += k;
        n -= k;
    }
}

/* RFC 3492 punycode (with '_' for '-'), decoded to UTF-8. */
static void print_punycode(struct rdm *r, const struct ident *id)
{
    enum { BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700 };
    if (id->ascii_len + id->punycode_len > MAX_OUTPUT) {
        r->errored = true;
        return;
    }
    size_t cap = id->ascii_len + id->punycode_len + 1; /* a delta adds one */
    uint32_t *cp = xmalloc(cap * sizeof *cp);
    size_t len = 0;
    for (; len < id->ascii_len; len++)
        cp[len] = (unsigned char)id->ascii[len];
    uint64_t bias = 72, i = 0, n = 0x80, damp = DAMP;
    size_t pos = 0;
    while (pos < id->punycode_len) {
        uint64_t delta = 0, w = 1, k = 0, t, d;
        do {
            k += BASE;
            t = k < bias ? 0 : k - bias;
            t = t < TMIN ? TMIN : t > TMAX ? TMAX : t;
            if (pos >= id->punycode_len)
                goto bad;
            char c = id->punycode[pos++];
            if (is_lower(c))
                d = (uint64_t)(c - 'a');
            else if (is_digit(c))
                d = 26 + (uint64_t)(c - '0');
            else
                goto bad;
            if (w && d > (UINT64_MAX - delta) / w)
                goto bad;
            delta += d * w;
            if (w > UINT64_MAX / (BASE - t))
                goto bad;
            w *= BASE - t;
        } while (d >= t);
        len++;
        if (delta > UINT64_MAX - i)
            goto bad;
        i += delta;
        n += i / len;
        i %= len;
        if (n > 0x10ffff || (n >= 0xd800 && n < 0xe000))
            goto bad;
        memmove(cp + i + 1, cp + i, (len - 1 - i) * sizeof *cp);
        cp[i] = (uint32_t)n;
        i++;
        if (pos == id->punycode_len)
            break;
        delta /= damp;
        damp = 2;
        delta += delta / len;
        k = 0;
        while (delta > ((BASE - TMIN) * TMAX) / 2) {
            delta /= BASE - TMIN;
            k += BASE;
        }
        bias = k + ((BASE - TMIN + 1) * delta) / (delta + SKEW);
    }
    for (size_t j = 0; j < len; j++) {
        uint32_t c = cp[j];
        char u[4];
        size_t m;
        if (c < 0x80) {
            u[0] = (char)c;
            m = 1;
        } else if (c < 0x800) {
            u[0] = (char)(0xc0 | (c >> 6));
            u[1] = (char)(0x80 | (c & 0x3f));
            m = 2;
        } else if (c < 0x10000) {
            u[0] = (char)(0xe0 | (c >> 12));
            u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
            u[2] = (char)(0x80 | (c & 0x3f));
            m = 3;
        } else {
            u[0] = (char)(0xf0 | (c >> 18));
            u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
            u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
            u[3] = (char)(0x80 | (c & 0x3f));
            m = 4;
        }
        print(r, u, m);
    }
    free(cp);
    return;
bad:
    r->errored = true;
    free(cp);
}

static void print_ident(struct rdm *r, const struct ident *id)
{
    if (r->errored || r->skipping)
        return;
    if (r->legacy)
        print_legacy_ident(r, id->ascii ? id->ascii : "", id->ascii_len);
    else if (id->punycode)
        print_punycode(r, id);
    else
        print(r, id->ascii ? id->ascii : "", id->ascii_len);
}

/* "'a" for a lifetime bound by the innermost binder ("for<'a>"), "'_"
 * for an erased one. */
static void print_lifetime(struct rdm *r, uint64_t index)
{
    PRINT(r, "'");
    if (index == 0) {
        PRINT(r, "_");
        return;
    }
    /* one bound by no binder wraps around, as in libiberty */
    uint64_t depth = r->bound_lifetimes - index;
    if (depth < 26) {
        char c = (char)('a' + depth);
        print(r, &c, 1);
    } else {
        PRINT(r, "_");
        print_u64(r, depth, false);
    }
}

/* ---- v0 ------------------------------------------------------------------ */

static void demangle_path(struct rdm *r, bool in_value);
static void demangle_type(struct rdm *r);
static void demangle_const(struct rdm *r);

static bool enter(struct rdm *r)
{
    if (r->errored)
        return false;
    if (++r->depth > MAX_DEPTH) {
        r->errored = true;
        return false;
    }
    return true;
}

/* A back reference: the position it names (before the 'B' at `at`). */
static bool backref(struct rdm *r, size_t at, size_t *to)
{
    uint64_t pos = integer_62(r);
    if (r->errored || pos >= at) {
        r->errored = true;
        return false;
    }
    *to = (size_t)pos;
    return true;
}

/* Follows a back reference with `fn`, unless printing is off (then it
 * cannot print anything, and is not followed). */
#define FOLLOW(r, at, call)                                                  \
    do {                                                                     \
        size_t to_;                                                          \
        if (backref((r), (at), &to_) && !(r)->skipping) {                    \
            size_t back_ = (r)->next;                                        \
            (r)->next = to_;                                                 \
            call;                                                            \
            (r)->next = back_;                                               \
        }                                                                    \
    } while (0)

static void demangle_binder(struct rdm *r)
{
    uint64_t n = opt_integer_62(r, 'G');
    if (r->errored || n == 0)
        return;
    if (n > 1000) {
        r->errored = true;
        return;
    }
    PRINT(r, "for<");
    for (uint64_t i = 0; i < n && !r->errored; i++) {
        if (i)
            PRINT(r, ", ");
        r->bound_lifetimes++;
        print_lifetime(r, 1);
    }
    PRINT(r, "> ");
}

static void demangle_generic_arg(struct rdm *r)
{
    if (eat(r, 'L'))
        print_lifetime(r, integer_62(r));
    else if (eat(r, 'K'))
        demangle_const(r);
    else
        demangle_type(r);
}

/* Generic arguments up to their 'E', separated by ", ". */
static void generic_args(struct rdm *r)
{
    for (size_t i = 0; !r->errored && !eat(r, 'E'); i++) {
        if (i)
            PRINT(r, ", ");
        demangle_generic_arg(r);
    }
}

static void demangle_path(struct rdm *r, bool in_value)
{
    if (!enter(r))
        return;
    size_t at = r->next;
    char tag = next(r);
    switch (tag) {
    case 'C': { /* crate root */
        opt_integer_62(r, 's');
        struct ident name = parse_ident(r);
        print_ident(r, &name);
        break;
    }
    case 'N': { /* nested: namespace, parent, disambiguator, name */
        char ns = next(r);
        if (!is_lower(ns) && !is_upper(ns)) {
            r->errored = true;
            break;
        }
        demangle_path(r, in_value);
        uint64_t dis = opt_integer_62(r, 's');
        struct ident name = parse_ident(r);
        if (is_upper(ns)) { /* closures, shims, ... */
            PRINT(r, "::{");
            if (ns == 'C')
                PRINT(r, "closure");
            else if (ns == 'S')
                PRINT(r, "shim");
            else
                print(r, &ns, 1);
            if (name.ascii || name.punycode) {
                PRINT(r, ":");
                print_ident(r, &name);
            }
            PRINT(r, "#");
            print_u64(r, dis, false);
            PRINT(r, "}");
        } else if (name.ascii || name.punycode) {
            PRINT(r, "::");
            print_ident(r, &name);
        }
        break;
    }
    case 'M': /* inherent impl: "<Type>" */
    case 'X': /* trait impl: "<Type as Trait>" */
    case 'Y': /* trait definition: "<Type as Trait>" */
        if (tag != 'Y') { /* the impl's own path is not shown */
            opt_integer_62(r, 's');
            bool was = r->skipping;
            r->skipping = true;
            demangle_path(r, false);
            r->skipping = was;
        }
        PRINT(r, "<");
        demangle_type(r);
        if (tag != 'M') {
            PRINT(r, " as ");
            demangle_path(r, false);
        }
        PRINT(r, ">");
        break;
    case 'I': /* generic arguments */
        demangle_path(r, in_value);
        if (in_value)
            PRINT(r, "::");
        PRINT(r, "<");
        generic_args(r);
        PRINT(r, ">");
        break;
    case 'B':
        FOLLOW(r, at, demangle_path(r, in_value));
        break;
    default:
        r->errored = true;
    }
    r->depth--;
}

static const char *basic_type(char tag)
{
    switch (tag) {
    case 'a': return "i8";
    case 'b': return "bool";
    case 'c': return "char";
    case 'd': return "f64";
    case 'e': return "str";
    case 'f': return "f32";
    case 'h': return "u8";
    case 'i': return "isize";
    case 'j': return "usize";
    case 'l': return "i32";
    case 'm': return "u32";
    case 'n': return "i128";
    case 'o': return "u128";
    case 'p': return "_";
    case 's': return "i16";
    case 't': return "u16";
    case 'u': return "()";
    case 'v': return "...";
    case 'x': return "i64";
    case 'y': return "u64";
    case 'z': return "!";
    default: return NULL;
    }
}

/* A path that may leave its generic arguments open ("Trait<A" for a
 * dyn trait's associated types to follow): true when it did. */
static bool path_open_generics(struct rdm *r)
{
    bool open = false;
    if (!enter(r))
        return false;
    size_t at = r->next;
    if (eat(r, 'B')) {
        FOLLOW(r, at, open = path_open_generics(r));
    } else if (eat(r, 'I')) {
        demangle_path(r, false);
        PRINT(r, "<");
        open = true;
        generic_args(r);
    } else {
        demangle_path(r, false);
    }
    r->depth--;
    return open;
}

static void demangle_dyn_trait(struct rdm *r)
{
    bool open = path_open_generics(r);
    while (!r->errored && eat(r, 'p')) { /* associated type bindings */
        if (open)
            PRINT(r, ", ");
        else
            PRINT(r, "<");
        open = true;
        struct ident name = parse_ident(r);
        print_ident(r, &name);
        PRINT(r, " = ");
        demangle_type(r);
    }
    if (open)
        PRINT(r, ">");
}

static void demangle_fn_sig(struct rdm *r)
{
    uint64_t outer = r->bound_lifetimes;
    demangle_binder(r);
    if (eat(r, 'U'))
        PRINT(r, "unsafe ");
    if (eat(r, 'K')) {
        PRINT(r, "extern \"");
        if (eat(r, 'C')) {
            PRINT(r, "C");
        } else {
            struct ident abi = parse_ident(r);
            if (!abi.ascii || abi.punycode) {
                r->errored = true;
            } else {
                for (size_t i = 0; i < abi.ascii_len; i++) /* '-' was written '_' */
                    print(r, abi.ascii[i] == '_' ? "-" : abi.ascii + i, 1);
            }
        }
        PRINT(r, "\" ");
    }
    PRINT(r, "fn(");
    for (size_t i = 0; !r->errored && !eat(r, 'E'); i++) {
        if (i)
            PRINT(r, ", ");
        demangle_type(r);
    }
    PRINT(r, ")");
    if (!eat(r, 'u')) { /* the return type, unless () */
        PRINT(r, " -> ");
        demangle_type(r);
    }
    r->bound_lifetimes = outer;
}

static void demangle_type(struct rdm *r)
{
    if (!enter(r))
        return;
    size_t at = r->next;
    char tag = next(r);
    const char *basic = basic_type(tag);
    if (basic) {
        print(r, basic, strlen(basic));
        r->depth--;
        return;
    }
    switch (tag) {
    case 'R': /* &T */
    case 'Q': /* &mut T */
        PRINT(r, "&");
        if (eat(r, 'L')) {
            uint64_t lt = integer_62(r);
            if (lt) {
                print_lifetime(r, lt);
                PRINT(r, " ");
            }
        }
        if (tag == 'Q')
            PRINT(r, "mut ");
        demangle_type(r);
        break;
    case 'P':
        PRINT(r, "*const ");
        demangle_type(r);
        break;
    case 'O':
        PRINT(r, "*mut ");
        demangle_type(r);
        break;
    case 'A': /* [T; N] */
    case 'S': /* [T] */
        PRINT(r, "[");
        demangle_type(r);
        if (tag == 'A') {
            PRINT(r, "; ");
            demangle_const(r);
        }
        PRINT(r, "]");
        break;
    case 'T': { /* tuple */
        size_t i = 0;
        PRINT(r, "(");
        for (; !r->errored && !eat(r, 'E'); i++) {
            if (i)
                PRINT(r, ", ");
            demangle_type(r);
        }
        if (i == 1)
            PRINT(r, ",");
        PRINT(r, ")");
        break;
    }
    case 'F':
        demangle_fn_sig(r);
        break;
    case 'D': { /* dyn Trait + ... + 'lifetime */
        PRINT(r, "dyn ");
        uint64_t outer = r->bound_lifetimes;
        demangle_binder(r);
        for (size_t i = 0; !r->errored && !eat(r, 'E'); i++) {
            if (i)
                PRINT(r, " + ");
            demangle_dyn_trait(r);
        }
        r->bound_lifetimes = outer;
        if (!eat(r, 'L')) {
            r->errored = true;
            break;
        }
        uint64_t lt = integer_62(r);
        if (lt) {
            PRINT(r, " + ");
            print_lifetime(r, lt);
        }
        break;
    }
    case 'B':
        FOLLOW(r, at, demangle_type(r));
        break;
    default: /* a path names the type */
        if (!r->errored) {
            r->next = at;
            demangle_path(r, false);
        }
    }
    r->depth--;
}

/* Hex digits up to '_': their number (0 when none), the value in *v. */
static size_t hex_nibbles(struct rdm *r, uint64_t *v)
{
    size_t n = 0;
    *v = 0;
    while (!r->errored && !eat(r, '_')) {
        int d = lower_hex(next(r));
        if (d < 0) {
            r->errored = true;
            return 0;
        }
        *v = (*v << 4) | (uint64_t)d; /* only used when n <= 16 */
        n++;
    }
    return n;
}

static void const_uint(struct rdm *r)
{
    uint64_t v;
    size_t start = r->next, n = hex_nibbles(r, &v);
    if (r->errored || n == 0) {
        r->errored = true;
    } else if (n > 16) { /* wider than 64 bits: as written */
        PRINT(r, "0x");
        print(r, r->sym + start, n);
    } else {
        print_u64(r, v, false);
    }
}

static void const_char(struct rdm *r)
{
    uint64_t v;
    size_t n = hex_nibbles(r, &v);
    if (r->errored || n == 0 || n > 8) {
        r->errored = true;
        return;
    }
    PRINT(r, "'");
    if (v == '\t') {
        PRINT(r, "\\t");
    } else if (v == '\r') {
        PRINT(r, "\\r");
    } else if (v == '\n') {
        PRINT(r, "\\n");
    } else if (v > ' ' && v < '~') {
        char c = (char)v;
        print(r, &c, 1);
    } else {
        PRINT(r, "\\u{");
        print_u64(r, v, true);
        PRINT(r, "}");
    }
    PRINT(r, "'");
}

static void demangle_const(struct rdm *r)
{
    if (!enter(r))
        return;
    size_t at = r->next;
    char tag = next(r);
    uint64_t v;
    switch (tag) {
    case 'B':
        FOLLOW(r, at, demangle_const(r));
        break;
    case 'p': /* placeholder */
        PRINT(r, "_");
        break;
    case 'h': case 't': case 'm': case 'y': case 'o': case 'j':
        const_uint(r);
        break;
    case 'a': case 's': case 'l': case 'x': case 'n': case 'i':
        if (eat(r, 'n'))
            PRINT(r, "-");
        const_uint(r);
        break;
    case 'b':
        if (hex_nibbles(r, &v) != 1 || v > 1)
            r->errored = true;
        else if (v)
            PRINT(r, "true");
        else
            PRINT(r, "false");
        break;
    case 'c':
        const_char(r);
        break;
    default:
        r->errored = true;
    }
    r->depth--;
}

/* ---- the two manglings --------------------------------------------------- */

static bool legacy_hash(const struct ident *id)
{
    if (id->ascii_len != 17 || id->ascii[0] != 'h')
        return false;
    unsigned seen = 0, distinct = 0;
    for (size_t i = 1; i < 17; i++) {
        int d = lower_hex(id->ascii[i]);
        if (d < 0)
            return false;
        seen |= 1u << d;
    }
    for (; seen; seen >>= 1)
        distinct += seen & 1;
    return distinct >= 5; /* a real hash has a few different digits */
}

static bool demangle_legacy(struct rdm *r)
{
    /* the name ends with 'E', at the end or before a ".suffix" */
    bool dot_follows = true;
    while (r->len > 0 && !(dot_follows && r->sym[r->len - 1] == 'E')) {
        dot_follows = r->sym[r->len - 1] == '.';
        r->len--;
    }
    if (r->len == 0)
        return false;
    r->len--;
    if (r->len <= 19 || memcmp(r->sym + r->len - 19, "17h", 3) != 0)
        return false;
    struct ident id;
    do {
        id = parse_ident(r);
        if (r->errored || !id.ascii)
            return false;
    } while (r->next < r->len);
    if (!legacy_hash(&id))
        return false;
    r->next = 0;
    r->len -= 19; /* the hash is not shown */
    do {
        if (r->next > 0)
            PRINT(r, "::");
        id = parse_ident(r);
        print_ident(r, &id);
    } while (!r->errored && r->next < r->len);
    return !r->errored;
}

char *rust_demangle(const char *mangled)
{
    struct rdm r;
    memset(&r, 0, sizeof r);
    if (mangled[0] == '_' && mangled[1] == 'Z' && mangled[2] == 'N') {
        r.sym = mangled + 3;
        r.legacy = true;
    } else if (mangled[0] == '_' && mangled[1] == 'R') {
        r.sym = mangled + 2;
        if (!is_upper(r.sym[0])) /* a path; no other version than 0 */
            return NULL;
    } else {
        return NULL;
    }
    for (const char *p = r.sym; *p; p++, r.len++) {
        char c = *p;
        if (!r.legacy && c == '.')
            break; /* a ".suffix" after a v0 name */
        if (c == '_' || is_digit(c) || is_lower(c) || is_upper(c))
            continue;
        if (r.legacy && (c == '$' || c == '.' || c == ':' || c == '@'))
            continue;
        return NULL;
    }
    bool ok;
    if (r.legacy) {
        ok = demangle_legacy(&r);
    } else {
        demangle_path(&r, true);
        if (!r.errored && r.next < r.len) { /* the instantiating crate */
            r.skipping = true;
            demangle_path(&r, false);
        }
        ok = !r.errored && r.next == r.len;
    }
    if (!ok || r.out.len == 0) { /* "_RC0": empty, which is no name */
        buf_free(&r.out);
        return NULL;
    }
    char *s = xmalloc(r.out.len + 1);
    memcpy(s, r.out.data ? r.out.data : "", r.out.len);
    s[r.out.len] = '\0';
    buf_free(&r.out);
    return s;
}
