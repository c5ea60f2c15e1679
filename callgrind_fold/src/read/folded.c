/* Folded stacks text ("frame;frame;... count" lines): each line is added
 * to the file's stacks as it is, after checking its form, and the file
 * handed over as one section (folded.h). */
#include "folded.h"
#include "lex.h"

#include <stdio.h>
#include <string.h>

/* A line's stack and count: 1, or 0 for a line without one (empty, a
 * comment), or -1 with a message in d. */
static int folded_line(const char *line, size_t len, const char **stack, size_t *stack_len,
                       uint64_t *n, struct diag *d)
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
    bool digits = count < end;
    for (const char *p = count; p < end; p++)
        digits &= *p >= '0' && *p <= '9';
    if (stack_end == line || !digits) {
        snprintf(d->msg, sizeof d->msg,
                 "expected \"frame;frame;... count\" (folded stacks), got " TOKEN_FMT,
                 TOKEN_ARGS(line, len));
        return -1;
    }
    if (!parse_number(count, end, n)) {
        snprintf(d->msg, sizeof d->msg, "count " TOKEN_FMT " does not fit in 64 bits",
                 TOKEN_ARGS(count, (size_t)(end - count)));
        return -1;
    }
    *stack = line;
    *stack_len = (size_t)(stack_end - line);
    return 1;
}

/* The line read but not yet added: its frames are interned, and its
 * stack is added once the next line's frames are (stacks.h,
 * stacks_text_frames), so that the memory the stack's look-up needs is
 * on its way meanwhile; a million distinct stacks are a table far bigger
 * than the caches. */
struct pending {
    struct stacks *into;        /* the file's stacks */
    struct stacks_text text[2]; /* this line's and the next one's frames */
    int cur;                    /* text[cur] is the pending line's */
    bool full;
    uint64_t count;
    uint64_t lineno;
};

/* Adds the pending line, if any: 0, or -1 with d set for its line. */
static int add_pending(struct pending *p, struct diag *d)
{
    if (!p->full)
        return 0;
    p->full = false;
    const struct stacks_text *t = &p->text[p->cur];
    if (!stacks_add_hashed(p->into, CHOSEN_COLUMN, t->frames, t->n, t->hash, p->count)) {
        d->line = p->lineno;
        snprintf(d->msg, sizeof d->msg, "summed counts overflow 64 bits");
        return -1;
    }
    return 0;
}

/* One line: its frames interned, then the line before it added, in the
 * order of the lines for everything a line can report. */
static int take_line(struct pending *p, const char *line, size_t len, uint64_t lineno,
                     struct diag *d)
{
    const char *stack;
    size_t stack_len;
    uint64_t n;
    int rc = folded_line(line, len, &stack, &stack_len, &n, d);
    if (rc < 0) {
        struct diag mine = *d; /* the line before may fail first */
        if (add_pending(p, d))
            return -1;
        *d = mine;
        d->line = lineno;
        return -1;
    }
    if (rc == 0)
        return 0;
    int next = p->full ? 1 - p->cur : p->cur;
    stacks_text_frames(p->into, stack, stack_len, &p->text[next]);
    if (add_pending(p, d))
        return -1;
    p->cur = next;
    p->full = true;
    p->count = n;
    p->lineno = lineno;
    return 0;
}

static int read_lines(struct linereader *r, const char *first, size_t first_len,
                      struct pending *p, struct diag *d)
{
    if (take_line(p, first, first_len, r->lineno, d))
        return -1;
    for (;;) {
        const char *line;
        size_t len;
        enum lr_status st = lr_next(r, &line, &len);
        if (st == LR_EOF)
            return add_pending(p, d);
        if (st != LR_LINE) {
            if (add_pending(p, d))
                return -1;
            d->line = r->lineno + 1;
            snprintf(d->msg, sizeof d->msg, "%s",
                     st == LR_TOO_LONG ? "line longer than 64 MiB" : "read error");
            return -1;
        }
        if (take_line(p, line, len, r->lineno, d))
            return -1;
    }
}

int read_folded(struct linereader *r, const char *first, size_t first_len,
                struct read_target *t, struct diag *d)
{
    t->folded_inputs++;
    /* Folded text names no thread: --thread leaves it out (read all the
     * same, and checked, into stacks of its own, not handed over). */
    bool left_out = t->opt.nthreads > 0;
    struct section_info info = read_folded_section(t);
    struct stacks scratch;
    stacks_init(&scratch);
    /* folded text names no event: its counts are the chosen event's
     * (columns.h) */
    struct pending p = {.into = left_out ? &scratch : read_section_open(t, &info)};
    int rc = read_lines(r, first, first_len, &p, d);
    stacks_text_free(&p.text[0]);
    stacks_text_free(&p.text[1]);
    stacks_free(&scratch);
    if (rc == 0 && !left_out && read_section_stacks(t, &info, p.into, d->msg, sizeof d->msg)) {
        d->line = 0;
        rc = -1;
    }
    return rc;
}
