/* Every event of a part at once (-f pprof, all_events): takes the other
 * events' costs of each line into rows (parser.all), hands on a part per
 * event at the part's end. */
#include "body.h"

#include <stdlib.h>
#include <string.h>

/* all_events: the main part counts the selected event (`selected`); every
 * other event of "events:" gets a part of its own, with the same nodes
 * (the part is set up before the first body line). */
void add_other_events(struct parser *P, const char *selected)
{
    struct read_target *t = P->t;
    size_t main_column = read_event_column(t, selected, strlen(selected));
    P->body.part.column = main_column;
    P->all.nothers = 0;
    if (P->body.cols_cap < P->header.events.ncolumns) {
        P->body.cols_cap = P->header.events.ncolumns;
        P->body.cols = xrealloc(P->body.cols, P->body.cols_cap * sizeof *P->body.cols);
    }
    for (size_t i = 0; i < P->header.events.ncolumns; i++) {
        const char *event = P->header.events.columns[i];
        size_t column = read_event_column(t, event, strlen(event));
        bool seen = column == main_column;
        for (size_t k = 0; k < P->all.nothers && !seen; k++)
            seen = P->all.others[k].part.column == column;
        if (seen)
            continue;
        if (P->all.nothers == P->all.others_cap) {
            GROW(P->all.others, P->all.others_cap, P->all.nothers);
            for (size_t k = P->all.nothers; k < P->all.others_cap; k++) {
                part_init(&P->all.others[k].part);
                hashmap_init(&P->all.others[k].inlined_nodes);
            }
        }
        struct other_event *o = &P->all.others[P->all.nothers++];
        part_reset(&o->part);
        hashmap_clear(&o->inlined_nodes);
        o->part.by_address = P->body.part.by_address;
        o->part.column = column;
        o->file_column = i;
        o->totals = 0;
    }
    if (P->all.other_columns_cap < P->all.nothers) {
        P->all.other_columns_cap = P->all.nothers;
        P->all.other_columns = xrealloc(P->all.other_columns,
                                    P->all.other_columns_cap * sizeof *P->all.other_columns);
    }
    for (size_t k = 0; k < P->all.nothers; k++) /* ascending: made in column order */
        P->all.other_columns[k] = P->all.others[k].file_column;
    if (P->all.others_below_cap < P->header.events.ncolumns + 1) {
        P->all.others_below_cap = P->header.events.ncolumns + 1;
        P->all.others_below = xrealloc(P->all.others_below,
                                   P->all.others_below_cap * sizeof *P->all.others_below);
    }
    for (size_t n = 0, k = 0; n <= P->header.events.ncolumns; n++) {
        while (k < P->all.nothers && P->all.other_columns[k] < n)
            k++;
        P->all.others_below[n] = k;
    }
    P->all.others_follow = P->header.single_column == 0 &&
                           P->all.nothers + 1 == P->header.events.ncolumns;
    for (size_t k = 0; k < P->all.nothers; k++)
        P->all.others_follow = P->all.others_follow && P->all.other_columns[k] == k + 1;
}

/* The first `used` cells of m zeroed again. */
static void clear_cost_matrix(struct cost_matrix *m, size_t used)
{
    if (m->zeroed)
        memset(m->cells, 0, (used < m->zeroed ? used : m->zeroed) * sizeof *m->cells);
}

/* all_events, at the end of a part: each other event's self cost sum
 * (for "totals:") and, if the part is to be handed on (`wanted`), its
 * profile made from the main one and its row of the matrices, which are
 * emptied.  A part --part leaves out needs only the sums: copying the
 * main profile, hash maps included, per event is a good part of reading
 * a file of many events. */
