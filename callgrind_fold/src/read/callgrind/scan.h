/* Whole-line scanning for the callgrind.out reader's hot loop (costrun.c):
 * a line is classified 16 bytes at a time into bit masks (one bit per
 * byte: digit, space; and where its '\n' is), and its shape is then
 * checked with a few mask operations instead of a compare and a branch
 * per byte: cost lines, and the values of "calls=", "jump=", "jcnd=" and
 * "cfn=(N)" lines.
 *
 * Why: four lines in five of a callgrind.out are short cost lines
 * ("+3 0 15 0 0 2"), and when one event is folded only one of their
 * numbers is needed; the rest must only be known to be valid.  Masks
 * take fewer instructions per line than the byte loops, which branch on
 * every byte.
 *
 * Nothing here reports an error: a line that is not plainly valid makes
 * these return false, and the reader reads it again with the exact
 * scanners (lex.h, grammar.c), which accept or reject it with their
 * messages.  So what is accepted, and every error, stays the same. */
#ifndef CF_SCAN_H
#define CF_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "read/lex.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* How many bytes line_bits() may read at p: the caller makes sure they
 * can be read.  Longer lines are left to the byte scanners. */
#define LINE_BITS_MAX 64

/* Bits at and after len may be set or not (the SSE2 version classifies
 * the 16 bytes that hold the '\n' whole): users mask them off. */
struct line_bits {
    uint64_t digit;   /* bit i: p[i] is '0'-'9' */
    uint64_t blank;   /* bit i: p[i] is ' '; a tab is "other" */
    unsigned len;     /* index of the line's '\n'; LINE_BITS_MAX if it is
                       * not in the first LINE_BITS_MAX - 1 bytes */
};

/* The portable version, a byte at a time; also the reference the SSE2
 * version is tested against (unit_tests.c). */
static inline void line_bits_bytes(const char *p, struct line_bits *b)
{
    b->digit = b->blank = 0;
    for (unsigned i = 0; i < LINE_BITS_MAX - 1; i++) {
        char c = p[i];
        if (c == '\n') {
            b->len = i;
            return;
        }
        b->digit |= (uint64_t)((unsigned char)(c - '0') < 10) << i;
        b->blank |= (uint64_t)(c == ' ') << i;
    }
    b->len = LINE_BITS_MAX;
}

/* The bytes of the line at p classified; reads up to LINE_BITS_MAX bytes
 * (stops after the 16 that hold the '\n'). */
static inline void line_bits(const char *p, struct line_bits *b)
{
#ifdef __SSE2__
    /* Three compares and three movemasks per 16 bytes, where the byte
     * loop takes a load, two compares and two branches per byte. */
    const __m128i newline = _mm_set1_epi8('\n'), space = _mm_set1_epi8(' ');
    const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    uint64_t digit = 0, blank = 0;
#pragma GCC unroll 4 /* constant shifts, and no loop for the usual short line */
    for (unsigned at = 0; at < LINE_BITS_MAX; at += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + at));
        /* a digit: v - '0' is 0..9, i.e. unchanged by min(., 9) */
        __m128i d = _mm_sub_epi8(v, zero);
        d = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);
        digit |= (uint64_t)(unsigned)_mm_movemask_epi8(d) << at;
        blank |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, space)) << at;
        unsigned nl = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, newline));
        if (nl) {
            b->digit = digit;
            b->blank = blank;
            b->len = at + (unsigned)__builtin_ctz(nl);
            if (b->len >= LINE_BITS_MAX - 1)
                break; /* as line_bits_bytes(): '\n' at 63 is too far */
            return;
        }
    }
    b->len = LINE_BITS_MAX;
#else
    line_bits_bytes(p, b);
#endif
}

/* Bits set in m, without a library call (the compiler's popcount is one
 * on a plain x86-64 target); used only for the rare long line. */
static inline unsigned bit_count(uint64_t m)
{
    m = m - ((m >> 1) & 0x5555555555555555u);
    m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (unsigned)((m * 0x0101010101010101u) >> 56);
}

/* Whether m has a run of 20 or more set bits: numbers of up to 19
 * digits cannot overflow 64 bits; longer ones are the exact path's. */
static inline bool has_run_of_20(uint64_t m)
{
    m &= m >> 1;  /* bit i: a run of 2 starts at i */
    m &= m >> 2;  /* 4 */
    m &= m >> 4;  /* 8 */
    m &= m >> 8;  /* 16 */
    m &= m >> 4;  /* 20 */
    return m != 0;
}

/* Whether c may start a cost line: '*', '+', '-' or a digit, tested
 * with one subtraction and one bit of a constant (bit k: '*' + k). */
