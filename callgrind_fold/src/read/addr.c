/* The per-address records of --inline (by_address): takes each cost
 * line's "instr" position and cost, hands them to the parts' records by
 * address (stacks/stacks.h, part_add_self_at()), the main part's and, with
 * all events, every other event's. */
#include "body.h"

/* The body needs addresses: "instr" among the positions. */
void addr_check_positions(struct parser *P)
{
    if (P->body.part.by_address && P->addr.instr_pos == SIZE_MAX)
        fail(P, "--inline needs instruction addresses, which this profile does not "
             "have (no \"instr\" in \"positions:\"): profile with callgrind "
             "--dump-instr=yes");
}

/* A cost line's cost at addr into part pt (cost_line_add()): a call's
 * from caller, else caller's self cost. */
void addr_add_cost(struct parser *P, struct part *pt, bool call, uint32_t caller,
                   uint64_t addr, uint64_t cost)
{
    if (call) {
        if (!part_add_call_at(pt, caller, P->body.callee, addr, cost, P->body.call_count))
            fail(P, "call cost sum overflows 64 bits");
    } else if (!part_add_self_at(pt, caller, addr, cost)) {
        fail(P, "cost sum overflows 64 bits");
    }
}

/* all_events: the line's cost of each other event into its part, as
 * cost_line_add() does for the main one. */
void addr_add_other_costs(struct parser *P, bool call, uint64_t addr, uint32_t line)
{
    for (size_t k = 0; k < P->all.nothers; k++) {
        struct other_event *o = &P->all.others[k];
        if (line)
            o->part.prof.nodes[P->body.function].line = line;
        cost_line_add(P, &o->part, call, addr,
                      o->file_column < P->body.ncols ? P->body.cols[o->file_column] : 0);
    }
}

/* all_events: a function's node made in every other part too, with the
 * same id as in the main one, as each gets the same calls. */
void addr_other_functions(struct parser *P, uint32_t object, uint32_t file, uint32_t name)
{
    for (size_t k = 0; k < P->all.nothers; k++)
        profile_function(&P->all.others[k].part.prof, object, file, name);
}

/* all_events: a function's "fn=" seen, in every other part too. */
void addr_other_defined(struct parser *P, uint32_t node)
{
    for (size_t k = 0; k < P->all.nothers; k++)
        P->all.others[k].part.prof.nodes[node].defined = true;
}
