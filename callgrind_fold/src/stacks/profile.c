/* One part's call graph: functions with self costs, calls with
 * inclusive costs (model.h, "profile.c"). */
#include "model.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- lookup indexes -------------------------------------------------------
 *
 * Functions are found by (object, file, name) and calls by (caller,
 * callee) through tables of 4-byte entry numbers, the keys compared in
 * p->nodes and p->edges.  Why not the general hashmap (util.h): it keeps
 * both keys beside each value, 21 bytes a slot, and on a large profile
 * that map and its growth touched megabytes and caused a large share of
 * the reader's page faults.  The load stays at or below 1/2, as the
 * hashmap's. */

static void index_free(struct entry_index *ix)
{
    free(ix->slots);
    memset(ix, 0, sizeof *ix);
}

static void index_clear(struct entry_index *ix)
{
    if (ix->count) /* an index sized ahead is cleared only once used */
        memset(ix->slots, 0, ix->capacity * sizeof *ix->slots);
    ix->count = 0;
}

static inline uint64_t node_key_hash(uint32_t object, uint32_t file, uint32_t name)
{
    return hash_mix((uint64_t)object << 32 | file, name);
}

static inline uint64_t edge_key_hash(uint32_t caller, uint32_t callee)
{
    return hash_mix(caller, callee);
}

void entry_index_grow(struct entry_index *ix, size_t first,
                      uint64_t (*hash)(uint32_t v, const void *keys), const void *keys)
{
    struct entry_index old = *ix;
    ix->capacity = old.capacity ? old.capacity * 2 : first;
    ix->slots = xcalloc(ix->capacity, sizeof *ix->slots);
    size_t mask = ix->capacity - 1;
    for (size_t i = 0; i < old.capacity; i++) {
        uint32_t v = old.slots[i];
        if (!v)
            continue;
        size_t j = (size_t)hash(v, keys) & mask;
        while (ix->slots[j])
            j = (j + 1) & mask;
        ix->slots[j] = v;
    }
    free(old.slots);
}

static uint64_t edge_hash_of(uint32_t v, const void *keys)
{
    const struct call_edge *e = &((const struct profile *)keys)->edges[v - 1];
    return edge_key_hash(e->caller, e->callee);
}

static uint64_t node_hash_of(uint32_t v, const void *keys)
{
    const struct fn_node *n = &((const struct profile *)keys)->nodes[v - 1];
    return node_key_hash(n->object, n->file, n->name);
}

/* Room for `n` entries in an empty index, made at once. */
static void index_expect(struct entry_index *ix, size_t n)
{
    size_t cap = 64;
    while (cap < 2 * n)
        cap *= 2;
    if (ix->count || cap <= ix->capacity)
        return;
    free(ix->slots);
    ix->slots = xcalloc(cap, sizeof *ix->slots);
    ix->capacity = cap;
}

/* Room for one more entry.  Inline: every lookup that may insert asks. */
static inline void index_reserve(struct entry_index *ix, const struct profile *p, bool edges)
{
    if ((ix->count + 1) * 2 > ix->capacity)
        entry_index_grow(ix, 64, edges ? edge_hash_of : node_hash_of, p);
}

/* The slot of the node with these keys, or the empty slot where it goes. */
static uint32_t *node_slot(const struct entry_index *ix, const struct fn_node *nodes,
                           uint32_t object, uint32_t file, uint32_t name)
{
    size_t mask = ix->capacity - 1;
    size_t i = (size_t)node_key_hash(object, file, name) & mask;
    for (;; i = (i + 1) & mask) {
        uint32_t v = ix->slots[i];
        if (!v)
            return &ix->slots[i];
        const struct fn_node *n = &nodes[v - 1];
        if (n->name == name && n->object == object && n->file == file)
            return &ix->slots[i];
    }
}

