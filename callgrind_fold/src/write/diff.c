/* --diff BASE: the base profile's stacks aligned with the new one's,
 * and "stack before after" lines (diff.h). */
#include "diff.h"
#include "textout.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

uint64_t *diff_align(struct fold_ctx *ctx, const struct fold_ctx *base)
{
    const struct stacks *b = &base->out;
    struct stacks *s = &ctx->out;
    uint32_t *frame = xmalloc((b->frames.count ? b->frames.count : 1) * sizeof *frame);
    for (size_t f = 0; f < b->frames.count; f++)
        frame[f] = stacks_frame(s, strtab_str(&b->frames, (uint32_t)f),
                                strtab_len(&b->frames, (uint32_t)f));
    uint32_t *map = xmalloc((b->paths.count ? b->paths.count : 1) * sizeof *map);
    uint32_t *path = NULL;
    size_t path_cap = 0;
    for (size_t id = 0; id < b->paths.count; id++) {
        map[id] = UINT32_MAX;
        if (b->count[id] == 0)
            continue;
        size_t nf = strtab_len(&b->paths, (uint32_t)id) / sizeof(uint32_t);
        const uint32_t *f = (const uint32_t *)(const void *)strtab_str(&b->paths, (uint32_t)id);
        GROW(path, path_cap, nf);
        for (size_t k = 0; k < nf; k++)
            path[k] = frame[f[k]];
        stacks_add(s, path, nf, 0); /* makes the stack known with its count */
        map[id] = strtab_intern(&s->paths, (const char *)path, nf * sizeof *path);
    }
    uint64_t *base_count = xcalloc(s->paths.count, sizeof *base_count);
    for (size_t id = 0; id < b->paths.count; id++)
        if (map[id] != UINT32_MAX)
            base_count[map[id]] = b->count[id];
    free(path);
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
        size_t nf = strtab_len(&s->paths, order[i]) / sizeof(uint32_t);
        const uint32_t *f = (const uint32_t *)(const void *)strtab_str(&s->paths, order[i]);
        for (size_t k = 0; k < nf; k++) {
            if (k)
                to_put(&o, ";", 1);
            to_put(&o, strtab_str(&s->frames, f[k]), strtab_len(&s->frames, f[k]));
        }
        to_printf(&o, " %" PRIu64 " %" PRIu64 "\n", base_count[order[i]], s->count[order[i]]);
    }
    free(order);
    return to_finish(&o);
}
