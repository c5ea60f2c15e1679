/* Self costs by source line (model.h, fold.h): a part's by function
 * node as the callgrind.out reader gathers them (struct line_table), a
 * stacks' by frame (struct stacks_lines), and the fold from one to the
 * other.  Lines are kept beside the stacks, never as frames: the stacks,
 * and every output made of them alone, are the same with or without. */
#include "fold.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- a part's lines ---- */

/* The part's line table is looked up once per line a cost line changes
 * to: its index holds entry numbers + 1 (0: empty), the keys read from
 * the entries, as the profile's (profile.c): a probe touches the slots
 * and one key, not a general map's four arrays.  The load stays at or
 * below 1/2. */

static inline uint64_t line_key_hash(uint32_t at, uint32_t file, uint32_t line)
{
    return hash_mix((uint64_t)at << 32 | file, line);
}

static uint64_t line_hash_of(uint32_t v, const void *keys)
{
    const struct line_key *k = &((const struct line_table *)keys)->key[v - 1];
    return line_key_hash(k->at, k->file, k->line);
}

/* Room for one more entry: the index doubled when full to half. */
static void index_reserve(struct line_table *lt)
{
    if ((lt->index.count + 1) * 2 > lt->index.capacity)
        entry_index_grow(&lt->index, 256, line_hash_of, lt);
}

void line_table_init(struct line_table *lt)
{
    memset(lt, 0, sizeof *lt);
    lt->ncols = 1;
    lt->last = UINT32_MAX;
}

void line_table_expect_bytes(struct line_table *lt, uint64_t bytes)
{
    /* a function's lines in a few hundred bytes or more: sized for
     * fewer than a file can hold, as profile_expect_bytes() does, and
     * grown if need be */
    uint64_t most = (uint64_t)1 << 20, lines = bytes / 1024;
    size_t cap = 256;
    while (cap < 2 * (lines < most ? lines : most))
        cap *= 2;
    if (lt->index.count || cap <= lt->index.capacity)
        return;
    free(lt->index.slots);
    lt->index.slots = xcalloc(cap, sizeof *lt->index.slots);
    lt->index.capacity = cap;
}

/* A call's sites are found from its edge, not by a hash of their keys:
 * the calls of a function are read together, so the edges and sites
 * looked at are the latest ones, in the caches, where a hash would go
 * anywhere in the table.  A site not found from the edge (none given,
 * or edges renumbered) is added again: fold_lines() sums such twins. */
void line_table_site(struct line_table *lt, uint32_t edge, uint32_t caller, uint32_t callee,
                     uint32_t file, uint32_t line, uint64_t cost)
{
    uint32_t *head = NULL;
    if (edge != NO_NODE) {
        if (edge >= lt->edge_sites) {
            size_t n = lt->edge_sites ? lt->edge_sites : 256;
            while (n <= edge)
                n *= 2;
            lt->edge_site = xrealloc(lt->edge_site, n * sizeof *lt->edge_site);
            memset(lt->edge_site + lt->edge_sites, 0, (n - lt->edge_sites) * sizeof *lt->edge_site);
            lt->edge_sites = n;
        }
        head = &lt->edge_site[edge];
        for (uint32_t v = *head; v; v = lt->site_before[v - 1]) {
            struct call_site *s = &lt->site[v - 1];
            if (s->line == line && s->file == file && s->caller == caller && s->callee == callee) {
                /* its cost only ranks a pair's sites: saturating */
                if (!add_u64(s->cost, cost, &s->cost))
                    s->cost = UINT64_MAX;
                return;
            }
        }
    }
    if (lt->nsites >= UINT32_MAX - 1)
        out_of_memory();
    if (lt->nsites >= lt->sites_cap) {
        size_t cap = lt->sites_cap ? lt->sites_cap * 2 : 256;
        lt->site = xrealloc(lt->site, cap * sizeof *lt->site);
        lt->site_before = xrealloc(lt->site_before, cap * sizeof *lt->site_before);
        lt->sites_cap = cap;
    }
    lt->site[lt->nsites] = (struct call_site){caller, callee, file, line, cost};
    lt->site_before[lt->nsites] = head ? *head : 0;
    lt->nsites++;
    if (head)
        *head = (uint32_t)lt->nsites;
}

