/* A part as the reader hands it on: its call graph, and with --inline its
 * costs by instruction address (model.h, "part.c"). */
#include "model.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void part_init(struct part *pt)
{
    memset(pt, 0, sizeof *pt);
    profile_init(&pt->prof);
    hashmap_init(&pt->call_index);
}

void part_free(struct part *pt)
{
    profile_free(&pt->prof);
    free(pt->selfs);
    free(pt->calls);
    hashmap_free(&pt->call_index);
    part_init(pt);
}

void part_reset(struct part *pt)
{
    profile_reset(&pt->prof);
    pt->nselfs = pt->ncalls = 0;
    pt->addr_total = 0;
    hashmap_clear(&pt->call_index);
}

void part_expect_bytes(struct part *pt, uint64_t bytes)
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
bool part_add_self_at(struct part *pt, uint32_t node, uint64_t addr, uint64_t cost)
{
    if (cost == 0)
        return true;
    if (!add_u64(pt->addr_total, cost, &pt->addr_total))
        return false;
    if (pt->nselfs > 0) {
        struct addr_self *r = &pt->selfs[pt->nselfs - 1];
        if (r->node == node && r->addr == addr)
            return add_u64(r->cost, cost, &r->cost);
    }
    GROW(pt->selfs, pt->selfs_cap, pt->nselfs);
    pt->selfs[pt->nselfs++] = (struct addr_self){node, addr, cost};
    return true;
}

bool part_add_call_at(struct part *pt, uint32_t node, uint32_t callee, uint64_t addr,
                      uint64_t cost, uint64_t calls)
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
    return add_u64(r->cost, cost, &r->cost);
}
