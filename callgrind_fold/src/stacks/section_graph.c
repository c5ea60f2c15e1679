/* A callgrind.out section as the reader hands it on: its call graph, and
 * with --inline its costs by instruction address (model.h). */
#include "model.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void section_graph_init(struct section_graph *pt)
{
    memset(pt, 0, sizeof *pt);
    profile_init(&pt->prof);
    hashmap_init(&pt->call_index);
    line_table_init(&pt->lines);
    section_graph_set_columns(pt, (const size_t[]){CHOSEN_COLUMN}, 1);
}

void section_graph_free(struct section_graph *pt)
{
    profile_free(&pt->prof);
    free(pt->columns);
    free(pt->selfs);
    free(pt->calls);
    free(pt->more_selfs.cells);
    free(pt->more_calls.cells);
    free(pt->addr_total);
    hashmap_free(&pt->call_index);
    line_table_free(&pt->lines);
    memset(pt, 0, sizeof *pt);
}

void section_graph_reset(struct section_graph *pt)
{
    size_t width = pt->prof.ncols - 1;
    if (width) {
        cost_rows_clear(&pt->more_selfs, pt->nselfs * width);
        cost_rows_clear(&pt->more_calls, pt->ncalls * width);
    }
    pt->nselfs = pt->ncalls = 0;
    hashmap_clear(&pt->call_index);
    section_graph_set_columns(pt, (const size_t[]){CHOSEN_COLUMN}, 1);
}

void section_graph_set_columns(struct section_graph *pt, const size_t *columns, size_t ncols)
{
    if (ncols > pt->columns_cap) {
        pt->columns = xrealloc(pt->columns, ncols * sizeof *pt->columns);
        pt->addr_total = xrealloc(pt->addr_total, ncols * sizeof *pt->addr_total);
        pt->columns_cap = ncols;
    }
    memcpy(pt->columns, columns, ncols * sizeof *columns);
    memset(pt->addr_total, 0, ncols * sizeof *pt->addr_total);
    profile_reset(&pt->prof, ncols);
    line_table_reset(&pt->lines, ncols);
}

void section_graph_expect_bytes(struct section_graph *pt, uint64_t bytes)
{
    /* A cost line with an address takes at least 5 bytes ("+3 1\n");
     * a bound keeps a huge file from reserving gigabytes up front. */
    uint64_t lines = bytes / 5, most = (uint64_t)1 << 24;
    size_t want = (size_t)(lines < most ? lines : most);
    if (want > pt->selfs_cap && pt->nselfs == 0) {
        free(pt->selfs);
        pt->selfs = xmalloc(want * sizeof *pt->selfs);
        pt->selfs_cap = want;
    }
}

/* Self costs are only appended (one record per cost line, as a part
 * rarely repeats a (function, address)); the inline stage sums them per
 * (function, chain of inlined frames). */
bool section_graph_add_self_at(struct section_graph *pt, uint32_t node, uint64_t addr, uint64_t cost,
                      const uint64_t *more)
{
    size_t width = pt->prof.ncols - 1;
    bool zero = cost == 0;
    for (size_t k = 0; k < width && zero; k++)
        zero = more[k] == 0;
    if (zero)
        return true;
    for (size_t k = 0; k < width; k++)
        if (!add_u64(pt->addr_total[k + 1], more[k], &pt->addr_total[k + 1]))
            return false;
    if (!add_u64(pt->addr_total[0], cost, &pt->addr_total[0]))
        return false;
    if (pt->nselfs > 0) {
        struct addr_self *r = &pt->selfs[pt->nselfs - 1];
        if (r->node == node && r->addr == addr)
            return add_u64(r->cost, cost, &r->cost) &&
                   (!width || cost_row_add(cost_rows_row(&pt->more_selfs, pt->nselfs - 1, width),
                                      more, width));
    }
    GROW(pt->selfs, pt->selfs_cap, pt->nselfs);
    if (width)
        cost_row_add(cost_rows_row(&pt->more_selfs, pt->nselfs, width), more, width);
    pt->selfs[pt->nselfs++] = (struct addr_self){node, addr, cost};
    return true;
}

bool section_graph_add_call_at(struct section_graph *pt, uint32_t node, uint32_t callee, uint64_t addr,
                      uint64_t cost, const uint64_t *more, uint64_t calls)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&pt->call_index, (uint64_t)node << 32 | callee, addr,
                                    (uint32_t)pt->ncalls, &inserted);
    if (inserted) {
        if (pt->ncalls >= UINT32_MAX - 1)
            out_of_memory();
        GROW(pt->calls, pt->calls_cap, pt->ncalls);
        pt->calls[pt->ncalls++] = (struct addr_call){node, callee, addr, 0, 0};
    }
    struct addr_call *r = &pt->calls[*slot];
    if (!add_u64(r->calls, calls, &r->calls))
        r->calls = UINT64_MAX;
    size_t width = pt->prof.ncols - 1;
    return add_u64(r->cost, cost, &r->cost) &&
           (!width || cost_row_add(cost_rows_row(&pt->more_calls, *slot, width), more, width));
}
