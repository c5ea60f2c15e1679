/* The HTML report's tree of one part, pruned below what can be drawn
 * (reporttree.h). */
#include "reporttree.h"

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

/* ---- the whole tree ------------------------------------------------------ */

/* Every prefix of the stacks, before pruning. Nodes are created after
 * their parent, so a pass from the last to the first sums children into
 * parents. */
struct trie {
    uint32_t *parent, *name;
    uint64_t *self;
    size_t count, cap, ncols;
    struct hashmap child; /* (parent, name) -> node */
};

static uint32_t trie_child(struct trie *t, uint32_t parent, uint32_t name)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&t->child, parent, name, (uint32_t)t->count, &inserted);
    if (!inserted)
        return *slot;
    if (t->count >= UINT32_MAX - 1)
        out_of_memory();
    if (t->count >= t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        t->parent = xrealloc(t->parent, cap * sizeof *t->parent);
        t->name = xrealloc(t->name, cap * sizeof *t->name);
        t->self = xrealloc(t->self, cap * t->ncols * sizeof *t->self);
        t->cap = cap;
    }
    size_t i = t->count++;
    t->parent[i] = parent;
    t->name[i] = name;
    memset(t->self + i * t->ncols, 0, t->ncols * sizeof *t->self);
    return (uint32_t)i;
}

static bool unknown_frame(const struct stacks *s, uint32_t frame)
{
    size_t len;
    const char *text = stacks_frame_text(s, frame, &len);
    return len > 2 && text[0] == '0' && text[1] == 'x';
}

/* Adds a source's stacks. Consecutive stacks share most of their frames
 * (readers add them in tree order): the nodes of the previous stack's
 * common prefix are reused, so only new frames are looked up. */
static void add_source(struct trie *t, struct report_names *names,
                       const struct report_source *src, uint64_t *unknown)
{
    const struct stacks *s = src->stacks;
    struct report_frame_map *m = map_of(names, s);
    uint32_t *chain = NULL; /* chain[d]: node of the previous stack at depth d */
    size_t chain_cap = 0;
    GROW(chain, chain_cap, 0);
    chain[0] = 0;
    const uint32_t *prev = NULL;
    size_t nprev = 0;
    size_t nids = stacks_count_ids(s);
    for (size_t id = 0; id < nids; id++) {
        bool any = false;
        for (size_t e = 0; e < src->ncolumns; e++) {
            const struct event_column *col = &src->columns[e];
            any |= id < col->len && col->count[id] != 0;
        }
        if (!any)
            continue;
        size_t n;
        const uint32_t *path = stacks_path(s, (uint32_t)id, &n);
        size_t k = 0;
        while (k < n && k < nprev && path[k] == prev[k])
            k++;
        for (size_t d = k; d < n; d++) {
            GROW(chain, chain_cap, d + 1);
            chain[d + 1] = trie_child(t, chain[d], name_of(names, m, path[d]));
        }
        prev = path;
        nprev = n;
        uint64_t *self = t->self + (size_t)chain[n] * t->ncols + src->first;
        bool unknown_leaf = n > 0 && unknown_frame(s, path[n - 1]);
        for (size_t e = 0; e < src->ncolumns; e++) {
            const struct event_column *col = &src->columns[e];
            uint64_t c = id < col->len ? col->count[id] : 0;
            self[e] += c;
            if (unknown_leaf)
                unknown[src->first + e] += c;
        }
    }
    free(chain);
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
                  const uint32_t *size, const struct report_names *names, int flags)
{
    size_t ncols = t->ncols, n = t->count;
    /* A node is kept when it reaches the threshold in some column. */
    uint64_t *thr = xmalloc(ncols * sizeof *thr);
    for (size_t c = 0; c < ncols; c++) {
        uint64_t total = incl[c];
        thr[c] = total / REPORT_TREE_DIVISOR + (total % REPORT_TREE_DIVISOR != 0);
        if (thr[c] == 0)
            thr[c] = 1;
    }
    /* Children of each node, grouped by parent. */
    uint32_t *first = xcalloc(n + 1, sizeof *first);
    uint32_t *kids = xmalloc((n ? n : 1) * sizeof *kids);
    for (size_t i = 1; i < n; i++)
        first[t->parent[i] + 1]++;
    for (size_t i = 0; i < n; i++)
        first[i + 1] += first[i];
    uint32_t *fill = xmalloc((n ? n : 1) * sizeof *fill);
    memcpy(fill, first, n * sizeof *fill);
    for (size_t i = 1; i < n; i++)
        kids[fill[t->parent[i]]++] = (uint32_t)i;
    free(fill);

    uint64_t *merged = NULL; /* counts of "(merged)" nodes, ncols each */
    size_t nmerged = 0, merged_cap = 0;
    struct visit *stack = NULL;
    size_t nstack = 0, stack_cap = 0, cap = 0;
    uint32_t *keep = NULL;
    size_t keep_cap = 0;
    GROW(stack, stack_cap, 0);
    stack[nstack++] = (struct visit){0, 0, 0};
    sort_names = &names->tab;
    sort_name_of = t->name;
    while (nstack > 0) {
        struct visit v = stack[--nstack];
        if (v.node == UINT32_MAX) {
            add_node(out, &cap, v.depth, REPORT_NAME_MERGED, merged + v.at * ncols);
            continue;
        }
        add_node(out, &cap, v.depth, v.node ? t->name[v.node] : REPORT_NAME_ROOT,
                 t->self + (size_t)v.node * ncols);
        uint32_t *k = kids + first[v.node];
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
    free(kids);
    free(first);
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
    hashmap_init(&t.child);
    trie_child(&t, UINT32_MAX, REPORT_NAME_ROOT);
    for (size_t i = 0; i < nsrc; i++)
        add_source(&t, names, &src[i], out->unknown);
    hashmap_free(&t.child);
    /* Inclusive counts and subtree sizes, children into parents. */
    size_t n = t.count;
    uint64_t *incl = xmalloc(n * ncols * sizeof *incl + 1);
    memcpy(incl, t.self, n * ncols * sizeof *incl);
    uint32_t *size = xmalloc(n * sizeof *size);
    for (size_t i = 0; i < n; i++)
        size[i] = 1;
    for (size_t i = n; i-- > 1;) {
        uint64_t *p = incl + (size_t)t.parent[i] * ncols, *c = incl + i * ncols;
        for (size_t j = 0; j < ncols; j++)
            p[j] += c[j];
        size[t.parent[i]] += size[i];
    }
    memcpy(out->total, incl, ncols * sizeof *incl);
    prune(out, &t, incl, size, names, flags);
    free(size);
    free(incl);
    free(t.parent);
    free(t.name);
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