/* The slot of the edge caller -> callee, or the empty slot where it goes. */
static uint32_t *edge_slot(const struct entry_index *ix, const struct call_edge *edges,
                           uint32_t caller, uint32_t callee)
{
    size_t mask = ix->capacity - 1;
    size_t i = (size_t)edge_key_hash(caller, callee) & mask;
    for (;; i = (i + 1) & mask) {
        uint32_t v = ix->slots[i];
        if (!v || (edges[v - 1].caller == caller && edges[v - 1].callee == callee))
            return &ix->slots[i];
    }
}

/* The edge caller -> callee, or NO_NODE. */
static uint32_t find_edge(const struct profile *p, uint32_t caller, uint32_t callee)
{
    if (!p->edge_index.capacity)
        return NO_NODE;
    return *edge_slot(&p->edge_index, p->edges, caller, callee) - 1; /* 0 - 1: NO_NODE */
}

/* ---- the profile ------------------------------------------------------------ */

void profile_init(struct profile *p)
{
    memset(p, 0, sizeof *p);
    p->ncols = 1;
}

void profile_free(struct profile *p)
{
    free(p->nodes);
    free(p->edges);
    free(p->more_self.cells);
    free(p->more_cost.cells);
    index_free(&p->node_index);
    index_free(&p->edge_index);
    profile_init(p);
}

void cost_rows_grow(struct cost_rows *m, size_t need)
{
    /* the allocation doubled when too small, but only a page's worth of
     * cells past the need zeroed: zeroing all that doubling allocates
     * would fault in pages for rows mostly never used */
    if (need > m->allocated) {
        size_t want = need > 2 * m->allocated ? need : 2 * m->allocated;
        if (want > SIZE_MAX / sizeof *m->cells)
            out_of_memory();
        m->cells = xrealloc(m->cells, want * sizeof *m->cells);
        m->allocated = want;
    }
    size_t page = 4096 / sizeof *m->cells;
    size_t upto = m->allocated - need > page ? need + page : m->allocated;
    memset(m->cells + m->zeroed, 0, (upto - m->zeroed) * sizeof *m->cells);
    m->zeroed = upto;
}

void cost_rows_clear(struct cost_rows *m, size_t used)
{
    if (m->zeroed)
        memset(m->cells, 0, (used < m->zeroed ? used : m->zeroed) * sizeof *m->cells);
}

void profile_reset(struct profile *p, size_t ncols)
{
    /* only the rows of the part's nodes and edges were written */
    if (p->ncols > 1) {
        cost_rows_clear(&p->more_self, p->nnodes * (p->ncols - 1));
        cost_rows_clear(&p->more_cost, p->nedges * (p->ncols - 1));
    }
    p->ncols = ncols;
    p->nnodes = 0;
    p->nedges = 0;
    p->total_self = 0;
    index_clear(&p->node_index);
    index_clear(&p->edge_index);
}

bool profile_total(const struct profile *p, size_t col, uint64_t *sum)
{
    if (col == 0) {
        *sum = p->total_self;
        return true;
    }
    *sum = 0;
    for (uint32_t i = 0; i < p->nnodes; i++)
        if (!add_u64(*sum, profile_self(p, i, col), sum))
            return false;
    return true;
}

void profile_column(struct profile *dst, const struct profile *src, size_t col)
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
    dst->ncols = 1;
    dst->nnodes = src->nnodes;
    dst->nedges = src->nedges;
    dst->total_self = 0;
    for (uint32_t i = 0; i < src->nnodes; i++) {
        dst->nodes[i] = src->nodes[i];
        dst->nodes[i].self = profile_self(src, i, col);
        dst->total_self += dst->nodes[i].self; /* checked by profile_total() */
    }
    for (uint32_t e = 0; e < src->nedges; e++) {
        dst->edges[e] = src->edges[e];
        dst->edges[e].cost = profile_edge_cost(src, e, col);
    }
    index_clear(&dst->node_index);
    index_clear(&dst->edge_index);
}

