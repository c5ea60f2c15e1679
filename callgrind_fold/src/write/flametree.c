/* The tree of frames a flame graph draws, built from the sorted stacks,
 * narrow frames merged (flametree.h). */
#include "flametree.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* qsort has no context argument. */
static const struct stacks *sort_s;
static const uint32_t *sort_rank;

static int by_text(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    const struct strtab *t = &sort_s->frames;
    size_t la = strtab_len(t, a), lb = strtab_len(t, b);
    int c = memcmp(strtab_str(t, a), strtab_str(t, b), la < lb ? la : lb);
    if (c)
        return c;
    return la < lb ? -1 : la > lb;
}

static const uint32_t *path_of(const struct stacks *s, uint32_t id, size_t *n)
{
    *n = strtab_len(&s->paths, id) / sizeof(uint32_t);
    return (const uint32_t *)(const void *)strtab_str(&s->paths, id);
}

static int by_ranks(const void *pa, const void *pb)
{
    size_t na, nb;
    const uint32_t *a = path_of(sort_s, *(const uint32_t *)pa, &na);
    const uint32_t *b = path_of(sort_s, *(const uint32_t *)pb, &nb);
    for (size_t i = 0; i < na && i < nb; i++)
        if (a[i] != b[i])
            return sort_rank[a[i]] < sort_rank[b[i]] ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

static uint32_t new_node(struct flame_tree *t, uint32_t frame, uint32_t depth)
{
    if (t->count >= UINT32_MAX - 1)
        out_of_memory();
    if (t->count >= t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        t->frame = xrealloc(t->frame, cap * sizeof *t->frame);
        t->depth = xrealloc(t->depth, cap * sizeof *t->depth);
        t->end = xrealloc(t->end, cap * sizeof *t->end);
        t->value = xrealloc(t->value, cap * sizeof *t->value);
        t->merged = xrealloc(t->merged, cap * sizeof *t->merged);
        if (t->base)
            t->base = xrealloc(t->base, cap * sizeof *t->base);
        t->cap = cap;
    }
    size_t i = t->count++;
    t->frame[i] = frame;
    t->depth[i] = depth;
    t->end[i] = 0;
    t->value[i] = 0;
    t->merged[i] = 0;
    if (t->base)
        t->base[i] = 0;
    if (depth > t->max_depth)
        t->max_depth = depth;
    return (uint32_t)i;
}

/* Node i's subtree is complete: collapse it if it is narrow. */
static void close_node(struct flame_tree *t, uint32_t i, double scale, double minwidth)
{
    t->end[i] = (uint32_t)t->count;
    if (i == 0 || !flame_narrow(t->value[i], scale, minwidth))
        return;
    t->count = (size_t)i + 1;
    t->end[i] = i + 1;
    t->merged[i] = 1;
    uint32_t prev = i - 1; /* a collapsed sibling just before: join it */
    if (t->merged[prev] && t->depth[prev] == t->depth[i]) {
        t->value[prev] += t->value[i];
        if (t->base)
            t->base[prev] += t->base[i];
        t->merged[prev]++;
        t->count = i;
        t->end[prev] = i;
    }
}

void flame_build(struct flame_tree *t, const struct stacks *s, const uint64_t *base_count,
                 double scale, double minwidth)
{
    memset(t, 0, sizeof *t);
        if (base_count)
        t->base = xmalloc(sizeof *t->base);

    /* Rank of every frame in byte order of its text. */
    size_t nframes = s->frames.count;
    uint32_t *by_name = xmalloc((nframes ? nframes : 1) * sizeof *by_name);
    uint32_t *rank = xmalloc((nframes ? nframes : 1) * sizeof *rank);
    for (size_t i = 0; i < nframes; i++)
        by_name[i] = (uint32_t)i;
    sort_s = s;
    qsort(by_name, nframes, sizeof *by_name, by_text);
    for (size_t i = 0; i < nframes; i++)
        rank[by_name[i]] = (uint32_t)i;
    free(by_name);

    size_t n = 0;
    uint32_t *order = xmalloc((s->paths.count ? s->paths.count : 1) * sizeof *order);
    for (size_t id = 0; id < s->paths.count; id++)
        if (s->count[id] || (base_count && base_count[id]))
            order[n++] = (uint32_t)id;
    sort_rank = rank;
    qsort(order, n, sizeof *order, by_ranks);

    /* open[k]: node at depth k of the current stack. */
    uint32_t *open = NULL;
    size_t open_cap = 0, nopen = 1;
    GROW(open, open_cap, 0);
    open[0] = new_node(t, FLAME_ROOT_FRAME, 0);
    for (size_t i = 0; i < n; i++) {
        size_t nf;
        const uint32_t *f = path_of(s, order[i], &nf);
        size_t common = 0;
        while (common < nf && common + 1 < nopen && t->frame[open[common + 1]] == f[common])
            common++;
        while (nopen > common + 1)
            close_node(t, open[--nopen], scale, minwidth);
        for (size_t k = common; k < nf; k++) {
            GROW(open, open_cap, nopen);
            open[nopen] = new_node(t, f[k], (uint32_t)nopen);
            nopen++;
        }
        uint64_t c = s->count[order[i]], b = base_count ? base_count[order[i]] : 0;
        for (size_t k = 0; k < nopen; k++) {
            t->value[open[k]] += c;
            if (t->base)
                t->base[open[k]] += b;
        }
    }
    while (nopen > 0)
        close_node(t, open[--nopen], scale, minwidth);
    free(open);
    free(order);
    free(rank);
}

void flame_free(struct flame_tree *t)
{
    free(t->frame);
    free(t->depth);
    free(t->end);
    free(t->value);
    free(t->merged);
    free(t->base);
    memset(t, 0, sizeof *t);
}
