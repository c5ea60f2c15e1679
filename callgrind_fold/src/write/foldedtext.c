/* The folded stacks text, written (foldedtext.h). */
#include "foldedtext.h"
#include "util/util.h"

#include <stdlib.h>

/* Lines in stacks_sorted() order (order.c).  A line is built from the
 * line before: neighbours in byte order share their first frames (a deep
 * stack's siblings differ in the last few), so only the frames after the
 * shared ones are appended, not all of a thousand-byte line again; the
 * lines are then copied into blocks written whole. */
int stacks_write(const struct stacks *s, FILE *out)
{
    size_t n;
    uint32_t *shared;
    uint32_t *order = stacks_sorted_shared(s, NULL, &n, &shared);
    size_t ncounts; /* every stack written has a count */
    const uint64_t *count = stacks_col_counts(s, CHOSEN_COLUMN, &ncounts);
    int rc = 0;
    struct buf line = {0}, block = {0};
    size_t *frame_end = NULL; /* in `line`, where frame j of the last stack ends */
    size_t end_cap = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t nf;
        const uint32_t *f = stacks_path(s, order[i], &nf);
        size_t j = shared[i];
        line.len = j ? frame_end[j - 1] : 0;
        GROW(frame_end, end_cap, nf);
        for (; j < nf; j++) {
            if (j)
                buf_putc(&line, ';');
            buf_append(&line, strtab_str(&s->frames, f[j]), strtab_len(&s->frames, f[j]));
            frame_end[j] = line.len;
        }
        buf_append(&block, line.data, line.len);
        char num[U64_DIGITS + 2];
        num[sizeof num - 1] = '\n';
        char *start = u64_digits(num + sizeof num - 1, count[order[i]], 1);
        *--start = ' ';
        buf_append(&block, start, (size_t)(num + sizeof num - start));
        if (block.len >= (1 << 16) || i + 1 == n) {
            if (fwrite(block.data, 1, block.len, out) != block.len)
                rc = -1;
            block.len = 0;
        }
    }
    buf_free(&line);
    buf_free(&block);
    free(frame_end);
    free(order);
    free(shared);
    return rc;
}
