/* Unit tests: apportionment arithmetic, frame names (and --frame=short's,
 * from tests/shortnames.txt, or the file given as the only argument),
 * events, the stack table and the readers on small in-memory inputs.
 * Prints one PASS:/FAIL: line per test; exits 1 if any failed. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "pipeline.h"
#include "inline/rustdemangle.h"
#include "read/events.h"
#include "read/read.h"
#include "read/callgrind/scan.h"
#include "read/callgrind/costblocks.h"
#include "stacks/apportion.h"
#include "stacks/stacks.h"
#include "util/util.h"

#include <fcntl.h>
#include "write/mdlines.h"
#include "write/report.h"
#include "write/textout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

static void report(const char *name, int ok, const char *detail)
{
    printf("%s: unit/%s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ",
           ok ? "" : detail);
    failures += !ok;
}

/* Deterministic generator so failures can be replayed. */
static uint64_t rng_state = 0x12345678abcdefULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Shares of `total` for `weights`: sum exactly to total (or 0 if all
 * weights are 0), each within 1 of the exact quotient, zero weight -> 0. */
static int check_split(uint64_t total, const uint64_t *w, size_t n, char *why)
{
    u128 sum = 0, before = 0, got = 0;
    for (size_t i = 0; i < n; i++)
        sum += w[i];
    for (size_t i = 0; i < n; i++) {
        uint64_t share = apportion_share(total, before, w[i], sum);
        before += w[i];
        got += share;
        if (w[i] == 0 && share != 0) {
            sprintf(why, "zero weight got %llu", (unsigned long long)share);
            return 0;
        }
        /* |share - total*w/sum| < 1  <=>  |share*sum - total*w| < sum,
         * checked in 128 bits when sum < 2^64 (always true here). */
        if (sum > 0 && sum < ((u128)1 << 64)) {
            u128 a = (u128)share * sum, b = (u128)total * w[i];
            u128 diff = a > b ? a - b : b - a;
            if (diff >= sum) {
                sprintf(why, "share %llu too far from its fraction",
                        (unsigned long long)share);
                return 0;
            }
        }
    }
    u128 want = sum ? total : 0;
    if (got != want) {
        sprintf(why, "shares sum to %llu, want %llu", (unsigned long long)got,
                (unsigned long long)want);
        return 0;
    }
    return 1;
}

static void test_apportion(void)
{
    char why[200] = "";
    uint64_t w3[] = {1, 1, 1};
    report("apportion-thirds", check_split(100, w3, 3, why), why);
    uint64_t w0[] = {0, 5, 0, 5};
    report("apportion-zero-weights", check_split(7, w0, 4, why), why);
    uint64_t wall0[] = {0, 0};
    report("apportion-all-zero", check_split(9, wall0, 2, why), why);
    uint64_t big[] = {UINT64_MAX, UINT64_MAX, 3};
    report("apportion-huge-weights", check_split(UINT64_MAX, big, 3, why), why);
    uint64_t one[] = {42};
    report("apportion-single", check_split(UINT64_MAX, one, 1, why), why);

    int ok = 1;
    for (int round = 0; round < 20000 && ok; round++) {
        uint64_t w[17];
        size_t n = 1 + rng() % 17;
        int shift = (int)(rng() % 64);
        for (size_t i = 0; i < n; i++)
            w[i] = rng() % 4 == 0 ? 0 : rng() >> shift;
        uint64_t total = rng() >> (rng() % 64);
        ok = check_split(total, w, n, why);
    }
    report("apportion-random-sums-exact", ok, why);

    /* Sums of weights beyond 64 bits take the shifted path: the shares
     * must still add up exactly. */
    u128 sum = ((u128)1 << 100) + 12345, before = 0, got = 0;
    u128 parts[4] = {((u128)1 << 99), ((u128)1 << 98), ((u128)1 << 98), 12345};
    for (int i = 0; i < 4; i++) {
        got += apportion_share(1000003, before, parts[i], sum);
        before += parts[i];
    }
    report("apportion-128bit-sum", got == 1000003, "shares do not sum to total");
}

static void check_base(const char *name, const char *want)
{
    size_t n = frame_base_length(name, strlen(name));
    char label[120];
    snprintf(label, sizeof label, "clone-base[%s]", name);
    char detail[200];
    snprintf(detail, sizeof detail, "got \"%.*s\", want \"%s\"", (int)n, name, want);
    report(label, n == strlen(want) && memcmp(name, want, n) == 0, detail);
}

static void check_frame(const char *name, const char *obj, int keep, int with_obj,
                        const char *want)
{
    struct buf b = {0};
    struct frame_style st = {.keep_clones = keep, .with_object = with_obj};
    frame_append(&b, name, strlen(name), obj, strlen(obj), &st);
    const char *got = buf_cstr(&b);
    char label[160], detail[300];
    snprintf(label, sizeof label, "frame[%s|%s|%d%d]", name, obj, keep, with_obj);
    snprintf(detail, sizeof detail, "got \"%s\", want \"%s\"", got, want);
    report(label, strcmp(got, want) == 0, detail);
    buf_free(&b);
}

static void test_frames(void)
{
    check_base("fib'2", "fib");
    check_base("leaf'helper'shared'main", "leaf");
    check_base("fib'3'main'(below main)", "fib");
    check_base("plain", "plain");
    check_base("foo<'a'>::bar", "foo<'a'>::bar");
    check_base("foo<'a'>::bar'2", "foo<'a'>::bar");
    check_base("(below main)'_start", "(below main)");
    check_base("'odd", "'odd");
    check_base("trailing'", "trailing'");
    check_frame("a;b", "", 0, 0, "a:b");
    check_frame("with space'caller", "", 0, 0, "with space");
    check_frame("f'2", "", 1, 0, "f'2");
    check_frame("memcpy", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0, 1, "memcpy [libc.so.6]");
    check_frame("main", "/tmp/prog", 0, 0, "main");
    check_frame("main", "", 0, 1, "main");
    check_frame("f", "odd;obj", 0, 1, "f [odd:obj]");
}

/* Code without a symbol by its object (addrname.c): NULL when the name
 * stays. */
static void check_addr_name(const char *name, const char *object, const char *want)
{
    struct buf b = {0};
    buf_append(&b, "kept", 4); /* appended to, never overwritten */
    bool named = addr_name_by_object(&b, name, strlen(name), object, strlen(object));
    const char *got = buf_cstr(&b);
    char label[200], detail[300];
    snprintf(label, sizeof label, "addr-name[%s|%s]", name, object);
    snprintf(detail, sizeof detail, "got %s\"%s\", want \"%s\"", named ? "" : "(kept) ", got,
             want ? want : "(kept)");
    report(label,
           want ? named && strncmp(got, "kept", 4) == 0 && strcmp(got + 4, want) == 0
                : !named && strcmp(got, "kept") == 0,
           detail);
    buf_free(&b);
}

static void test_addr_names(void)
{
    const char *ld = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
    check_addr_name("0x000000000001ab70", ld, "ld-linux-x86-64.so.2+0x1ab70");
    check_addr_name("0x0000000000026040 [PLT]", "/lib/libc.so.6", "libc.so.6+0x26040 [PLT]");
    check_addr_name("0x00001000 [Data]", "/a/b", "b+0x1000 [Data]");
    check_addr_name("0x10 [BSS]", "b", "b+0x10 [BSS]");
    check_addr_name("0x10 [GOT]'2", "b", "b+0x10 [GOT]'2");
    check_addr_name("0x00000000000106DC'2'main", "/lib/ld-linux-aarch64.so.1",
                    "ld-linux-aarch64.so.1+0x106dc'2'main");
    check_addr_name("0x0", "b", "b+0x0");
    check_addr_name("0x0000", "b", "b+0x0");
    check_addr_name("0xffffffffffffffff", "b", "b+0xffffffffffffffff");
    check_addr_name("0x00000000000000000000ffffffffffffffff", "b", "b+0xffffffffffffffff");
    check_addr_name("0x1ffffffffffffffff", "b", NULL);
    check_addr_name("0x10", "/", "/+0x10");
    check_addr_name("0x10", "/tmp/it's.so", "it_s.so+0x10");
    check_addr_name("0x10'2", "/tmp/lib(x.so", "lib_x.so+0x10'2");
    check_addr_name("0x10", "/tmp/lib(x).so", "lib(x).so+0x10");
    check_addr_name("0x10", "/tmp/a)b.so", "a)b.so+0x10");
    check_addr_name("0x10", "", NULL);
    check_addr_name("0x10", "???", NULL);
    check_addr_name("0x10", "/tmp/perf-4242.map", NULL);
    check_addr_name("0x10", "/tmp/jit.map", NULL);
    check_addr_name("0x", "b", NULL);
    check_addr_name("0x12zz", "b", NULL);
    check_addr_name("0x10 [PLT]x", "b", NULL);
    check_addr_name("0x10 [FOO]", "b", NULL);
    check_addr_name("0x10 [PLT] [PLT]", "b", NULL);
    check_addr_name("0x10'", "b", NULL);
    check_addr_name("0X10", "b", NULL);
    check_addr_name("x10", "b", NULL);
    check_addr_name("main", "b", NULL);
    check_addr_name("0x10[PLT]", "b", NULL);

    static const struct { const char *text; bool unknown, no_symbol; } kinds[] = {
        {"0x0000000000401000", true, true},     {"0x401000 [PLT]", true, true},
        {"0x401000'2", true, true},             {"0x401000 [???]", true, true},
        {"0x1ffffffffffffffff", true, true},    {"ld.so+0x1ab70", false, true},
        {"libc.so.6+0x26040 [PLT]", false, true}, {"my+lib.so+0x10", false, true},
        {"0x", false, true},                    {"0xzz", false, true},
        {"main", false, false},                 {"operator+", false, false},
        {"a+0xzz", false, false},               {"+0x10", false, false},
        {"(below main)", false, false},         {"JS:~f /x+0x1.js:1:1", false, false},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        const char *t = kinds[i].text;
        char label[120];
        snprintf(label, sizeof label, "addr-name-kind[%s]", t);
        report(label,
               addr_name_unknown(t, strlen(t)) == kinds[i].unknown &&
                   addr_name_no_symbol(t, strlen(t)) == kinds[i].no_symbol,
               kinds[i].unknown ? "want unknown" : "want known");
    }
}

/* One group of tests/shortnames.txt: every raw name noted, then each
 * made and compared with its expected short name. */
static void check_short_group(const char *title, bool templates, char **raw, char **want,
                              size_t n)
{
    struct shortnames sn;
    shortnames_init(&sn, templates);
    for (size_t i = 0; i < n; i++)
        shortnames_note(&sn, raw[i], strlen(raw[i]));
    char detail[1200] = "";
    int ok = n > 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *got = shortnames_make(&sn, raw[i], strlen(raw[i]), &len);
        if (ok && (len != strlen(got) || strcmp(got, want[i]) != 0)) {
            snprintf(detail, sizeof detail, "\"%s\" gave \"%s\", want \"%s\"", raw[i], got,
                     want[i]);
            ok = 0;
        }
    }
    shortnames_free(&sn);
    char label[200];
    snprintf(label, sizeof label, "short-names[%s]", title);
    report(label, ok, n ? detail : "no names");
}

/* Reads a line without its newline; false at the end of the file. */
static bool read_line(FILE *f, char **line, size_t *cap)
{
    ssize_t len = getline(line, cap, f);
    if (len > 0 && (*line)[len - 1] == '\n')
        (*line)[len - 1] = '\0';
    return len >= 0;
}

/* The golden names: "== TITLE" groups of "< RAW" lines, each followed by
 * its "> SHORT" line, "% templates" for the option (the file says more). */
static void test_short_names(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        report("short-names-file", 0, path);
        return;
    }
    char *line = NULL, *title = NULL, **raw = NULL, **want = NULL;
    size_t cap = 0, n = 0, groups = 0, names = 0;
    bool templates = false, understood = true, more;
    do {
        more = read_line(f, &line, &cap);
        if ((!more || strncmp(line, "== ", 3) == 0) && title) {
            check_short_group(title, templates, raw, want, n);
            for (size_t i = 0; i < n; i++) {
                free(raw[i]);
                free(want[i]);
            }
            free(title);
            title = NULL;
            n = 0;
            groups++;
        }
        if (!more)
            break;
        if (strncmp(line, "== ", 3) == 0) {
            title = strdup(line + 3);
            templates = false;
        } else if (strcmp(line, "% templates") == 0 && title) {
            templates = true;
        } else if (strncmp(line, "< ", 2) == 0 && title) {
            raw = realloc(raw, (n + 1) * sizeof *raw);
            want = realloc(want, (n + 1) * sizeof *want);
            raw[n] = strdup(line + 2);
            bool paired = read_line(f, &line, &cap) && strncmp(line, "> ", 2) == 0;
            want[n++] = strdup(paired ? line + 2 : "(no \"> \" line)");
            understood = understood && paired;
            names++;
        } else if (line[0] && line[0] != '#') {
            understood = false;
        }
    } while (more);
    fclose(f);
    free(line);
    free(raw);
    free(want);
    char detail[100];
    snprintf(detail, sizeof detail, "%zu groups, %zu names, every line understood: %d", groups,
             names, understood);
    report("short-names-file", groups >= 8 && names >= 100 && understood, detail);
}

