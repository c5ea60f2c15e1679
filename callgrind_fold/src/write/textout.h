/* Buffered text output with the escaping every picture format needs:
 * XML (SVG), JSON (speedscope) and DOT strings. Names come from profiles
 * and may hold any byte: invalid UTF-8 and control characters are written
 * as U+FFFD, so the output is always valid UTF-8 in its format. */
#ifndef CF_TEXTOUT_H
#define CF_TEXTOUT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

struct textout {
    FILE *f;
    struct buf b;
    int error;          /* a write failed (errno kept) */
};

void to_init(struct textout *t, FILE *f);
/* Flushes and frees; returns 0 or -1 if any write failed. */
int to_finish(struct textout *t);
void to_put(struct textout *t, const char *s, size_t n);
void to_puts(struct textout *t, const char *s);
void to_printf(struct textout *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Numbers as printf writes them, without printf: a flame graph writes
 * several per frame, and glibc's printf of a double (exact decimal
 * expansion, multi-precision) costs a microsecond or so each.
 * to_u64: "%" PRIu64.  to_fixed: "%.*f" (decimals 0 to 6).  to_g: "%g".
 * to_fixed and to_g take a short path for the common values and leave
 * the others to snprintf, so the text is always printf's. */
void to_u64(struct textout *t, uint64_t v);
void to_fixed(struct textout *t, double v, int decimals);
void to_g(struct textout *t, double v);

/* Escaped text of s[0..n), at most max_chars characters (then "..."),
 * 0 for no limit. */
void to_xml(struct textout *t, const char *s, size_t n, size_t max_chars);
void to_json(struct textout *t, const char *s, size_t n);
/* to_json for a JSON text inside an HTML <script> element: '<', '>' and
 * '&' written as \u003c..., so no "</script>" or "<!--" can end it. */
void to_script_json(struct textout *t, const char *s, size_t n);
/* to_script_json in quotes: a JSON string of the page's data. */
void to_script_json_string(struct textout *t, const char *s, size_t n);
/* A JSON array of numbers: [v0,v1,...]. */
void to_u64_array(struct textout *t, const uint64_t *v, size_t n);
void to_dot(struct textout *t, const char *s, size_t n, size_t max_chars);

/* Decodes one character at s[i] (i < n): returns its length in bytes and
 * sets *cp, or returns 1 with *cp = 0xFFFD for an invalid byte. */
size_t utf8_decode(const char *s, size_t n, size_t i, unsigned *cp);
/* Number of characters (as utf8_decode counts them). */
size_t utf8_chars(const char *s, size_t n);

#endif