void make_other_profiles(struct parser *P, bool wanted)
{
    size_t width = P->all.nothers;
    const struct profile *main = P->body.prof;
    for (size_t k = 0; k < width; k++) {
        struct profile *prof = &P->all.others[k].part.prof;
        if (wanted)
            profile_copy(prof, main);
        prof->total_self = 0;
        for (size_t i = 0; i < main->nnodes; i++) {
            size_t at = i * width + k;
            uint64_t self = at < P->all.other_self.zeroed ? P->all.other_self.cells[at] : 0;
            if (wanted)
                prof->nodes[i].self = self;
            if (!add_u64(prof->total_self, self, &prof->total_self))
                fail(P, "cost sum overflows 64 bits");
        }
        for (size_t e = 0; e < main->nedges && wanted; e++) {
            size_t at = e * width + k;
            const struct cost_matrix *m = &P->all.other_edge;
            prof->edges[e].cost = at < m->zeroed ? m->cells[at] : 0;
        }
    }
    /* only the rows of the part's nodes and edges were written */
    size_t self_used = main->nnodes * width, edge_used = main->nedges * width;
    clear_cost_matrix(&P->all.other_self, self_used);
    clear_cost_matrix(&P->all.other_edge, edge_used);
}

/* At least `need` cells of m zeroed: the allocation doubled when too
 * small, but only a page's worth of cells past the need zeroed: zeroing
 * all that doubling allocates would fault in pages for rows mostly never
 * used. */
void grow_cost_matrix(struct cost_matrix *m, size_t need)
{
    if (need > m->allocated) {
        size_t want = need > 2 * m->allocated ? need : 2 * m->allocated;
        if (want > SIZE_MAX / sizeof *m->cells)
            out_of_memory();
        m->cells = xrealloc(m->cells, want * sizeof *m->cells);
        m->allocated = want;
    }
    size_t page = 4096 / sizeof *m->cells;
    size_t upto = m->allocated - need > page ? need + page : m->allocated;
    memset(m->cells + m->zeroed, 0, (upto - m->zeroed) * sizeof *m->cells);
    m->zeroed = upto;
}

/* add_other_columns() undone, for a line whose sums wrapped to be read
 * again by the exact path. */
void take_other_columns(const struct parser *P, uint64_t *row)
{
    const size_t *column = P->all.other_columns, n = P->all.others_below[P->body.ncols];
    for (size_t k = 0; k < n; k++)
        row[k] -= P->body.cols[column[k]];
}

/* all_events: the line's cost of each other event, into its row (or with
 * by_address into each other part, as cost_line_add() does for the main
 * one). */
void add_other_costs(struct parser *P, bool call, uint64_t addr, uint32_t line)
{
    size_t width = P->all.nothers;
    if (P->body.part.by_address) {
        addr_add_other_costs(P, call, addr, line);
        return;
    }
    /* The rows the main part's cost_line_add() added to: a call's edge,
     * else a node's self cost, and the edge into inlined code. */
    uint32_t function = P->body.function, inlined = P->body.inlined;
    uint32_t caller = inlined != NO_NODE ? inlined : function;
    /* The inlined code's row is made first and addressed last: making the
     * call's row may move the edge matrix. */
    uint32_t inline_edge = 0;
    if (inlined != NO_NODE) {
        inline_edge = profile_call_edge(P->body.prof, function, inlined);
        cost_row(&P->all.other_edge, inline_edge, width);
    }
    /* call_edge(): the main part's cost_line_add() just asked it the same */
    uint64_t *row = call ? cost_row(&P->all.other_edge, call_edge(P, caller, P->body.callee),
                                    width)
                         : cost_row(&P->all.other_self, caller, width);
    uint64_t *inline_row =
        inlined != NO_NODE ? P->all.other_edge.cells + inline_edge * width : NULL;
    bool carry = add_other_columns(P, row);
    if (inline_row)
        carry |= add_other_columns(P, inline_row);
    if (carry)
        fail(P, call ? "call cost sum overflows 64 bits" : "cost sum overflows 64 bits");
}


void all_events_free(struct parser_all *a)
{
    for (size_t k = 0; k < a->others_cap; k++) {
        part_free(&a->others[k].part);
        hashmap_free(&a->others[k].inlined_nodes);
    }
    free(a->others);
    free(a->other_columns);
    free(a->others_below);
    free(a->other_self.cells);
    free(a->other_edge.cells);
}