void profile_expect_bytes(struct profile *p, uint64_t bytes)
{
    /* callgrind writes a call in two lines of 30 bytes or more, and a
     * function's in a few hundred: sized for fewer than a file can
     * hold, as a table larger than its entries need is slower to look
     * up in (more of it out of the caches) than one grown once more */
    uint64_t most = (uint64_t)1 << 20;
    uint64_t calls = bytes / 512, functions = bytes / 2048;
    index_expect(&p->edge_index, (size_t)(calls < most ? calls : most));
    index_expect(&p->node_index, (size_t)(functions < most ? functions : most));
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
    index_reserve(&p->node_index, p, false);
    uint32_t *slot = node_slot(&p->node_index, p->nodes, object, file, name);
    if (*slot)
        return *slot - 1;
    uint32_t node = new_node(p, object, file, name, false);
    *slot = node + 1;
    p->node_index.count++;
    return node;
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

bool profile_add_self_more(struct profile *p, uint32_t node, const uint64_t *more)
{
    size_t width = p->ncols - 1;
    return cost_row_add(cost_rows_row(&p->more_self, node, width), more, width);
}

bool profile_add_edge_more(struct profile *p, uint32_t edge, const uint64_t *more)
{
    size_t width = p->ncols - 1;
    return cost_row_add(cost_rows_row(&p->more_cost, edge, width), more, width);
}

uint32_t profile_call_edge(struct profile *p, uint32_t caller, uint32_t callee)
{
    index_reserve(&p->edge_index, p, true);
    uint32_t *slot = edge_slot(&p->edge_index, p->edges, caller, callee);
    if (*slot)
        return *slot - 1;
    if (p->nedges >= UINT32_MAX - 1)
        out_of_memory();
    GROW(p->edges, p->edges_cap, p->nedges);
    p->edges[p->nedges] = (struct call_edge){caller, callee, 0, 0};
    *slot = (uint32_t)++p->nedges;
    p->edge_index.count++;
    return *slot - 1;
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
    uint32_t e = find_edge(p, caller, callee);
    if (e != NO_NODE && !add_u64(p->edges[e].calls, calls, &p->edges[e].calls))
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
        struct cost_rows old_more = p->more_cost;
        size_t nold = p->nedges, width = p->ncols - 1;
        p->edges = NULL;
        p->nedges = p->edges_cap = 0;
        memset(&p->more_cost, 0, sizeof p->more_cost);
        index_clear(&p->edge_index);
        for (size_t i = 0; i < nold; i++) {
            uint32_t from = target[old[i].caller], to = target[old[i].callee];
            uint32_t e = profile_call_edge(p, from, to);
            /* Edge costs only weigh call paths against each other:
             * saturating a merged sum is harmless, wrapping is not. */
            if (!add_u64(p->edges[e].cost, old[i].cost, &p->edges[e].cost))
                p->edges[e].cost = UINT64_MAX;
            if (width) {
                uint64_t *row = cost_rows_row(&p->more_cost, e, width);
                for (size_t k = 0; k < width; k++) {
                    uint64_t cost = cost_rows_cell(&old_more, i * width + k);
                    if (!add_u64(row[k], cost, &row[k]))
                        row[k] = UINT64_MAX;
                }
            }
            profile_add_call_count(p, from, to, old[i].calls);
        }
        free(old);
        free(old_more.cells);
    }
    free(target);
    hashmap_free(&by_object_name);
    hashmap_free(&by_name);
}

uint32_t call_edge_memo_miss(struct call_edge_memo *m, struct profile *p, uint32_t caller,
                             uint32_t callee)
{
    uint32_t edge = profile_call_edge(p, caller, callee);
    if (callee >= m->cap) {
        size_t old = m->cap;
        GROW(m->slot, m->cap, (size_t)callee);
        for (size_t i = old; i < m->cap; i++)
            m->slot[i].caller = NO_NODE;
    }
    m->slot[callee] = (struct call_edge_memo_slot){caller, edge};
    return edge;
}

void call_edge_memo_forget(struct call_edge_memo *m)
{
    for (size_t i = 0; i < m->cap; i++)
        m->slot[i].caller = NO_NODE;
}

void call_edge_memo_free(struct call_edge_memo *m)
{
    free(m->slot);
    m->slot = NULL;
    m->cap = 0;
}
