/* Buffered output with XML, JSON and DOT escaping (textout.h). */
#include "textout.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLUSH_AT (1 << 16)

void to_init(struct textout *t, FILE *f)
{
    memset(t, 0, sizeof *t);
    t->f = f;
}

static void flush(struct textout *t)
{
    if (t->b.len && !t->error && fwrite(t->b.data, 1, t->b.len, t->f) != t->b.len)
        t->error = 1;
    t->b.len = 0;
}

int to_finish(struct textout *t)
{
    flush(t);
    buf_free(&t->b);
    return t->error ? -1 : 0;
}

void to_put(struct textout *t, const char *s, size_t n)
{
    buf_append(&t->b, s, n);
    if (t->b.len >= FLUSH_AT)
        flush(t);
}

void to_puts(struct textout *t, const char *s)
{
    to_put(t, s, strlen(s));
}

void to_printf(struct textout *t, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        to_put(t, small, (size_t)n);
        return;
    }
    char *big = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    to_put(t, big, (size_t)n);
    free(big);
}

void to_u64(struct textout *t, uint64_t v)
{
    char digits[U64_DIGITS];
    char *start = u64_digits(digits + sizeof digits, v, 1);
    to_put(t, start, (size_t)(digits + sizeof digits - start));
}

void to_fixed(struct textout *t, double v, int decimals)
{
    /* printf rounds the exact value of v * 10^decimals to an integer
     * (ties to even).  The product computed here is within half an ulp
     * of it, 1e-7 at most below 2^30: unless it lies within 1e-6 of a
     * tie, rounding it gives the same integer, whose digits are then
     * the text.  Negative numbers (and -0), huge ones, NaN and near-ties
     * go to snprintf. */
    static const double scale[] = {1, 10, 100, 1000, 1e4, 1e5, 1e6};
    if (decimals >= 0 && decimals <= 6 && v >= 0 && !signbit(v)) {
        double p = v * scale[decimals];
        if (p < 1073741824.0) {
            double whole = (double)(uint64_t)p; /* p >= 0: truncation is floor */
            double frac = p - whole;
            if (frac < 0.5 - 1e-6 || frac > 0.5 + 1e-6) {
                uint64_t n = (uint64_t)whole + (frac > 0.5);
                uint64_t unit = (uint64_t)scale[decimals];
                to_u64(t, n / unit);
                if (decimals > 0) {
                    char d[8];
                    d[0] = '.';
                    u64_digits(d + decimals + 1, n % unit, (unsigned)decimals);
                    to_put(t, d, (size_t)decimals + 1);
                }
                return;
            }
        }
    }
    to_printf(t, "%.*f", decimals, v);
}

void to_g(struct textout *t, double v)
{
    /* Integers and halves below 10000 (a flame graph's y coordinates):
     * at most 5 significant digits, which "%g" (6) writes in full, with
     * no exponent and no trailing zeros. */
    if (v >= 0 && v < 10000 && !signbit(v)) {
        double twice = v * 2;
        uint64_t n = (uint64_t)twice;
        if ((double)n == twice) {
            to_u64(t, n / 2);
            if (n % 2)
                to_put(t, ".5", 2);
            return;
        }
    }
    to_printf(t, "%g", v);
}

size_t utf8_decode(const char *str, size_t n, size_t i, unsigned *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned c = s[i];
    size_t len;
    unsigned min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, min = 0x80, c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, min = 0x800, c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, min = 0x10000, c &= 0x07;
    } else {
        *cp = 0xFFFD;
        return 1;
    }
    if (i + len > n) {
        *cp = 0xFFFD;
        return 1;
    }
    for (size_t k = 1; k < len; k++) {
        if ((s[i + k] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        c = c << 6 | (s[i + k] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *cp = 0xFFFD;
        return 1;
    }
    *cp = c;
    return len;
}

size_t utf8_chars(const char *s, size_t n)
{
    size_t chars = 0;
    unsigned cp;
    for (size_t i = 0; i < n; i += utf8_decode(s, n, i, &cp))
        chars++;
    return chars;
}

static void put_cp(struct textout *t, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp, n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    } else {
        u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    }
    to_put(t, u, n);
}

/* Characters XML 1.0 cannot hold at all. */
static bool xml_forbidden(unsigned cp)
{
    return (cp < 0x20 && cp != '\t') || cp == 0x7F || cp == 0xFFFE || cp == 0xFFFF;
}

enum esc_kind { ESC_XML, ESC_JSON, ESC_SCRIPT_JSON, ESC_DOT };

/* Whether s[0..n) is printable ASCII that needs no escape in XML: most
 * names, written as they are. */
static bool xml_plain(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7F || c == '<' || c == '>' || c == '&' || c == '"' ||
            c == '\'')
            return false;
    }
    return true;
}

