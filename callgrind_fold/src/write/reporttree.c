/* The HTML report's tree of one part, pruned below what can be drawn
 * (reporttree.h). */
#include "reporttree.h"
#include "stacktrie.h"
#include "stacks/present.h"

#include <stdlib.h>
#include <string.h>

/* ---- names ----------------------------------------------------------------- */

struct report_frame_map {
    const struct stacks *stacks;
    uint32_t *name; /* frame id -> name id, UINT32_MAX until looked up */
    size_t n;
};

void report_names_init(struct report_names *n)
{
    memset(n, 0, sizeof *n);
    strtab_init(&n->tab);
    strtab_intern(&n->tab, ";merged", 7);
    strtab_intern(&n->tab, ";root", 5);
    GROW(n->origin, n->origin_cap, REPORT_NAME_ROOT);
    n->origin[REPORT_NAME_MERGED] = n->origin[REPORT_NAME_ROOT] =
        (struct report_name_origin){NULL, 0};
}

void report_names_free(struct report_names *n)
{
    for (size_t i = 0; i < n->nmaps; i++)
        free(n->maps[i].name);
    free(n->maps);
    free(n->origin);
    strtab_free(&n->tab);
}

/* The frame map of s (parts of one run may share their stacks). */
static struct report_frame_map *map_of(struct report_names *n, const struct stacks *s)
{
    for (size_t i = 0; i < n->nmaps; i++)
        if (n->maps[i].stacks == s)
            return &n->maps[i];
    GROW(n->maps, n->cap, n->nmaps);
    struct report_frame_map *m = &n->maps[n->nmaps++];
    m->stacks = s;
    m->n = stacks_count_frames(s);
    m->name = xmalloc((m->n ? m->n : 1) * sizeof *m->name);
    memset(m->name, 0xff, m->n * sizeof *m->name);
    return m;
}

static uint32_t name_of(struct report_names *n, struct report_frame_map *m, uint32_t frame)
{
    if (m->name[frame] == UINT32_MAX) {
        size_t len; /* by key: frames that read alike may be two functions */
        const char *key = stacks_frame_key(m->stacks, frame, &len);
        uint32_t id = strtab_intern(&n->tab, key, len);
        m->name[frame] = id;
        GROW(n->origin, n->origin_cap, id);
        if (id + 1 == n->tab.count) /* new */
            n->origin[id] = (struct report_name_origin){m->stacks, frame};
    }
    return m->name[frame];
}

uint32_t report_name_of(struct report_names *n, const struct stacks *s, uint32_t frame)
{
    return name_of(n, map_of(n, s), frame);
}

/* ---- the whole tree ------------------------------------------------------ */

/* Every prefix of the stacks, before pruning, labelled by name id, and
 * each node's self counts (ncols a node). */
struct trie {
    struct stack_trie t;
    uint64_t *self;
    size_t self_cap, ncols;
};

/* Code no object and no perf map knows: the reader names code of a
 * known object by it ("libc.so.6+0x26040"), so only this is "0x...". */
static bool unknown_frame(const struct stacks *s, uint32_t frame)
{
    size_t len;
    const char *text = stacks_frame_text(s, frame, &len);
    return addr_name_unknown(text, len);
}

/* A frame's label in the trie: its name (stack_trie_label_fn). */
struct labels {
    struct report_names *names;
    struct report_frame_map *m;
};

static uint32_t label_of(void *ctx, uint32_t frame)
{
    struct labels *l = ctx;
    return name_of(l->names, l->m, frame);
}

