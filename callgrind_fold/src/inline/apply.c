/* --inline: applying the frames. At the end of a part, inline_apply
 * opens the objects its addresses fall in (first those whose debug file
 * the prefetch thread is done with), finds each self cost's and each
 * call's chain of inlined frames (resolve), and adds the costs to the
 * part's call graph under chains of "NAME [inlined]" child nodes. */
#include "inline.h"
#include "bias.h"
#include "context.h"
#include "indexcache.h"
#include "lookup.h"
#include "names.h"
#include "objects.h"
#include "prefetch.h"
#include "scopes.h"
#include "srclines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The DWARF address of address addr (as callgrind wrote it) of o. */
static uint64_t dwarf_pc(const struct object *o, uint64_t addr)
{
    return addr - o->bias + o->elf_bias - o->dwarf_bias;
}

/* Chain of inlined frames at address addr of object oi, interned;
 * *split_missing set when the address is in a unit whose split DWARF
 * was not found (counted once per address). With `sites` (lines shown),
 * also the chain's call sites (srclines.h). */
static uint32_t resolve(struct inline_ctx *ix, uint32_t oi, uint64_t addr,
                        struct strtab *names, bool *split_missing, uint32_t *sites)
{
    struct object *o = &ix->objects[oi];
    if (sites)
        *sites = ix->empty_sites;
    if (o->state != OBJ_OK) {
        bool inserted;
        hashmap_upsert(&ix->lost, oi, addr, 0, &inserted);
        if (inserted)
            o->lost_addrs++;
        return ix->empty_chain;
    }
    uint64_t pc = dwarf_pc(o, addr);
    if (pc - o->run_lo < o->run_hi - o->run_lo && (!sites || o->run_sites != NONE)) {
        if (sites)
            *sites = o->run_sites;
        return o->run_chain;
    }
    *split_missing = false;
    struct scope_tree *t = function_tree(ix, o, pc, split_missing);
    if (*split_missing) {
        bool inserted;
        hashmap_upsert(&ix->lost, oi, addr, 0, &inserted);
        o->split_lost_addrs += inserted;
    }
    uint32_t node = t ? scope_at(t, pc) : 0;
    if (node == 0)
        return ix->empty_chain;
    o->run_chain = chain_of(ix, o, t, node, names);
    o->run_sites = sites ? sites_of(ix, o, t, node, names) : NONE;
    o->run_lo = t->flat[t->last].lo; /* scope_at's interval */
    o->run_hi = t->flat[t->last].hi;
    if (sites)
        *sites = o->run_sites;
    return o->run_chain;
}

/* The source line of address addr of object oi into *where: file NONE
 * when there is none; `at` 1 when the object's DWARF was read. */
static void line_of(struct inline_ctx *ix, uint32_t oi, uint64_t addr, struct strtab *names,
                    struct line_key *where)
{
    struct object *o = &ix->objects[oi];
    where->at = o->state == OBJ_OK;
    if (o->state != OBJ_OK || !dwarf_line_at(o, dwarf_pc(o, addr), names, &where->file,
                                           &where->line)) {
        where->file = NONE;
        where->line = 0;
    }
}

/* ---- into the call graph ---- */

/* The node for code of `node` inlined along `chain`, created with its
 * parents as needed; the cost (`cost`, and `more` the other columns'
 * when the part has several) is added to every call along the way.
 * With `lt` (lines shown), each call's site of `sites` (srclines.h)
 * gets the cost too. */