/* tests/rust_symbols.txt: each "< MANGLED" demangled must give the
 * "> NAME" after it ("(none)": NULL). */
static void test_rust_demangle_file(const char *path, char ***symbols, size_t *nsymbols)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        report("rust-demangle-file", 0, path);
        return;
    }
    char *line = NULL, detail[1200] = "";
    size_t cap = 0, names = 0, wrong = 0;
    bool understood = true;
    while (read_line(f, &line, &cap)) {
        if (strncmp(line, "< ", 2) != 0) {
            understood = understood && (!line[0] || line[0] == '#' ||
                                        strncmp(line, "== ", 3) == 0);
            continue;
        }
        char *sym = strdup(line + 2);
        *symbols = realloc(*symbols, (*nsymbols + 1) * sizeof **symbols);
        (*symbols)[(*nsymbols)++] = sym;
        if (!read_line(f, &line, &cap) || strncmp(line, "> ", 2) != 0) {
            understood = false;
            break;
        }
        char *got = rust_demangle(sym);
        const char *want = strcmp(line + 2, "(none)") == 0 ? NULL : line + 2;
        if (!(got && want ? strcmp(got, want) == 0 : got == want)) {
            if (!wrong++)
                snprintf(detail, sizeof detail, "\"%s\" gave \"%s\", want \"%s\"", sym,
                         got ? got : "(none)", want ? want : "(none)");
        }
        free(got);
        names++;
    }
    fclose(f);
    free(line);
    if (!wrong)
        snprintf(detail, sizeof detail, "%zu names, every line understood: %d", names,
                 understood);
    report("rust-demangle-file", !wrong && understood && names >= 60, detail);
}

/* "_RINvC1a1fu" and `levels` tuples, each of two back references to
 * the argument before it ("TB7_B7_E" refers to the 'u'). */
static void doubling_symbol(struct buf *b, int levels)
{
    b->len = 0;
    buf_append(b, "_RINvC1a1fu", 11);
    size_t prev = 8; /* the 'u', counted after "_R" */
    for (int k = 0; k < levels; k++) {
        char digits[16], ref[20];
        size_t nd = 0, rl = 0;
        uint64_t v = prev - 1; /* position p is base 62 of p - 1, then '_' */
        do {
            int d = (int)(v % 62);
            digits[nd++] = (char)(d < 10 ? '0' + d : d < 36 ? 'a' + d - 10 : 'A' + d - 36);
            v /= 62;
        } while (v);
        while (nd)
            ref[rl++] = digits[--nd];
        ref[rl++] = '_';
        prev = b->len - 2;
        buf_putc(b, 'T');
        for (int twice = 0; twice < 2; twice++) {
            buf_putc(b, 'B');
            buf_append(b, ref, rl);
        }
        buf_putc(b, 'E');
    }
    buf_putc(b, 'E');
}

/* Bad input is refused or demangled, never a crash (the sanitizer build
 * runs this): the golden symbols cut, mutated and spliced; nesting past
 * the limit; back references that would print a name 2^60 times over. */
static void test_rust_demangle_hostile(char **symbols, size_t n)
{
    static const char alphabet[] = "_0123456789abcdefghijklmnopqrstuvwxyz"
                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ$.:@";
    struct buf b = {0};
    size_t demangled = 0, tried = 0, empty_labels = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(symbols[i]);
        for (int k = 0; k < 300; k++) {
            b.len = 0;
            buf_append(&b, symbols[i], len);
            int edits = 1 + (int)(rng() % 4);
            for (int e = 0; e < edits && b.len > 0; e++) {
                size_t at = (size_t)(rng() % b.len);
                switch (rng() % 4) {
                case 0: /* cut */
                    b.len = at;
                    break;
                case 1: /* replace */
                    b.data[at] = alphabet[rng() % (sizeof alphabet - 1)];
                    break;
                case 2: { /* splice in part of another symbol */
                    const char *o = symbols[rng() % n];
                    size_t ol = strlen(o), from = ol ? (size_t)(rng() % ol) : 0;
                    b.len = at;
                    buf_append(&b, o + from, ol - from);
                    break;
                }
                default: /* a back reference */
                    b.data[at] = 'B';
                }
            }
            char *got = rust_demangle(buf_cstr(&b));
            demangled += got != NULL;
            tried++;
            /* the labels of the mutated name and of what it demangles to */
            for (int w = 0; w < 2; w++) {
                const char *name = w ? got : buf_cstr(&b);
                struct buf label = {0};
                if (name && symbol_label(&label, name, strlen(name)) && *name && !label.len)
                    empty_labels++;
                buf_free(&label);
            }
            free(got);
        }
    }
    char why[200];
    snprintf(why, sizeof why, "%zu of %zu mutated symbols demangled", demangled, tried);
    report("rust-demangle-mutations", tried > 0 && demangled > 0 && demangled < tried, why);
    static const char *const odd[] = {
        "f ", "int ", "a b ", " ", "(", ")", "<>", "::", "::::", "operator", "operator<",
        "operator< <", "{lambda(", "<impl >::f", "<T as >::f", "<>::f", "f<>()", "()",
        "f(int)::", "std::__cxx11", "<[T]>::", "a::<>", "[clone .cold]", "f(int) [clone",
        "<&'a mut T as X>::f", "<dyn  + >::f", "<for<'a> fn(&'a T) as F>::g"};
    for (size_t k = 0; k < sizeof odd / sizeof *odd; k++) {
        struct buf label = {0};
        if (symbol_label(&label, odd[k], strlen(odd[k])) && !label.len)
            empty_labels++;
        buf_free(&label);
    }
    report("symbol-label-mutations-never-empty", empty_labels == 0, "");

    b.len = 0;
    buf_append(&b, "_R", 2);
    for (int k = 0; k < 5000; k++)
        buf_append(&b, "Nv", 2);
    buf_append(&b, "C1a", 3);
    for (int k = 0; k < 5000; k++)
        buf_append(&b, "1b", 2);
    char *deep = rust_demangle(buf_cstr(&b));
    report("rust-demangle-deep-nesting-refused", deep == NULL, deep ? deep : "");
    free(deep);

    /* f::<(), ((), ()), (((), ()), ((), ())), ...>: each argument a
     * tuple of two back references to the one before; 12 levels are
     * demangled, 60 would be 2^60 times "()" */
    char *wide[2];
    for (int t = 0; t < 2; t++) {
        doubling_symbol(&b, t ? 60 : 12);
        wide[t] = rust_demangle(buf_cstr(&b));
    }
    report("rust-demangle-exponential-refused", wide[0] && !wide[1],
           wide[0] ? "60 levels demangled" : "12 levels refused");
    free(wide[0]);
    free(wide[1]);
    doubling_symbol(&b, 2);
    char *small = rust_demangle(buf_cstr(&b));
    report("rust-demangle-back-references",
           small && strcmp(small, "a::f::<(), ((), ()), (((), ()), ((), ()))>") == 0,
           small ? small : "(none)");
    free(small);
    buf_free(&b);
}

static void test_rust_demangle(const char *path)
{
    char **symbols = NULL;
    size_t n = 0;
    test_rust_demangle_file(path, &symbols, &n);
    test_rust_demangle_hostile(symbols, n);
    for (size_t i = 0; i < n; i++)
        free(symbols[i]);
    free(symbols);
}

/* --frame=short on a whole stack table (stacks_shorten): raw names kept
 * beside the short ones, frames that read alike merged with a raw name
 * listing theirs, every column's sums kept, sources and call arcs
 * renamed with the frames. */
static void test_shorten_raw(void)
{
    struct stacks s;
    stacks_init(&s);
    s.keep_sources = true;
    const char *names[] = {"main", "JS:~fib /r/a/x.js:9:13", "JS:*fib /r/a/x.js:9:13",
                           "JS:*g /r/b/y.js:2:1"};
    uint32_t f[4];
    for (int i = 0; i < 4; i++) {
        f[i] = stacks_frame(&s, names[i], strlen(names[i]));
        stacks_frame_source(&s, f[i], 7, 10 + (uint32_t)i, 100 + (uint32_t)i);
    }
    uint32_t p1[] = {f[0], f[1]}, p2[] = {f[0], f[2]}, p3[] = {f[0], f[2], f[3]};
    stacks_add(&s, 0, p1, 2, 10);
    stacks_add(&s, 0, p2, 2, 5);
    uint32_t id3 = stacks_intern(&s, p3, 3);
    stacks_count_in(&s, 0, id3, 1);
    uint32_t id1 = stacks_intern(&s, p1, 2);
    stacks_count_in(&s, 2, id1, 1000); /* another event's column */
    stacks_count_in(&s, 2, id3, 30);
    struct callarcs arcs;
    callarcs_init(&arcs);
    callarcs_add(&arcs, f[0], f[1], 1, 10);
    callarcs_add(&arcs, f[0], f[2], 2, 6);
    callarcs_add(&arcs, f[2], f[3], 1, 1);
    struct stacks *one[] = {&s};
    stacks_shorten(one, 1, false, false, &arcs);

    size_t len;
    bool ok = stacks_count_frames(&s) == 3 && stacks_count_ids(&s) == 2;
    uint32_t fib = UINT32_MAX, g = UINT32_MAX, main_f = UINT32_MAX;
    for (uint32_t i = 0; i < stacks_count_frames(&s); i++) {
        const char *t = stacks_frame_text(&s, i, &len);
        if (strcmp(t, "fib  a/x.js:9") == 0)
            fib = i;
        else if (strcmp(t, "g  b/y.js:2") == 0)
            g = i;
        else if (strcmp(t, "main") == 0)
            main_f = i;
    }
    ok = ok && fib != UINT32_MAX && g != UINT32_MAX && main_f != UINT32_MAX;
    report("shorten-raw-frames", ok, "want main, fib  a/x.js:9, g  b/y.js:2");
    if (!ok)
        goto done;
    report("shorten-raw-merged-lists-names",
           strcmp(stacks_frame_raw(&s, fib),
                  "2 names: JS:~fib /r/a/x.js:9:13 | JS:*fib /r/a/x.js:9:13") == 0,
           stacks_frame_raw(&s, fib));
    report("shorten-raw-one-name", strcmp(stacks_frame_raw(&s, g), names[3]) == 0,
           stacks_frame_raw(&s, g));
    report("shorten-raw-unchanged-is-text",
           stacks_frame_raw(&s, main_f) == stacks_frame_text(&s, main_f, &len), "");
    uint32_t want1[] = {main_f, fib};
    uint32_t merged = stacks_intern(&s, want1, 2);
    char why[200];
    snprintf(why, sizeof why, "main;fib %llu, total %llu, column 2 %llu of %llu",
             (unsigned long long)stacks_count(&s, 0, merged),
             (unsigned long long)stacks_col_total(&s, 0),
             (unsigned long long)stacks_count(&s, 2, merged),
             (unsigned long long)stacks_col_total(&s, 2));
    report("shorten-raw-every-column-summed",
           stacks_count(&s, 0, merged) == 15 && stacks_col_total(&s, 0) == 16 &&
               stacks_count(&s, 2, merged) == 1000 && stacks_col_total(&s, 2) == 1030,
           why);
    const struct frame_source *src = stacks_source_of(&s, fib);
    report("shorten-raw-source-of-first", src && src->file == 11 && src->line == 101, "");
    bool arcs_ok = arcs.n == 2;
    for (size_t a = 0; a < arcs.n; a++)
        if (arcs.caller[a] == main_f)
            arcs_ok = arcs_ok && arcs.callee[a] == fib && arcs.calls[a] == 3 && arcs.cost[a] == 16;
        else
            arcs_ok = arcs_ok && arcs.caller[a] == fib && arcs.callee[a] == g;
    report("shorten-raw-arcs-renamed", arcs_ok, "");
    /* --diff: a base frame joining the profile keeps its raw name */
    struct stacks t;
    stacks_init(&t);
    uint32_t at = stacks_frame_from(&t, &s, fib);
    report("shorten-raw-frame-from", strcmp(stacks_frame_raw(&t, at), stacks_frame_raw(&s, fib)) == 0 &&
           strcmp(stacks_frame_text(&t, at, &len), "fib  a/x.js:9") == 0, stacks_frame_raw(&t, at));
    stacks_free(&t);
    /* no two frames alike: ids, counts and sources stay, raw names kept */
    stacks_free(&s);
    stacks_init(&s);
    s.keep_sources = true;
    uint32_t a = stacks_frame(&s, "main", 4), b = stacks_frame(&s, names[3], strlen(names[3]));
    stacks_frame_source(&s, b, 7, 3, 33);
    uint32_t ab[] = {a, b};
    uint32_t ab_id = stacks_intern(&s, ab, 2);
    stacks_count_in(&s, 0, ab_id, 9);
    stacks_shorten(one, 1, false, false, NULL);
    src = stacks_source_of(&s, b);
    report("shorten-raw-no-merge-keeps-ids",
           stacks_count_frames(&s) == 2 && stacks_count(&s, 0, ab_id) == 9 &&
               strcmp(stacks_frame_text(&s, b, &len), "g  y.js:2") == 0 &&
               strcmp(stacks_frame_raw(&s, b), names[3]) == 0 && src && src->line == 33,
           stacks_frame_text(&s, b, &len));
    /* many names: the first few, then " | ..." */
    stacks_free(&s);
    stacks_init(&s);
    char name[64];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "JS:%sh /r/z.js:1:%d", i % 2 ? "*" : "~", i);
        uint32_t fr = stacks_frame(&s, name, strlen(name));
        stacks_add(&s, 0, &fr, 1, 1);
    }
    stacks_shorten(one, 1, false, false, NULL);
    const char *many = stacks_frame_raw(&s, 0);
    report("shorten-raw-many-names",
           stacks_count_frames(&s) == 1 && stacks_col_total(&s, 0) == 6 &&
               strncmp(many, "6 names: JS:~h /r/z.js:1:0 | ", 29) == 0 &&
               strcmp(many + strlen(many) - 6, " | ...") == 0,
           many);