static void escape(struct textout *t, const char *s, size_t n, size_t max_chars,
                   enum esc_kind kind)
{
    /* One byte is one character there, so no cut either when n fits. */
    if (kind == ESC_XML && (max_chars == 0 || n <= max_chars) && xml_plain(s, n)) {
        to_put(t, s, n);
        return;
    }
    size_t chars = 0;
    size_t run = 0; /* start of the pending run of plain bytes */
    size_t i = 0;
    while (i < n) {
        if (max_chars && chars == max_chars) {
            to_put(t, s + run, i - run);
            to_puts(t, "...");
            return;
        }
        unsigned cp;
        size_t len = utf8_decode(s, n, i, &cp);
        bool invalid = cp == 0xFFFD && len == 1;
        const char *rep = NULL;
        char tmp[8];
        switch (kind) {
        case ESC_XML:
            if (cp == '<') rep = "&lt;";
            else if (cp == '>') rep = "&gt;";
            else if (cp == '&') rep = "&amp;";
            else if (cp == '"') rep = "&quot;";
            else if (cp == '\'') rep = "&#39;";
            else if (xml_forbidden(cp)) invalid = true;
            break;
        case ESC_SCRIPT_JSON: /* inside an HTML <script>: no '<', '>', '&' */
            if (cp == '<') rep = "\\u003c";
            else if (cp == '>') rep = "\\u003e";
            else if (cp == '&') rep = "\\u0026";
            else if (cp == 0x2028 || cp == 0x2029) {
                snprintf(tmp, sizeof tmp, "\\u%04x", cp);
                rep = tmp;
            }
            if (rep)
                break;
            /* fall through */
        case ESC_JSON:
            if (cp == '"') rep = "\\\"";
            else if (cp == '\\') rep = "\\\\";
            else if (cp < 0x20) {
                snprintf(tmp, sizeof tmp, "\\u%04x", cp);
                rep = tmp;
            }
            break;
        case ESC_DOT:
            if (cp == '"') rep = "\\\"";
            else if (cp == '\\') rep = "\\\\";
            else if (cp < 0x20 || cp == 0x7F) invalid = true;
            break;
        }
        if (rep || invalid) {
            to_put(t, s + run, i - run);
            if (rep)
                to_puts(t, rep);
            else
                put_cp(t, 0xFFFD);
            run = i + len;
        }
        i += len;
        chars++;
    }
    to_put(t, s + run, n - run);
}

void to_xml(struct textout *t, const char *s, size_t n, size_t max_chars)
{
    escape(t, s, n, max_chars, ESC_XML);
}

void to_json(struct textout *t, const char *s, size_t n)
{
    escape(t, s, n, 0, ESC_JSON);
}

void to_script_json(struct textout *t, const char *s, size_t n)
{
    escape(t, s, n, 0, ESC_SCRIPT_JSON);
}

void to_dot(struct textout *t, const char *s, size_t n, size_t max_chars)
{
    escape(t, s, n, max_chars, ESC_DOT);
}

void to_script_json_string(struct textout *t, const char *s, size_t n)
{
    to_puts(t, "\"");
    to_script_json(t, s, n);
    to_puts(t, "\"");
}

void to_u64_array(struct textout *t, const uint64_t *v, size_t n)
{
    to_puts(t, "[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            to_puts(t, ",");
        to_u64(t, v[i]);
    }
    to_puts(t, "]");
}
