/* Lexical helpers shared by the readers of callgrind.out, the folded tree,
 * folded stacks and "events:"/"event:" lines: tokens are separated by blanks (space or
 * tab), lines are [p, end) ranges without their newline. */
#ifndef CF_LEX_H
#define CF_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static inline const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && is_blank(*p))
        p++;
    return p;
}

static inline const char *token_end(const char *p, const char *end)
{
    while (p < end && !is_blank(*p))
        p++;
    return p;
}

/* Whether the key [key, key + n) is <want>. */
static inline bool key_is(const char *key, size_t n, const char *want)
{
    return strlen(want) == n && memcmp(key, want, n) == 0;
}

static inline bool is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

/* 0-15 for a hexadecimal digit, 16 for any other byte: one load instead of
 * two range tests and their branches (lex.c). */
extern const unsigned char hex_digit_value[256];

static inline unsigned hex_digit(char c)
{
    return hex_digit_value[(unsigned char)c];
}

bool parse_number_checked(const char *p, const char *end, uint64_t *out);

/* Parse a decimal or 0x-hexadecimal number filling [p, end) exactly;
 * false if it does not, or does not fit in 64 bits.
 *
 * Inline for the usual short number: 1 to 19 decimal digits (or 1 to 16
 * hexadecimal ones) cannot overflow 64 bits, so that loop has no overflow
 * test; anything else goes to parse_number_checked() (lex.c), the exact
 * digit-by-digit version, which also says no to what is not a number. */
static inline bool parse_number(const char *p, const char *end, uint64_t *out)
{
    size_t n = (size_t)(end - p);
    uint64_t v = 0;
    if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        if (n - 2 > 16)
            return parse_number_checked(p, end, out);
        for (const char *q = p + 2; q < end; q++) {
            unsigned d = hex_digit(*q);
            if (d >= 16)
                return false;
            v = v << 4 | d;
        }
    } else {
        if (n - 1 >= 19) /* empty, or maybe too long */
            return parse_number_checked(p, end, out);
        for (const char *q = p; q < end; q++) {
            unsigned d = (unsigned char)(*q - '0');
            if (d >= 10)
                return false;
            v = v * 10 + d;
        }
    }
    *out = v;
    return true;
}

/* ---- fast scanners ------------------------------------------------------
 *
 * These run on the hot lines (cost lines, node lines of a folded tree) and
 * rely on the line reader's promise that the byte after every line is '\n'
 * or '\r' (linereader.h): a digit loop stops at the first non-digit
 * without also testing for the end of the line, one compare per byte
 * instead of two.  They never report errors: anything unusual makes them
 * return NULL, and the caller reads the line again with the exact, slower
 * helpers above, which give the messages.  So what is accepted, and every
 * error, stays the same. */

/* scan_udec: a decimal number of 1 to 19 digits at p; scan_uint: that or
 * "0x"/"0X" and 1 to 16 hexadecimal digits.  Those lengths cannot
 * overflow 64 bits, so the digit loops have no overflow test; longer numbers (which may still fit,
 * with leading zeros) return NULL for parse_number().  Returns the end of
 * the digits; what follows them is the caller's to check. */
static inline const char *scan_udec(const char *p, uint64_t *out)
{
    const char *start = p;
    uint64_t v = 0;
    unsigned d;
    while ((d = (unsigned char)(*p - '0')) < 10) {
        v = v * 10 + d;
        p++;
    }
    if (p == start || p - start > 19)
        return NULL;
    *out = v;
    return p;
}

static inline const char *scan_uint(const char *p, uint64_t *out)
{
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        const char *start = p;
        uint64_t v = 0;
        unsigned d;
        while ((d = hex_digit(*p)) < 16) {
            v = v << 4 | d;
            p++;
        }
        if (p == start || p - start > 16)
            return NULL;
        *out = v;
        return p;
    }
    return scan_udec(p, out);
}

/* The npos subpositions of a cost line at p ("+3 * 0x1f ...") when none
 * of their values is wanted (costrun.c: no --inline, no sources kept): only
 * checked, their digits skipped without arithmetic.  Each is "*", or an
 * optional sign and 1 to 19 decimal or "0x" and 1 to 16 hexadecimal
 * digits; blanks after each.  Returns where the costs start (the '\n' if
 * there are none), or NULL for anything else. */
static inline const char *skip_subpositions(const char *p, size_t npos)
{
    for (size_t i = 0; i < npos; i++) {
        char c = *p;
        if (c == '*') {
            p++;
        } else {
            p += c == '+' || c == '-';
            const char *start = p;
            /* (size_t)(p - start) - 1 >= N: no digit, or more than N */
            if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
                start = p += 2;
                while (hex_digit(*p) < 16)
                    p++;
                if ((size_t)(p - start) - 1 >= 16)
                    return NULL;
            } else {
                while (is_digit(*p))
                    p++;
                if ((size_t)(p - start) - 1 >= 19)
                    return NULL;
            }
        }
        if (!is_blank(*p))
            return *p == '\n' && i + 1 == npos ? p : NULL; /* no costs: 0 */
        do
            p++;
        while (is_blank(*p));
    }
    return p;
}

/* The cost columns of a line: decimal numbers separated by blanks, from p
 * to the end of the line (blanks may trail).  Stores each into cols[0],
 * cols[1], ... (at most max of them), sets *n to their count and returns
 * the end of the line (its '\n').  NULL if the line needs the exact path:
 * a token that is not 1 to 19 decimal digits, more than max columns, junk,
 * or a line ending in "\r\n".  Columns after the last are the caller's to
 * zero (callgrind leaves out trailing zero costs).
 *
 * Inline and without calls: it runs once per cost line, and most lines
 * hold one to three short numbers, so per-call overhead would be a good
 * part of the work. */
static inline const char *scan_cost_columns(const char *p, uint64_t *cols, size_t max,
                                            size_t *n)
{
    size_t k = 0;
    for (;;) {
        unsigned d = (unsigned char)(p[0] - '0');
        if (d >= 10) {
            if (!is_blank(p[0]))
                break; /* the end of the line, or junk: told apart below */
            p++;
            continue;
        }
        if (k == max)
            return NULL;
        /* Most costs are one digit followed by a space ("1 0 0 2"): that
         * is two loads and a compare.  p[1] can be read: p[0] is a digit,
         * so the line's '\n' is still to come. */
        if (p[1] == ' ' || (unsigned char)(p[1] - '0') >= 10) {
            cols[k++] = d;
            p += 1 + (p[1] == ' ');
            continue;
        }
        const char *start = p;
        uint64_t v = d;
        while ((d = (unsigned char)(*++p - '0')) < 10)
            v = v * 10 + d;
        if ((size_t)(p - start) > 19)
            return NULL;
        cols[k++] = v;
        p += *p == ' '; /* the space after it, as above */
    }
    if (*p != '\n')
        return NULL;
    *n = k;
    return p;
}

/* Shows a token in a message without flooding the terminal. */
#define TOKEN_FMT "\"%.*s%s\""
#define TOKEN_ARGS(p, n) (int)((n) > 40 ? 40 : (n)), (p), ((n) > 40 ? "..." : "")

#endif