done:
    callarcs_free(&arcs);
    stacks_free(&s);
}

/* Functions whose labels read alike stay two frames where a raw name is
 * shown (keep_apart: pictures, pprof): C++ overloads, Rust instances; a
 * JS function's tiers still become one; without keep_apart (folded
 * text) they merge. Their keys keep them apart across stacks (--diff's
 * base) and in a copy (stacks_merge). */
static void test_shorten_keep_apart(void)
{
    const char *names[] = {"main", "A<int>::f(int)", "A<long>::f(long)",
                           "JS:~g /r/x.js:1:1", "JS:*g /r/x.js:1:1"};
    for (int apart = 0; apart < 2; apart++) {
        struct stacks s, base;
        stacks_init(&s);
        stacks_init(&base);
        uint32_t f[5], b[5];
        for (int i = 0; i < 5; i++) {
            f[i] = stacks_frame(&s, names[i], strlen(names[i]));
            b[i] = stacks_frame(&base, names[i], strlen(names[i]));
        }
        for (int i = 1; i < 5; i++) {
            uint32_t p[] = {f[0], f[i]}, q[] = {b[0], b[i]};
            stacks_add(&s, 0, p, 2, (uint64_t)(10 * i));
            stacks_add(&base, 0, q, 2, (uint64_t)i);
        }
        struct stacks *both[] = {&s, &base};
        stacks_shorten(both, 2, false, apart, NULL);
        size_t len;
        size_t af = 0, g = 0;
        bool raws_differ = false;
        const char *first_raw = NULL;
        for (uint32_t i = 0; i < stacks_count_frames(&s); i++) {
            const char *t = stacks_frame_text(&s, i, &len);
            if (len == 4 && memcmp(t, "A::f", 4) == 0) {
                af++;
                if (first_raw)
                    raws_differ = strcmp(first_raw, stacks_frame_raw(&s, i)) != 0;
                first_raw = stacks_frame_raw(&s, i);
            }
            g += strcmp(t, "g  x.js:1") == 0;
        }
        char why[200];
        snprintf(why, sizeof why, "%zu A::f frames, %zu g, raw names differ %d, total %llu", af,
                 g, raws_differ, (unsigned long long)stacks_col_total(&s, 0));
        report(apart ? "shorten-keep-apart/pictures" : "shorten-keep-apart/folded-merges",
               (apart ? af == 2 && raws_differ : af == 1) && g == 1 &&
                   stacks_col_total(&s, 0) == 100,
               why);
        if (apart) {
            /* the base's frames join the profile's by key */
            struct stacks t;
            stacks_init(&t);
            size_t joined = 0;
            for (uint32_t i = 0; i < stacks_count_frames(&base); i++) {
                uint32_t id = stacks_frame_from(&s, &base, i);
                joined += id < stacks_count_frames(&s);
                (void)stacks_frame_from(&t, &base, i);
            }
            report("shorten-keep-apart/base-joins-by-key",
                   joined == stacks_count_frames(&base) &&
                       stacks_count_frames(&s) == stacks_count_frames(&base) &&
                       stacks_count_frames(&t) == stacks_count_frames(&base),
                   "");
            stacks_free(&t);
        }
        stacks_free(&s);
        stacks_free(&base);
    }
}

static void test_events(void)
{
    struct event_defs ev;
    char err[256];
    uint64_t w[4];
    events_init(&ev);
    const char *cols = "Ir Dr Dw";
    int ok = events_set_columns(&ev, cols, strlen(cols), err, sizeof err) == 0 &&
             ev.ncolumns == 3;
    const char *def = "Sum = Ir + 2 * Dr + Dw : Weighted sum";
    ok = ok && events_add_definition(&ev, def, strlen(def), err, sizeof err) == 0;
    ok = ok && events_resolve(&ev, "Dr", w, err, sizeof err) == 0 && w[0] == 0 &&
         w[1] == 1 && w[2] == 0;
    report("events-column", ok, err);
    ok = events_resolve(&ev, "Sum", w, err, sizeof err) == 0 && w[0] == 1 && w[1] == 2 &&
         w[2] == 1;
    report("events-inherited", ok, err);
    ok = events_resolve(&ev, "Nope", w, err, sizeof err) != 0 && strstr(err, "Nope");
    report("events-unknown", ok, "unknown event accepted");
    const char *loop = "A = B";
    const char *loop2 = "B = A";
    events_add_definition(&ev, loop, strlen(loop), err, sizeof err);
    events_add_definition(&ev, loop2, strlen(loop2), err, sizeof err);
    ok = events_resolve(&ev, "A", w, err, sizeof err) != 0;
    report("events-definition-cycle", ok, "cycle not rejected");
    events_free(&ev);
}

/* The run's event table: the chosen event's column is there before it
 * is named (folded text may count in it first), and every other event
 * gets a column of its own once, in order of first sight. */
static void test_event_table(void)
{
    struct event_table t;
    event_table_init(&t, NULL);
    bool ok = event_table_count(&t) == 1 && !event_table_name(&t, CHOSEN_COLUMN) &&
              event_table_find(&t, "Ir") == NO_COLUMN;
    ok = ok && strcmp(event_table_choose(&t, "Ir"), "Ir") == 0 &&
         strcmp(event_table_choose(&t, "Dr"), "Ir") == 0; /* chosen once */
    size_t dr = event_table_column(&t, "Dr", 2);
    ok = ok && event_table_column(&t, "Ir", 2) == CHOSEN_COLUMN && dr != CHOSEN_COLUMN &&
         event_table_column(&t, "Dr", 2) == dr && event_table_find(&t, "Dr") == dr &&
         event_table_count(&t) == 2 && strcmp(event_table_name(&t, dr), "Dr") == 0;
    event_table_free(&t);
    event_table_init(&t, "Ir+Dr"); /* --event: chosen before any input */
    ok = ok && strcmp(event_table_choose(&t, "Ir"), "Ir+Dr") == 0 &&
         event_table_column(&t, "Ir", 2) == 1 && event_table_find(&t, "Ir+Dr") == CHOSEN_COLUMN;
    event_table_free(&t);
    report("event-table", ok, "columns of events");
}

/* A part's "desc:" lines read by harness conventions: the last trigger
 * counts, a harness's request names the benchmark, "Metadata: " marks
 * metadata, a last line without '\n' is still read, and other triggers
 * name nothing. */
static bool describes(const char *descs, const char *trigger, const char *name,
                      const char *metadata)
{
    struct section_info info = {.descs = descs, .descs_len = strlen(descs)};
    read_describe_section(&info);
    bool ok = trigger ? info.trigger && info.trigger_len == strlen(trigger) &&
                            memcmp(info.trigger, trigger, info.trigger_len) == 0
                      : !info.trigger;
    ok = ok && info.benchmark == (name != NULL);
    ok = ok && (name ? info.name_len == strlen(name) &&
                           memcmp(info.name, name, info.name_len) == 0
                     : info.name_len == 0);
    ok = ok && info.metadata == (metadata != NULL);
    return ok && (metadata ? info.metadata_len == strlen(metadata) &&
                                 memcmp(info.metadata_text, metadata, info.metadata_len) == 0
                           : info.metadata_len == 0);
}

static void test_harness_descs(void)
{
    report("harness-benchmark",
           describes("Thread name: main\nTrigger: Client Request: bench_sort\n",
                     "Client Request: bench_sort", "bench_sort", NULL),
           "benchmark name not read");
    report("harness-last-trigger",
           describes("Trigger: Program termination\nTrigger: Client Request: a b\n",
                     "Client Request: a b", "a b", NULL),
           "not the last trigger");
    report("harness-metadata",
           describes("Trigger: Client Request: Metadata: v=1", "Client Request: Metadata: v=1",
                     "Metadata: v=1", "v=1"),
           "metadata not read (no final newline)");
    report("harness-no-benchmark",
           describes("Trigger: Program termination\n", "Program termination", NULL, NULL),
           "a plain trigger named a benchmark");
    report("harness-empty-name",
           describes("Trigger: Client Request: \n", "Client Request: ", "", NULL),
           "empty request");
    report("harness-no-trigger", describes("Thread name: w\n", NULL, NULL, NULL),
           "a trigger without one");
}

/* What a "cmd:" line ran, as the report's heading says it: real command
 * lines of CodSpeed's harnesses and of plain programs. */
static void test_report_ran(void)
{
    static const char *const cases[][2] = {
        {"/usr/bin/node benches/bench.mjs", "benches/bench.mjs"},
        {"/usr/local/bin/node --interpreted-frames-native-stack --allow-natives-syntax "
         "--hash-seed=1 --max-old-space-size=4096 benches/bench.mjs", "benches/bench.mjs"},
        {"node -r ./setup.js --import ./hook.mjs ./bench/fib.mjs 10", "bench/fib.mjs"},
        {"/usr/bin/python3.11 -m pytest --codspeed bench_x.py", "bench_x.py"},
        {"python -m pytest -k fib tests/bench_x.py::test_fib", "tests/bench_x.py::test_fib"},
        {"/venv/bin/python3 /venv/bin/pytest --codspeed /home/u/p/bench_x.py", "bench_x.py"},
        {"/usr/bin/python3 -m pytest --codspeed", "python3 -m pytest --codspeed"},
        {"python3 -c import x", "python3 -c import x"},
        {"  ./pool", "pool"},
        {"./prog --threads=2", "prog --threads=2"},
        {"/opt/bin/prog   --fast  in.txt", "prog --fast in.txt"},
        {"/usr/bin/nodemon x.js", "nodemon x.js"}, /* not node itself */
        {"", ""},
    };
    struct buf out = {0};
    bool ok = true;
    char detail[256] = "";
    for (size_t i = 0; i < sizeof cases / sizeof *cases && ok; i++) {
        report_ran(&out, cases[i][0]);
        ok = strcmp(buf_cstr(&out), cases[i][1]) == 0;
        if (!ok)
            snprintf(detail, sizeof detail, "%s -> \"%s\", want \"%s\"", cases[i][0],
                     buf_cstr(&out), cases[i][1]);
    }
    report("report-ran-from-cmd", ok, detail);
    /* a long command: cut at a word's end, within the limit, marked */
    struct buf cmd = {0};
    buf_append(&cmd, "/bin/cc1", 8);
    for (int i = 0; i < 100; i++)
        buf_append(&cmd, " -fsome-flag", 12);
    report_ran(&out, buf_cstr(&cmd));
    const char *h = buf_cstr(&out);
    size_t chars = utf8_chars(h, out.len);
    report("report-ran-long-cut-at-word",
           chars <= REPORT_HEADING_MAX_CHARS && chars > REPORT_HEADING_MAX_CHARS / 2 &&
               strncmp(h, "cc1 -fsome-flag", 15) == 0 &&
               out.len > 9 && strcmp(h + out.len - 9, "-flag \xE2\x80\xA6") == 0,
           h);
    /* one word longer than the limit, "é" and an invalid byte by turns
     * (two characters in three bytes): cut between characters, never
     * inside one: 79 characters (39 pairs and an "é") and the ellipsis */
    cmd.len = 0;
    for (int i = 0; i < 60; i++)
        buf_append(&cmd, "\xC3\xA9\xFF", 3);
    report_ran(&out, buf_cstr(&cmd));
    h = buf_cstr(&out);
    report("report-ran-long-word-cut-between-characters",
           utf8_chars(h, out.len) == REPORT_HEADING_MAX_CHARS && out.len == 39 * 3 + 2 + 3 &&
               memcmp(h, buf_cstr(&cmd), out.len - 3) == 0 &&
               strcmp(h + out.len - 3, "\xE2\x80\xA6") == 0,
           "cut inside a character");
    buf_free(&cmd);
    buf_free(&out);
}

/* Deep random stacks of frames with long shared starts, some a prefix of
 * another or differing by a space: stacks_write's lines must come in
 * strcmp order (LC_ALL=C sort), whichever way the sort skips prefixes. */
