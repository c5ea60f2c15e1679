/* What a cost line does with its values, shared by the exact reader
 * (grammar.c, cost_line()) and the fast tiers (costrun.c): takes a line's
 * position and cost, hands them on to the part's graph, or by address
 * (addr.c), and with all events the other events' costs to their
 * columns (allevents.c).
 * Inline: a call per cost line would cost more than most of what it
 * does. */
#ifndef CF_READ_BODY_H
#define CF_READ_BODY_H

#include "parser.h"

/* profile_call_edge() on the main part, remembered per callee. */
static inline uint32_t call_edge(struct parser *P, uint32_t caller, uint32_t callee)
{
    return call_edge_memo_edge(&P->body.edge_memo, P->body.prof, caller, callee);
}

/* A cost line's cost into part pt: the inclusive cost of a call when a
 * "calls=" line is pending (`call`), else self cost of the current
 * function or of the code inlined into it ("cfni=").  Returns the
 * call's edge, if it took one, else NO_NODE. */
static inline __attribute__((always_inline)) uint32_t
cost_line_add(struct parser *P, struct section_graph *pt, bool call, uint64_t addr, uint64_t cost)
{
    struct profile *prof = &pt->prof;
    if (call) {
        /* Inclusive cost of the calls: it is the callee's, not self cost. */
        uint32_t caller = P->body.function;
        if (P->body.inlined != NO_NODE) {
            /* a call made from inlined code: below its frame */
            if (!profile_add_call(prof, P->body.function, P->body.inlined, cost))
                fail(P, "call cost sum overflows 64 bits");
            caller = P->body.inlined;
        }
        if (pt->by_address) {
            addr_add_cost(P, pt, true, caller, addr, cost);
            return NO_NODE;
        }
        uint32_t edge = pt == &P->body.part ? call_edge(P, caller, P->body.callee)
                                            : profile_call_edge(prof, caller, P->body.callee);
        if (!profile_add_to_edge(prof, edge, cost, P->body.call_count))
            fail(P, "call cost sum overflows 64 bits");
        return edge;
    }
    if (P->body.inlined != NO_NODE) {
        if (!profile_add_call(prof, P->body.function, P->body.inlined, cost) ||
            !profile_add_self(prof, P->body.inlined, cost))
            fail(P, "cost sum overflows 64 bits");
        return NO_NODE;
    }
    if (pt->by_address)
        addr_add_cost(P, pt, false, P->body.function, addr, cost);
    else if (!profile_add_self(prof, P->body.function, cost))
        fail(P, "cost sum overflows 64 bits");
    return NO_NODE;
}

/* all_events: the other events' costs of the line (P->body.cols) added to a
 * row of the profile's other columns; returns whether a sum wrapped.  One
 * loop over the events (their columns of the line in an array of their
 * own), overflow noted as a carry, told by the caller.  The columns
 * ascend (add_other_events()), and those past the line's last cost add 0:
 * most lines have a few costs of many events, so the loop ends where
 * others_below says the line's costs do. */
static inline bool add_other_columns(const struct parser *P, uint64_t *row)
{
    const size_t *column = P->all.other_columns, n = P->all.others_below[P->body.ncols];
    const uint64_t *cols = P->body.cols;
    uint64_t carry = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t cost = cols[column[k]];
        row[k] += cost;
        carry |= row[k] < cost;
    }
    return carry;
}

/* A self-cost line's costs (`cost`, and with all events P->body.cols)
 * added to its source line in the part's line table, under `node` (the
 * function, or the code inlined into it), at the file of the last
 * "fl="/"fi="/"fe=".  Called once the node's own sums took the costs:
 * a line's sums are parts of the node's, so they cannot overflow. */
static inline void line_cost_add(struct parser *P, uint32_t node, uint64_t line, uint64_t cost)
{
    struct line_table *lt = &P->body.part.lines;
    /* line 0 is "no line": the costs stay in the function's sum */
    uint32_t at = line <= UINT32_MAX - 1 ? (uint32_t)line : 0;
    uint32_t e = line_table_entry(lt, node, P->body.file, at);
    lt->cost[e] += cost;
    if (P->all.nothers)
        (void)add_other_columns(P, line_table_more(lt, e));
}

/* What a cost line does with its values (the "instr" and "line"
 * subpositions, when asked for, and the cost of the chosen event): the
 * part of a cost line after its scanning, shared by cost_line() and the
 * fast tiers (cost_run()).  Inlined into both: a call per
 * cost line would cost more than most of what it does. */
static inline __attribute__((always_inline)) void
cost_line_values(struct parser *P, uint64_t addr, uint64_t line, uint64_t cost)
{
    bool want_line = P->addr.line_pos != SIZE_MAX && P->t->opt.want_lines;
    bool call = P->body.call_pending;
    uint32_t first_line = 0; /* the function's first source line, when new */
    if (P->body.part.by_address && !call && !P->body.jump_pending)
        P->addr.last_instr = addr;
    if (want_line && !call && !P->body.jump_pending) {
        /* the first line of the code the cost is of: inlined code's
         * ("cfni="), in its own file, is not its function's */
        uint32_t at = P->body.inlined != NO_NODE ? P->body.inlined : P->body.function;
        P->addr.last_line = line;
        if (at != NO_NODE && line > 0 && line <= UINT32_MAX - 1 &&
            P->body.prof->nodes[at].line == 0)
            P->body.prof->nodes[at].line = first_line = (uint32_t)line;
    }
    P->body.jump_pending = false;
    if (!call && P->body.function == NO_NODE)
        fail(P, "cost line before any \"fn=\" line");
    uint32_t edge = cost_line_add(P, &P->body.part, call, addr, cost);
    if (P->all.nothers)
        add_other_costs(P, call);
    /* every self cost at its line, a line after "jump=" too: the
     * function's lines sum to its self cost (--inline: lines from DWARF) */
    if (want_line && !call && !P->body.part.by_address)
        line_cost_add(P, P->body.inlined != NO_NODE ? P->body.inlined : P->body.function,
                      line, cost);
    /* a call's line: where its caller's location is when it calls */
    if (want_line && call && !P->body.part.by_address)
        line_table_site(&P->body.part.lines, edge,
                        P->body.inlined != NO_NODE ? P->body.inlined : P->body.function,
                        P->body.callee, P->body.file,
                        line <= UINT32_MAX - 1 ? (uint32_t)line : 0, cost);
    if (call) {
        P->body.call_pending = false;
        P->body.call_object = P->body.call_file = NO_NAME;
    }
}


#endif