/* Adds a source's stacks. */
static void add_source(struct trie *t, struct report_names *names,
                       const struct report_source *src, uint64_t *unknown)
{
    const struct stacks *s = src->stacks;
    struct labels labels = {names, map_of(names, s)};
    struct stack_trie_cursor cursor = {0};
    size_t nids = stacks_count_ids(s);
    for (size_t id = 0; id < nids; id++) {
        bool any = false;
        for (size_t e = 0; e < src->ncolumns; e++)
            any |= stacks_count(s, src->columns[e].col, (uint32_t)id) != 0;
        if (!any)
            continue;
        size_t n;
        const uint32_t *path = stacks_path(s, (uint32_t)id, &n);
        uint32_t node = stack_trie_add(&t->t, &cursor, path, n, label_of, &labels);
        if (t->t.count > t->self_cap) {
            size_t cap = t->self_cap ? t->self_cap : 1024;
            while (cap < t->t.count)
                cap *= 2;
            t->self = xrealloc(t->self, cap * t->ncols * sizeof *t->self);
            memset(t->self + t->self_cap * t->ncols, 0,
                   (cap - t->self_cap) * t->ncols * sizeof *t->self);
            t->self_cap = cap;
        }
        uint64_t *self = t->self + (size_t)node * t->ncols + src->first;
        bool unknown_leaf = n > 0 && unknown_frame(s, path[n - 1]);
        for (size_t e = 0; e < src->ncolumns; e++) {
            uint64_t c = stacks_count(s, src->columns[e].col, (uint32_t)id);
            self[e] += c;
            if (unknown_leaf)
                unknown[src->first + e] += c;
        }
    }
    stack_trie_cursor_free(&cursor);
}

/* ---- pruning, in preorder ------------------------------------------------ */

static const struct strtab *sort_names;
static const uint32_t *sort_name_of;

static int by_name(const void *pa, const void *pb)
{
    uint32_t a = sort_name_of[*(const uint32_t *)pa], b = sort_name_of[*(const uint32_t *)pb];
    size_t la = strtab_len(sort_names, a), lb = strtab_len(sort_names, b);
    int c = memcmp(strtab_str(sort_names, a), strtab_str(sort_names, b), la < lb ? la : lb);
    if (c)
        return c;
    return la < lb ? -1 : la > lb;
}

static void add_node(struct report_tree *t, size_t *cap, uint32_t depth, uint32_t name,
                     const uint64_t *self)
{
    if (t->count >= *cap) {
        *cap = *cap ? *cap * 2 : 1024;
        t->depth = xrealloc(t->depth, *cap * sizeof *t->depth);
        t->name = xrealloc(t->name, *cap * sizeof *t->name);
        t->self = xrealloc(t->self, *cap * t->ncols * sizeof *t->self);
    }
    size_t i = t->count++;
    t->depth[i] = depth;
    t->name[i] = name;
    memcpy(t->self + i * t->ncols, self, t->ncols * sizeof *self);
}

/* An entry of the walk: a trie node to emit, or (node == UINT32_MAX) a
 * "(merged)" node whose counts are at merged[at]. */
struct visit {
    uint32_t node, depth;
    size_t at;
};