static void test_stacks_sorted_deep(void)
{
    static const char *const frames[] = {
        "ns::Class::method_aaaa", "ns::Class::method_aaab", "ns::Class::method_aa",
        "ns::Class::method_aa b", "ns::Class::method_aa!", "0x0000000000401000",
        "0x0000000000401010", "main", "m"};
    size_t nframes = sizeof frames / sizeof *frames;
    struct stacks s;
    stacks_init(&s);
    struct buf line = {0};
    for (int i = 0; i < 3000; i++) {
        line.len = 0;
        size_t depth = 1 + rng() % 14;
        for (size_t d = 0; d < depth; d++) {
            if (d)
                buf_putc(&line, ';');
            /* mostly the same first frames, so that prefixes are long */
            size_t f = d < 6 && rng() % 8 ? d % nframes : rng() % nframes;
            buf_append(&line, frames[f], strlen(frames[f]));
        }
        stacks_add_text(&s, 0, line.data, line.len, 1 + rng() % 1000);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    stacks_write(&s, f);
    fclose(f);
    int ordered = 1;
    char why[600] = "";
    for (char *prev = text, *nl = strchr(text, '\n'); nl && nl[1]; prev = nl + 1,
              nl = strchr(nl + 1, '\n')) {
        char *next = nl + 1, *end = strchr(next, '\n');
        *nl = '\0';
        if (end)
            *end = '\0';
        if (strcmp(prev, next) >= 0 && ordered) {
            ordered = 0;
            snprintf(why, sizeof why, "%.280s\nbefore\n%.280s", prev, next);
        }
        *nl = '\n';
        if (end)
            *end = '\n';
    }
    report("stacks-sorted-deep-prefixes", ordered, why);
    free(text);
    buf_free(&line);
    stacks_free(&s);
}

static void test_stacks_sorted(void)
{
    struct stacks s;
    stacks_init(&s);
    const char *in[] = {"a;b", "a", "a b", "a;b", "a\tb", "a::x", "b", "a;b;c", "zz", "a!"};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        stacks_add_text(&s, 0, in[i], strlen(in[i]), i + 1);
    stacks_add_text(&s, 0, "zero", 4, 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    stacks_write(&s, f);
    fclose(f);
    /* Byte order of whole lines, as LC_ALL=C sort; "a;b" merged (1+4);
     * the zero count omitted. */
    const char *want = "a\tb 5\na 2\na b 3\na! 10\na::x 6\na;b 5\na;b;c 8\nb 7\nzz 9\n";
    report("stacks-sorted-merged", strcmp(text, want) == 0, text);
    free(text);
    stacks_free(&s);
}

/* Fold an in-memory input with default options; returns exit-like code. */
static int fold_bytes(const char *text, size_t len, const char *event, char **out,
                      struct diag *d)
{
    struct run_options opt = {.event = event, .resolution = DEFAULT_RESOLUTION};
    render_options_init(&opt.render);
    struct run run;
    run_init(&run, &opt);
    int rc = run_read_memory(&run, "mem", text, len, d);
    size_t out_len;
    FILE *f = open_memstream(out, &out_len);
    if (rc == 0)
        stacks_write(&run.out, f);
    fclose(f);
    run_free(&run);
    return rc;
}

static int fold_text(const char *text, const char *event, char **out, struct diag *d)
{
    return fold_bytes(text, strlen(text), event, out, d);
}

static void check_fold(const char *name, const char *text, const char *event,
                       const char *want)
{
    char *out = NULL;
    struct diag d;
    int rc = fold_text(text, event, &out, &d);
    char detail[1200];
    if (rc)
        snprintf(detail, sizeof detail, "error at line %llu: %s",
                 (unsigned long long)d.line, d.msg);
    else
        snprintf(detail, sizeof detail, "got:\n%s", out);
    report(name, rc == 0 && strcmp(out, want) == 0, detail);
    free(out);
}

static void check_reject(const char *name, const char *text, uint64_t line)
{
    char *out = NULL;
    struct diag d;
    int rc = fold_text(text, NULL, &out, &d);
    char detail[800];
    snprintf(detail, sizeof detail, "rc %d line %llu msg %s", rc,
             (unsigned long long)d.line, rc ? d.msg : "");
    report(name, rc != 0 && d.line == line, detail);
    free(out);
}

static void test_readers(void)
{
    /* Call cost lines are inclusive: they must not count as self cost. */
    check_fold("reader-call-cost-not-self",
               "events: Ir\nfn=main\n1 10\ncfn=f\ncalls=1 5\n1 90\nfn=f\n5 90\n", NULL,
               "main 10\nmain;f 90\n");
    /* fi=/fe= change the file, not the function; cfi defaults to it. */
    check_fold("reader-fi-keeps-function",
               "events: Ir\nfl=a.c\nfn=main\n1 1\nfi=h.h\n2 2\nfe=a.c\n3 3\n", NULL,
               "main 6\n");
    /* Compressed names, relative positions, hex, several events. */
    check_fold("reader-compressed",
               "positions: instr line\nevents: Ir Dr\nfl=(1) a.c\nfn=(1) main\n"
               "0x10 3 4 1\n+2 * 6 2\n-1 +1 0x10\ncfn=(2) g\ncalls=2 0x40 9\n* * 7 7\n"
               "fn=(2)\n0x40 9 7 5\n",
               "Dr", "main 3\nmain;g 5\n");
    check_fold("reader-inherited-event",
               "event: S = Ir + 10 * Dr\nevents: Ir Dr\nfn=x\n1 1 2\n", "S", "x 21\n");
    /* --compress-mangled contexts are composed of ids. */
    check_fold("reader-compressed-mangled",
               "events: Ir\nfn=(1) main\nfn=(2) f\nfn=(3) (2)'(1)\n1 4\nfn=(1)\n1 1\n"
               "cfn=(3)\ncalls=1 1\n1 4\n",
               NULL, "main 1\nmain;f 4\n");
    /* Two parts; totals: checked per part; parts summed. */
    check_fold("reader-two-parts",
               "events: Ir\nfn=a\n1 5\ntotals: 5\npart: 2\nevents: Ir\nfn=a\n1 2\ntotals: 2\n",
               NULL, "a 7\n");
    /* Folded input merged and sorted. */
    check_fold("reader-folded", "b;c 2\na 1\nb;c 3\nx y;z 0\n", NULL, "a 1\nb;c 5\n");
    check_reject("reject-totals-mismatch", "events: Ir\nfn=a\n1 5\ntotals: 6\n", 4);
    check_reject("reject-calls-without-cost", "events: Ir\nfn=a\ncfn=b\ncalls=1 2\n", 4);
    check_reject("reject-undefined-id", "events: Ir\nfn=(3)\n1 1\n", 2);
    check_reject("reject-overflow", "events: Ir\nfn=a\n1 99999999999999999999\n", 3);
    check_reject("reject-sum-overflow",
                 "events: Ir\nfn=a\n1 18446744073709551615\n2 1\n", 4);
    check_reject("reject-empty", "", 1);
    check_reject("reject-garbage", "events: Ir\nfn=a\n\x01\x02 zz\n", 3);
}

/* The folded tree (docs/folded-tree.md): node lines hang under the last
 * node one depth up; every check the format asks for. */
#define TREE_HEAD "# callgrind folded tree\nversion: 1\nevents: Ir Dr\n"
static void test_tree_reader(void)
{
    check_fold("tree-spec-example",
               TREE_HEAD "part: 1\nfn: 1 main\nfn: 2 parse\nfn: 3 lex\n"
               "1 1 10 2\n2 2 300 40\n3 3 5000 900\n2 3 7\ntotals: 5317 942\n"
               "part: 2\nthread: 2\n1 1 4\ntotals: 4\n",
               NULL, "main 14\nmain;lex 7\nmain;parse 300\nmain;parse;lex 5000\n");
    check_fold("tree-second-event",
               TREE_HEAD "part: 1\nfn: 1 main\nfn: 2 f\n1 1 10 2\n2 2 3\n2 1 0 5\n"
               "totals: 13 7\n",
               "Dr", "main 2\nmain;main 5\n");
    /* A node at depth 1 starts a new root: the path before is dropped. */
    check_fold("tree-back-to-root",
               TREE_HEAD "part: 1\nfn: 1 a\nfn: 2 b\n1 1\n2 2\n3 1\n4 2 1\n1 2 2\n"
               "totals: 3\n",
               NULL, "a;b;a;b 1\nb 2\n");
    /* Names as for callgrind.out: ';' escaped, clone suffix folded. */
    check_fold("tree-names",
               TREE_HEAD "# comment\n\npart: 1\nfn: 1 (below main)\nfn: 2 a;b'2\n"
               "1 1\n2 2 4\ntotals: 4 0\n",
               NULL, "(below main);a:b 4\n");
    check_reject("tree-reject-depth-jump",
                 TREE_HEAD "part: 1\nfn: 1 a\n1 1 1\n3 1 1\ntotals: 2\n", 7);
    check_reject("tree-reject-undefined-id",
                 TREE_HEAD "part: 1\nfn: 1 a\n1 2 1\ntotals: 1\n", 6);
    check_reject("tree-reject-totals", TREE_HEAD "part: 1\nfn: 1 a\n1 1 1 1\ntotals: 1 2\n",
                 7);
    check_reject("tree-reject-no-totals", TREE_HEAD "part: 1\nfn: 1 a\n1 1 1\n", 6);
    check_reject("tree-reject-before-part", TREE_HEAD "fn: 1 a\n1 1 1\n", 5);
    check_reject("tree-reject-marker-junk", "# callgrind folded tree!\n", 1);
}

/* The readers' view of each section's thread (read.h, struct section_info):
 * what the sink is told, for callgrind.out and folded trees, one file or
 * a file per thread, and --thread's choice. */
struct seen_sections {
    size_t n;
    struct section_info info[8];
    char name[8][16];
};

static void note_section(struct seen_sections *seen, const struct section_info *info)
{
    if (seen->n < 8) {
        seen->info[seen->n] = *info;
        snprintf(seen->name[seen->n], sizeof seen->name[0], "%.*s",
                 (int)info->thread_name_len, info->thread_name ? info->thread_name : "");
        seen->info[seen->n].thread_name = info->thread_name ? seen->name[seen->n] : NULL;
    }
    seen->n++;
}

static int sections_graph(void *arg, const struct section_info *info, struct section_graph *pt,
                          char *err, size_t errlen)
{
    (void)pt, (void)err, (void)errlen;
    note_section(arg, info);
    return 0;
}

/* Every section's costs read into one scratch stacks. */
static struct stacks sections_scratch;

static struct stacks *sections_open(void *arg, const struct section_info *head)
{
    (void)arg, (void)head;
    return &sections_scratch;
}

static int sections_stacks(void *arg, const struct section_info *info, struct stacks *s,
                           char *err, size_t errlen)
{
    (void)s, (void)err, (void)errlen;
    note_section(arg, info);
    return 0;
}

/* Reads the inputs (NULL-terminated) with --thread `threads`; 0, or the
 * failing input's diag. */
static int read_sections(const char *const *inputs, const char *const *threads,
                         size_t nthreads, struct seen_sections *seen, bool *matched,
                         struct diag *d)
{
    struct strtab names;
    strtab_init(&names);
    struct read_options opt = {.describe_sections = true, .threads = threads,
                               .nthreads = nthreads};
    struct section_sink sink = {seen, sections_graph, sections_open, sections_stacks, NULL};
    stacks_init(&sections_scratch);
    struct event_table columns;
    event_table_init(&columns, NULL);
    struct read_target t;
    read_target_init(&t, &opt, &names, &columns, &sink);
    memset(seen, 0, sizeof *seen);
    int rc = 0;
    for (size_t i = 0; inputs[i] && rc == 0; i++)
        rc = read_memory("mem", inputs[i], strlen(inputs[i]), &t, d);
    for (size_t i = 0; i < nthreads && matched; i++)
        matched[i] = t.thread_matched[i];
    read_target_free(&t);
    event_table_free(&columns);
    stacks_free(&sections_scratch);
    strtab_free(&names);
    return rc;
}

#define THREADED_OUT(pid, part, thread, name)                                      \
    "pid: " pid "\npart: " part "\nthread: " thread "\n" name                       \
    "desc: Trigger: Client Request: b\nevents: Ir\nfn=w\n1 3\ntotals: 3\n"
#define THREADED_TREE                                                               \
    "# callgrind folded tree\nversion: 1\npid: 10\nevents: Ir\n"                     \
    "part: 1\nthread: 10\ndesc: Trigger: Client Request: b\nfn: 1 m\n1 1 2\n"      \
    "totals: 2\npart: 1\nthread: 11\ndesc: Thread name: w\n"                          \
    "desc: Trigger: Client Request: b\n1 1 3\ntotals: 3\n"

static bool section_is(const struct seen_sections *s, size_t i, uint64_t number,
                       uint64_t pid, uint64_t thread, const char *name)
{
    const struct section_info *in = &s->info[i];
    return in->number == number && in->pid == pid && in->has_thread &&
           in->thread == thread &&
           (name ? in->thread_name && strcmp(in->thread_name, name) == 0 : !in->thread_name);
}

static void test_sections(void)
{
    struct seen_sections s;
    struct diag d;
    const char *combined[] = {THREADED_OUT("10", "1", "10", "")
                              THREADED_OUT("10", "1", "11", "desc: Thread name: w\n"), NULL};
    int rc = read_sections(combined, NULL, 0, &s, NULL, &d);
    report("sections-combined-out",
           rc == 0 && s.n == 2 && section_is(&s, 0, 1, 10, 10, NULL) &&
               section_is(&s, 1, 1, 10, 11, "w") && s.info[0].process == s.info[1].process,
           rc ? d.msg : "wrong sections");
    const char *tree[] = {THREADED_TREE, NULL};
    rc = read_sections(tree, NULL, 0, &s, NULL, &d);
    report("sections-combined-tree",
           rc == 0 && s.n == 2 && section_is(&s, 0, 1, 10, 10, NULL) &&
               section_is(&s, 1, 1, 10, 11, "w") && s.info[0].process == s.info[1].process,
           rc ? d.msg : "wrong sections");
    /* a file per thread: one process, the pid's */
    const char *split[] = {THREADED_OUT("10", "1", "11", "desc: Thread name: w\n"),
                           THREADED_OUT("10", "1", "10", ""), NULL};
    rc = read_sections(split, NULL, 0, &s, NULL, &d);
    uint64_t process = s.info[0].process;
    report("sections-file-per-thread",
           rc == 0 && s.n == 2 && section_is(&s, 0, 1, 10, 11, "w") &&
               section_is(&s, 1, 1, 10, 10, NULL) && s.info[1].process == process,
           rc ? d.msg : "wrong sections");
    /* no pid, or no thread: each input a process of its own */
    const char *own[] = {"part: 1\nthread: 5\nevents: Ir\nfn=w\n1 3\n",
                         "part: 1\nthread: 6\nevents: Ir\nfn=w\n1 3\n",
                         "pid: 10\npart: 1\nevents: Ir\nfn=w\n1 3\n", NULL};
    rc = read_sections(own, NULL, 0, &s, NULL, &d);
    report("sections-no-pid-or-thread-own-process",
           rc == 0 && s.n == 3 && s.info[0].process != s.info[1].process &&
               s.info[2].process != s.info[1].process && s.info[2].process != process &&
               !s.info[2].has_thread,
           rc ? d.msg : "wrong processes");
    /* --thread: by name, by kernel id; a value no section has */
    const char *by_name[] = {"w", "12"};
    bool matched[2];
    rc = read_sections(combined, by_name, 2, &s, matched, &d);
    report("sections-thread-by-name",
           rc == 0 && s.n == 1 && section_is(&s, 0, 1, 10, 11, "w") && matched[0] && !matched[1],
           rc ? d.msg : "wrong selection");
    const char *by_id[] = {"10"};
    rc = read_sections(tree, by_id, 1, &s, matched, &d);
    report("sections-thread-by-id",
           rc == 0 && s.n == 1 && section_is(&s, 0, 1, 10, 10, NULL) && matched[0],
           rc ? d.msg : "wrong selection");
    /* two sections of one thread, in two files */
    const char *twice[] = {THREADED_OUT("10", "1", "11", ""), THREADED_OUT("10", "1", "11", ""),
                           NULL};
    rc = read_sections(twice, NULL, 0, &s, NULL, &d);
    report("sections-reject-thread-twice", rc != 0 && d.line == 3 &&
           strstr(d.msg, "second section of thread 11"), d.msg);
}

/* Inputs that end exactly at the end of a page, without a last newline,
 * before a page that cannot be read: what a mapped file whose size is a
 * multiple of the page size looks like to the readers.  A scanner that
 * looks one byte past the end of its input faults here.  Each must read as
 * the same text with its newline. */
static void check_page_end(const char *name, const char *text, const char *event)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = strlen(text);
    char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
    if (map == MAP_FAILED || len > page || mprotect(map + page, page, PROT_NONE)) {
        report(name, 0, "cannot set up the guard page");
        return;
    }
    char *at = map + page - len;
    memcpy(at, text, len);
    char *want_text = malloc(len + 2), *got = NULL, *want = NULL;
    memcpy(want_text, text, len);
    memcpy(want_text + len, "\n", 2);
    struct diag dg, dw;
    memset(&dg, 0, sizeof dg);
    memset(&dw, 0, sizeof dw);
    int rg = fold_bytes(at, len, event, &got, &dg);
    int rw = fold_text(want_text, event, &want, &dw);
    char detail[1200];
    snprintf(detail, sizeof detail, "rc %d/%d line %llu/%llu msg \"%s\"/\"%s\" out:\n%s---\n%s",
             rg, rw, (unsigned long long)dg.line, (unsigned long long)dw.line,
             rg ? dg.msg : "", rw ? dw.msg : "", got, want);
    report(name, rg == rw && dg.line == dw.line && strcmp(rg ? dg.msg : "", rw ? dw.msg : "") == 0 &&
                 strcmp(got, want) == 0, detail);
    free(got);
    free(want);
    free(want_text);
    munmap(map, 2 * page);
}

/* The same through run_read_path(), which maps regular files: a file of
 * exactly one page whose last line has no newline. */
static void check_mapped_file(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const char *head = "events: Ir\nfn=main\n1 5\n#", *tail = "\n2 7";
    char path[] = "/tmp/cf-unit-XXXXXX";
    int fd = mkstemp(path);
    char *text = malloc(page);
    size_t hl = strlen(head), tl = strlen(tail);
    memcpy(text, head, hl);
    memset(text + hl, 'x', page - hl - tl);
    memcpy(text + page - tl, tail, tl);
    int ok = fd >= 0 && write(fd, text, page) == (ssize_t)page;
    if (fd >= 0)
        close(fd);
    char *out = NULL;
    size_t len;
    struct run_options opt = {.resolution = DEFAULT_RESOLUTION};
    render_options_init(&opt.render);
    struct run run;
    struct diag d;
    run_init(&run, &opt);
    int rc = ok ? run_read_path(&run, path, &d) : -1;
    FILE *f = open_memstream(&out, &len);
    if (rc == 0)
        stacks_write(&run.out, f);
    fclose(f);
    run_free(&run);
    unlink(path);
    report("reader-mapped-page-file", rc == 0 && strcmp(out, "main 12\n") == 0,
           rc ? d.msg : out);
    free(out);
    free(text);
}

/* The same text through a pipe (the buffered read() path, as for standard
 * input), written by a child process, must fold as it does from memory:
 * lines that straddle the reader's 1 MB buffer, and a last line without
 * its newline. */
static void check_pipe(const char *name, const char *text, size_t len)
{
    int fds[2];
    if (pipe(fds)) {
        report(name, 0, "pipe");
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        for (size_t done = 0; done < len;) {
            ssize_t n = write(fds[1], text + done, len - done);
            if (n <= 0)
                _exit(1);
            done += (size_t)n;
        }
        _exit(0);
    }
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    char *got = NULL, *want = NULL;
    size_t got_len;
    struct run_options opt = {.resolution = DEFAULT_RESOLUTION};
    render_options_init(&opt.render);
    struct run run;
    struct diag dg, dw;
    memset(&dg, 0, sizeof dg);
    memset(&dw, 0, sizeof dw);
    run_init(&run, &opt);
    int rg = run_read_path(&run, path, &dg);
    FILE *f = open_memstream(&got, &got_len);
    if (rg == 0)
        stacks_write(&run.out, f);
    fclose(f);
    run_free(&run);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    int rw = fold_bytes(text, len, NULL, &want, &dw);
    char detail[1200];
    snprintf(detail, sizeof detail, "rc %d/%d line %llu/%llu msg \"%s\"/\"%s\"", rg, rw,
             (unsigned long long)dg.line, (unsigned long long)dw.line, rg ? dg.msg : "",
             rw ? dw.msg : "");
    report(name, rg == rw && dg.line == dw.line && strcmp(got, want) == 0, detail);
    free(got);
    free(want);
}

static void test_pipe(void)
{
    /* 3 MB of cost lines of two functions, no newline at the end */
    struct buf b = {0};
    const char *head = "positions: instr line\nevents: Ir Dr\nfn=(1) main\n0x10 3 4 1\n";
    buf_append(&b, head, strlen(head));
    for (int i = 0; b.len < (3u << 20); i++) {
        char line[64];
        int n = snprintf(line, sizeof line, "%s%d %s %d %d\n", i % 3 ? "+" : "-", i % 7,
                         i % 5 ? "*" : "+1", i % 11, i % 2);
        buf_append(&b, line, (size_t)n);
        if (i % 1000 == 999) {
            const char *call = "cfn=(2) f\ncalls=1 0x40 9\n* * 7 7\n";
            buf_append(&b, call, strlen(call));
        }
    }
    const char *tail = "fn=(2)\n0x40 9 7 5";
    buf_append(&b, tail, strlen(tail));
    check_pipe("reader-pipe-3mb", b.data, b.len);
    /* a line of 2 MB (longer than the buffer) in the middle */
    b.len = 0;
    const char *long_head = "events: Ir\nfn=main\n1 5\n#", *long_tail = "\n2 7\n3 1";
    buf_append(&b, long_head, strlen(long_head));
    for (int i = 0; i < (2 << 20); i++)
        buf_putc(&b, 'x');
    buf_append(&b, long_tail, strlen(long_tail));
    check_pipe("reader-pipe-long-line", b.data, b.len);
    buf_free(&b);
}

/* Plain cost lines, for runs long enough for the reader's in-place fast
 * paths. */
#define FAST_GOOD "+1 0 1 2\n+2 0 3\n* 0 1 1\n+3 0 12 4\n-1 0 2\n+1 0 7 0\n+2 0 1\n+1 0 5 5\n"

static void test_page_end(void)
{
    check_page_end("page-end-cost", "events: Ir\nfn=main\n1 5\n+2 7", NULL);
    check_page_end("page-end-cost-blank", "events: Ir Dr\nfn=main\n1 5\n+2 7 ", NULL);
    check_page_end("page-end-hex", "positions: instr\nevents: Ir\nfn=main\n0x10 5\n+2 7\n0x1f", NULL);
    check_page_end("page-end-columns", "events: Ir Dr Dw\nfn=main\n1 5 6 7\n2 1 2 3", "Dw");
    check_page_end("page-end-star", "positions: instr line\nevents: Ir\nfn=a\n1 1 1\n* *", NULL);
    check_page_end("page-end-overflow", "events: Ir\nfn=main\n1 5\n2 99999999999999999999",
                   NULL);
    check_page_end("page-end-junk", "events: Ir\nfn=main\n1 5\n2 7x", NULL);
    check_page_end("page-end-calls",
                   "events: Ir\nfn=main\n1 5\ncfn=f\ncalls=1 2\n1 9\nfn=f\n2 9", NULL);
    check_page_end("page-end-digit", "events: Ir\nfn=main\n1 5\n2 7\n3", NULL);
    check_page_end("page-end-tree",
                   "# callgrind folded tree\nversion: 1\nevents: Ir Dr\npart: 1\n"
                   "fn: 1 main\n1 1 10 2\ntotals: 10 2", NULL);
    check_page_end("page-end-tree-node",
                   "# callgrind folded tree\nversion: 1\nevents: Ir Dr\npart: 1\n"
                   "fn: 1 main\n1 1 10 2\n2 1 5", NULL);
    check_page_end("page-end-folded", "a;b 2\na 3", NULL);
    /* runs long enough for the in-place fast paths, up to the page end */
    check_page_end("page-end-plain-run",
                   "positions: instr line\nevents: Ir Dr\nfn=(1) main\ncfn=(2) g\n" FAST_GOOD
                   "calls=1 0x10 0\n+1 0 3\n" FAST_GOOD FAST_GOOD "+1 0 4 4", NULL);
    check_page_end("page-end-plain-run-calls",
                   "positions: instr line\nevents: Ir Dr\nfn=(1) main\ncfn=(2) g\n" FAST_GOOD
                   FAST_GOOD "jump=3 0x10 0\n+1 0 2\ncfn=(2)\ncalls=1 0x10", NULL);
    check_mapped_file();
}

/* The reader's in-place fast paths (read/callgrind/scan.h, costrun.c) take a line
 * only in its plain form and hand any other to the exact path.  Each odd
 * but valid line here sits inside a run of plain lines, with more than
 * the 64 bytes the fast paths read after it, and must fold as its plain
 * equivalent does (wrongly rejected or misread, the fold differs). */
static void check_fast_equivalent(const char *name, const char *odd, const char *plain)
{
    const char *events[] = {NULL, "Dr"};
    for (size_t e = 0; e < 2; e++) {
        struct buf texts[2] = {{0}, {0}};
        char *out[2] = {NULL, NULL};
        struct diag d[2];
        int rc[2];
        for (int k = 0; k < 2; k++) {
            const char *head = "positions: instr line\nevents: Ir Dr\nfn=(1) main\n"
                               "cfn=(2) g\n" FAST_GOOD;
            const char *tail = FAST_GOOD FAST_GOOD "cfn=(2)\ncalls=2 0x10 0\n+1 0 9 1\n"
                               FAST_GOOD "fn=(2)\n" FAST_GOOD FAST_GOOD;
            buf_append(&texts[k], head, strlen(head));
            buf_append(&texts[k], k ? plain : odd, strlen(k ? plain : odd));
            buf_append(&texts[k], "\n", 1);
            buf_append(&texts[k], tail, strlen(tail));
            buf_putc(&texts[k], '\0');
            rc[k] = fold_text(texts[k].data, events[e], &out[k], &d[k]);
        }
        char detail[1200], full[120];
        snprintf(detail, sizeof detail, "rc %d/%d msg \"%s\"/\"%s\" out:\n%s---\n%s", rc[0],
                 rc[1], rc[0] ? d[0].msg : "", rc[1] ? d[1].msg : "", out[0], out[1]);
        snprintf(full, sizeof full, "%s%s", name, e ? "-Dr" : "");
        report(full, rc[0] == 0 && rc[1] == 0 && strcmp(out[0], out[1]) == 0, detail);
        for (int k = 0; k < 2; k++) {
            free(out[k]);
            buf_free(&texts[k]);
        }
    }
}

static void test_fast_paths(void)
{
    /* name, odd line(s), plain equivalent */
    static const char *const cases[][3] = {
        {"fast-hex-address", "0x10 0 5 1", "+1 0 5 1"},
        {"fast-tab", "+1\t0 5\t1", "+1 0 5 1"},
        {"fast-crlf", "+1 0 5 1\r", "+1 0 5 1"},
        {"fast-20-digits-that-fit", "+1 0 00000000000000000005 1", "+1 0 5 1"},
        {"fast-hex-costs", "+1 0 0x5 0X1", "+1 0 5 1"},
        {"fast-signs-and-stars", "-1 +1 5 1", "* * 5 1"},
        {"fast-hex-second-position", "+1 0x1f 5 1", "+1 0 5 1"},
        {"fast-blanks", "+1  0   5 1  ", "+1 0 5 1"},
        {"fast-no-costs", "+1 0", "+1 0 0"},
        {"fast-empty-line", "", "+1 0 0"},
        {"fast-blank-line", "   ", "+1 0 0"},
        {"fast-comment", "# a comment", "+1 0 0"},
        {"fast-long-line", "+1 0 5 1                                                    "
                           "                     ", "+1 0 5 1"},
        {"fast-calls-hex-count", "cfn=(3) h\ncalls=0x2 +0x10 *",
         "cfn=(3) h\ncalls=2 0x10 0"},
        {"fast-jcnd-two-tokens", "jcnd=1 2 0x10 0", "jcnd=1/2 0x10 0"},
        {"fast-jump-tab", "jump=1\t0x10 0", "jump=1 0x10 0"},
        {"fast-cfn-crlf", "cfn=(2)\r", "cfn=(2)"},
        {"fast-cfn-blank", "cfn=(2) ", "cfn=(2)"},
        {"fast-fn-defined-again", "fn=(1) main", "fn=(1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        check_fast_equivalent(cases[i][0], cases[i][1], cases[i][2]);

    /* line_bits() (SSE2) against its byte-at-a-time reference, on random
     * lines of the bytes that matter to it */
#ifdef __SSE2__
    static const char alphabet[] = "0123456789 \n+-*x\t\r";
    char line[LINE_BITS_MAX];
    int bad = 0;
    char why[200] = "";
    for (int k = 0; k < 200000 && !bad; k++) {
        uint64_t r = rng();
        for (int i = 0; i < LINE_BITS_MAX; i++) {
            if (i % 10 == 0)
                r = rng();
            /* newlines rarer, so that long lines come too */
            int c = (int)(r % 64) % (int)(sizeof alphabet - 1);
            line[i] = r % 97 == 0 ? '\n' : alphabet[c == 11 ? 10 : c];
            r /= 64;
        }
        struct line_bits a, b;
        line_bits(line, &a);
        line_bits_bytes(line, &b);
        uint64_t in_line = a.len < 64 ? ((uint64_t)1 << a.len) - 1 : 0;
        bad = a.len != b.len || (a.len < LINE_BITS_MAX &&
                                 ((a.digit & in_line) != (b.digit & in_line) ||
                                  (a.blank & in_line) != (b.blank & in_line)));
        if (bad)
            snprintf(why, sizeof why, "len %u/%u digit %llx/%llx", a.len, b.len,
                     (unsigned long long)(a.digit & in_line),
                     (unsigned long long)(b.digit & in_line));
    }
    report("line-bits-sse2-as-bytes", !bad, why);
#else
    printf("SKIP: unit/line-bits-sse2-as-bytes: built without SSE2, one version only\n");
#endif
}

/* to_fixed and to_g write what printf's "%.Nf" and "%g" write: random
 * values of every size, coordinates as the flame graph computes them,
 * exact ties (binary fractions), near-ties, and what goes to snprintf
 * (negative, -0, huge, infinite, NaN). */
static int number_text_differs(double v, int decimals, char *why)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    struct textout o;
    to_init(&o, f);
    if (decimals >= 0)
        to_fixed(&o, v, decimals);
    else
        to_g(&o, v);
    to_finish(&o);
    fclose(f);
    char want[512];
    if (decimals >= 0)
        snprintf(want, sizeof want, "%.*f", decimals, v);
    else
        snprintf(want, sizeof want, "%g", v);
    int differs = strcmp(text, want) != 0;
    if (differs)
        snprintf(why, 200, "%.17g as %d: got %.60s, want %.60s", v, decimals, text, want);
    free(text);
    return differs;
}

static void test_number_text(void)
{
    char why[200] = "";
    int bad = 0;
    double fixed[] = {0, 0.0005, 0.0015, 0.0625, 0.125, 0.375, 1.0005, 2.5, 10.0625,
                      1179.9995, 1180, 99.995, 0.005, 0.015, 0.045, 1073741.8235,
                      1073741823.5, 1e9, 4e9, 1e20, -0.0, -1.5, -0.0004, 1.0 / 3,
                      INFINITY, NAN};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed && !bad; i++)
        for (int d = 0; d <= 6 && !bad; d++)
            bad = number_text_differs(fixed[i], d, why);
    for (int k = 0; k < 200000 && !bad; k++) {
        uint64_t r = rng();
        double v;
        switch (k % 5) {
        case 0: /* anywhere from 1e-6 to 1e12 */
            v = (double)(r >> 11) / 9007199254740992.0 / 1e6;
            for (int e = k % 19; e > 0; e--)
                v *= 10;
            break;
        case 1: /* x and width of a frame: offset * (1180 / total) */
            v = 10 + (double)(r % 100000) * (1180.0 / (double)(1 + (r >> 40) % 10000000));
            break;
        case 2: /* binary fractions: exact ties for some decimals */
            v = (double)(r % 1000000) / (double)(1u << (r >> 60));
            break;
        case 3: /* decimal near-ties: n + 0.0005 and the like */
            v = (double)(r % 100000) / 1000 + 0.0005 * (double)(1 + (r >> 62));
            break;
        default: /* percentages */
            v = 100.0 * (double)(r % 1000003) / 1000003.0;
            break;
        }
        bad = number_text_differs(v, (int)(r >> 32) % 7, why);
    }
    report("to_fixed-as-printf", !bad, why);
    bad = 0;
    double g[] = {0, 0.5, 1, 15, 10.5, 9999, 9999.5, 10000, 10000.5, 99999.5, 123456.5,
                  999999, 1e6, 1234567, 0.1, 1.0 / 3, 2.25, -0.0, -1, -10.5, INFINITY, NAN};
    for (size_t i = 0; i < sizeof g / sizeof *g && !bad; i++)
        bad = number_text_differs(g[i], -1, why);
    for (int k = 0; k < 100000 && !bad; k++)
        bad = number_text_differs((double)(rng() % 40000) / 2, -1, why);
    report("to_g-as-printf", !bad, why);
}

/* The "stack count" lines of column 0 (stacks_write). */
static char *written(const struct stacks *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    stacks_write(s, f);
    fclose(f);
    return text;
}

/* stacks_root_at_user_code on stacks "frames count" (column 0) with a
 * second column of count * 10 + 1: the lines of column 0 after, and
 * both columns' totals unchanged. */
static void check_roots(const char *name, const char *const *in, size_t n, bool benchmark,
                        const char *base, const char *want)
{
    struct stacks s;
    stacks_init(&s);
    uint64_t before[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        const char *sp = strrchr(in[i], ' ');
        uint64_t count = strtoull(sp + 1, NULL, 10);
        stacks_add_text(&s, 0, in[i], (size_t)(sp - in[i]), count);
        stacks_add_text(&s, 1, in[i], (size_t)(sp - in[i]), count ? count * 10 + 1 : 0);
        before[0] += count;
        before[1] += count ? count * 10 + 1 : 0;
    }
    stacks_root_at_user_code(&s, benchmark, base, strlen(base));
    char *text = written(&s);
    uint64_t after0 = stacks_col_total(&s, 0);
    uint64_t after1 = stacks_col_total(&s, 1);
    char why[512];
    snprintf(why, sizeof why, "totals %llu %llu, want %llu %llu; got %s",
             (unsigned long long)after0, (unsigned long long)after1,
             (unsigned long long)before[0], (unsigned long long)before[1], text);
    report(name, strcmp(text, want) == 0 && after0 == before[0] && after1 == before[1], why);
    free(text);
    stacks_free(&s);
}

/* Pictures start where the user's code starts (roots.c). */
static void test_roots(void)
{
    const char *codspeed[] = {
        "(below main);__libc_start_main;node::Start;Function:run file:///b.mjs:3;"
        "Function:__codspeed_root_frame__ file:///c.js:9;Function:fib file:///b.mjs:5;"
        "Function:fib file:///b.mjs:5 10",
        "(below main);__libc_start_main;node::Start;Function:run file:///b.mjs:3;"
        "Function:__codspeed_root_frame__ file:///c.js:9;Function:fib file:///b.mjs:5 7",
        "(below main);__libc_start_main;node::Start;Function:run file:///b.mjs:3;"
        "Function:__codspeed_root_frame__ file:///c.js:9 2",
        "(below main);__libc_start_main;node::Start;Builtins_CallFunction 3",
        "(below main);__libc_start_main;never 0",
    };
    check_roots("roots-codspeed", codspeed, 5, true, "node",
                "node;Function:__codspeed_root_frame__ file:///c.js:9 2\n"
                "node;Function:fib file:///b.mjs:5 7\n"
                "node;Function:fib file:///b.mjs:5;Function:fib file:///b.mjs:5 10\n"
                "node;node::Start;Builtins_CallFunction 3\n");
    const char *program[] = {
        "0x000000000001ab70;(below main);__libc_start_main@@GLIBC_2.34;(below main);main;"
        "parse 5",
        "0x000000000001ab70;(below main);__libc_start_main@@GLIBC_2.34;(below main);main 2",
        "clone3;start_thread;worker;compute 4",
        "clone3;start_thread 1",
        "_dl_start;_dl_init 1",
    };
    check_roots("roots-whole-program", program, 5, false, "cc1",
                "cc1;_dl_start;_dl_init 1\ncc1;main 2\ncc1;main;parse 5\ncc1;start_thread 1\n"
                "cc1;worker;compute 4\n");
    /* --frame=fn+obj: "main [cc1]" is main */
    const char *with_object[] = {"_start [cc1];(below main) [libc.so.6];main [cc1];f [cc1] 3"};
    check_roots("roots-main-with-object", with_object, 1, false, "cc1",
                "cc1;main [cc1];f [cc1] 3\n");
    /* neither: the deepest frame every stack with a cost passes through */
    const char *plain[] = {"harness;loop;bench;x 3", "harness;loop;bench;y 4",
                           "harness;loop;bench 1", "harness;other 0"};
    check_roots("roots-deepest-shared", plain, 4, true, "proc",
                "proc;bench 1\nproc;bench;x 3\nproc;bench;y 4\n");
    const char *one[] = {"a;b;c 5"};
    check_roots("roots-one-stack", one, 1, true, "p", "p;c 5\n");

    /* stacks_compact: frames of no stack with a cost go, when most are */
    struct stacks s;
    stacks_init(&s);
    for (int i = 0; i < 10; i++) {
        char name[32];
        snprintf(name, sizeof name, "unused%d", i);
        stacks_frame(&s, name, strlen(name));
    }
    stacks_add_text(&s, 0, "a;b", 3, 4);
    stacks_add_text(&s, 0, "unused3", 7, 0);
    stacks_add_text(&s, 2, "a", 1, 6);
    stacks_compact(&s);
    char *text = written(&s);
    uint64_t total0 = stacks_col_total(&s, 0);
    report("stacks-compact",
           stacks_count_frames(&s) == 2 && strcmp(text, "a;b 4\n") == 0 && total0 == 4 &&
               stacks_col_total(&s, 2) == 6 && stacks_count_ids(&s) == 2,
           text);
    free(text);
    stacks_free(&s);
}

/* The profile's lookup indexes (profile.c): functions by (object, file,
 * name) and calls by (caller, callee), through growth, a reset and the
 * edge rebuild of profile_resolve_call_targets(), against a plain array
 * search.  Keys are drawn from small ranges, so that many collide in
 * their hash slots and many are looked up again. */
static void test_profile_indexes(void)
{
    struct profile p;
    profile_init(&p);
    enum { N = 6000 };
    static uint32_t keys[N][3];
    static uint32_t got[N];
    char why[200] = "";
    int bad = 0;
    for (int round = 0; round < 2 && !bad; round++) {
        size_t nkeys = 0;
        for (int k = 0; k < N && !bad; k++) {
            uint64_t r = rng();
            uint32_t o = (uint32_t)(r % 7), f = (uint32_t)(r >> 8) % 5,
                     n = (uint32_t)(r >> 16) % 300;
            size_t i = 0;
            while (i < nkeys && !(keys[i][0] == o && keys[i][1] == f && keys[i][2] == n))
                i++;
            uint32_t node = profile_function(&p, o, f, n);
            if (i == nkeys) {
                keys[nkeys][0] = o, keys[nkeys][1] = f, keys[nkeys][2] = n;
                got[nkeys++] = node;
                bad = node != p.nnodes - 1;
            } else {
                bad = node != got[i];
            }
            if (bad)
                snprintf(why, sizeof why, "round %d: function (%u, %u, %u): node %u, "
                         "want %u", round, o, f, n, node, i == nkeys - 1 ? (unsigned)p.nnodes - 1
                         : got[i]);
        }
        /* calls between those nodes, each added to by its own count */
        size_t nedges = 0;
        static uint32_t ends[N][2];
        static uint64_t calls[N];
        for (int k = 0; k < N && !bad; k++) {
            uint64_t r = rng();
            uint32_t a = (uint32_t)(r % 40), b = (uint32_t)(r >> 8) % 90;
            size_t i = 0;
            while (i < nedges && !(ends[i][0] == a && ends[i][1] == b))
                i++;
            uint32_t e = profile_call_edge(&p, a, b);
            if (i == nedges) {
                ends[nedges][0] = a, ends[nedges][1] = b;
                calls[nedges++] = 0;
            }
            bad = e != i || p.edges[e].caller != a || p.edges[e].callee != b;
            if (bad)
                snprintf(why, sizeof why, "round %d: call %u -> %u: edge %u, want %zu", round,
                         a, b, e, i);
            profile_add_call_count(&p, a, b, k + 1);
            calls[i] += (uint64_t)k + 1;
        }
        for (size_t i = 0; i < nedges && !bad; i++)
            if ((bad = p.edges[i].calls != calls[i]))
                snprintf(why, sizeof why, "round %d: edge %zu has %llu calls, want %llu",
                         round, i, (unsigned long long)p.edges[i].calls,
                         (unsigned long long)calls[i]);
        /* an absent call: no count added anywhere */
        profile_add_call_count(&p, 1000, 1000, 5);
        for (size_t i = 0; i < nedges && !bad; i++)
            if ((bad = p.edges[i].calls != calls[i]))
                snprintf(why, sizeof why, "round %d: a count for an absent call went to "
                         "edge %zu", round, i);
        profile_reset(&p, 1);
    }
    /* the rebuild: node 1 is an undefined call target whose definition,
     * node 2, is the same function: the calls to both become one edge,
     * found again by the index */
    uint32_t caller = profile_function(&p, 1, 1, 10);
    uint32_t target = profile_function(&p, 1, 1, 20);
    uint32_t defined = profile_function(&p, 1, 2, 20);
    p.nodes[caller].defined = p.nodes[defined].defined = true;
    profile_add_call(&p, caller, target, 3);
    profile_add_call(&p, caller, defined, 4);
    profile_resolve_call_targets(&p);
    uint32_t e = profile_call_edge(&p, caller, defined);
    if (!bad && (p.nedges != 1 || e != 0 || p.edges[0].cost != 7)) {
        bad = 1;
        snprintf(why, sizeof why, "after the rebuild: %zu edges, edge %u of cost %llu",
                 p.nedges, e, (unsigned long long)p.edges[0].cost);
    }
    profile_free(&p);
    report("profile-indexes", !bad, why);
}

/* A stack's hash carried along a walk (stacks_path_hash(), words kept
 * per pair of frames) is the hash stacks_add() gives the whole stack: a
 * difference would intern one stack twice. */
static void test_path_hash(void)
{
    char why[160] = "";
    int bad = 0;
    uint32_t frames[41];
    uint64_t words[22];
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (int round = 0; round < 200 && !bad; round++) {
        words[0] = HASH_START;
        for (size_t n = 1; n <= 40 && !bad; n++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            frames[n - 1] = round % 2 ? (uint32_t)(seed >> 33) : (uint32_t)(seed >> 60);
            if (n % 2 == 0)
                words[n / 2] = stacks_path_word(words, frames, n / 2 - 1);
            uint32_t carried = stacks_path_hash(words, frames, n);
            uint32_t whole = strtab_hash((const char *)frames, n * sizeof *frames);
            if ((bad = carried != whole))
                snprintf(why, sizeof why, "round %d, %zu frames: carried %08x, whole %08x",
                         round, n, carried, whole);
        }
    }
    report("path-hash-carried", !bad, why);
}

/* A profile's costs as vectors (model.h): columns past 0 kept in rows,
 * moved with their edges when call targets are resolved, and each
 * column folded as a profile of that column alone would be. */
static void test_cost_vectors(void)
{
    char why[200] = "";
    int bad = 0;
    struct profile p;
    profile_init(&p);
    profile_reset(&p, 3);
    uint32_t main_fn = profile_function(&p, 1, 1, 10);
    uint32_t target = profile_function(&p, 1, 1, 20);  /* undefined call target */
    uint32_t defined = profile_function(&p, 1, 2, 20);
    uint32_t leaf = profile_function(&p, 1, 2, 30);
    p.nodes[main_fn].defined = p.nodes[defined].defined = p.nodes[leaf].defined = true;
    /* column 0, then columns 1 and 2 */
    profile_add_self(&p, main_fn, 1);
    profile_add_self_more(&p, main_fn, (const uint64_t[]){10, 100});
    profile_add_self(&p, defined, 2);
    profile_add_self_more(&p, defined, (const uint64_t[]){0, 200});
    profile_add_self(&p, leaf, 4);
    profile_add_self_more(&p, leaf, (const uint64_t[]){40, 0});
    uint32_t e1 = profile_call_edge(&p, main_fn, target);
    profile_add_to_edge(&p, e1, 2, 1);
    profile_add_edge_more(&p, e1, (const uint64_t[]){0, 150});
    uint32_t e2 = profile_call_edge(&p, main_fn, defined);
    profile_add_to_edge(&p, e2, 4, 1);
    profile_add_edge_more(&p, e2, (const uint64_t[]){40, 50});
    uint32_t e3 = profile_call_edge(&p, defined, leaf);
    profile_add_to_edge(&p, e3, 4, 1);
    profile_add_edge_more(&p, e3, (const uint64_t[]){40, 0});
    profile_resolve_call_targets(&p);
    uint32_t e = profile_call_edge(&p, main_fn, defined);
    uint64_t want[3] = {6, 40, 200};
    for (size_t c = 0; c < 3 && !bad; c++)
        if ((bad = profile_edge_cost(&p, e, c) != want[c]))
            snprintf(why, sizeof why, "merged edge, column %zu: %llu, want %llu", c,
                     (unsigned long long)profile_edge_cost(&p, e, c),
                     (unsigned long long)want[c]);
    uint64_t totals[3] = {7, 50, 300};
    for (size_t c = 0; c < 3 && !bad; c++) {
        uint64_t sum;
        if ((bad = !profile_total(&p, c, &sum) || sum != totals[c]))
            snprintf(why, sizeof why, "column %zu sums to %llu, want %llu", c,
                     (unsigned long long)sum, (unsigned long long)totals[c]);
    }
    /* every column in one fold, each into its stacks column, against
     * each column's own profile folded alone */
    struct strtab names;
    strtab_init(&names);
    for (int i = 0; i < 40; i++) {
        char n[16];
        snprintf(n, sizeof n, "f%d", i);
        strtab_intern(&names, n, strlen(n));
    }
    struct stacks all, one;
    stacks_init(&all);
    struct fold_target t = {.out = &all, .names = &names};
    char err[100];
    if (!bad && (bad = fold_profile(&p, (const size_t[]){0, 2, 1}, &t, err, sizeof err) != 0))
        snprintf(why, sizeof why, "fold: %s", err);
    for (size_t c = 0; c < 3 && !bad; c++) {
        struct profile col;
        profile_init(&col);
        profile_column(&col, &p, c);
        stacks_init(&one);
        struct fold_target t1 = {.out = &one, .names = &names};
        bad = fold_profile(&col, (const size_t[]){0}, &t1, err, sizeof err) != 0;
        size_t into = c == 0 ? 0 : 3 - c;
        for (uint32_t id = 0; id < stacks_count_ids(&one) && !bad; id++) {
            size_t n;
            const uint32_t *path = stacks_path(&one, id, &n);
            uint64_t count = 0;
            for (uint32_t j = 0; j < stacks_count_ids(&all); j++) {
                size_t m;
                const uint32_t *q = stacks_path(&all, j, &m);
                if (m == n && memcmp(q, path, n * sizeof *q) == 0)
                    count = stacks_count(&all, into, j);
            }
            if ((bad = count != stacks_count(&one, 0, id)))
                snprintf(why, sizeof why, "column %zu: a stack counts %llu, alone %llu", c,
                         (unsigned long long)count,
                         (unsigned long long)stacks_count(&one, 0, id));
        }
        if (!bad && (bad = stacks_col_total(&all, into) != totals[c]))
            snprintf(why, sizeof why, "column %zu folded to %llu, want %llu", c,
                     (unsigned long long)stacks_col_total(&all, into),
                     (unsigned long long)totals[c]);
        fold_target_free(&t1);
        stacks_free(&one);
        profile_free(&col);
    }
    fold_target_free(&t);
    stacks_free(&all);
    strtab_free(&names);
    profile_free(&p);
    report("cost-vectors", !bad, why);
}

/* The sum of frame `frame`'s lines in column col. */
static uint64_t frame_lines_sum(const struct stacks *s, size_t col, const char *frame)
{
    uint32_t f = strtab_find(&s->frames, frame, strlen(frame), strtab_hash(frame, strlen(frame)));
    uint64_t sum = 0;
    for (uint32_t e = 0; e < stacks_line_entries(s) && f != UINT32_MAX; e++)
        if (stacks_line_key(s, e)->at == f)
            sum += stacks_line_count(s, col, e);
    return sum;
}

/* Self costs by line (stacks/lines.c): a part's, by node, folded onto
 * the frames (fold_lines()), every column to its stacks column, and
 * carried by what makes stacks of other stacks (a merge under a thread's
 * frame, the re-rooting at the user's code, which keeps the frames'
 * sources too); the stacks themselves as without lines. */
static void test_lines(void)
{
    char why[200] = "";
    bool bad = false;
    struct strtab names;
    strtab_init(&names);
    uint32_t none = strtab_intern(&names, "", 0), a_c = strtab_intern(&names, "a.c", 3),
             b_h = strtab_intern(&names, "b.h", 3), main_n = strtab_intern(&names, "main", 4),
             leaf_n = strtab_intern(&names, "leaf", 4), leaf2_n = strtab_intern(&names, "leaf'2", 6);
    struct profile p;
    profile_init(&p);
    profile_reset(&p, 2);
    uint32_t m = profile_function(&p, none, a_c, main_n), l = profile_function(&p, none, a_c, leaf_n),
             l2 = profile_function(&p, none, a_c, leaf2_n); /* a clone: the same frame */
    struct line_table lt;
    line_table_init(&lt);
    line_table_reset(&lt, 2);
    /* (node, file, line, Ir, Dr) */
    const struct { uint32_t node, file, line; uint64_t ir, dr; } at[] = {
        {m, a_c, 3, 2, 1}, {m, a_c, 4, 5, 0}, {l, a_c, 10, 7, 3}, {l, b_h, 2, 1, 1},
        {l2, a_c, 10, 4, 4}, {l, a_c, 0, 1, 0}};
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        uint32_t e = line_table_entry(&lt, at[i].node, at[i].file, at[i].line);
        lt.cost[e] += at[i].ir;
        line_table_more(&lt, e)[0] += at[i].dr;
        profile_add_self(&p, at[i].node, at[i].ir);
        profile_add_self_more(&p, at[i].node, &at[i].dr);
    }
    profile_add_call(&p, m, l, 9);
    profile_add_call(&p, l, l2, 4);
    profile_add_edge_more(&p, profile_call_edge(&p, m, l), (const uint64_t[]){8});
    profile_add_edge_more(&p, profile_call_edge(&p, l, l2), (const uint64_t[]){4});
    struct stacks s;
    stacks_init(&s);
    s.keep_sources = true;
    struct fold_target t = {.out = &s, .names = &names};
    hashmap_init(&t.frame_of);
    char err[100];
    const size_t columns[] = {0, 1};
    if ((bad = fold_profile(&p, columns, &t, err, sizeof err) != 0 ||
               fold_lines(&lt, &p, columns, &t) != 0))
        snprintf(why, sizeof why, "fold: %s", err);
    /* per frame and column: lines sum to the leaf cost; "leaf" and its
     * clone one frame, (a.c, 10) one entry of both */
    const struct { const char *frame; uint64_t ir, dr; } want[] = {{"main", 7, 1}, {"leaf", 13, 8}};
    for (int round = 0; round < 3 && !bad; round++) {
        if (round == 1) { /* merged under a thread's frame */
            struct stacks into;
            stacks_init(&into);
            into.keep_sources = true;
            stacks_add_text(&into, 0, "other", 5, 1);
            stacks_merge(&into, &s, "thread 7", 8);
            stacks_free(&s);
            s = into;
        } else if (round == 2) { /* re-rooted: "main" and below kept */
            stacks_root_at_user_code(&s, false, "prog", 4);
        }
        for (size_t i = 0; i < 2 && !bad; i++)
            for (size_t c = 0; c < 2 && !bad; c++) {
                uint64_t got = frame_lines_sum(&s, c, want[i].frame),
                         w = c ? want[i].dr : want[i].ir;
                if ((bad = got != w))
                    snprintf(why, sizeof why, "round %d: %s's lines, column %zu: %llu, want %llu",
                             round, want[i].frame, c, (unsigned long long)got,
                             (unsigned long long)w);
            }
        uint32_t f = strtab_find(&s.frames, "leaf", 4, strtab_hash("leaf", 4));
        const struct frame_source *src = f == UINT32_MAX ? NULL : stacks_source_of(&s, f);
        if (!bad && (bad = !src || src->file != a_c || stacks_line_entries(&s) != 5))
            snprintf(why, sizeof why, "round %d: leaf's source %p, %zu entries", round,
                     (const void *)src, stacks_line_entries(&s));
    }
    fold_target_free(&t);
    stacks_free(&s);
    line_table_free(&lt);
    profile_free(&p);
    strtab_free(&names);
    report("lines", !bad, why);
}

