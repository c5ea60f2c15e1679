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

/* Parse a decimal or 0x-hexadecimal number filling [p, end) exactly;
 * false if it does not, or does not fit in 64 bits (lex.c). */
bool parse_number(const char *p, const char *end, uint64_t *out);

/* Shows a token in a message without flooding the terminal. */
#define TOKEN_FMT "\"%.*s%s\""
#define TOKEN_ARGS(p, n) (int)((n) > 40 ? 40 : (n)), (p), ((n) > 40 ? "..." : "")

#endif
