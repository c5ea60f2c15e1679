/* Every event of a part at once (-f pprof, html, md: all_events): the
 * part's costs become vectors, the selected event in column 0 and the
 * other events of "events:" after it (parser.all); each line's other
 * costs are added to its row of the profile, or by address to its
 * record's (addr.c). */
#include "body.h"

#include <stdlib.h>
#include <string.h>

/* all_events: the part counts the selected event (`selected`) in its
 * column 0 and every other event of "events:" in a column of its own,
 * set up before the first body line. */
void add_other_events(struct parser *P, const char *selected)
{
    struct read_target *t = P->t;
    struct parser_all *a = &P->all;
    size_t ncolumns = P->header.events.ncolumns;
    if (P->body.cols_cap < ncolumns) {
        P->body.cols_cap = ncolumns;
        P->body.cols = xrealloc(P->body.cols, P->body.cols_cap * sizeof *P->body.cols);
    }
    if (a->other_columns_cap < ncolumns + 1) {
        a->other_columns_cap = ncolumns + 1;
        a->other_columns = xrealloc(a->other_columns, a->other_columns_cap * sizeof *a->other_columns);
        a->totals = xrealloc(a->totals, a->other_columns_cap * sizeof *a->totals);
        a->sums = xrealloc(a->sums, a->other_columns_cap * sizeof *a->sums);
        a->line_costs = xrealloc(a->line_costs, a->other_columns_cap * sizeof *a->line_costs);
        a->stacks_columns =
            xrealloc(a->stacks_columns, a->other_columns_cap * sizeof *a->stacks_columns);
    }
    a->stacks_columns[0] = event_table_column(t->columns, selected, strlen(selected));
    a->nothers = 0;
    for (size_t i = 0; i < ncolumns; i++) {
        const char *event = P->header.events.columns[i];
        size_t column = event_table_column(t->columns, event, strlen(event));
        bool seen = false;
        for (size_t k = 0; k <= a->nothers && !seen; k++)
            seen = a->stacks_columns[k] == column;
        if (seen)
            continue;
        a->other_columns[a->nothers] = i; /* ascending: made in column order */
        a->totals[a->nothers] = 0;
        a->stacks_columns[++a->nothers] = column;
    }
    section_graph_set_columns(&P->body.part, a->stacks_columns, a->nothers + 1);
    if (a->others_below_cap < ncolumns + 1) {
        a->others_below_cap = ncolumns + 1;
        a->others_below = xrealloc(a->others_below, a->others_below_cap * sizeof *a->others_below);
    }
    for (size_t n = 0, k = 0; n <= ncolumns; n++) {
        while (k < a->nothers && a->other_columns[k] < n)
            k++;
        a->others_below[n] = k;
    }
    a->others_follow = P->header.single_column == 0 && a->nothers + 1 == ncolumns;
    for (size_t k = 0; k < a->nothers; k++)
        a->others_follow = a->others_follow && a->other_columns[k] == k + 1;
}

void sum_other_events(struct parser *P)
{
    const struct section_graph *pt = &P->body.part;
    for (size_t k = 0; k < P->all.nothers; k++) {
        P->all.sums[k] = pt->addr_total[k + 1]; /* by address: summed as added */
        if (!pt->by_address && !profile_total(&pt->prof, k + 1, &P->all.sums[k]))
            fail(P, "cost sum overflows 64 bits");
    }
}

/* add_other_columns() undone, for a line whose sums wrapped to be read
 * again by the exact path. */
void take_other_columns(const struct parser *P, uint64_t *row)
{
    const size_t *column = P->all.other_columns, n = P->all.others_below[P->body.ncols];
    for (size_t k = 0; k < n; k++)
        row[k] -= P->body.cols[column[k]];
}

/* all_events: the line's cost of each other event into the rows of what
 * cost_line_add() added column 0's to in the graph: a call's edge, else
 * a node's self cost, and the edge into inlined code.  By address the
 * records took them (addr_add_cost()) but for the inlined code's. */
void add_other_costs(struct parser *P, bool call)
{
    struct profile *prof = P->body.prof;
    size_t width = P->all.nothers;
    uint32_t function = P->body.function, inlined = P->body.inlined;
    uint32_t caller = inlined != NO_NODE ? inlined : function;
    bool by_address = P->body.part.by_address;
    if (by_address && inlined == NO_NODE)
        return;
    /* The inlined code's row is made first and addressed last: making the
     * call's row may move the rows. */
    uint32_t inline_edge = 0;
    if (inlined != NO_NODE) {
        inline_edge = profile_call_edge(prof, function, inlined);
        cost_rows_row(&prof->more_cost, inline_edge, width);
    }
    uint64_t *row = NULL;
    if (!call)
        row = cost_rows_row(&prof->more_self, caller, width);
    else if (!by_address) /* call_edge(): cost_line_add() just asked it the same */
        row = cost_rows_row(&prof->more_cost, call_edge(P, caller, P->body.callee), width);
    uint64_t *inline_row =
        inlined != NO_NODE ? prof->more_cost.cells + (size_t)inline_edge * width : NULL;
    bool carry = row && add_other_columns(P, row);
    if (inline_row)
        carry |= add_other_columns(P, inline_row);
    if (carry)
        fail(P, call ? "call cost sum overflows 64 bits" : "cost sum overflows 64 bits");
}

void all_events_free(struct parser_all *a)
{
    free(a->other_columns);
    free(a->totals);
    free(a->sums);
    free(a->line_costs);
    free(a->stacks_columns);
    free(a->others_below);
}