/* The one-event reader's 64-byte blocks (read/callgrind/costblocks.h, costrun.c's
 * cost_run_blocks()) against the reader a line at a time
 * (CALLGRIND_FOLD_COST_BLOCKS=0), on random profiles: runs of cost lines
 * of random shapes and lengths (so that lines cross the blocks'
 * boundaries anywhere), some odd (hexadecimal, tabs, '\r', signs and '*'
 * out of place, long numbers, too many costs, empty or blank lines), with
 * calls, jumps and function lines between them.  Both must give the same
 * output, or fail at the same line with the same message. */
static void random_cost_text(struct buf *t, int events)
{
    /* read by the exact path, not the plain ones */
    static const char *const odd[] = {
        "0x1f 3 5", "+1\t0 5", "+1 0 5\r", "+1 +2 5", "-2 *", "+1 0 0x5", "", "# comment",
        "0 0 7", "+1  0   5  ", "* -1", "0X2a 0 1", "+1 0 00000000000000000005"};
    /* errors, rarer: a profile stops at its first */
    static const char *const wrong[] = {
        "* *3 4", "+1 0 -5", "+1 0 5 *", "+1 0 123456789012345678901", " +1 0 4", "+1",
        "+1 0 1 2 3 4 5 6 7 8 9 1 2 3 4 5", "+ 0 3", "*", "+1 0 99999999999999999999",
        "+1 0x 3", "+1-2 0 5", "*+1 0 5", "2 0+1 5", "+1 0 9999999999999999999\n+2 0 9999999999999999999"};
    static const char *const position[] = {
        "cfn=(2)\ncalls=2 0x10 0", "cfn=(2)\ncalls=1 +3 *", "jump=3 +2 0",
        "jcnd=1/4 -3 12", "fn=(1)", "fn=(2)", "fl=(1)", "cfi=(1)", "cob=(1)",
        "cfn=(2)\ncalls=1 0x10 0\n+1 2 3\nfn=(2)"};
    const char *events_line = events == 2 ? "events: Ir Dr\n" : "events: Ir\n";
    buf_append(t, "positions: instr line\n", strlen("positions: instr line\n"));
    buf_append(t, events_line, strlen(events_line));
    const char *head = "ob=(1) /bin/x\nfl=(1) x.c\nfn=(1) main\n0x10 1 1\n"
                       "cfn=(2) g\ncalls=1 0x20 0\n+1 2 3\nfn=(2) g\n0x20 3 4\nfn=(1)\n";
    buf_append(t, head, strlen(head));
    int lines = 20 + (int)(rng() % 400);
    for (int i = 0; i < lines; i++) {
        uint64_t r = rng();
        char line[200];
        int n = 0;
        bool plain = false;
        if (r % 1009 == 0) {
            n = snprintf(line, sizeof line, "%s", wrong[(r >> 8) % (sizeof wrong / sizeof *wrong)]);
        } else if (r % 23 == 0) {
            n = snprintf(line, sizeof line, "%s", odd[(r >> 8) % (sizeof odd / sizeof *odd)]);
        } else if (r % 7 == 0) {
            n = snprintf(line, sizeof line, "%s",
                         position[(r >> 8) % (sizeof position / sizeof *position)]);
            plain = strstr(line, "calls=") && !strstr(line, "\nfn=(2)");
        } else {
            plain = true;
        }
        if (plain) { /* after "calls=": its cost line */
            if (n)
                line[n++] = '\n';
            static const char *const marks[] = {"+", "-", "*", ""};
            const char *m = marks[(r >> 8) % 4];
            n += snprintf(line + n, sizeof line - (size_t)n, "%s", m);
            if (*m != '*')
                n += snprintf(line + n, sizeof line - (size_t)n, "%u", (unsigned)((r >> 10) % 40));
            n += snprintf(line + n, sizeof line - (size_t)n, " %s%u", (r >> 16) % 3 ? "" : "+",
                          (unsigned)((r >> 18) % 9));
            /* now and then one too many, an error */
            int costs = (int)((r >> 22) % (unsigned)(events + 1)) + ((r >> 30) % 401 == 0);
            for (int k = 0; k < costs; k++) {
                uint64_t v = rng();
                /* mostly short, sometimes up to 12 digits, rarely 19
                 * (whose sums overflow, which the exact path reports) */
                v = v % 3000 == 0 ? v % 10000000000000000000u
                                  : v % (v % 5 == 0 ? 1000000000000u : v % 3 ? 100 : 10000000);
                n += snprintf(line + n, sizeof line - (size_t)n, " %llu", (unsigned long long)v);
            }
        }
        buf_append(t, line, (size_t)n);
        buf_putc(t, '\n');
    }
}

