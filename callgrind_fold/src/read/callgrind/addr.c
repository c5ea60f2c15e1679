/* The per-address records of --inline (by_address): takes each cost
 * line's "instr" position and costs, hands them to the part's records by
 * address (stacks/model.h, section_graph_add_self_at()), every event's with all
 * events. */
#include "body.h"

/* The body needs addresses: "instr" among the positions. */
void addr_check_positions(struct parser *P)
{
    if (P->body.part.by_address && P->addr.instr_pos == SIZE_MAX)
        fail(P, "--inline needs instruction addresses, which this profile does not "
             "have (no \"instr\" in \"positions:\"): profile with callgrind "
             "--dump-instr=yes");
}

/* The line's costs of the other events (all_events), for a record, or
 * NULL when the part has one column. */
static const uint64_t *other_line_costs(struct parser *P)
{
    size_t n = P->all.nothers;
    if (n == 0)
        return NULL;
    for (size_t k = 0; k < n; k++) {
        size_t column = P->all.other_columns[k];
        P->all.line_costs[k] = column < P->body.ncols ? P->body.cols[column] : 0;
    }
    return P->all.line_costs;
}

/* A cost line's cost at addr into part pt (cost_line_add()): a call's
 * from caller, else caller's self cost; with all events every column's. */
void addr_add_cost(struct parser *P, struct section_graph *pt, bool call, uint32_t caller,
                   uint64_t addr, uint64_t cost)
{
    const uint64_t *more = other_line_costs(P);
    if (call) {
        if (!section_graph_add_call_at(pt, caller, P->body.callee, addr, cost, more,
                              P->body.call_count))
            fail(P, "call cost sum overflows 64 bits");
    } else if (!section_graph_add_self_at(pt, caller, addr, cost, more)) {
        fail(P, "cost sum overflows 64 bits");
    }
}