void stacks_site_add(struct stacks *s, uint32_t caller, uint32_t callee, uint32_t file,
                     uint32_t line, uint64_t cost)
{
    struct stacks_lines *l = &s->lines;
    bool inserted;
    uint32_t e = *hashmap_upsert(&l->site_index, (uint64_t)caller << 32 | callee,
                                 (uint64_t)file << 32 | line, (uint32_t)l->nsites, &inserted);
    if (inserted) {
        if (l->nsites >= UINT32_MAX - 1)
            out_of_memory();
        GROW(l->site, l->sites_cap, l->nsites);
        l->site[e] = (struct call_site){caller, callee, file, line, 0};
        l->nsites++;
    }
    if (!add_u64(l->site[e].cost, cost, &l->site[e].cost))
        l->site[e].cost = UINT64_MAX;
}

void line_table_free(struct line_table *lt)
{
    free(lt->site);
    free(lt->site_before);
    free(lt->edge_site);
    free(lt->index.slots);
    free(lt->key);
    free(lt->cost);
    free(lt->more.cells);
    memset(lt, 0, sizeof *lt);
}

void line_table_reset(struct line_table *lt, size_t ncols)
{
    if (lt->ncols > 1)
        cost_rows_clear(&lt->more, lt->n * (lt->ncols - 1));
    if (lt->index.count)
        memset(lt->index.slots, 0, lt->index.capacity * sizeof *lt->index.slots);
    lt->index.count = 0;
    if (lt->nsites)
        memset(lt->edge_site, 0, lt->edge_sites * sizeof *lt->edge_site);
    lt->n = lt->nsites = 0;
    lt->ncols = ncols;
    lt->last = UINT32_MAX;
}

uint32_t line_table_miss(struct line_table *lt, uint32_t node, uint32_t file, uint32_t line)
{
    index_reserve(lt);
    size_t mask = lt->index.capacity - 1;
    size_t i = (size_t)line_key_hash(node, file, line) & mask;
    uint32_t v;
    for (;; i = (i + 1) & mask) {
        v = lt->index.slots[i];
        if (!v)
            break;
        const struct line_key *k = &lt->key[v - 1];
        if (k->line == line && k->at == node && k->file == file)
            break;
    }
    if (!v) {
        if (lt->n >= UINT32_MAX - 1)
            out_of_memory();
        if (lt->n >= lt->cap) {
            size_t cap = lt->cap ? lt->cap * 2 : 256;
            lt->key = xrealloc(lt->key, cap * sizeof *lt->key);
            lt->cost = xrealloc(lt->cost, cap * sizeof *lt->cost);
            lt->cap = cap;
        }
        lt->key[lt->n] = (struct line_key){node, file, line};
        lt->cost[lt->n] = 0;
        v = lt->index.slots[i] = (uint32_t)++lt->n;
        lt->index.count++;
    }
    lt->last = v - 1;
    return v - 1;
}

/* ---- a stacks' lines ---- */

void stacks_lines_free(struct stacks_lines *l)
{
    hashmap_free(&l->site_index);
    free(l->site);
    hashmap_free(&l->index);
    free(l->key);
    for (size_t c = 0; c < l->ncols; c++)
        free(l->count[c]);
    free(l->count);
    free(l->count_cap);
    memset(l, 0, sizeof *l);
}

static uint32_t stacks_line_entry(struct stacks_lines *l, uint32_t frame, uint32_t file,
                                  uint32_t line)
{
    bool inserted;
    uint32_t e = *hashmap_upsert(&l->index, (uint64_t)frame << 32 | file, line,
                                 (uint32_t)l->n, &inserted);
    if (inserted) {
        if (l->n >= UINT32_MAX - 1)
            out_of_memory();
        GROW(l->key, l->cap, l->n);
        l->key[e] = (struct line_key){frame, file, line};
        l->n++;
    }
    return e;
}

