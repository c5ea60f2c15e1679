/* One part's call graph: functions with self costs, calls with
 * inclusive costs (stacks.h, "profile.c"). */
#include "stacks.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void profile_init(struct profile *p)
{
    memset(p, 0, sizeof *p);
    hashmap_init(&p->node_index);
    hashmap_init(&p->edge_index);
}

void profile_free(struct profile *p)
{
    free(p->nodes);
    free(p->edges);
    hashmap_free(&p->node_index);
    hashmap_free(&p->edge_index);
    profile_init(p);
}

void profile_reset(struct profile *p)
{
    p->nnodes = 0;
    p->nedges = 0;
    p->total_self = 0;
    hashmap_clear(&p->node_index);
    hashmap_clear(&p->edge_index);
}

void profile_copy(struct profile *dst, const struct profile *src)
{
    if (dst->nodes_cap < src->nnodes) {
        free(dst->nodes);
        dst->nodes = xmalloc(src->nnodes * sizeof *dst->nodes);
        dst->nodes_cap = src->nnodes;
    }
    if (dst->edges_cap < src->nedges) {
        free(dst->edges);
        dst->edges = xmalloc(src->nedges * sizeof *dst->edges);
        dst->edges_cap = src->nedges;
    }
    if (src->nnodes)
        memcpy(dst->nodes, src->nodes, src->nnodes * sizeof *src->nodes);
    if (src->nedges)
        memcpy(dst->edges, src->edges, src->nedges * sizeof *src->edges);
    dst->nnodes = src->nnodes;
    dst->nedges = src->nedges;
    dst->total_self = src->total_self;
    /* not the lookup indexes: copying them per event was a sixth of the
     * copy's cost, and a copy is only folded */
    hashmap_clear(&dst->node_index);
    hashmap_clear(&dst->edge_index);
}

/* Appends a node with no cost. */
static uint32_t new_node(struct profile *p, uint32_t object, uint32_t file, uint32_t name,
                         bool defined)
{
    if (p->nnodes >= UINT32_MAX - 1)
        out_of_memory();
    GROW(p->nodes, p->nodes_cap, p->nnodes);
    struct fn_node *n = &p->nodes[p->nnodes];
    memset(n, 0, sizeof *n);
    n->name = name;
    n->object = object;
    n->file = file;
    n->defined = defined;
    return (uint32_t)p->nnodes++;
}

uint32_t profile_function(struct profile *p, uint32_t object, uint32_t file,
                          uint32_t name)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&p->node_index,
                                    ((uint64_t)object << 32) | file, name,
                                    (uint32_t)p->nnodes, &inserted);
    return inserted ? new_node(p, object, file, name, false) : *slot;
}

uint32_t profile_inlined_node(struct profile *p, struct hashmap *index, uint32_t parent,
                              uint32_t name)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(index, parent, name, (uint32_t)p->nnodes, &inserted);
    return inserted ? new_node(p, p->nodes[parent].object, p->nodes[parent].file, name, true)
                    : *slot;
}

bool profile_add_self(struct profile *p, uint32_t node, uint64_t cost)
{
    return add_u64(p->nodes[node].self, cost, &p->nodes[node].self) &&
           add_u64(p->total_self, cost, &p->total_self);
}

uint32_t profile_call_edge(struct profile *p, uint32_t caller, uint32_t callee)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&p->edge_index, caller, callee,
                                    (uint32_t)p->nedges, &inserted);
    if (inserted) {
        if (p->nedges >= UINT32_MAX - 1)
            out_of_memory();
        GROW(p->edges, p->edges_cap, p->nedges);
        p->edges[p->nedges] = (struct call_edge){caller, callee, 0, 0};
        p->nedges++;
    }
    return *slot;
}

bool profile_add_call(struct profile *p, uint32_t caller, uint32_t callee,
                      uint64_t cost)
{
    uint32_t at = profile_call_edge(p, caller, callee); /* may move p->edges */
    struct call_edge *e = &p->edges[at];
    return add_u64(e->cost, cost, &e->cost);
}

bool profile_add_to_edge(struct profile *p, uint32_t edge, uint64_t cost, uint64_t calls)
{
    struct call_edge *e = &p->edges[edge];
    if (!add_u64(e->cost, cost, &e->cost))
        return false;
    if (!add_u64(e->calls, calls, &e->calls))
        e->calls = UINT64_MAX;
    return true;
}

void profile_add_call_count(struct profile *p, uint32_t caller, uint32_t callee,
                            uint64_t calls)
{
    uint32_t e;
    if (hashmap_get(&p->edge_index, caller, callee, &e) &&
        !add_u64(p->edges[e].calls, calls, &p->edges[e].calls))
        p->edges[e].calls = UINT64_MAX;
}

/* Marker in the candidate maps: more than one defined function matches. */
#define AMBIGUOUS (UINT32_MAX - 1)

static void note_candidate(struct hashmap *m, uint64_t a, uint64_t b, uint32_t node)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(m, a, b, node, &inserted);
    if (!inserted && *slot != node)
        *slot = AMBIGUOUS;
}

static uint32_t unique_candidate(const struct hashmap *m, uint64_t a, uint64_t b)
{
    uint32_t v;
    if (!hashmap_get(m, a, b, &v) || v == AMBIGUOUS)
        return NO_NODE;
    return v;
}

void profile_resolve_call_targets(struct profile *p)
{
    bool any_undefined = false;
    for (size_t i = 0; i < p->nnodes; i++)
        any_undefined |= !p->nodes[i].defined;
    if (!any_undefined)
        return;

    struct hashmap by_object_name, by_name;
    hashmap_init(&by_object_name);
    hashmap_init(&by_name);
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct fn_node *n = &p->nodes[i];
        if (!n->defined)
            continue;
        note_candidate(&by_object_name, n->object, n->name, (uint32_t)i);
        note_candidate(&by_name, n->name, 0, (uint32_t)i);
    }
    uint32_t *target = xmalloc(p->nnodes * sizeof *target);
    bool moved = false;
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct fn_node *n = &p->nodes[i];
        target[i] = (uint32_t)i;
        if (n->defined)
            continue;
        uint32_t t = unique_candidate(&by_object_name, n->object, n->name);
        if (t == NO_NODE)
            t = unique_candidate(&by_name, n->name, 0);
        if (t != NO_NODE) {
            target[i] = t;
            moved = true;
        }
    }
    if (moved) {
        /* Rebuild the edge list: redirected edges may now coincide. */
        struct call_edge *old = p->edges;
        size_t nold = p->nedges;
        p->edges = NULL;
        p->nedges = p->edges_cap = 0;
        hashmap_clear(&p->edge_index);
        for (size_t i = 0; i < nold; i++) {
            uint32_t from = target[old[i].caller], to = target[old[i].callee];
            if (!profile_add_call(p, from, to, old[i].cost)) {
                /* Edge costs only weigh call paths against each other:
                 * saturating a merged sum is harmless, wrapping is not. */
                uint32_t e;
                if (hashmap_get(&p->edge_index, from, to, &e))
                    p->edges[e].cost = UINT64_MAX;
            }
            profile_add_call_count(p, from, to, old[i].calls);
        }
        free(old);
    }
    free(target);
    hashmap_free(&by_object_name);
    hashmap_free(&by_name);
}