static inline bool is_cost_line_start(char c)
{
    const uint32_t starts = 1u << 0 | 1u << ('+' - '*') | 1u << ('-' - '*') |
                            0x3ffu << ('0' - '*');
    unsigned k = (unsigned char)(c - '*');
    return k < 32 && (starts >> k & 1);
}

/* Whether c, a subposition's first byte and neither digit nor space,
 * fits the byte after it: a sign wants a digit, a "*" anything else. */
static inline bool position_mark_fits(char c, bool digit_next)
{
    return c == '*' ? !digit_next : (c == '+' || c == '-') && digit_next;
}

/* Whether the line at p, of bits b (line_bits()), is a cost line in the
 * plain form: npos subpositions, each "*" or an optional sign and decimal
 * digits (the first may also be "0x" and hexadecimal digits), then at
 * most max_costs decimal costs; tokens separated by
 * spaces (trailing spaces allowed), numbers of 1 to 19 digits, the '\n'
 * within the first 63 bytes.  If so, sets *cost_starts to the bits of the
 * costs' first bytes (0: no costs), and *token_starts to those of all
 * its tokens (for plain_subposition_at()).  False for anything else (other hex,
 * tabs, '\r', junk, too few subpositions, too many costs, a long number
 * or line, not a cost line at all): the caller then reads the line with
 * the exact scanners. */
static inline __attribute__((always_inline)) bool
plain_cost_line(const char *p, const struct line_bits *bits, size_t npos, size_t max_costs,
                uint64_t *cost_starts, uint64_t *token_starts)
{
    struct line_bits b = *bits;
    if (b.len >= LINE_BITS_MAX - 1)
        return false;
    uint64_t line = ((uint64_t)1 << b.len) - 1;
    uint64_t digit = b.digit & line;
    uint64_t token = line & ~b.blank;
    if (!(token & 1))
        return false; /* an empty line, or one that starts with a blank */
    uint64_t starts = token & ~(token << 1);  /* after a space, or at 0 */
    /* The first cost's start: the (npos + 1)th token's.  Clearing the
     * lowest bit of 0 leaves 0, so no test inside the loop. */
    uint64_t last_position = starts;
    for (size_t i = 1; i < npos; i++)
        last_position &= last_position - 1;
    if (!last_position && npos)
        return false; /* fewer subpositions than "positions:" */
    uint64_t costs = npos ? last_position & (last_position - 1) : starts;
    /* The subpositions' bytes: those before the first cost (all of them
     * if there is none: then costs & -costs is 0, and 0 - 1 all ones). */
    uint64_t positions = (costs & -costs) - 1;
    /* What is neither digit nor space may only be the first byte of a
     * subposition: "+N", "-N" or a lone "*". */
    uint64_t other = token & ~digit;
    if (other & ~(starts & positions)) {
        /* but for a first subposition "0x" and 1 to 16 hexadecimal digits
         * (callgrind's "instr" where it restarts: "0x1d4d0 0 1") */
        unsigned n = (unsigned)__builtin_ctzll(~token);
        if (!npos || p[0] != '0' || (p[1] | 0x20) != 'x' || n < 3 || n > 18)
            return false;
        for (unsigned i = 2; i < n; i++)
            if (hex_digit(p[i]) >= 16)
                return false;
        other &= ~(((uint64_t)1 << n) - 1);
        if (other & ~(starts & positions))
            return false;
    }
    if (other == 1) {
        /* the usual one, the first byte ("+3 0 1", "* 0 4"), on its own
         * to spare the loop below its branches */
        if (!position_mark_fits(p[0], digit & 2))
            return false;
    } else {
        for (uint64_t o = other; o; o &= o - 1) {
            unsigned i = (unsigned)__builtin_ctzll(o);
            if (!position_mark_fits(p[i], (digit >> (i + 1)) & 1))
                return false;
        }
    }
    if (b.len > 19 && has_run_of_20(digit))
        return false;
    /* A cost takes two bytes but the last: a line shorter than twice
     * max_costs cannot have too many, so most need no count. */
    if (b.len >= 2 * max_costs && bit_count(costs) > max_costs)
        return false;
    *cost_starts = costs;
    *token_starts = starts;
    return true;
}

/* The decimal number of len digits at p (1 to 19: plain_cost_line()
 * checked them): no overflow test.  The loop knows the length, so it
 * has no compare per digit. */
static inline uint64_t plain_decimal(const char *p, unsigned len)
{
    uint64_t v = (unsigned)(p[0] - '0');
    for (unsigned i = 1; i < len; i++)
        v = v * 10 + (unsigned)(p[i] - '0');
    return v;
}

/* The cost whose first byte is bit `start` of a line of bits b (checked
 * by plain_cost_line(), whose LINE_BITS_MAX bytes can be read). */