static void prune(struct report_tree *out, const struct trie *t, const uint64_t *incl,
                  const uint64_t *size, const struct report_names *names, int flags)
{
    size_t ncols = t->ncols;
    /* A node is kept when it reaches the threshold in some column. */
    uint64_t *thr = xmalloc(ncols * sizeof *thr);
    for (size_t c = 0; c < ncols; c++) {
        uint64_t total = incl[c];
        thr[c] = total / REPORT_TREE_DIVISOR + (total % REPORT_TREE_DIVISOR != 0);
        if (thr[c] == 0)
            thr[c] = 1;
    }
    struct stack_trie_kids g;
    stack_trie_group(&t->t, &g);
    const uint32_t *first = g.first;

    uint64_t *merged = NULL; /* counts of "(merged)" nodes, ncols each */
    size_t nmerged = 0, merged_cap = 0;
    struct visit *stack = NULL;
    size_t nstack = 0, stack_cap = 0, cap = 0;
    uint32_t *keep = NULL;
    size_t keep_cap = 0;
    GROW(stack, stack_cap, 0);
    stack[nstack++] = (struct visit){0, 0, 0};
    sort_names = &names->tab;
    sort_name_of = t->t.label;
    while (nstack > 0) {
        struct visit v = stack[--nstack];
        if (v.node == UINT32_MAX) {
            add_node(out, &cap, v.depth, REPORT_NAME_MERGED, merged + v.at * ncols);
            continue;
        }
        add_node(out, &cap, v.depth, t->t.label[v.node],
                 t->self + (size_t)v.node * ncols);
        uint32_t *k = g.kid + first[v.node];
        size_t nk = first[v.node + 1] - first[v.node], nkeep = 0;
        if (v.node != 0 || !(flags & REPORT_ROOTS_IN_ORDER))
            qsort(k, nk, sizeof *k, by_name); /* else as made: in the sources' order */
        GROW(keep, keep_cap, nk);
        size_t at = nmerged;
        bool any_merged = false;
        for (size_t j = 0; j < nk; j++) {
            const uint64_t *ci = incl + (size_t)k[j] * ncols;
            bool wide = false;
            for (size_t c = 0; c < ncols && !wide; c++)
                wide = ci[c] >= thr[c];
            if (wide) {
                keep[nkeep++] = k[j];
                continue;
            }
            if (!any_merged) {
                GROW(merged, merged_cap, (nmerged + 1) * ncols);
                memset(merged + at * ncols, 0, ncols * sizeof *merged);
                nmerged++;
                any_merged = true;
            }
            for (size_t c = 0; c < ncols; c++)
                merged[at * ncols + c] += ci[c];
            out->pruned += size[k[j]];
        }
        /* Pushed in reverse, so that they come out in name order, the
         * "(merged)" node last. */
        GROW(stack, stack_cap, nstack + nkeep + 1);
        if (any_merged) {
            stack[nstack++] = (struct visit){UINT32_MAX, v.depth + 1, at};
            out->merged_nodes++;
        }
        while (nkeep > 0)
            stack[nstack++] = (struct visit){keep[--nkeep], v.depth + 1, 0};
    }
    free(keep);
    free(stack);
    free(merged);
    stack_trie_kids_free(&g);
    free(thr);
}

void report_tree_build(struct report_tree *out, struct report_names *names,
                       const struct report_source *src, size_t nsrc, size_t ncols,
                       int flags)
{
    memset(out, 0, sizeof *out);
    out->ncols = ncols;
    out->total = xcalloc(ncols ? ncols : 1, sizeof *out->total);
    out->unknown = xcalloc(ncols ? ncols : 1, sizeof *out->unknown);
    struct trie t = {.ncols = ncols};
    stack_trie_init(&t.t, REPORT_NAME_ROOT);
    t.self_cap = 1024;
    t.self = xcalloc(t.self_cap * ncols + 1, sizeof *t.self);
    for (size_t i = 0; i < nsrc; i++)
        add_source(&t, names, &src[i], out->unknown);
    /* Inclusive counts and subtree sizes. */
    size_t n = t.t.count;
    uint64_t *incl = xmalloc(n * ncols * sizeof *incl + 1);
    memcpy(incl, t.self, n * ncols * sizeof *incl);
    stack_trie_sum_up(&t.t, incl, ncols);
    uint64_t *size = xmalloc(n * sizeof *size);
    for (size_t i = 0; i < n; i++)
        size[i] = 1;
    stack_trie_sum_up(&t.t, size, 1);
    memcpy(out->total, incl, ncols * sizeof *incl);
    prune(out, &t, incl, size, names, flags);
    free(size);
    free(incl);
    stack_trie_free(&t.t);
    free(t.self);
}

void report_tree_free(struct report_tree *t)
{
    free(t->depth);
    free(t->name);
    free(t->self);
    free(t->total);
    free(t->unknown);
    memset(t, 0, sizeof *t);
}
