/* Views of a profile's call graph used to grow call paths: out-edges in a
 * fixed order, and the recursion structure (strongly connected components,
 * i.e. sets of functions that can reach each other through calls). */
#ifndef CF_GRAPH_H
#define CF_GRAPH_H

#include <stdint.h>

#include "util/util.h"
#include "model.h"

struct graph {
    const struct profile *p;
    uint32_t *start;      /* node -> first index in edge; nnodes + 1 entries */
    uint32_t *edge;       /* edge indices, each node's costliest first */
    uint32_t *in_degree;  /* callers other than the node itself */
    uint64_t *reach;      /* self + calls to others (saturated): ranks roots */

    uint32_t *component;  /* node -> strongly connected component */
    uint32_t *member;     /* node -> index among its component's members */
    uint32_t *comp_size;  /* component -> number of members */

    /* Spanning trees of components, one per entry function, made on
     * demand: parent of member m is pool[tree + m] (NO_NODE at the root). */
    struct hashmap tree_of_entry;
    uint32_t *first_tree; /* component -> a tree already made, or NO_NODE */
    uint32_t *pool;
    size_t pool_len, pool_cap;
};

void graph_build(struct graph *g, const struct profile *p);
void graph_free(struct graph *g);

static inline uint32_t graph_edges_begin(const struct graph *g, uint32_t node)
{
    return g->start[node];
}
static inline uint32_t graph_edges_end(const struct graph *g, uint32_t node)
{
    return g->start[node + 1];
}

/* Tree over the component of `entry`, rooted there, in which each member
 * hangs under its costliest caller among the members closest to the
 * entry. Call paths inside a recursive component follow only tree edges:
 * one path per member and entry instead of exponentially many. Returns
 * the tree's offset in g->pool. */
uint32_t graph_tree(struct graph *g, uint32_t entry);

#endif
