/* The exact scanners of callgrind.out: take a line's text, hand on its
 * numbers (or fail with the message of the first thing wrong). */
#include "body.h"
#include "read/lex.h"

#include <ctype.h>
#include <string.h>

uint64_t number_or_fail(struct parser *P, const char *p, const char *end,
                               const char *what)
{
    uint64_t v;
    if (!parse_number(p, end, &v)) {
        size_t n = (size_t)(end - p);
        bool digits = n > 0;
        for (size_t i = 0; i < n; i++)
            digits &= isdigit((unsigned char)p[i]) != 0;
        if (digits)
            fail(P, "%s " TOKEN_FMT " does not fit in 64 bits", what, TOKEN_ARGS(p, n));
        fail(P, "bad %s " TOKEN_FMT, what, TOKEN_ARGS(p, n));
    }
    return v;
}

/* A subposition: absolute number, "+N", "-N" or "*". Positions are not
 * needed for folding, so they are only checked. */
static void check_subposition(struct parser *P, const char *p, const char *end)
{
    if (end - p == 1 && *p == '*')
        return;
    if (*p == '+' || *p == '-')
        p++;
    number_or_fail(P, p, end, "subposition");
}

/* Value of the "instr" subposition token [p, end). */
static uint64_t instr_value(struct parser *P, const char *p, const char *end, uint64_t last)
{
    if (end - p == 1 && *p == '*')
        return last;
    if (*p == '+' || *p == '-')
        return *p == '+' ? last + number_or_fail(P, p + 1, end, "subposition")
                         : last - number_or_fail(P, p + 1, end, "subposition");
    return number_or_fail(P, p, end, "subposition");
}

/* Hot path of cost lines: a plain decimal token at p (p < end, not a
 * blank). Returns the end of the token and its value, or NULL if the token
 * is anything else (hex, sign, junk, overflow) and needs the slow path. */
static inline const char *scan_decimal(const char *p, const char *end, uint64_t *out)
{
    uint64_t v = 0;
    const char *start = p;
    while (p < end && (unsigned)(*p - '0') < 10) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return NULL;
        v = v * 10 + d;
        p++;
    }
    if (p == start || (p < end && !is_blank(*p)))
        return NULL;
    *out = v;
    return p;
}

/* Next subposition token starting at p (not a blank); returns its end.
 * With `value`, also the position it names: "+N"/"-N" and "*" are
 * relative to `last` (the "instr" and "line" ones are asked for). */
static inline const char *next_subposition(struct parser *P, const char *p, const char *end,
                                           uint64_t *value, uint64_t last)
{
    uint64_t v;
    const char *q = p;
    if (*q == '+' || *q == '-') {
        q++;
    } else if (*q == '*' && (q + 1 == end || is_blank(q[1]))) {
        if (value)
            *value = last;
        return q + 1;
    }
    if (q < end) {
        const char *t = scan_decimal(q, end, &v);
        if (t) {
            if (value)
                *value = *p == '+' ? last + v : *p == '-' ? last - v : v;
            return t;
        }
    }
    const char *t = token_end(p, end);
    if (value)
        *value = instr_value(P, p, t, last); /* hex, mostly: checked there too */
    else
        check_subposition(P, p, t);
    return t;
}

/* Next number token starting at p (not a blank); returns its end. */
static inline const char *next_number(struct parser *P, const char *p, const char *end,
                                      uint64_t *v, const char *what)
{
    const char *t = scan_decimal(p, end, v);
    if (t)
        return t;
    t = token_end(p, end);
    *v = number_or_fail(P, p, t, what);
    return t;
}

/* Parse costs from p to end (after the positions) into the chosen event. */
uint64_t parse_costs(struct parser *P, const char *p, const char *end)
{
    uint64_t result = 0;
    size_t column = 0;
    for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
        uint64_t v;
        const char *t = next_number(P, p, end, &v, "cost");
        if (column >= P->header.events.ncolumns)
            fail(P, "more costs than the %zu event(s) of the \"events:\" line",
                 P->header.events.ncolumns);
        if (P->all.nothers) /* all_events: the other events' costs too */
            P->body.cols[column] = v;
        if (column == P->header.single_column) {
            result = v;
        } else if (P->header.single_column == SIZE_MAX && P->header.weight[column]) {
            uint64_t term;
            if (!mul_u64(v, P->header.weight[column], &term) || !add_u64(result, term, &result))
                fail(P, "cost of the selected event overflows 64 bits");
        }
        column++;
        p = t;
    }
    P->body.ncols = column;
    return result;
}

/* "calls=COUNT TARGET" or "jump=COUNT TARGET" or "jcnd=EXE/JUMP TARGET":
 * a count (two for jcnd) and up to npositions subpositions. Returns the
 * first count. */
uint64_t check_arc_exact(struct parser *P, const char *p, const char *end,
                                bool two_counts)
{
    uint64_t first;
    p = skip_blanks(p, end);
    const char *t = token_end(p, end);
    const char *slash = two_counts ? memchr(p, '/', (size_t)(t - p)) : NULL;
    if (slash) {
        first = number_or_fail(P, p, slash, "count");
        number_or_fail(P, slash + 1, t, "count");
    } else {
        first = number_or_fail(P, p, t, "count");
        if (two_counts) {
            p = skip_blanks(t, end);
            t = token_end(p, end);
            number_or_fail(P, p, t, "count");
        }
    }
    size_t n = 0;
    for (p = skip_blanks(t, end); p < end; p = skip_blanks(p, end)) {
        t = token_end(p, end);
        if (++n > P->header.npositions)
            fail(P, "more target subpositions than \"positions:\" has");
        check_subposition(P, p, t);
        p = t;
    }
    return first;
}

void cost_line(struct parser *P, const char *p, const char *end)
{
    uint64_t addr = 0, line = 0;
    bool want_line = P->addr.line_pos != SIZE_MAX && P->t->opt.want_lines;
    for (size_t i = 0; i < P->header.npositions; i++) {
        p = skip_blanks(p, end);
        if (p == end)
            fail(P, "cost line has fewer than the %zu subposition(s) of "
                 "\"positions:\"", P->header.npositions);
        if (i == P->addr.line_pos && want_line)
            p = next_subposition(P, p, end, &line, P->addr.last_line);
        else if (i == P->addr.instr_pos && P->body.part.by_address)
            p = next_subposition(P, p, end, &addr, P->addr.last_instr);
        else
            p = next_subposition(P, p, end, NULL, P->addr.last_instr);
    }
    uint64_t cost = parse_costs(P, p, end);
    cost_line_values(P, addr, line, cost);
}