static void test_cost_blocks(void)
{
    if (!cost_blocks_available()) {
        printf("SKIP: unit/cost-blocks-as-lines: this CPU has no AVX2 (or BMI1, BMI2, POPCNT)\n");
        return;
    }
    int bad = 0, errors = 0;
    char why[2400] = "";
    for (int k = 0; k < 3000 && !bad; k++) {
        struct buf text = {0};
        random_cost_text(&text, k % 2 ? 2 : 1);
        char *out[2] = {NULL, NULL};
        struct diag d[2];
        int rc[2];
        for (int blocks = 0; blocks < 2; blocks++) {
            setenv("CALLGRIND_FOLD_COST_BLOCKS", blocks ? "1" : "0", 1);
            rc[blocks] = fold_bytes(text.data, text.len, k % 4 == 3 ? "Dr" : NULL, &out[blocks],
                                    &d[blocks]);
        }
        unsetenv("CALLGRIND_FOLD_COST_BLOCKS");
        errors += rc[1] != 0;
        bad = rc[0] != rc[1] || (rc[0] == 0 && strcmp(out[0], out[1]) != 0) ||
              (rc[0] != 0 && (d[0].line != d[1].line || strcmp(d[0].msg, d[1].msg) != 0));
        if (bad)
            snprintf(why, sizeof why, "profile %d: rc %d/%d line %llu/%llu msg %.200s / %.200s\n"
                     "out:\n%.300s---\n%.300s", k, rc[0], rc[1], (unsigned long long)d[0].line,
                     (unsigned long long)d[1].line, rc[0] ? d[0].msg : "", rc[1] ? d[1].msg : "",
                     out[0], out[1]);
        free(out[0]);
        free(out[1]);
        buf_free(&text);
    }
    /* both kinds of profile must come: folded ones and rejected ones */
    if (!bad && (errors == 0 || errors == 3000)) {
        bad = 1;
        snprintf(why, sizeof why, "%d of 3000 profiles rejected: the generator is off", errors);
    }
    report("cost-blocks-as-lines", !bad, why);
}