static bool chain_node(struct inline_ctx *ix, struct profile *p, struct line_table *lt,
                       uint32_t node, uint32_t chain, uint32_t sites, uint64_t cost,
                       const uint64_t *more, uint32_t *out)
{
    size_t n = strtab_len(&ix->chains, chain) / sizeof(uint32_t);
    const char *bytes = strtab_str(&ix->chains, chain);
    uint32_t cur = node;
    for (size_t i = 0; i < n; i++) {
        uint32_t frame;
        memcpy(&frame, bytes + i * sizeof frame, sizeof frame);
        uint32_t child = profile_inlined_node(p, &ix->child_index, cur, frame);
        uint32_t edge = profile_call_edge(p, cur, child);
        if (!profile_add_to_edge(p, edge, cost, 0) ||
            (more && !profile_add_edge_more(p, edge, more)))
            return false;
        if (lt) {
            struct inline_site site = sites_at(ix, sites, i);
            if (site.file != NONE)
                line_table_site(lt, edge, cur, child, site.file, site.line, cost);
            /* an inlined frame's code is in the file it calls the next
             * one from (its Function's file; its own lines may say so
             * again, below) */
            if (i + 1 < n && p->nodes[child].line == 0 &&
                (site = sites_at(ix, sites, i + 1)).file != NONE)
                p->nodes[child].file = site.file;
        }
        cur = child;
    }
    *out = cur;
    return true;
}

/* With lines shown: each self-cost sum's line (where[i]: its file and
 * line; file NONE without one, `at` 1 when its object's DWARF was read)
 * into the part's line table under its node (target[i]), every column,
 * so that each node's lines sum to its self cost. Code without a line
 * in an object with DWARF is at line 0 of its node's file, as callgrind
 * writes it; an object without DWARF gives no lines (a writer shows its
 * functions' first lines). An inlined node takes the file and line of
 * its first line, as a function's first line. */
static void put_lines(struct section_graph *pt, size_t n0, const uint32_t *target,
                      const struct line_key *where)
{
    struct profile *p = &pt->prof;
    struct line_table *lt = &pt->lines;
    size_t width = p->ncols - 1;
    for (size_t i = 0; i < pt->nselfs; i++) {
        uint32_t at = target[i];
        if (where[i].file != NONE && where[i].line && at >= n0 && p->nodes[at].line == 0) {
            p->nodes[at].file = where[i].file;
            p->nodes[at].line = where[i].line;
        }
    }
    for (size_t i = 0; i < pt->nselfs; i++) {
        uint32_t at = target[i];
        bool known = where[i].file != NONE;
        if (!known && !where[i].at)
            continue;
        uint32_t e = line_table_entry(lt, at, known ? where[i].file : p->nodes[at].file,
                                      known ? where[i].line : 0);
        /* parts of the node's sums, which did not overflow */
        lt->cost[e] += pt->selfs[i].cost;
        if (width)
            (void)cost_row_add(line_table_more(lt, e), pt->more_selfs.cells + i * width, width);
    }
}

/* Opens the objects of this part not opened yet (obj[i]: function i's
 * object, lowest[i] its lowest address), reads their unit indexes kept
 * in the cache and finds their biases. With `ready_only`, only those
 * whose debug file the prefetch thread is done with (or never had): the
 * others can wait while these are used. */
static void open_objects(struct inline_ctx *ix, struct profile *p, struct strtab *names,
                         const uint32_t *obj, const uint64_t *lowest, size_t n0,
                         bool ready_only)
{
    struct sample *samples = xmalloc(BIAS_SAMPLES * sizeof *samples);
    for (size_t oi = 0; oi < ix->nobjects; oi++) {
        struct object *o = &ix->objects[oi];
        const char *path = strtab_str(names, o->name);
        if (o->state != OBJ_NEW || (ready_only && !prefetch_claim(ix->prefetch, path)))
            continue;
        size_t used = 0;
        for (size_t i = 0; i < n0 && !used; i++)
            used = obj[i] == oi;
        if (!used)
            continue;
        open_object(ix, o, path);
        if (o->state != OBJ_OK)
            continue;
        load_index(ix, o);
        /* The bias, from the first address of up to BIAS_SAMPLES
         * functions with symbols. */
        size_t ns = 0;
        for (size_t i = 0; i < n0 && ns < BIAS_SAMPLES; i++) {
            if (obj[i] != oi)
                continue;
            const char *name = strtab_str(names, p->nodes[i].name);
            size_t len = frame_base_length(name, strtab_len(names, p->nodes[i].name));
            if (len == 0 || addr_name_no_symbol(name, len) || name[0] == '(')
                continue; /* no symbol: "prog+0x401000", "(below main)" */
            samples[ns++] = (struct sample){name, len, lowest[i]};
        }
        find_bias(ix, o, samples, ns);
    }
    free(samples);
}

