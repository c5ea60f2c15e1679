/* The main part's call edges remembered per callee (body.edge_memo):
 * call_edge() (body.h) when the memo does not have the edge.  Every file
 * that applies a cost line calls it (grammar.c, addr.c, allevents.c,
 * costrun.c), so it calls nothing of the reader back: kept apart from
 * body.c, which calls those files (no two files call each other). */
#include "parser.h"

uint32_t call_edge_new(struct parser *P, uint32_t caller, uint32_t callee)
{
    uint32_t edge = profile_call_edge(P->body.prof, caller, callee);
    if (callee >= P->body.edge_memo_cap) {
        size_t old = P->body.edge_memo_cap;
        GROW(P->body.edge_memo, P->body.edge_memo_cap, (size_t)callee);
        for (size_t i = old; i < P->body.edge_memo_cap; i++)
            P->body.edge_memo[i].caller = NO_NODE;
    }
    P->body.edge_memo[callee] = (struct edge_memo){caller, edge};
    return edge;
}