/* One run's part for md_changed_lines(): "main;work" and "main;other"
 * with work's lines summing to its self cost, other's lines summing to
 * other_lines of its other_self (less: some of its cost came without
 * lines), flattened by stacks_add_self(). */
static void md_part(struct stacks *flat, struct strtab *names, const char *dir,
                    uint64_t work3, uint64_t other_self, uint64_t other_lines, char *why)
{
    struct stacks s;
    stacks_init(&s);
    char path[64];
    snprintf(path, sizeof path, "%s/a.c", dir);
    uint32_t a_c = strtab_intern(names, path, strlen(path));
    stacks_add_text(&s, 0, "main;work", 9, work3 + 30);
    stacks_add_text(&s, 0, "main;other", 10, other_self);
    stacks_add_text(&s, 0, "main", 4, 5);
    uint32_t work = stacks_frame(&s, "work", 4), other = stacks_frame(&s, "other", 5);
    stacks_line_add(&s, 0, work, a_c, 3, work3);
    stacks_line_add(&s, 0, work, a_c, 4, 30);
    stacks_line_add(&s, 0, other, a_c, 9, other_lines);
    stacks_init(flat);
    if (!stacks_add_self(flat, &s))
        snprintf(why, 200, "stacks_add_self overflowed");
    uint32_t id = stacks_intern(flat, &(uint32_t){stacks_frame(flat, "work", 4)}, 1);
    if (stacks_col_total(flat, 0) != stacks_col_total(&s, 0) ||
        stacks_count(flat, 0, id) != work3 + 30 || stacks_line_entries(flat) != 3)
        snprintf(why, 200, "flat profile of %s: total %llu, work %llu, %zu lines", dir,
                 (unsigned long long)stacks_col_total(flat, 0),
                 (unsigned long long)stacks_count(flat, 0, id), stacks_line_entries(flat));
    stacks_free(&s);
}

