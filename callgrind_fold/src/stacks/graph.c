/* Views of a part's call graph for growing call paths: ordered
 * out-edges and recursive components (graph.h). */
#include "graph.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define UNSET UINT32_MAX

/* Trees beyond this many entries in total are not made; entries of a
 * component then share its first tree (which bounds memory on huge,
 * densely entered recursive components). */
#define TREE_POOL_LIMIT ((size_t)1 << 26)

static const struct profile *sort_profile; /* qsort has no context argument */

/* The order of a node's out-edges: costliest first, then by callee (a
 * total order: a caller has one edge per callee). */
static bool goes_before(const struct call_edge *x, const struct call_edge *y)
{
    return x->cost != y->cost ? x->cost > y->cost : x->callee < y->callee;
}

static int by_cost_then_callee(const void *a, const void *b)
{
    const struct call_edge *x = &sort_profile->edges[*(const uint32_t *)a];
    const struct call_edge *y = &sort_profile->edges[*(const uint32_t *)b];
    return goes_before(x, y) ? -1 : goes_before(y, x) ? 1 : 0;
}

/* Sorts edge indexes idx[0..n) of p. Most functions call a few others:
 * insertion sort spares those qsort's set-up and indirect calls (a
 * noticeable share of folding a part); the order is the same. */
static void sort_out_edges(const struct profile *p, uint32_t *idx, size_t n)
{
    if (n > 16) {
        sort_profile = p;
        qsort(idx, n, sizeof *idx, by_cost_then_callee);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint32_t e = idx[i];
        size_t j = i;
        for (; j > 0 && goes_before(&p->edges[e], &p->edges[idx[j - 1]]); j--)
            idx[j] = idx[j - 1];
        idx[j] = e;
    }
}

static void build_edges(struct graph *g)
{
    const struct profile *p = g->p;
    size_t n = p->nnodes;
    g->start = xcalloc(n + 1, sizeof *g->start);
    g->edge = xmalloc(p->nedges * sizeof *g->edge);
    g->in_degree = xcalloc(n, sizeof *g->in_degree);
    g->reach = xmalloc(n * sizeof *g->reach);
    for (size_t i = 0; i < n; i++)
        g->reach[i] = p->nodes[i].self;
    for (size_t e = 0; e < p->nedges; e++) {
        const struct call_edge *ce = &p->edges[e];
        g->start[ce->caller + 1]++;
        if (ce->caller != ce->callee) {
            g->in_degree[ce->callee]++;
            if (!add_u64(g->reach[ce->caller], ce->cost, &g->reach[ce->caller]))
                g->reach[ce->caller] = UINT64_MAX;
        }
    }
    for (size_t i = 0; i < n; i++)
        g->start[i + 1] += g->start[i];
    uint32_t *fill = xmalloc((n + 1) * sizeof *fill);
    memcpy(fill, g->start, (n + 1) * sizeof *fill);
    for (size_t e = 0; e < p->nedges; e++)
        g->edge[fill[p->edges[e].caller]++] = (uint32_t)e;
    free(fill);
    for (size_t i = 0; i < n; i++)
        sort_out_edges(p, g->edge + g->start[i], g->start[i + 1] - g->start[i]);
}

/* Tarjan's algorithm with an explicit stack: call chains of real programs
 * are deep enough to overflow the C stack. */
