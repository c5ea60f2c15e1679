/* --diff BASE: the base profile's stacks aligned with the new one's,
 * and "stack before after" lines (diff.h). */
#include "diff.h"
#include "foldedtext.h"
#include "textout.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

uint64_t *diff_align(struct stacks *s, const struct stacks *b)
{
    size_t nframes = stacks_count_frames(b), nids = stacks_count_ids(b);
    uint32_t *frame = xmalloc((nframes ? nframes : 1) * sizeof *frame);
    for (size_t f = 0; f < nframes; f++)
        frame[f] = stacks_frame_from(s, b, (uint32_t)f);
    uint32_t *map = xmalloc((nids ? nids : 1) * sizeof *map);
    for (size_t id = 0; id < nids; id++) /* a count of 0 makes the stack known */
        map[id] = stacks_count(b, CHOSEN_COLUMN, (uint32_t)id) == 0
                      ? UINT32_MAX
                      : stacks_intern_mapped(s, b, (uint32_t)id, frame);
    uint64_t *base_count = xcalloc(stacks_count_ids(s), sizeof *base_count);
    for (size_t id = 0; id < nids; id++)
        if (map[id] != UINT32_MAX)
            base_count[map[id]] = stacks_count(b, CHOSEN_COLUMN, (uint32_t)id);
    free(map);
    free(frame);
    return base_count;
}

int diff_write_folded(const struct stacks *s, const uint64_t *base_count, FILE *out)
{
    size_t n;
    uint32_t *order = stacks_sorted(s, base_count, &n);
    struct textout o;
    to_init(&o, out);
    for (size_t i = 0; i < n; i++) {
        size_t nf;
        const uint32_t *f = stacks_path(s, order[i], &nf);
        for (size_t k = 0; k < nf; k++) {
            if (k)
                to_put(&o, ";", 1);
            size_t len;
            const char *text = stacks_frame_text(s, f[k], &len);
            to_put(&o, text, len);
        }
        to_printf(&o, " %" PRIu64 " %" PRIu64 "\n", base_count[order[i]],
                  stacks_count(s, CHOSEN_COLUMN, order[i]));
    }
    free(order);
    return to_finish(&o);
}