/* -f md --diff's choice of lines (write/mdlines.c): functions paired by
 * frame, lines by file base name and line, a function whose lines do
 * not sum to its self cost listed without lines. */
static void test_md_lines(void)
{
    char why[200] = "";
    struct strtab names;
    strtab_init(&names);
    struct stacks old, new;
    md_part(&old, &names, "/old", 120, 40, 25, why);
    md_part(&new, &names, "/new", 220, 60, 60, why);
    const char *events[] = {"Ir"};
    struct event_column oc = {"Ir", NULL, 0, stacks_col_total(&old, 0)},
                        nc = {"Ir", NULL, 0, stacks_col_total(&new, 0)};
    struct report_part op = {.name = "b", .stacks = &old, .columns = &oc},
                       np = {.name = "b", .stacks = &new, .columns = &nc};
    struct report ro = {.events = events, .nevents = 1, .parts = &op, .nparts = 1,
                        .files = &names},
                  rn = ro;
    rn.parts = &np;
    struct report_pair pair = {"b", &op, &np};
    struct report_diff d = {&ro, &rn, &pair, 1};
    struct changed_benchmark b[MD_LINES_BENCHMARKS];
    size_t more, n = md_changed_lines(&d, b, &more);
    const struct changed_function *f = n ? b[0].functions : NULL;
    if (!*why && (n != 1 || more || b[0].nfunctions != 2))
        snprintf(why, sizeof why, "%zu benchmarks, %zu more", n, more);
    else if (!*why && (f[0].name_len != 4 || memcmp(f[0].name, "work", 4) ||
                       f[0].before != 150 || f[0].after != 250 || !f[0].lines_known ||
                       f[0].nlines != 1 || f[0].lines[0].line != 3 ||
                       f[0].lines[0].file_len != 3 || memcmp(f[0].lines[0].file, "a.c", 3) ||
                       f[0].lines[0].before != 120 || f[0].lines[0].after != 220))
        snprintf(why, sizeof why, "work: %llu -> %llu, %zu lines",
                 (unsigned long long)f[0].before, (unsigned long long)f[0].after, f[0].nlines);
    else if (!*why && (f[1].lines_known || f[1].nlines || f[1].before != 40 || f[1].after != 60))
        snprintf(why, sizeof why, "other: listed with lines %d", f[1].lines_known);
    report("md-lines-chosen", !*why, why);
    stacks_free(&old);
    stacks_free(&new);
    strtab_free(&names);
}

int main(int argc, char **argv)
{
    test_apportion();
    test_frames();
    test_addr_names();
    test_short_names(argc > 1 ? argv[1] : "tests/shortnames.txt");
    test_rust_demangle(argc > 2 ? argv[2] : "tests/rust_symbols.txt");
    test_shorten_raw();
    test_shorten_keep_apart();
    test_events();
    test_event_table();
    test_harness_descs();
    test_report_ran();
    test_stacks_sorted();
    test_stacks_sorted_deep();
    test_roots();
    test_profile_indexes();
    test_cost_vectors();
    test_lines();
    test_md_lines();
    test_path_hash();
    test_readers();
    test_tree_reader();
    test_sections();
    test_page_end();
    test_fast_paths();
    test_cost_blocks();
    test_pipe();
    test_number_text();
    return failures ? 1 : 0;
}