bool stacks_line_add(struct stacks *s, size_t col, uint32_t frame, uint32_t file,
                     uint32_t line, uint64_t count)
{
    struct stacks_lines *l = &s->lines;
    uint32_t e = stacks_line_entry(l, frame, file, line);
    if (col >= l->ncols) {
        size_t ncols = col + 1;
        l->count = xrealloc(l->count, ncols * sizeof *l->count);
        l->count_cap = xrealloc(l->count_cap, ncols * sizeof *l->count_cap);
        for (size_t c = l->ncols; c < ncols; c++) {
            l->count[c] = NULL;
            l->count_cap[c] = 0;
        }
        l->ncols = ncols;
    }
    if (e >= l->count_cap[col]) {
        size_t old = l->count_cap[col];
        GROW(l->count[col], l->count_cap[col], (size_t)e);
        memset(l->count[col] + old, 0, (l->count_cap[col] - old) * sizeof *l->count[col]);
    }
    return add_u64(l->count[col][e], count, &l->count[col][e]);
}

void stacks_lines_carry(struct stacks *to, const struct stacks *from, const uint32_t *frame_map)
{
    const struct stacks_lines *l = &from->lines;
    for (uint32_t e = 0; e < l->n; e++) {
        const struct line_key *k = &l->key[e];
        if (frame_map[k->at] == UINT32_MAX)
            continue;
        for (size_t c = 0; c < l->ncols; c++) {
            uint64_t count = stacks_line_count(from, c, e);
            /* sums of counts that were summed once already: no overflow */
            if (count)
                (void)stacks_line_add(to, c, frame_map[k->at], k->file, k->line, count);
        }
    }
    for (size_t i = 0; i < l->nsites; i++) {
        const struct call_site *cs = &l->site[i];
        if (frame_map[cs->caller] != UINT32_MAX && frame_map[cs->callee] != UINT32_MAX)
            stacks_site_add(to, frame_map[cs->caller], frame_map[cs->callee], cs->file,
                            cs->line, cs->cost);
    }
}

/* ---- the fold ---- */

/* The frame fold_profile() made of node `node`, or UINT32_MAX; memo[node]
 * keeps it + 1 (0: not looked up yet), as each node has many lines and
 * call sites. */
static uint32_t frame_of_node(const struct fold_target *t, const struct profile *p, uint32_t node,
                              uint32_t *memo)
{
    if (!memo[node]) {
        uint32_t frame;
        const struct fn_node *fn = &p->nodes[node];
        memo[node] = hashmap_get(&t->frame_of, fn->name, fn->object, &frame) ? frame + 1 : UINT32_MAX;
    }
    return memo[node] == UINT32_MAX ? UINT32_MAX : memo[node] - 1;
}

int fold_lines(const struct line_table *lt, const struct profile *p, const size_t *columns,
               struct fold_target *t)
{
    uint32_t *memo = xcalloc(p->nnodes ? p->nnodes : 1, sizeof *memo);
    for (size_t i = 0; i < lt->nsites; i++) {
        const struct call_site *cs = &lt->site[i];
        uint32_t caller = frame_of_node(t, p, cs->caller, memo);
        uint32_t callee = frame_of_node(t, p, cs->callee, memo);
        if (caller != UINT32_MAX && callee != UINT32_MAX && cs->cost)
            stacks_site_add(t->out, caller, callee, cs->file, cs->line, cs->cost);
    }
    int rc = 0;
    for (uint32_t e = 0; e < lt->n && rc == 0; e++) {
        /* fold_profile() made the frame of every node of a part with a
         * cost; a node without one has no lines with a cost either */
        uint32_t frame = frame_of_node(t, p, lt->key[e].at, memo);
        if (frame == UINT32_MAX)
            continue;
        for (size_t c = 0; c < lt->ncols && c < p->ncols; c++) {
            if (columns[c] == NO_COLUMN)
                continue;
            uint64_t cost = line_table_cost(lt, e, c);
            if (cost && !stacks_line_add(t->out, columns[c], frame, lt->key[e].file,
                                         lt->key[e].line, cost)) {
                rc = -1;
                break;
            }
        }
    }
    free(memo);
    return rc;
}