static void find_components(struct graph *g)
{
    const struct profile *p = g->p;
    size_t n = p->nnodes;
    uint32_t *index = xmalloc(n * sizeof *index);
    uint32_t *low = xmalloc(n * sizeof *low);
    uint8_t *on_stack = xcalloc(n, 1);
    uint32_t *stack = xmalloc(n * sizeof *stack);
    uint32_t *call_node = xmalloc(n * sizeof *call_node);
    uint32_t *call_next = xmalloc(n * sizeof *call_next);
    g->component = xmalloc(n * sizeof *g->component);
    g->member = xmalloc(n * sizeof *g->member);
    g->comp_size = xmalloc(n * sizeof *g->comp_size);
    for (size_t i = 0; i < n; i++)
        index[i] = UNSET;
    uint32_t next_index = 0, ncomp = 0;
    size_t sp = 0, depth = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (index[s] != UNSET)
            continue;
        call_node[0] = s;
        call_next[0] = g->start[s];
        depth = 1;
        index[s] = low[s] = next_index++;
        stack[sp++] = s;
        on_stack[s] = 1;
        while (depth > 0) {
            uint32_t v = call_node[depth - 1];
            if (call_next[depth - 1] < g->start[v + 1]) {
                uint32_t w = p->edges[g->edge[call_next[depth - 1]++]].callee;
                if (index[w] == UNSET) {
                    index[w] = low[w] = next_index++;
                    stack[sp++] = w;
                    on_stack[w] = 1;
                    call_node[depth] = w;
                    call_next[depth] = g->start[w];
                    depth++;
                } else if (on_stack[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                uint32_t size = 0, w;
                do {
                    w = stack[--sp];
                    on_stack[w] = 0;
                    g->component[w] = ncomp;
                    g->member[w] = size++;
                } while (w != v);
                g->comp_size[ncomp++] = size;
            }
            depth--;
            if (depth > 0) {
                uint32_t u = call_node[depth - 1];
                if (low[v] < low[u])
                    low[u] = low[v];
            }
        }
    }
    g->first_tree = xmalloc((ncomp ? ncomp : 1) * sizeof *g->first_tree);
    for (uint32_t c = 0; c < ncomp; c++)
        g->first_tree[c] = NO_NODE;
    free(index);
    free(low);
    free(on_stack);
    free(stack);
    free(call_node);
    free(call_next);
}

void graph_build(struct graph *g, const struct profile *p)
{
    memset(g, 0, sizeof *g);
    g->p = p;
    hashmap_init(&g->tree_of_entry);
    build_edges(g);
    find_components(g);
}

void graph_free(struct graph *g)
{
    free(g->start);
    free(g->edge);
    free(g->in_degree);
    free(g->reach);
    free(g->component);
    free(g->member);
    free(g->comp_size);
    free(g->first_tree);
    free(g->pool);
    hashmap_free(&g->tree_of_entry);
    memset(g, 0, sizeof *g);
}

uint32_t graph_tree(struct graph *g, uint32_t entry)
{
    uint32_t tree;
    if (hashmap_get(&g->tree_of_entry, entry, 0, &tree))
        return tree;
    uint32_t comp = g->component[entry];
    uint32_t size = g->comp_size[comp];
    if (g->pool_len + size > TREE_POOL_LIMIT && g->first_tree[comp] != NO_NODE)
        return g->first_tree[comp];
    if (g->pool_len + size > UINT32_MAX)
        out_of_memory();
    if (g->pool_len + size > g->pool_cap) {
        size_t cap = g->pool_cap ? g->pool_cap : 1024;
        while (cap < g->pool_len + size)
            cap *= 2;
        g->pool = xrealloc(g->pool, cap * sizeof *g->pool);
        g->pool_cap = cap;
    }
    tree = (uint32_t)g->pool_len;
    g->pool_len += size;
    uint32_t *parent = g->pool + tree;

    /* Breadth-first from the entry: a member's parent is its costliest
     * caller on the level above, so recursion adds as few frames as
     * possible and each member sits under its most likely caller. */
    const struct profile *p = g->p;
    uint32_t *level = xmalloc(size * sizeof *level);
    uint64_t *best = xcalloc(size, sizeof *best);
    uint32_t *queue = xmalloc(size * sizeof *queue);
    for (uint32_t i = 0; i < size; i++) {
        level[i] = UNSET;
        parent[i] = NO_NODE;
    }
    size_t head = 0, tail = 0;
    level[g->member[entry]] = 0;
    queue[tail++] = entry;
    while (head < tail) {
        uint32_t u = queue[head++];
        uint32_t lu = level[g->member[u]];
        for (uint32_t i = g->start[u]; i < g->start[u + 1]; i++) {
            const struct call_edge *e = &p->edges[g->edge[i]];
            uint32_t v = e->callee;
            if (v == u || g->component[v] != comp)
                continue;
            uint32_t m = g->member[v];
            if (level[m] == UNSET) {
                level[m] = lu + 1;
                parent[m] = u;
                best[m] = e->cost;
                queue[tail++] = v;
            } else if (level[m] == lu + 1 && e->cost > best[m]) {
                parent[m] = u;
                best[m] = e->cost;
            }
        }
    }
    free(level);
    free(best);
    free(queue);
    hashmap_put(&g->tree_of_entry, entry, 0, tree);
    if (g->first_tree[comp] == NO_NODE)
        g->first_tree[comp] = tree;
    return tree;
}