static inline uint64_t plain_cost_at(const char *p, const struct line_bits *b,
                                     unsigned start)
{
    /* the digits end at the first byte that is none: the '\n' at the
     * latest, whose bit is clear */
    unsigned len = (unsigned)__builtin_ctzll(~(b->digit >> start));
    return plain_decimal(p + start, len);
}

/* How many decimal digits the line of bits b has from bit `at` on. */
static inline unsigned digits_at(const struct line_bits *b, unsigned at)
{
    return (unsigned)__builtin_ctzll(~(b->digit >> at));
}

/* The value of subposition `index` (0: the first) of a cost line at p,
 * of bits b and token starts `starts`, checked by plain_cost_line(): "*"
 * is last, "+N" and "-N" are relative to it (wrapping, as the exact
 * path), "0xH" (the first subposition only) and "N" absolute. */
static inline __attribute__((always_inline)) uint64_t
plain_subposition_at(const char *p, const struct line_bits *b, uint64_t starts,
                     size_t index, uint64_t last)
{
    for (size_t i = 0; i < index; i++)
        starts &= starts - 1;
    unsigned at = (unsigned)__builtin_ctzll(starts);
    char c = p[at];
    if (c == '*')
        return last;
    if (c == '+')
        return last + plain_decimal(p + at + 1, digits_at(b, at + 1));
    if (c == '-')
        return last - plain_decimal(p + at + 1, digits_at(b, at + 1));
    if (c == '0' && (p[at + 1] | 0x20) == 'x') {
        uint64_t v = 0;
        for (const char *h = p + at + 2; hex_digit(*h) < 16; h++)
            v = v << 4 | hex_digit(*h);
        return v;
    }
    return plain_decimal(p + at, digits_at(b, at));
}

/* ---- position lines ----------------------------------------------- */

/* "(N)" from bit `at` to the end of the line at p, of bits b: sets *id.
 * False for anything else (the caller's exact path reads it then). */
static inline bool plain_name_id(const char *p, const struct line_bits *b, unsigned at,
                                 uint64_t *id)
{
    unsigned n = digits_at(b, at + 1);
    if (p[at] != '(' || n - 1 >= 19 || p[at + 1 + n] != ')' || at + 2 + n != b->len)
        return false;
    *id = plain_decimal(p + at + 1, n);
    return true;
}

/* A target subposition of a "calls="/"jump="/"jcnd=" line, the n bytes
 * at p (digit: their digit bits): "*", a sign and 1 to 19 decimal digits
 * or just the digits, or "0x" and 1 to 16 hexadecimal ones (none of
 * which can overflow). */
static inline bool plain_subposition(const char *p, uint64_t digit, unsigned n)
{
    uint64_t all = ((uint64_t)1 << n) - 1;
    if ((digit & all) == all)
        return n <= 19;
    if (p[0] == '*')
        return n == 1;
    if (p[0] == '+' || p[0] == '-')
        return n >= 2 && n <= 20 && (digit & all) == (all & ~(uint64_t)1);
    if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X') || n < 3 || n > 18)
        return false;
    for (unsigned i = 2; i < n; i++)
        if (hex_digit(p[i]) >= 16)
            return false;
    return true;
}

/* The value of a "calls=", "jump=" or "jcnd=" line from bit `at` of the
 * line at p, of bits b, in the form callgrind writes: a decimal count
 * ("N/M" for jcnd, two_counts), then at most npos target subpositions,
 * blanks between them.  Sets *count to the first count.  False for
 * anything else, for the exact path (body.c: check_arc()) to read. */
static inline __attribute__((always_inline)) bool
plain_arc(const char *p, const struct line_bits *b, unsigned at,
                             bool two_counts, size_t npos, uint64_t *count)
{
    unsigned len = b->len, n = digits_at(b, at), t = at + n;
    if (n - 1 >= 19)
        return false;
    *count = plain_decimal(p + at, n);
    if (two_counts) {
        unsigned m = digits_at(b, t + 1);
        if (p[t] != '/' || m - 1 >= 19)
            return false;
        t += 1 + m;
    }
    if (t < len && p[t] != ' ')
        return false;
    /* the targets' bytes: not blank, after the counts, before the '\n' */
    uint64_t token = (((uint64_t)1 << len) - 1) & ~(((uint64_t)1 << t) - 1) & ~b->blank;
    uint64_t starts = token & ~(token << 1);
    for (size_t i = 0; starts; i++, starts &= starts - 1) {
        unsigned s = (unsigned)__builtin_ctzll(starts);
        if (i == npos || !plain_subposition(p + s, b->digit >> s,
                                            (unsigned)__builtin_ctzll(~(token >> s))))
            return false;
    }
    return true;
}

#endif
