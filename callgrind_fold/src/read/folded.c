/* Folded stacks text ("frame;frame;... count" lines): each line is merged
 * into the run's stacks as it is, after checking its form (folded.h). */
#include "folded.h"
#include "lex.h"

#include <stdio.h>
#include <string.h>

static int folded_line(const char *line, size_t len, struct read_target *t,
                       struct diag *d)
{
    if (len == 0 || line[0] == '#')
        return 0;
    if (memchr(line, '\0', len)) {
        snprintf(d->msg, sizeof d->msg, "NUL byte in line (binary file?)");
        return -1;
    }
    const char *end = line + len;
    while (end > line && is_blank(end[-1]))
        end--;
    if (end == line)
        return 0;
    const char *count = end;
    while (count > line && !is_blank(count[-1]))
        count--;
    const char *stack_end = count;
    while (stack_end > line && is_blank(stack_end[-1]))
        stack_end--;
    uint64_t n;
    bool digits = count < end;
    for (const char *p = count; p < end; p++)
        digits &= *p >= '0' && *p <= '9';
    if (stack_end == line || !digits) {
        snprintf(d->msg, sizeof d->msg,
                 "expected \"frame;frame;... count\" (folded stacks), got " TOKEN_FMT,
                 TOKEN_ARGS(line, len));
        return -1;
    }
    if (!parse_number(count, end, &n)) {
        snprintf(d->msg, sizeof d->msg, "count " TOKEN_FMT " does not fit in 64 bits",
                 TOKEN_ARGS(count, (size_t)(end - count)));
        return -1;
    }
    if (!stacks_add_text(t->stacks, line, (size_t)(stack_end - line), n)) {
        snprintf(d->msg, sizeof d->msg, "summed counts overflow 64 bits");
        return -1;
    }
    return 0;
}

int read_folded(struct linereader *r, const char *first, size_t first_len,
                struct read_target *t, struct diag *d)
{
    t->folded_inputs++;
    stacks_use_column(t->stacks, 0); /* with all_events: counts of every event */
    if (folded_line(first, first_len, t, d)) {
        d->line = r->lineno;
        return -1;
    }
    for (;;) {
        const char *line;
        size_t len;
        enum lr_status st = lr_next(r, &line, &len);
        if (st == LR_EOF)
            return 0;
        if (st != LR_LINE) {
            d->line = r->lineno + 1;
            snprintf(d->msg, sizeof d->msg, "%s",
                     st == LR_TOO_LONG ? "line longer than 64 MiB" : "read error");
            return -1;
        }
        if (folded_line(line, len, t, d)) {
            d->line = r->lineno;
            return -1;
        }
    }
}