int inline_apply(struct inline_ctx *ix, struct section_graph *pt, struct strtab *names, char *err,
                 size_t errlen)
{
    struct profile *p = &pt->prof;
    hashmap_clear(&ix->child_index);
    size_t n0 = p->nnodes;
    /* Names as callgrind wrote them: mangled with --demangle=no. */
    for (size_t i = 0; i < n0 && !ix->mangled_names; i++)
        if (strncmp(strtab_str(names, p->nodes[i].name), "_Z", 2) == 0)
            ix->mangled_names = true;

    /* Objects used in this part, and the lowest address of each function. */
    uint64_t *lowest = xmalloc((n0 ? n0 : 1) * sizeof *lowest);
    uint32_t *obj = xmalloc((n0 ? n0 : 1) * sizeof *obj);
    for (size_t i = 0; i < n0; i++) {
        lowest[i] = UINT64_MAX;
        obj[i] = NONE;
    }
    for (size_t i = 0; i < pt->nselfs; i++)
        if (pt->selfs[i].addr < lowest[pt->selfs[i].node])
            lowest[pt->selfs[i].node] = pt->selfs[i].addr;
    for (size_t i = 0; i < pt->ncalls; i++)
        if (pt->calls[i].addr < lowest[pt->calls[i].node])
            lowest[pt->calls[i].node] = pt->calls[i].addr;
    for (size_t i = 0; i < n0; i++)
        if (lowest[i] != UINT64_MAX)
            object_of(ix, p->nodes[i].object, &obj[i]);

    /* The chain of each self cost: first in the objects ready, while the
     * prefetch thread may still be inflating others' debug files, then
     * in the rest. */
    uint32_t *chains = xmalloc((pt->nselfs ? pt->nselfs : 1) * sizeof *chains);
    /* With lines shown: each record's call sites and line (lt: where
     * they go) */
    struct line_table *lt = pt->want_lines ? &pt->lines : NULL;
    uint32_t *sites = lt ? xmalloc((pt->nselfs ? pt->nselfs : 1) * sizeof *sites) : NULL;
    struct line_key *where = lt ? xmalloc((pt->nselfs ? pt->nselfs : 1) * sizeof *where) : NULL;
    for (size_t i = 0; lt && i < pt->nselfs; i++) {
        sites[i] = ix->empty_sites;
        where[i] = (struct line_key){0, NONE, 0};
    }
    for (int pass = 0; pass < 2; pass++) {
        open_objects(ix, p, names, obj, lowest, n0, pass == 0);
        for (size_t i = 0; i < pt->nselfs; i++) {
            const struct addr_self *r = &pt->selfs[i];
            if (pass == 1 && chains[i] != NONE)
                continue;
            struct object *o = &ix->objects[obj[r->node]];
            bool missing = false;
            chains[i] = o->state == OBJ_NEW ? NONE /* the second pass's */
                                            : resolve(ix, obj[r->node], r->addr, names,
                                                      &missing, lt ? &sites[i] : NULL);
            if (lt && chains[i] != NONE)
                line_of(ix, obj[r->node], r->addr, names, &where[i]);
            if (missing && !add_u64(o->split_lost_cost, r->cost, &o->split_lost_cost))
                o->split_lost_cost = UINT64_MAX;
        }
    }

    /* Self costs summed per (function, chain) first: many addresses
     * share a chain, and the graph needs one node per chain. The records
     * are rewritten in place: addr becomes the chain. With lines, per
     * (function, call sites, file, line): a node's several sums are
     * added to it one by one, in the order of their first records, so
     * the graph is made in the same order as without. */
    int rc = 0;
    size_t width = p->ncols - 1; /* the other columns' costs, a row per record */
    uint64_t *more = xmalloc((width ? width : 1) * sizeof *more);
    struct hashmap by_chain;
    hashmap_init(&by_chain);
    size_t nsum = 0;
    uint64_t prev_k1 = UINT64_MAX, prev_k2 = UINT64_MAX;
    uint32_t prev_slot = 0;
    for (size_t i = 0; i < pt->nselfs && rc == 0; i++) {
        struct addr_self r = pt->selfs[i];
        if (width) /* its row is zeroed below when it becomes its own sum */
            memcpy(more, pt->more_selfs.cells + i * width, width * sizeof *more);
        uint32_t chain = chains[i];
        struct object *o = &ix->objects[obj[r.node]];
        if (o->state != OBJ_OK && !add_u64(o->lost_cost, r.cost, &o->lost_cost))
            o->lost_cost = UINT64_MAX;
        uint64_t k1 = r.node, k2 = chain;
        if (lt) {
            k1 = (uint64_t)r.node << 32 | sites[i];
            k2 = (uint64_t)where[i].file << 32 | where[i].line;
        }
        /* Neighbouring records mostly share function and chain. */
        if (k1 != prev_k1 || k2 != prev_k2) {
            bool inserted;
            uint32_t *slot = hashmap_upsert(&by_chain, k1, k2, (uint32_t)nsum, &inserted);
            if (inserted) {
                if (width) /* rows move down as records do: nsum <= i */
                    memset(cost_rows_row(&pt->more_selfs, nsum, width), 0,
                           width * sizeof(uint64_t));
                if (lt) { /* the same: sums move down */
                    sites[nsum] = sites[i];
                    where[nsum] = where[i];
                }
                pt->selfs[nsum++] = (struct addr_self){r.node, chain, 0};
            }
            prev_k1 = k1;
            prev_k2 = k2;
            prev_slot = *slot;
        }
        if (!add_u64(pt->selfs[prev_slot].cost, r.cost, &pt->selfs[prev_slot].cost))
            rc = -1;
        if (width && !cost_row_add(pt->more_selfs.cells + (size_t)prev_slot * width, more,
                                   width))
            rc = -1;
    }
    hashmap_free(&by_chain);
    free(chains);
    free(more);
    pt->nselfs = nsum;
    uint32_t *target = lt ? xmalloc((nsum ? nsum : 1) * sizeof *target) : NULL;
    for (size_t i = 0; i < pt->nselfs && rc == 0; i++) {
        const struct addr_self *r = &pt->selfs[i];
        const uint64_t *row = width ? pt->more_selfs.cells + i * width : NULL;
        uint32_t at = r->node, chain = (uint32_t)r->addr;
        if (chain != ix->empty_chain &&
            !chain_node(ix, p, lt, r->node, chain, lt ? sites[i] : NONE, r->cost, row, &at))
            rc = -1;
        if (rc == 0 && (!profile_add_self(p, at, r->cost) ||
                        (row && !profile_add_self_more(p, at, row))))
            rc = -1;
        if (target)
            target[i] = at;
    }
    if (lt && rc == 0)
        put_lines(pt, n0, target, where);
    free(target);
    free(sites);
    free(where);
    for (size_t i = 0; i < pt->ncalls && rc == 0; i++) {
        const struct addr_call *r = &pt->calls[i];
        const uint64_t *row = width ? cost_rows_row(&pt->more_calls, i, width) : NULL;
        bool missing;
        uint32_t call_sites;
        uint32_t chain = resolve(ix, obj[r->node], r->addr, names, &missing,
                                 lt ? &call_sites : NULL);
        uint32_t at = r->node;
        if (chain != ix->empty_chain &&
            !chain_node(ix, p, lt, r->node, chain, lt ? call_sites : NONE, r->cost, row, &at))
            rc = -1;
        uint32_t edge = rc == 0 ? profile_call_edge(p, at, r->callee) : 0;
        if (rc == 0 && (!profile_add_to_edge(p, edge, r->cost, r->calls) ||
                        (row && !profile_add_edge_more(p, edge, row))))
            rc = -1;
        struct line_key call_line;
        if (lt && rc == 0 && (line_of(ix, obj[r->node], r->addr, names, &call_line),
                              call_line.file != NONE))
            line_table_site(lt, edge, at, r->callee, call_line.file, call_line.line, r->cost);
    }
    if (rc)
        snprintf(err, errlen, "cost sum overflows 64 bits");
    free(lowest);
    free(obj);
    return rc;
}
