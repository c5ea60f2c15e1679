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

void line_table_init(struct line_table *lt)
{
    memset(lt, 0, sizeof *lt);
    hashmap_init(&lt->index);
    lt->ncols = 1;
    lt->last = UINT32_MAX;
}

/* The site (caller, callee, file, line) in index/sites, made if new;
 * its cost saturates (it only ranks a pair's sites). */
static void site_add(struct hashmap *index, struct call_site **sites, size_t *n, size_t *cap,
                     const struct call_site *at)
{
    bool inserted;
    uint32_t e = *hashmap_upsert(index, (uint64_t)at->caller << 32 | at->callee,
                                 (uint64_t)at->file << 32 | at->line, (uint32_t)*n, &inserted);
    if (inserted) {
        if (*n >= UINT32_MAX - 1)
            out_of_memory();
        GROW(*sites, *cap, *n);
        (*sites)[e] = *at;
        (*sites)[e].cost = 0;
        (*n)++;
    }
    if (!add_u64((*sites)[e].cost, at->cost, &(*sites)[e].cost))
        (*sites)[e].cost = UINT64_MAX;
}

void line_table_site(struct line_table *lt, uint32_t caller, uint32_t callee, uint32_t file,
                     uint32_t line, uint64_t cost)
{
    site_add(&lt->site_index, &lt->site, &lt->nsites, &lt->sites_cap,
             &(struct call_site){caller, callee, file, line, cost});
}

void stacks_site_add(struct stacks *s, uint32_t caller, uint32_t callee, uint32_t file,
                     uint32_t line, uint64_t cost)
{
    struct stacks_lines *l = &s->lines;
    site_add(&l->site_index, &l->site, &l->nsites, &l->sites_cap,
             &(struct call_site){caller, callee, file, line, cost});
}

void line_table_free(struct line_table *lt)
{
    hashmap_free(&lt->site_index);
    free(lt->site);
    hashmap_free(&lt->index);
    free(lt->key);
    free(lt->cost);
    free(lt->more.cells);
    memset(lt, 0, sizeof *lt);
}

void line_table_reset(struct line_table *lt, size_t ncols)
{
    if (lt->ncols > 1)
        cost_rows_clear(&lt->more, lt->n * (lt->ncols - 1));
    hashmap_clear(&lt->index);
    hashmap_clear(&lt->site_index);
    lt->n = lt->nsites = 0;
    lt->ncols = ncols;
    lt->last = UINT32_MAX;
}

uint32_t line_table_miss(struct line_table *lt, uint32_t node, uint32_t file, uint32_t line)
{
    bool inserted;
    uint32_t e = *hashmap_upsert(&lt->index, (uint64_t)node << 32 | file, line,
                                 (uint32_t)lt->n, &inserted);
    if (inserted) {
        if (lt->n >= UINT32_MAX - 1)
            out_of_memory();
        if (lt->n >= lt->cap) {
            size_t cap = lt->cap ? lt->cap * 2 : 256;
            lt->key = xrealloc(lt->key, cap * sizeof *lt->key);
            lt->cost = xrealloc(lt->cost, cap * sizeof *lt->cost);
            lt->cap = cap;
        }
        lt->key[e] = (struct line_key){node, file, line};
        lt->cost[e] = 0;
        lt->n++;
    }
    lt->last = e;
    return e;
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

/* Column c of entry e of lt. */
static uint64_t line_table_cost(const struct line_table *lt, uint32_t e, size_t c)
{
    return c == 0 ? lt->cost[e]
                  : cost_rows_cell(&lt->more, (size_t)e * (lt->ncols - 1) + c - 1);
}

/* The frame fold_profile() made of node `node`, or UINT32_MAX. */
static uint32_t frame_of_node(const struct fold_target *t, const struct profile *p, uint32_t node)
{
    uint32_t frame;
    const struct fn_node *fn = &p->nodes[node];
    return hashmap_get(&t->frame_of, fn->name, fn->object, &frame) ? frame : UINT32_MAX;
}

int fold_lines(const struct line_table *lt, const struct profile *p, const size_t *columns,
               struct fold_target *t)
{
    for (size_t i = 0; i < lt->nsites; i++) {
        const struct call_site *cs = &lt->site[i];
        uint32_t caller = frame_of_node(t, p, cs->caller), callee = frame_of_node(t, p, cs->callee);
        if (caller != UINT32_MAX && callee != UINT32_MAX && cs->cost)
            stacks_site_add(t->out, caller, callee, cs->file, cs->line, cs->cost);
    }
    for (uint32_t e = 0; e < lt->n; e++) {
        const struct fn_node *fn = &p->nodes[lt->key[e].at];
        uint32_t frame;
        /* fold_profile() made the frame of every node of a part with a
         * cost; a node without one has no lines with a cost either */
        if (!hashmap_get(&t->frame_of, fn->name, fn->object, &frame))
            continue;
        for (size_t c = 0; c < lt->ncols && c < p->ncols; c++) {
            uint64_t cost = line_table_cost(lt, e, c);
            if (cost && !stacks_line_add(t->out, columns[c], frame, lt->key[e].file,
                                         lt->key[e].line, cost))
                return -1;
        }
    }
    return 0;
}
