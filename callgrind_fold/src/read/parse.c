/* Reader for the callgrind profile format.
 *
 * Only what folding needs is kept: each function's self cost and the
 * inclusive cost of its calls, for the selected event. Positions are
 * checked for syntax but not stored, so memory depends on the number of
 * distinct names, not on the size of the file. */
#include "parse.h"
#include "failure.h"
#include "events.h"
#include "lex.h"
#include "scan.h"
#include "costblocks.h"
#include "sections.h"
#include "util/util.h"

#include <ctype.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_NAME UINT32_MAX

/* Name compression ids are per kind of name, shared by the "fn=", "cfn=",
 * "jfn=" family and so on. */
enum name_kind { KIND_OBJECT, KIND_FILE, KIND_FUNCTION, KIND_COUNT };

/* all_events: the other events' costs, a row of them per node or edge
 * (cost_row()).  Cells below `zeroed` hold costs or 0; the rest of the
 * `allocated` ones are not yet written, so that growing touches no page
 * before a row needs it. */
struct cost_matrix {
    uint64_t *cells;
    size_t zeroed, allocated;
};

struct parser {
    struct read_target *t;
    struct strtab *names;           /* t->names */
    struct diag *d;
    struct linereader *r;
    struct reader_failure failure;
    /* Compressed id -> interned name: an array for the small ids that
     * callgrind writes, a hash map for any others. */
    uint32_t *dense_ids[KIND_COUNT];
    size_t dense_cap[KIND_COUNT];
    struct hashmap ids[KIND_COUNT];
    struct buf scratch;
    uint32_t empty_name;
    bool saw_events;                /* some part of the file had "events:" */

    /* Header of the current part. */
    struct event_defs events;
    uint64_t *weight;               /* per cost column, for the chosen event */
    size_t weight_cap;
    size_t single_column;           /* SIZE_MAX unless weight is one 1 */
    bool events_resolved;
    size_t npositions;
    uint64_t part_ordinal;
    uint64_t part_number;
    bool summary_in_header;
    bool have_totals;
    uint64_t totals, totals_line;

    /* Body of the current part. */
    bool in_body;
    uint32_t object, file;          /* current "ob=", and "fl="/"fi="/"fe=" */
    uint32_t function;              /* node of the current "fn=", or NO_NODE */
    uint32_t call_object, call_file, call_name; /* "cob=" "cfi=" "cfn=" */
    bool call_pending;              /* "calls=" read, its cost line is next */
    bool cost_blocks;               /* block_lines_one() may run */
    uint32_t callee;
    uint64_t call_count;            /* the count of the pending "calls=" */
    uint64_t call_line;
    struct part part;
    struct profile *prof;           /* &part.prof */

    /* by_address (--inline): the "instr" subposition, tracked as callgrind writes it:
     * relative to the last self-cost line of the function (call lines and
     * the line after "jump="/"jcnd=" do not move it). */
    size_t instr_pos;               /* index in "positions:", or SIZE_MAX */
    uint64_t last_instr;
    /* want_lines (-f pprof): the "line" subposition, tracked the same way, for the
     * first line seen in each function. */
    size_t line_pos;                /* index in "positions:", or SIZE_MAX */
    uint64_t last_line;
    struct buf descs;               /* the part's "desc:" values, '\n' after each */
    struct section_head head;       /* its thread and dump (sections.h) */
    bool jump_pending;

    /* "cfni=NAME" (callgrind --read-inline-info=yes): the node of the
     * frame "NAME [inlined]" under the current function that the next
     * lines' costs go to, NO_NODE in the function's own code; one node
     * per (function node, name), as --inline makes them. */
    uint32_t inlined;
    struct hashmap inlined_nodes;

    /* Lookups spared (function_node(), call_edge()): callgrind names the
     * same callee before each of its calls ("cfn=(12)"), and calls the
     * same function from the same caller again and again.  Indexed by
     * the interned name and by the callee's node; reset with the part. */
    struct node_memo *node_memo;
    size_t node_memo_cap;
    struct edge_memo *edge_memo;
    size_t edge_memo_cap;

    /* The cost columns of the last cost line, one per event (filled by
     * the fast path, fast_cost_line(), and with all_events by
     * parse_costs()). */
    uint64_t *cols;
    size_t cols_cap;
    size_t ncols;

    /* all_events (-f pprof): a part for each other event of "events:",
     * with the main part's nodes and ids and its event's costs, so that
     * one pass reads every event. Their costs are kept in two matrices
     * while the part is read, a row of nothers costs per node and per
     * edge of the main part, and made profiles (copies of the main one)
     * at its end: a line then costs nothers additions in one row, where
     * feeding each profile would cost a hash lookup per call line and
     * event. By address (--inline) each other part is fed every line as
     * the main part is, the records being per part. */
    struct other_event *others;
    size_t nothers, others_cap;
    size_t *other_columns;          /* others[k].file_column, for add_other_costs() */
    size_t other_columns_cap;
    /* [n], n up to the number of columns: how many others' columns are
     * below n, i.e. how many to add for a line of n costs */
    size_t *others_below;
    size_t others_below_cap;
    /* The usual layout: the selected event is the first column and the
     * others are the rest, in order (other k: column k + 1), so that
     * plain_lines() adds each cost to its row as it reads it. */
    bool others_follow;
    struct cost_matrix other_self, other_edge;
};

/* The node function_node() last gave for a name, and the (object, file)
 * it was for. */
struct node_memo {
    uint32_t object, file, node;
};

/* The edge call_edge() last gave for calls to a callee, and its caller. */
struct edge_memo {
    uint32_t caller, edge;
};

struct other_event {
    struct part part;
    size_t file_column;             /* its column of "events:" */
    uint64_t totals;                /* of "totals:" */
    struct hashmap inlined_nodes;   /* as the parser's, for this part */
};

static _Noreturn void fail_at(struct parser *P, uint64_t line, const char *msg)
{
    P->d->line = line;
    fail(P, "%s", msg);
}

/* ---- small lexical helpers ---------------------------------------- */

/* isalpha() of the C locale (the program never sets another), without
 * its call through the locale's table: it runs on every key of a line. */
static inline bool is_ascii_alpha(char c)
{
    return (unsigned char)((c | 0x20) - 'a') < 26;
}

static uint64_t number_or_fail(struct parser *P, const char *p, const char *end,
                               const char *what)
{
    uint64_t v;
    if (!parse_number(p, end, &v)) {
        size_t n = (size_t)(end - p);
        bool digits = n > 0;
        for (size_t i = 0; i < n; i++)
            digits &= isdigit((unsigned char)p[i]) != 0;
        if (digits)
            fail(P, "%s " TOKEN_FMT " does not fit in 64 bits", what, TOKEN_ARGS(p, n));
        fail(P, "bad %s " TOKEN_FMT, what, TOKEN_ARGS(p, n));
    }
    return v;
}

/* A subposition: absolute number, "+N", "-N" or "*". Positions are not
 * needed for folding, so they are only checked. */
static void check_subposition(struct parser *P, const char *p, const char *end)
{
    if (end - p == 1 && *p == '*')
        return;
    if (*p == '+' || *p == '-')
        p++;
    number_or_fail(P, p, end, "subposition");
}

/* Value of the "instr" subposition token [p, end). */
static uint64_t instr_value(struct parser *P, const char *p, const char *end, uint64_t last)
{
    if (end - p == 1 && *p == '*')
        return last;
    if (*p == '+' || *p == '-')
        return *p == '+' ? last + number_or_fail(P, p + 1, end, "subposition")
                         : last - number_or_fail(P, p + 1, end, "subposition");
    return number_or_fail(P, p, end, "subposition");
}

/* Hot path of cost lines: a plain decimal token at p (p < end, not a
 * blank). Returns the end of the token and its value, or NULL if the token
 * is anything else (hex, sign, junk, overflow) and needs the slow path. */
static inline const char *scan_decimal(const char *p, const char *end, uint64_t *out)
{
    uint64_t v = 0;
    const char *start = p;
    while (p < end && (unsigned)(*p - '0') < 10) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return NULL;
        v = v * 10 + d;
        p++;
    }
    if (p == start || (p < end && !is_blank(*p)))
        return NULL;
    *out = v;
    return p;
}

/* Next subposition token starting at p (not a blank); returns its end.
 * With `value`, also the position it names: "+N"/"-N" and "*" are
 * relative to `last` (the "instr" and "line" ones are asked for). */
static inline const char *next_subposition(struct parser *P, const char *p, const char *end,
                                           uint64_t *value, uint64_t last)
{
    uint64_t v;
    const char *q = p;
    if (*q == '+' || *q == '-') {
        q++;
    } else if (*q == '*' && (q + 1 == end || is_blank(q[1]))) {
        if (value)
            *value = last;
        return q + 1;
    }
    if (q < end) {
        const char *t = scan_decimal(q, end, &v);
        if (t) {
            if (value)
                *value = *p == '+' ? last + v : *p == '-' ? last - v : v;
            return t;
        }
    }
    const char *t = token_end(p, end);
    if (value)
        *value = instr_value(P, p, t, last); /* hex, mostly: checked there too */
    else
        check_subposition(P, p, t);
    return t;
}

/* Next number token starting at p (not a blank); returns its end. */
static inline const char *next_number(struct parser *P, const char *p, const char *end,
                                      uint64_t *v, const char *what)
{
    const char *t = scan_decimal(p, end, v);
    if (t)
        return t;
    t = token_end(p, end);
    *v = number_or_fail(P, p, t, what);
    return t;
}

/* ---- events --------------------------------------------------------- */

/* all_events: the main part counts the selected event (`selected`); every
 * other event of "events:" gets a part of its own, with the same nodes
 * (the part is set up before the first body line). */
static void add_other_events(struct parser *P, const char *selected)
{
    struct read_target *t = P->t;
    size_t main_column = read_event_column(t, selected, strlen(selected));
    P->part.column = main_column;
    P->nothers = 0;
    if (P->cols_cap < P->events.ncolumns) {
        P->cols_cap = P->events.ncolumns;
        P->cols = xrealloc(P->cols, P->cols_cap * sizeof *P->cols);
    }
    for (size_t i = 0; i < P->events.ncolumns; i++) {
        const char *event = P->events.columns[i];
        size_t column = read_event_column(t, event, strlen(event));
        bool seen = column == main_column;
        for (size_t k = 0; k < P->nothers && !seen; k++)
            seen = P->others[k].part.column == column;
        if (seen)
            continue;
        if (P->nothers == P->others_cap) {
            GROW(P->others, P->others_cap, P->nothers);
            for (size_t k = P->nothers; k < P->others_cap; k++) {
                part_init(&P->others[k].part);
                hashmap_init(&P->others[k].inlined_nodes);
            }
        }
        struct other_event *o = &P->others[P->nothers++];
        part_reset(&o->part);
        hashmap_clear(&o->inlined_nodes);
        o->part.by_address = P->part.by_address;
        o->part.column = column;
        o->file_column = i;
        o->totals = 0;
    }
    if (P->other_columns_cap < P->nothers) {
        P->other_columns_cap = P->nothers;
        P->other_columns = xrealloc(P->other_columns,
                                    P->other_columns_cap * sizeof *P->other_columns);
    }
    for (size_t k = 0; k < P->nothers; k++) /* ascending: made in column order */
        P->other_columns[k] = P->others[k].file_column;
    if (P->others_below_cap < P->events.ncolumns + 1) {
        P->others_below_cap = P->events.ncolumns + 1;
        P->others_below = xrealloc(P->others_below,
                                   P->others_below_cap * sizeof *P->others_below);
    }
    for (size_t n = 0, k = 0; n <= P->events.ncolumns; n++) {
        while (k < P->nothers && P->other_columns[k] < n)
            k++;
        P->others_below[n] = k;
    }
    P->others_follow = P->single_column == 0 && P->nothers + 1 == P->events.ncolumns;
    for (size_t k = 0; k < P->nothers; k++)
        P->others_follow = P->others_follow && P->other_columns[k] == k + 1;
}

static void resolve_events(struct parser *P)
{
    if (P->events_resolved)
        return;
    if (P->events.ncolumns == 0)
        fail(P, "no \"events:\" line before the profile data");
    const char *name = read_event_name(P->t, P->events.columns[0]);
    if (P->events.ncolumns > P->weight_cap) {
        P->weight_cap = P->events.ncolumns;
        P->weight = xrealloc(P->weight, P->weight_cap * sizeof *P->weight);
    }
    char err[sizeof P->d->msg];
    if (events_resolve(&P->events, name, P->weight, err, sizeof err))
        fail(P, "%s", err);
    /* Fast path for the common case: the event is one column. */
    P->single_column = SIZE_MAX;
    size_t nonzero = 0;
    for (size_t i = 0; i < P->events.ncolumns; i++) {
        if (P->weight[i]) {
            nonzero++;
            if (P->weight[i] == 1)
                P->single_column = i;
        }
    }
    if (nonzero != 1)
        P->single_column = SIZE_MAX;
    P->events_resolved = true;
    if (P->t->opt.all_events)
        add_other_events(P, name);
}

/* Parse costs from p to end (after the positions) into the chosen event. */
static uint64_t parse_costs(struct parser *P, const char *p, const char *end)
{
    uint64_t result = 0;
    size_t column = 0;
    for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
        uint64_t v;
        const char *t = next_number(P, p, end, &v, "cost");
        if (column >= P->events.ncolumns)
            fail(P, "more costs than the %zu event(s) of the \"events:\" line",
                 P->events.ncolumns);
        if (P->nothers) /* all_events: the other events' costs too */
            P->cols[column] = v;
        if (column == P->single_column) {
            result = v;
        } else if (P->single_column == SIZE_MAX && P->weight[column]) {
            uint64_t term;
            if (!mul_u64(v, P->weight[column], &term) || !add_u64(result, term, &result))
                fail(P, "cost of the selected event overflows 64 bits");
        }
        column++;
        p = t;
    }
    P->ncols = column;
    return result;
}

/* ---- names ---------------------------------------------------------- */

#define DENSE_ID_LIMIT ((uint64_t)1 << 22)

static uint32_t lookup_id(struct parser *P, enum name_kind kind, uint64_t id)
{
    uint32_t sid = NO_NAME;
    if (id < DENSE_ID_LIMIT) {
        if (id < P->dense_cap[kind])
            sid = P->dense_ids[kind][id];
    } else if (!hashmap_get(&P->ids[kind], id, 0, &sid)) {
        sid = NO_NAME;
    }
    if (sid == NO_NAME)
        fail(P, "name id (%" PRIu64 ") is used before it is defined", id);
    return sid;
}

static void define_id(struct parser *P, enum name_kind kind, uint64_t id, uint32_t sid)
{
    if (id >= DENSE_ID_LIMIT) {
        hashmap_put(&P->ids[kind], id, 0, sid);
        return;
    }
    if (id >= P->dense_cap[kind]) {
        size_t old = P->dense_cap[kind];
        GROW(P->dense_ids[kind], P->dense_cap[kind], (size_t)id);
        for (size_t i = old; i < P->dense_cap[kind]; i++)
            P->dense_ids[kind][i] = NO_NAME;
    }
    P->dense_ids[kind][id] = sid;
}

/* "(12)" at p? Sets *id and returns the end of it, or NULL. */
static const char *compressed_id(struct parser *P, const char *p, const char *end,
                                 uint64_t *id)
{
    if (end - p < 3 || p[0] != '(' || !is_digit(p[1]))
        return NULL;
    const char *close = p + 1;
    while (close < end && is_digit(*close))
        close++;
    if (close == end || *close != ')')
        fail(P, "bad compressed name " TOKEN_FMT, TOKEN_ARGS(p, (size_t)(end - p)));
    *id = number_or_fail(P, p + 1, close, "name id");
    return close + 1;
}

/* With --compress-mangled=yes callgrind writes a context name as ids of
 * its parts: "(5)'2'(7)'(9)" stands for "fib'2'main'(below main)". */
static uint32_t intern_function_name(struct parser *P, const char *p, const char *end)
{
    uint64_t id;
    if (!compressed_id(P, p, end, &id))
        return strtab_intern(P->names, p, (size_t)(end - p));
    struct buf *out = &P->scratch;
    out->len = 0;
    while (p < end) {
        const char *q = memchr(p, '\'', (size_t)(end - p));
        if (!q)
            q = end;
        const char *after = compressed_id(P, p, q, &id);
        if (after == q) {
            uint32_t sid = lookup_id(P, KIND_FUNCTION, id);
            buf_append(out, strtab_str(P->names, sid),
                       strtab_len(P->names, sid));
        } else {
            buf_append(out, p, (size_t)(q - p));
        }
        if (q < end)
            buf_putc(out, '\'');
        p = q + 1;
    }
    return strtab_intern(P->names, out->data, out->len);
}

/* Value of a "spec=" line: "name", "(id) name" or "(id)". */
static uint32_t parse_name(struct parser *P, enum name_kind kind, const char *p,
                           const char *end)
{
    uint64_t id;
    /* Most such lines are a compressed name used again, "cfn=(12)": the
     * id read in one pass (the byte after the line stops the digits,
     * linereader.h) and looked up.  Any other form reads on below. */
    if (p[0] == '(') {
        const char *close = scan_udec(p + 1, &id);
        if (close && close[0] == ')' && close + 1 == end)
            return lookup_id(P, kind, id);
    }
    const char *after = compressed_id(P, p, end, &id);
    uint32_t sid;
    if (!after) {
        sid = kind == KIND_FUNCTION ? intern_function_name(P, p, end)
                                    : strtab_intern(P->names, p, (size_t)(end - p));
    } else {
        const char *name = skip_blanks(after, end);
        if (name == end)
            return lookup_id(P, kind, id);
        if (after == name)
            fail(P, "missing space after compressed name id (%" PRIu64 ")", id);
        sid = kind == KIND_FUNCTION ? intern_function_name(P, name, end)
                                    : strtab_intern(P->names, name, (size_t)(end - name));
        define_id(P, kind, id, sid);
    }
    if (kind == KIND_FUNCTION && strtab_len(P->names, sid) == 0)
        fail(P, "empty function name");
    return sid;
}

/* ---- parts ---------------------------------------------------------- */

static void start_part(struct parser *P)
{
    events_free(&P->events);
    events_init(&P->events);
    P->events_resolved = false;
    P->npositions = 1; /* "positions: line" is the default */
    P->instr_pos = SIZE_MAX;
    P->last_instr = 0;
    P->line_pos = 0;
    P->last_line = 0;
    P->descs.len = 0;
    section_reset(&P->head);
    P->jump_pending = false;
    P->part_ordinal++;
    P->part_number = P->part_ordinal;
    P->summary_in_header = false;
    P->have_totals = false;
    P->in_body = false;
    P->object = P->file = P->empty_name;
    P->function = NO_NODE;
    P->call_object = P->call_file = P->call_name = NO_NAME;
    P->call_pending = false;
    P->inlined = NO_NODE;
    hashmap_clear(&P->inlined_nodes);
    part_reset(&P->part);
    for (size_t i = 0; i < P->node_memo_cap; i++) /* the part's nodes are gone */
        P->node_memo[i].node = NO_NODE;
    for (size_t i = 0; i < P->edge_memo_cap; i++)
        P->edge_memo[i].caller = NO_NODE;
    P->nothers = 0; /* set up again with the part's events */
}

/* all_events, at the end of a part: each other event's self cost sum
 * (for "totals:") and, if the part is to be handed on (`wanted`), its
 * profile made from the main one and its row of the matrices, which are
 * emptied.  A part --part leaves out needs only the sums: copying the
 * main profile, hash maps included, per event was about a tenth of
 * reading a 9-event file (issue 28). */
/* The first `used` cells of m zeroed again. */
static void clear_cost_matrix(struct cost_matrix *m, size_t used)
{
    if (m->zeroed)
        memset(m->cells, 0, (used < m->zeroed ? used : m->zeroed) * sizeof *m->cells);
}

static void make_other_profiles(struct parser *P, bool wanted)
{
    size_t width = P->nothers;
    const struct profile *main = P->prof;
    for (size_t k = 0; k < width; k++) {
        struct profile *prof = &P->others[k].part.prof;
        if (wanted)
            profile_copy(prof, main);
        prof->total_self = 0;
        for (size_t i = 0; i < main->nnodes; i++) {
            size_t at = i * width + k;
            uint64_t self = at < P->other_self.zeroed ? P->other_self.cells[at] : 0;
            if (wanted)
                prof->nodes[i].self = self;
            if (!add_u64(prof->total_self, self, &prof->total_self))
                fail(P, "cost sum overflows 64 bits");
        }
        for (size_t e = 0; e < main->nedges && wanted; e++) {
            size_t at = e * width + k;
            prof->edges[e].cost = at < P->other_edge.zeroed ? P->other_edge.cells[at] : 0;
        }
    }
    /* only the rows of the part's nodes and edges were written */
    size_t self_used = main->nnodes * width, edge_used = main->nedges * width;
    clear_cost_matrix(&P->other_self, self_used);
    clear_cost_matrix(&P->other_edge, edge_used);
}

/* The section's header, for part_end. */
static struct part_info part_info_of(struct parser *P)
{
    struct part_info info = {.number = P->part_number, .descs = P->descs.data,
                             .descs_len = P->descs.len};
    section_info(P->t, &P->head, &info);
    return info;
}

/* keep_parts: a part without costs, announced and closed. */
static void end_part(struct parser *P)
{
    char err[sizeof P->d->msg];
    struct part_info info = part_info_of(P);
    read_part_start(P->t, &info);
    if (read_part_end(P->t, &info, err, sizeof err))
        fail(P, "%s", err);
}

/* The section's header is complete: checked against its part's other
 * sections; whether --thread selects it. */
static bool thread_wanted(struct parser *P, bool part_wanted)
{
    char err[sizeof P->d->msg];
    uint64_t line;
    bool wanted;
    P->head.number = P->part_number;
    if (section_end_header(P->t, &P->head, P->d->file, part_wanted, &wanted, err,
                           sizeof err, &line))
        fail_at(P, line ? line : P->r->lineno, err);
    return wanted;
}

/* A section without costs (a harness's metadata, the program's end,
 * a thread idle since the last dump): a report still reads its "desc:"
 * lines. */
static void finish_empty_section(struct parser *P)
{
    struct read_target *t = P->t;
    bool part_wanted = t->opt.part == ALL_PARTS || t->opt.part == P->part_number;
    if (thread_wanted(P, part_wanted) && part_wanted && t->opt.keep_parts)
        end_part(P);
}

static void finish_part(struct parser *P)
{
    if (P->call_pending)
        fail_at(P, P->call_line,
                "\"calls=\" line without the cost line that must follow it "
                "(truncated file?)");
    struct read_target *t = P->t;
    if (!P->in_body) {
        finish_empty_section(P);
        return;
    }
    bool part_wanted = t->opt.part == ALL_PARTS || t->opt.part == P->part_number;
    bool wanted = thread_wanted(P, part_wanted) && part_wanted;
    /* By address, the self costs are not in the graph yet: their sum is
     * kept beside them. */
    uint64_t total = P->part.by_address ? P->part.addr_total : P->prof->total_self;
    if (P->nothers && !P->part.by_address)
        make_other_profiles(P, wanted);
    if (P->have_totals) {
        if (P->totals != total) {
            P->d->line = P->totals_line;
            fail(P, "\"totals:\" says %" PRIu64 " but the cost lines sum to %" PRIu64
                 " (truncated or corrupt file?)", P->totals, total);
        }
        for (size_t k = 0; k < P->nothers; k++) {
            const struct other_event *o = &P->others[k];
            uint64_t sum = o->part.by_address ? o->part.addr_total : o->part.prof.total_self;
            if (o->totals != sum) {
                P->d->line = P->totals_line;
                fail(P, "\"totals:\" says %" PRIu64 " but the cost lines sum to %" PRIu64
                     " (truncated or corrupt file?)", o->totals, sum);
            }
        }
    } else if (P->summary_in_header) {
        /* callgrind always ends a part with "totals:" */
        fail(P, "part ends without its \"totals:\" line (truncated file?)");
    }
    t->parts_read++;
    if (part_wanted)
        t->part_matched = true;
    if (!wanted)
        return;
    for (size_t i = 0; i < P->descs.len;) {
        const char *nl = memchr(P->descs.data + i, '\n', P->descs.len - i);
        size_t n = (size_t)(nl - (P->descs.data + i));
        notes_comment(t, "desc", P->descs.data + i, n);
        i += n + 1;
    }
    char err[sizeof P->d->msg];
    struct part_info info = part_info_of(P);
    read_part_start(t, &info);
    for (size_t k = 0; k <= P->nothers; k++) {
        struct part *pt = k == 0 ? &P->part : &P->others[k - 1].part;
        pt->number = P->part_number;
        if (t->sink.part(t->sink.arg, pt, err, sizeof err))
            fail(P, "%s", err);
    }
    if (read_part_end(t, &info, err, sizeof err))
        fail(P, "%s", err);
}

static void start_body(struct parser *P)
{
    resolve_events(P);
    if (P->part.by_address && P->instr_pos == SIZE_MAX)
        fail(P, "--inline needs instruction addresses, which this profile does not "
             "have (no \"instr\" in \"positions:\"): profile with callgrind "
             "--dump-instr=yes");
    P->in_body = true;
}

/* ---- header lines ---------------------------------------------------- */

static const char *const header_keys[] = {
    "version", "creator", "pid", "cmd", "part", "thread", "desc",
    "positions", "events", "event", "summary", "totals", NULL};

static const char *const position_keys[] = {
    "ob", "fl", "fi", "fe", "fn", "cob", "cfi", "cfl", "cfn", "cfni", "calls",
    "jump", "jcnd", "jfi", "jfn", "frfn", "rec", "ln", "bb", NULL};

static bool in_list(const char *const *list, const char *key, size_t n)
{
    for (; *list; list++)
        if (key_is(key, n, *list))
            return true;
    return false;
}

static void set_positions(struct parser *P, const char *p, const char *end)
{
    size_t n = 0;
    P->instr_pos = SIZE_MAX;
    P->line_pos = SIZE_MAX;
    for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
        const char *t = token_end(p, end);
        size_t len = (size_t)(t - p);
        if (!key_is(p, len, "instr") && !key_is(p, len, "line") && !key_is(p, len, "bb"))
            fail(P, "unknown position type " TOKEN_FMT " in \"positions:\"",
                 TOKEN_ARGS(p, len));
        if (key_is(p, len, "instr") && P->instr_pos == SIZE_MAX)
            P->instr_pos = n;
        if (key_is(p, len, "line") && P->line_pos == SIZE_MAX)
            P->line_pos = n;
        n++;
        p = t;
    }
    P->npositions = n;
}

/* "event: NAME [= EXPR] : LONG NAME": the long name tells a unit. */
static void note_long_name(struct read_target *t, const char *p, const char *end)
{
    const char *name, *lng;
    size_t nlen, llen;
    if (events_long_name(p, end, &name, &nlen, &lng, &llen))
        notes_event_long(t, name, nlen, lng, llen);
}

static void header_line(struct parser *P, const char *key, size_t keylen,
                        const char *value, const char *end)
{
    bool trailer = key_is(key, keylen, "totals") || key_is(key, keylen, "summary");
    if (P->in_body && !trailer) {
        if (!in_list(header_keys, key, keylen))
            return; /* unknown header line: ignored wherever it is */
        finish_part(P);
        start_part(P);
    }
    value = skip_blanks(value, end);
    char err[sizeof P->d->msg];
    if (key_is(key, keylen, "events")) {
        if (events_set_columns(&P->events, value, (size_t)(end - value), err, sizeof err))
            fail(P, "%s", err);
        P->events_resolved = false;
        P->saw_events = true;
        for (size_t i = 0; i < P->events.ncolumns; i++)
            notes_event(P->t, P->events.columns[i], strlen(P->events.columns[i]));
    } else if (key_is(key, keylen, "event")) {
        if (events_add_definition(&P->events, value, (size_t)(end - value), err, sizeof err))
            fail(P, "%s", err);
        P->events_resolved = false;
        note_long_name(P->t, value, end);
    } else if (key_is(key, keylen, "positions")) {
        set_positions(P, value, end);
    } else if (key_is(key, keylen, "part")) {
        if (!P->in_body && P->have_totals) {
            /* the section before had no costs: closed here, not merged */
            finish_empty_section(P);
            P->descs.len = 0;
            P->have_totals = false;
            P->summary_in_header = false;
            section_reset(&P->head);
        }
        P->part_number = number_or_fail(P, value, token_end(value, end), "part number");
        if (skip_blanks(token_end(value, end), end) != end)
            fail(P, "junk after the part number");
        P->head.start_line = P->r->lineno;
    } else if (key_is(key, keylen, "thread")) {
        if (section_thread(&P->head, value, end, P->r->lineno, err, sizeof err))
            fail(P, "%s", err);
    } else if (key_is(key, keylen, "pid")) {
        section_pid(&P->head, value, end);
    } else if (key_is(key, keylen, "totals") ||
               (key_is(key, keylen, "summary") && P->in_body)) {
        /* Cachegrind writes its total as a trailing "summary:". */
        if (key_is(key, keylen, "summary") && P->have_totals)
            return;
        resolve_events(P);
        P->totals = parse_costs(P, value, end);
        for (size_t k = 0; k < P->nothers; k++) {
            struct other_event *o = &P->others[k];
            o->totals = o->file_column < P->ncols ? P->cols[o->file_column] : 0;
        }
        P->have_totals = true;
        P->totals_line = P->r->lineno;
    } else if (key_is(key, keylen, "cmd")) {
        notes_comment(P->t, "cmd", value, (size_t)(end - value));
    } else if (key_is(key, keylen, "desc")) {
        section_desc(&P->head, value, end, P->r->lineno);
        if (P->t->opt.keep_notes || P->t->opt.keep_parts) {
            buf_append(&P->descs, value, (size_t)(end - value));
            buf_putc(&P->descs, '\n');
        }
    } else if (key_is(key, keylen, "summary")) {
        P->summary_in_header = true;
        if (P->events.ncolumns) {
            resolve_events(P);
            parse_costs(P, value, end); /* checked, not needed */
        }
    }
    /* version, creator and unknown keys: nothing to do for folding. */
}

/* ---- body lines ------------------------------------------------------ */

/* profile_call_edge() on the main part, remembered per callee. */
static uint32_t call_edge(struct parser *P, uint32_t caller, uint32_t callee)
{
    if (callee < P->edge_memo_cap && P->edge_memo[callee].caller == caller)
        return P->edge_memo[callee].edge;
    uint32_t edge = profile_call_edge(P->prof, caller, callee);
    if (callee >= P->edge_memo_cap) {
        size_t old = P->edge_memo_cap;
        GROW(P->edge_memo, P->edge_memo_cap, (size_t)callee);
        for (size_t i = old; i < P->edge_memo_cap; i++)
            P->edge_memo[i].caller = NO_NODE;
    }
    P->edge_memo[callee] = (struct edge_memo){caller, edge};
    return edge;
}

/* A cost line's cost into part pt: the inclusive cost of a call when a
 * "calls=" line is pending (`call`), else self cost of the current
 * function or of the code inlined into it ("cfni="). */
static inline __attribute__((always_inline)) void
add_line_cost(struct parser *P, struct part *pt, bool call, uint64_t addr, uint64_t cost)
{
    struct profile *prof = &pt->prof;
    if (call) {
        /* Inclusive cost of the calls: it is the callee's, not self cost. */
        uint32_t caller = P->function;
        if (P->inlined != NO_NODE) {
            /* a call made from inlined code: below its frame */
            if (!profile_add_call(prof, P->function, P->inlined, cost))
                fail(P, "call cost sum overflows 64 bits");
            caller = P->inlined;
        }
        if (pt->by_address) {
            if (!part_add_call_at(pt, caller, P->callee, addr, cost, P->call_count))
                fail(P, "call cost sum overflows 64 bits");
        } else {
            uint32_t edge = pt == &P->part ? call_edge(P, caller, P->callee)
                                           : profile_call_edge(prof, caller, P->callee);
            if (!profile_add_to_edge(prof, edge, cost, P->call_count))
                fail(P, "call cost sum overflows 64 bits");
        }
        return;
    }
    if (P->inlined != NO_NODE) {
        if (!profile_add_call(prof, P->function, P->inlined, cost) ||
            !profile_add_self(prof, P->inlined, cost))
            fail(P, "cost sum overflows 64 bits");
        return;
    }
    if (pt->by_address ? !part_add_self_at(pt, P->function, addr, cost)
                       : !profile_add_self(prof, P->function, cost))
        fail(P, "cost sum overflows 64 bits");
}

/* At least `need` cells of m zeroed: the allocation doubled when too
 * small, but only a page's worth of cells past the need zeroed.  (Zeroing
 * all that doubling allocates cost about 1,000 page faults a run on the
 * 9-event cc1 profile, for rows mostly never used; issue 28.) */
static void grow_cost_matrix(struct cost_matrix *m, size_t need)
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

/* Row `index` of a cost matrix of rows of `width`, made (zeroed) if new.
 * Inline, with the growing apart: it runs for every cost line of -f
 * pprof, and the row is there but for a new node or edge. */
static inline uint64_t *cost_row(struct cost_matrix *m, size_t index, size_t width)
{
    size_t need = (index + 1) * width;
    if (need > m->zeroed)
        grow_cost_matrix(m, need);
    return m->cells + index * width;
}

/* all_events: the other events' costs of the line (P->cols) added to a
 * row of a cost matrix; returns whether a sum wrapped.  One loop over the
 * events (their columns in an array of their own, not strided through
 * P->others), overflow noted as a carry, told by the caller.  The columns
 * ascend (add_other_events()), and those past the line's last cost add 0:
 * most lines have a few costs of many events, so the loop ends where
 * others_below says the line's costs do. */
static inline bool add_other_columns(const struct parser *P, uint64_t *row)
{
    const size_t *column = P->other_columns, n = P->others_below[P->ncols];
    const uint64_t *cols = P->cols;
    uint64_t carry = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t cost = cols[column[k]];
        row[k] += cost;
        carry |= row[k] < cost;
    }
    return carry;
}

/* add_other_columns() undone, for a line whose sums wrapped to be read
 * again by the exact path. */
static void take_other_columns(const struct parser *P, uint64_t *row)
{
    const size_t *column = P->other_columns, n = P->others_below[P->ncols];
    for (size_t k = 0; k < n; k++)
        row[k] -= P->cols[column[k]];
}

/* all_events: the line's cost of each other event, into its row (or with
 * by_address into each other part, as add_line_cost() does for the main
 * one). */
static void add_other_costs(struct parser *P, bool call, uint64_t addr, uint32_t line)
{
    size_t width = P->nothers;
    if (P->part.by_address) {
        for (size_t k = 0; k < width; k++) {
            struct other_event *o = &P->others[k];
            if (line)
                o->part.prof.nodes[P->function].line = line;
            add_line_cost(P, &o->part, call, addr,
                          o->file_column < P->ncols ? P->cols[o->file_column] : 0);
        }
        return;
    }
    /* The rows the main part's add_line_cost() added to: a call's edge,
     * else a node's self cost, and the edge into inlined code. */
    uint32_t function = P->function, inlined = P->inlined;
    uint32_t caller = inlined != NO_NODE ? inlined : function;
    /* The inlined code's row is made first and addressed last: making the
     * call's row may move the edge matrix. */
    uint32_t inline_edge = 0;
    if (inlined != NO_NODE) {
        inline_edge = profile_call_edge(P->prof, function, inlined);
        cost_row(&P->other_edge, inline_edge, width);
    }
    /* call_edge(): the main part's add_line_cost() just asked it the same */
    uint64_t *row = call ? cost_row(&P->other_edge, call_edge(P, caller, P->callee), width)
                         : cost_row(&P->other_self, caller, width);
    uint64_t *inline_row =
        inlined != NO_NODE ? P->other_edge.cells + inline_edge * width : NULL;
    bool carry = add_other_columns(P, row);
    if (inline_row)
        carry |= add_other_columns(P, inline_row);
    if (carry)
        fail(P, call ? "call cost sum overflows 64 bits" : "cost sum overflows 64 bits");
}

/* What a cost line does with its values (the "instr" and "line"
 * subpositions, when asked for, and the cost of the chosen event): the
 * part of a cost line after its scanning, shared by cost_line() and the
 * in-place fast path (fast_cost_lines()).  Inlined into both: a call per
 * cost line would cost more than most of what it does. */
static inline __attribute__((always_inline)) void
cost_line_values(struct parser *P, uint64_t addr, uint64_t line, uint64_t cost)
{
    bool want_line = P->line_pos != SIZE_MAX && P->t->opt.want_lines;
    bool call = P->call_pending;
    uint32_t first_line = 0; /* the function's first source line, when new */
    if (P->part.by_address && !call && !P->jump_pending)
        P->last_instr = addr;
    if (want_line && !call && !P->jump_pending) {
        P->last_line = line;
        if (P->function != NO_NODE && line > 0 && line <= UINT32_MAX - 1 &&
            P->prof->nodes[P->function].line == 0)
            P->prof->nodes[P->function].line = first_line = (uint32_t)line;
    }
    P->jump_pending = false;
    if (!call && P->function == NO_NODE)
        fail(P, "cost line before any \"fn=\" line");
    add_line_cost(P, &P->part, call, addr, cost);
    if (P->nothers)
        add_other_costs(P, call, addr, first_line);
    if (call) {
        P->call_pending = false;
        P->call_object = P->call_file = NO_NAME;
    }
}

static void cost_line(struct parser *P, const char *p, const char *end)
{
    uint64_t addr = 0, line = 0;
    bool want_line = P->line_pos != SIZE_MAX && P->t->opt.want_lines;
    for (size_t i = 0; i < P->npositions; i++) {
        p = skip_blanks(p, end);
        if (p == end)
            fail(P, "cost line has fewer than the %zu subposition(s) of "
                 "\"positions:\"", P->npositions);
        if (i == P->line_pos && want_line)
            p = next_subposition(P, p, end, &line, P->last_line);
        else
            p = next_subposition(P, p, end,
                                 i == P->instr_pos && P->part.by_address ? &addr : NULL,
                                 P->last_instr);
    }
    uint64_t cost = parse_costs(P, p, end);
    cost_line_values(P, addr, line, cost);
}

/* ---- cost lines read in place: the hot loop ---------------------------
 *
 * Four lines in five of a callgrind.out are cost lines of a few short
 * numbers ("+3 0 1 0 0 2").  lr_next() and parse_line() would cost a
 * memchr() for the line's end, a call and a dispatch per line, and the
 * exact scanners above test the end of the line at every byte and
 * overflow at every digit.  So a run of cost lines is read straight from
 * the line reader's buffer (lr_window()): one pass over the bytes that
 * finds the '\n' while reading the numbers.  Only the common forms are
 * taken (decimal, "0x" hex, "+N", "-N", "*", numbers short enough not to
 * overflow, a single event column or an event formula); on anything else
 * the line is left to lr_next() and cost_line(), which accept or reject
 * it exactly as before, with the same message. */

/* One subposition at p: "*", "+N", "-N" or "N" (N decimal or "0x" hex);
 * its value relative to last.  Returns its end, or NULL. */
static inline const char *fast_subposition(const char *p, uint64_t *value, uint64_t last)
{
    char c = *p;
    if (c == '*') {
        *value = last;
        return p + 1;
    }
    uint64_t v;
    const char *t = scan_uint(p + (c == '+' || c == '-'), &v);
    if (!t)
        return NULL;
    *value = c == '+' ? last + v : c == '-' ? last - v : v;
    return t;
}

/* The cost line at p, which ends with a '\n' before the end of the
 * buffer: its "instr" and "line" values (if asked for, as in cost_line())
 * and its cost of the chosen event.  Returns the '\n', or NULL for
 * cost_line() to read the line.  ipos and lpos: the index of the "instr"
 * and "line" subpositions when their values are wanted, else SIZE_MAX. */
static inline const char *fast_cost_line(struct parser *P, const char *p, size_t ipos,
                                         size_t lpos, uint64_t *addr, uint64_t *line,
                                         uint64_t *cost)
{
    size_t npos = P->npositions;
    if (ipos == SIZE_MAX && lpos == SIZE_MAX) {
        p = skip_subpositions(p, npos);
        if (!p)
            return NULL;
    } else {
        for (size_t i = 0; i < npos; i++) {
            uint64_t v;
            p = fast_subposition(p, &v, i == lpos ? P->last_line : P->last_instr);
            if (!p)
                return NULL;
            if (i == ipos)
                *addr = v;
            if (i == lpos)
                *line = v;
            if (!is_blank(*p)) {
                if (*p == '\n' && i + 1 == npos)
                    break; /* no costs: they are 0 */
                return NULL;
            }
            while (is_blank(*p))
                p++;
        }
    }
    size_t n;
    size_t ncolumns = P->events.ncolumns;
    p = scan_cost_columns(p, P->cols, ncolumns, &n);
    if (!p)
        return NULL;
    P->ncols = n;
    size_t one = P->single_column;
    if (one != SIZE_MAX) {
        *cost = one < n ? P->cols[one] : 0;
        return p;
    }
    uint64_t sum = 0; /* an event formula ("event: S = Ir + 10 Dr") */
    for (size_t i = 0; i < n; i++) {
        uint64_t term;
        if (P->weight[i] && (!mul_u64(P->cols[i], P->weight[i], &term) ||
                             !add_u64(sum, term, &sum)))
            return NULL;
    }
    *cost = sum;
    return p;
}

/* "cfni=NAME": the costs that follow, up to the next "cfni=" or "fn=",
 * are of code inlined from NAME into the current function ("???": its
 * own code again).  They go to a frame "NAME [inlined]" below it, named as
 * --inline names the frames it finds in the debug info.  With --inline
 * the line is ignored: the debug info gives the whole chain of inlined
 * frames, where cfni= names only the innermost. */
static void inlined_frame(struct parser *P, const char *value, const char *end)
{
    size_t len = (size_t)(end - value);
    P->inlined = NO_NODE;
    if (P->part.by_address || (len == 3 && memcmp(value, "???", 3) == 0))
        return;
    if (P->function == NO_NODE)
        fail(P, "\"cfni=\" line before any \"fn=\" line");
    if (len == 0)
        fail(P, "\"cfni=\" line without a name");
    P->scratch.len = 0;
    buf_append(&P->scratch, value, len);
    buf_append(&P->scratch, INLINE_MARK, sizeof INLINE_MARK - 1);
    uint32_t name = strtab_intern(P->names, P->scratch.data, P->scratch.len);
    P->inlined = profile_inlined_node(P->prof, &P->inlined_nodes, P->function, name);
    for (size_t k = 0; k < P->nothers && P->part.by_address; k++) /* the same node */
        profile_inlined_node(&P->others[k].part.prof, &P->others[k].inlined_nodes,
                             P->function, name);
}

/* "calls=COUNT TARGET" or "jump=COUNT TARGET" or "jcnd=EXE/JUMP TARGET":
 * a count (two for jcnd) and up to npositions subpositions. Returns the
 * first count. */
static uint64_t check_arc_exact(struct parser *P, const char *p, const char *end,
                                bool two_counts)
{
    uint64_t first;
    p = skip_blanks(p, end);
    const char *t = token_end(p, end);
    const char *slash = two_counts ? memchr(p, '/', (size_t)(t - p)) : NULL;
    if (slash) {
        first = number_or_fail(P, p, slash, "count");
        number_or_fail(P, slash + 1, t, "count");
    } else {
        first = number_or_fail(P, p, t, "count");
        if (two_counts) {
            p = skip_blanks(t, end);
            t = token_end(p, end);
            number_or_fail(P, p, t, "count");
        }
    }
    size_t n = 0;
    for (p = skip_blanks(t, end); p < end; p = skip_blanks(p, end)) {
        t = token_end(p, end);
        if (++n > P->npositions)
            fail(P, "more target subpositions than \"positions:\" has");
        check_subposition(P, p, t);
        p = t;
    }
    return first;
}

/* The node of a function, made on first use in every part (all_events:
 * the same id in each, as each gets the same calls). */
static uint32_t function_node(struct parser *P, uint32_t object, uint32_t file,
                              uint32_t name)
{
    struct node_memo *m = name < P->node_memo_cap ? &P->node_memo[name] : NULL;
    if (m && m->node != NO_NODE && m->object == object && m->file == file)
        return m->node; /* made before: in the other parts too */
    uint32_t node = profile_function(P->prof, object, file, name);
    for (size_t k = 0; k < P->nothers && P->part.by_address; k++)
        profile_function(&P->others[k].part.prof, object, file, name);
    if (!m) {
        size_t old = P->node_memo_cap;
        GROW(P->node_memo, P->node_memo_cap, (size_t)name);
        for (size_t i = old; i < P->node_memo_cap; i++)
            P->node_memo[i].node = NO_NODE;
        m = &P->node_memo[name];
    }
    *m = (struct node_memo){object, file, node};
    return node;
}

/* An object's name: with by_address, the next stage may start preparing
 * its debug file while the rest is read. */
static void note_object(struct parser *P, uint32_t name)
{
    if (P->part.by_address && P->t->sink.object)
        P->t->sink.object(P->t->sink.arg, name, strtab_str(P->names, name));
}

/* check_arc() for what callgrind writes ("jump=3 +2 *", "jcnd=5/9 0x1a 3",
 * "calls=1 0x4a0 12"), in one pass that stops at the first non-digit
 * (the line is followed by '\n' or '\r', linereader.h).  False, with
 * nothing done, for anything else: check_arc_exact() then reads the line
 * and gives the error if there is one. */
static inline bool fast_arc(const struct parser *P, const char *p, const char *end,
                            bool two_counts, uint64_t *first)
{
    uint64_t v, second;
    while (is_blank(*p))
        p++;
    const char *t = scan_uint(p, &v);
    if (!t)
        return false;
    if (two_counts) {
        if (*t == '/') {
            t++;
        } else {
            if (!is_blank(*t))
                return false;
            while (is_blank(*t))
                t++;
        }
        t = scan_uint(t, &second);
        if (!t)
            return false;
    }
    for (size_t n = 0;; n++) { /* the target's subpositions, only checked */
        p = t;
        while (is_blank(*p))
            p++;
        if (p == end)
            break;
        if (p == t || n == P->npositions)
            return false; /* no blank before the token, or one too many */
        char c = *p;
        if (c == '*')
            t = p + 1;
        else if (!(t = scan_uint(p + (c == '+' || c == '-'), &second)))
            return false;
    }
    *first = v;
    return true;
}

/* "calls=COUNT TARGET" or "jump=COUNT TARGET" or "jcnd=EXE/JUMP TARGET":
 * a count (two for jcnd) and up to npositions subpositions. Returns the
 * first count. */
static uint64_t check_arc(struct parser *P, const char *p, const char *end, bool two_counts)
{
    uint64_t first;
    if (fast_arc(P, p, end, two_counts, &first))
        return first;
    return check_arc_exact(P, p, end, two_counts);
}

/* "fn=": the lines that follow are function `name`'s. */
static void enter_function(struct parser *P, uint32_t name)
{
    P->function = function_node(P, P->object, P->file, name);
    P->prof->nodes[P->function].defined = true;
    for (size_t k = 0; k < P->nothers && P->part.by_address; k++)
        P->others[k].part.prof.nodes[P->function].defined = true;
    P->call_object = P->call_file = P->call_name = NO_NAME;
    P->inlined = NO_NODE;
    P->last_instr = 0; /* callgrind restarts positions per function */
    P->last_line = 0;
}

/* "calls=": its count read (first), the callee's node made; its cost
 * line comes next. */
static void start_call(struct parser *P, uint64_t first)
{
    P->call_count = first;
    if (P->function == NO_NODE)
        fail(P, "\"calls=\" line before any \"fn=\" line");
    if (P->call_name == NO_NAME)
        fail(P, "\"calls=\" line without a \"cfn=\" line naming the callee");
    P->callee = function_node(
        P, P->call_object != NO_NAME ? P->call_object : P->object,
        P->call_file != NO_NAME ? P->call_file : P->file, P->call_name);
    P->call_pending = true;
    P->call_line = P->r->lineno;
}

static void position_line(struct parser *P, const char *key, size_t keylen,
                          const char *value, const char *end)
{
    if (P->call_pending)
        fail_at(P, P->call_line,
                "\"calls=\" line must be followed by its cost line");
    P->jump_pending = false;
    switch (keylen) {
    case 2:
        if (key_is(key, 2, "fn")) {
            enter_function(P, parse_name(P, KIND_FUNCTION, value, end));
        } else if (key_is(key, 2, "ob")) {
            P->object = parse_name(P, KIND_OBJECT, value, end);
            note_object(P, P->object);
        } else if (key_is(key, 2, "fl") || key_is(key, 2, "fi") || key_is(key, 2, "fe")) {
            /* fi=/fe= switch the source file for inlined code; the
             * function stays the same. */
            P->file = parse_name(P, KIND_FILE, value, end);
        } else if (key_is(key, 2, "ln") || key_is(key, 2, "bb")) {
            /* --dump-bbs=yes detail, not needed */
        } else {
            break;
        }
        return;
    case 3:
        if (key_is(key, 3, "cfn")) {
            P->call_name = parse_name(P, KIND_FUNCTION, value, end);
        } else if (key_is(key, 3, "cfi") || key_is(key, 3, "cfl")) {
            P->call_file = parse_name(P, KIND_FILE, value, end);
        } else if (key_is(key, 3, "cob")) {
            P->call_object = parse_name(P, KIND_OBJECT, value, end);
            /* A callee's object is often named here long before its own
             * "ob=" (libc's, say, 1% into a file and its "ob=" at 40%). */
            note_object(P, P->call_object);
        } else if (key_is(key, 3, "jfi")) {
            parse_name(P, KIND_FILE, value, end); /* may define an id */
        } else if (key_is(key, 3, "jfn")) {
            parse_name(P, KIND_FUNCTION, value, end);
        } else if (key_is(key, 3, "rec")) {
            /* --mangle-names=no recursion level: not needed */
        } else {
            break;
        }
        return;
    case 4:
        if (key_is(key, 4, "jump")) {
            check_arc(P, value, end, false);
            P->jump_pending = true; /* its source position line follows */
        } else if (key_is(key, 4, "jcnd")) {
            check_arc(P, value, end, true);
            P->jump_pending = true;
        } else if (key_is(key, 4, "cfni")) {
            inlined_frame(P, value, end);
        } else if (key_is(key, 4, "frfn")) {
            /* --mangle-names=no caller context; "(spontaneous)" is no id */
            if (!key_is(value, (size_t)(end - value), "(spontaneous)"))
                parse_name(P, KIND_FUNCTION, value, end);
        } else {
            break;
        }
        return;
    case 5:
        if (key_is(key, 5, "calls")) {
            start_call(P, check_arc(P, value, end, false));
            return;
        }
        break;
    }
    fail(P, "unknown line type \"%.*s=\"", (int)keylen, key);
}

/* "(N)" from bit `at` of the line at p, of bits b, naming an id of
 * `kind` already defined: sets *name.  False for anything else
 * (parse_name() reads it then, and gives the error if there is one). */
static bool known_name_id(const struct parser *P, enum name_kind kind, const char *p,
                          const struct line_bits *b, unsigned at, uint32_t *name)
{
    uint64_t id;
    if (!plain_name_id(p, b, at, &id) || id >= P->dense_cap[kind])
        return false;
    *name = P->dense_ids[kind][id];
    return *name != NO_NAME;
}

/* The line at p when it is one of the commonest after cost lines, in
 * the form callgrind writes them: "jcnd=", "jump=", "calls=", "cfn=",
 * "fn=", "cfi=", "cfl=", "cob=", "fi=", "fe=" or "fl=" with a known
 * compressed id ("cfn=(12)"), and empty lines.  Done as
 * position_line() does it, without lr_next()'s search for the line's end
 * (line_bits() finds it), parse_line()'s for a NUL byte (the forms
 * taken have none) and its dispatch on the key.  Returns the next line's
 * start, or NULL, with nothing done, for any other line or form:
 * parse_line() then reads it, and gives the error if there is one. */
static inline __attribute__((always_inline)) const char *
position_line_of_bits(struct parser *P, const char *p, const struct line_bits *b)
{
    if (P->call_pending)
        return NULL; /* the call's cost line is next: position_line() says so */
    if (b->len >= LINE_BITS_MAX - 1)
        return NULL;
    const char *end = p + b->len;
    uint64_t count;
    uint32_t name;
    if (b->len == 0) {
        /* an empty line: nothing to do */
    } else if (memcmp(p, "jcnd=", 5) == 0 || memcmp(p, "jump=", 5) == 0) {
        if (!plain_arc(p, b, 5, p[1] == 'c', P->npositions, &count))
            return NULL;
        P->jump_pending = true; /* its source position line follows */
    } else if (memcmp(p, "calls=", 6) == 0) {
        if (P->function == NO_NODE || P->call_name == NO_NAME ||
            !plain_arc(p, b, 6, false, P->npositions, &count))
            return NULL;
        P->jump_pending = false;
        P->r->lineno++; /* start_call() notes it */
        start_call(P, count);
        return end + 1;
    } else if (memcmp(p, "cfn=", 4) == 0) {
        if (!known_name_id(P, KIND_FUNCTION, p, b, 4, &name))
            return NULL;
        P->jump_pending = false;
        P->call_name = name;
    } else if (memcmp(p, "fn=", 3) == 0) {
        if (!known_name_id(P, KIND_FUNCTION, p, b, 3, &name))
            return NULL;
        P->jump_pending = false;
        enter_function(P, name);
    } else if (memcmp(p, "cfi=", 4) == 0 || memcmp(p, "cfl=", 4) == 0) {
        if (!known_name_id(P, KIND_FILE, p, b, 4, &name))
            return NULL;
        P->jump_pending = false;
        P->call_file = name;
    } else if (memcmp(p, "cob=", 4) == 0) {
        if (!known_name_id(P, KIND_OBJECT, p, b, 4, &name))
            return NULL;
        P->jump_pending = false;
        P->call_object = name;
        note_object(P, name);
    } else if (p[0] == 'f' && (p[1] == 'i' || p[1] == 'e' || p[1] == 'l') && p[2] == '=') {
        if (!known_name_id(P, KIND_FILE, p, b, 3, &name))
            return NULL;
        P->jump_pending = false;
        P->file = name;
    } else {
        return NULL;
    }
    P->r->lineno++;
    return end + 1;
}

/* The line's bits made again here, not passed: the cost line loop keeps
 * its own in registers that way. */
HOT_LOOP_CLONES
static const char *fast_position_line(struct parser *P, const char *p)
{
    struct line_bits b;
    line_bits(p, &b);
    return position_line_of_bits(P, p, &b);
}

/* Whether cost lines can go through plain_lines(): one event column
 * selected (other events may be read too) and no instruction addresses
 * wanted (no --inline). */
static bool plain_lines_apply(const struct parser *P)
{
    return P->single_column != SIZE_MAX && !P->part.by_address;
}

/* The self costs gathered by plain_lines_npos() for `node`, added. */
static inline void add_run_sum(struct parser *P, struct fn_node *node, uint64_t sum)
{
    node->self += sum;
    P->prof->total_self += sum;
}

/* The function a run of self cost lines adds to, if the next line is
 * one (no call pending, not in inlined code), with how much its sums
 * can still take (*room), its sum so far (*sum) and with all events its
 * row of the self matrix (*row); else NULL. */
static inline __attribute__((always_inline)) struct fn_node *
run_start(struct parser *P, uint64_t *room, uint64_t *sum, uint64_t **row)
{
    if (P->call_pending || P->inlined != NO_NODE || P->function == NO_NODE)
        return NULL;
    struct fn_node *node = &P->prof->nodes[P->function];
    uint64_t most = node->self > P->prof->total_self ? node->self : P->prof->total_self;
    *room = UINT64_MAX - most;
    *sum = 0;
    if (P->nothers)
        *row = cost_row(&P->other_self, P->function, P->nothers);
    return node;
}

/* The lines at p, classified whole with bit masks (scan.h, line_bits())
 * while they are cost lines of the plain form, whose selected cost is
 * then all that is read, or position lines fast_position_line() takes.
 * With `all` (all_events, -f pprof) every cost is read, into P->cols, and
 * the other events' costs go to the function's row of the self matrix;
 * with `lines` (-f pprof) the "line" subposition is followed for each
 * function's first source line, as cost_line_values() does.
 *
 * The self costs of a function's run of cost lines, four lines in five,
 * are summed here and added to it once, before any other line.  The sum
 * cannot overflow there: a line whose cost would make the function's or
 * the total self cost overflow goes, as any cost line of calls or of
 * inlined code, to cost_line_values(), which gives the error at its line.
 * So does a line that would wrap another event's sum in the row (its
 * costs taken out of the row again first).
 * Stops LINE_BITS_MAX bytes before limit (line_bits() reads that far) and
 * at any line neither takes; returns where it stopped. */
static inline __attribute__((always_inline)) const char *
plain_lines_npos(struct parser *P, const char *p, const char *limit, size_t npos,
                 bool all, bool lines)
{
    size_t ncolumns = P->events.ncolumns, one = P->single_column, lpos = P->line_pos;
    struct fn_node *node = NULL; /* the function `sum` is of, if any */
    uint64_t *row = NULL;        /* all: its row of P->other_self */
    uint64_t sum = 0, room = 0;
    while (limit - p >= LINE_BITS_MAX) {
        struct line_bits b;
        line_bits(p, &b);
        uint64_t costs, starts;
        if (!plain_cost_line(p, &b, npos, ncolumns, &costs, &starts)) {
            if (node) { /* the position line may change the function */
                add_run_sum(P, node, sum);
                node = NULL;
            }
            const char *next = fast_position_line(P, p);
            if (!next)
                break;
            p = next;
            continue;
        }
        /* the function whose self cost the line may add to: a position
         * line, the only kind that changes it, ended the last run (with
         * all events known before the costs are read, which go to its
         * row; else after, as the one-event loop is quicker that way) */
        if (all && !node)
            node = run_start(P, &room, &sum, &row);
        uint64_t cost, carry = 0;
        if (all) {
            /* every cost into P->cols (the exact path's input if the line
             * goes there), and with others_follow into the row at once */
            size_t n = 0;
            if (node && P->others_follow && costs) {
                P->cols[n++] = plain_cost_at(p, &b, (unsigned)__builtin_ctzll(costs));
                for (costs &= costs - 1; costs; costs &= costs - 1, n++) {
                    uint64_t v = plain_cost_at(p, &b, (unsigned)__builtin_ctzll(costs));
                    P->cols[n] = v;
                    row[n - 1] += v;
                    carry |= row[n - 1] < v;
                }
            } else {
                for (; costs; costs &= costs - 1)
                    P->cols[n++] = plain_cost_at(p, &b, (unsigned)__builtin_ctzll(costs));
            }
            P->ncols = n; /* before add_other_columns(), which adds that many */
            if (node && !P->others_follow)
                carry = add_other_columns(P, row);
            cost = one < n ? P->cols[one] : 0;
        } else {
            for (size_t i = 0; i < one && costs; i++)
                costs &= costs - 1; /* to the selected column's */
            cost = costs ? plain_cost_at(p, &b, (unsigned)__builtin_ctzll(costs)) : 0;
        }
        uint64_t line = lines ? plain_subposition_at(p, &b, starts, lpos, P->last_line) : 0;
        p += b.len + 1;
        P->r->lineno++;
        if (!all && !node)
            node = run_start(P, &room, &sum, &row);
        if (node && cost <= room && !carry) {
            room -= cost;
            sum += cost;
            if (lines && !P->jump_pending) { /* as cost_line_values() */
                P->last_line = line;
                if (line > 0 && line <= UINT32_MAX - 1 && node->line == 0)
                    node->line = (uint32_t)line;
            }
            P->jump_pending = false;
            continue;
        }
        if (node) {
            if (all) /* the exact path adds them again, or fails */
                take_other_columns(P, row);
            add_run_sum(P, node, sum);
            node = NULL;
        }
        cost_line_values(P, 0, line, cost);
    }
    if (node)
        add_run_sum(P, node, sum);
    return p;
}

/* plain_lines_npos() made for the usual numbers of subpositions
 * ("positions: line", "instr line"), one function per mode: with npos,
 * all and lines constants, the compiler unrolls plain_cost_line()'s loop
 * over the subpositions and drops the code a mode does not use.  Apart,
 * not in one function: the one-event loop, the commonest, is then
 * compiled (registers, inlining) as if the others were not there. */
#define PLAIN_LINES_MODE(name, all, lines)                                      \
    HOT_LOOP_CLONES                                                             \
    static const char *name(struct parser *P, const char *p, const char *limit) \
    {                                                                           \
        switch (P->npositions) {                                                \
        case 1:                                                                 \
            return plain_lines_npos(P, p, limit, 1, all, lines);                \
        case 2:                                                                 \
            return plain_lines_npos(P, p, limit, 2, all, lines);                \
        default:                                                                \
            return plain_lines_npos(P, p, limit, P->npositions, all, lines);    \
        }                                                                       \
    }
PLAIN_LINES_MODE(plain_lines_one, false, false)
PLAIN_LINES_MODE(plain_lines_one_lines, false, true)
PLAIN_LINES_MODE(plain_lines_all, true, false)
PLAIN_LINES_MODE(plain_lines_all_lines, true, true)

#if COST_BLOCKS
/* plain_lines_one()'s work (one event, no "line" subposition wanted) 64
 * bytes at a time (costblocks.h): of each block, every line whose '\n'
 * is in it is read with the block's masks, a plain cost line here, any
 * other line by position_line_of_bits(); the next block starts after the
 * last of them.  The self costs of a function's run of lines are
 * summed and added once, as in plain_lines_npos().  Stops at the first
 * line neither takes, and where fewer than COST_BLOCK_READ bytes are left
 * (LINE_BITS_MAX for a position line); returns where it stopped. */
static inline __attribute__((always_inline)) COST_BLOCKS_TARGET const char *
block_lines_npos(struct parser *P, const char *p, const char *limit, size_t npos)
{
    size_t column = P->single_column;
    size_t max_tokens = npos + P->events.ncolumns;
    struct fn_node *node = NULL; /* the function `sum` is of, if any */
    uint64_t *row = NULL, sum = 0, room = 0;
    while (limit - p >= COST_BLOCK_READ) {
        struct block_bits b;
        block_classify(p, &b);
        uint64_t ends = b.newline; /* of the block's whole lines */
        if (!ends)
            break;
        uint64_t token = ~(b.blank | b.newline);
        uint64_t starts = token & ~(token << 1); /* p starts a line: bit 0 too */
        uint64_t odd = block_odd_bytes(&b, starts, ends << 1 | 1);
        uint64_t done = 0; /* the bits of the lines read */
        for (; ends; ends = _blsr_u64(ends)) {
            uint64_t line = _blsmsk_u64(ends) & ~done;
            uint64_t cost;
            if (!(odd & line) &&
                block_cost(p, &b, starts & line, line, npos, column, max_tokens, &cost)) {
                P->r->lineno++; /* before cost_line_values(), whose errors cite it */
                if (!node)
                    node = run_start(P, &room, &sum, &row);
                if (node && cost <= room) {
                    room -= cost;
                    sum += cost;
                    P->jump_pending = false;
                } else {
                    if (node) {
                        add_run_sum(P, node, sum);
                        node = NULL;
                    }
                    cost_line_values(P, 0, 0, cost); /* no address or line wanted */
                }
            } else {
                if (node) { /* the line may change the function */
                    add_run_sum(P, node, sum);
                    node = NULL;
                }
                /* the line's bits as line_bits() makes them (bits past
                 * its '\n' are not looked at) */
                unsigned from = (unsigned)_tzcnt_u64(line);
                struct line_bits lb = {b.digit >> from, b.blank >> from,
                                       (unsigned)_tzcnt_u64(ends) - from};
                const char *at = p + from;
                if (limit - at < LINE_BITS_MAX || !position_line_of_bits(P, at, &lb)) {
                    p = at;
                    goto stop;
                }
            }
            done |= line;
        }
        p += _mm_popcnt_u64(done); /* bits 0 to the last '\n' */
    }
stop:
    if (node)
        add_run_sum(P, node, sum);
    return p;
}

/* block_lines_npos() made for the usual numbers of subpositions, as
 * plain_lines_one() is. */
COST_BLOCKS_TARGET
static const char *block_lines_one(struct parser *P, const char *p, const char *limit)
{
    switch (P->npositions) {
    case 1:
        return block_lines_npos(P, p, limit, 1);
    case 2:
        return block_lines_npos(P, p, limit, 2);
    default:
        return block_lines_npos(P, p, limit, P->npositions);
    }
}
#endif

static const char *plain_lines(struct parser *P, const char *p, const char *limit)
{
    bool lines = P->t->opt.want_lines && P->line_pos != SIZE_MAX;
    if (P->nothers)
        return lines ? plain_lines_all_lines(P, p, limit) : plain_lines_all(P, p, limit);
    if (lines)
        return plain_lines_one_lines(P, p, limit);
#if COST_BLOCKS
    /* A line the blocks do not take is left to the caller, which reads
     * that one line and comes back: not to plain_lines_one(), which would
     * go on a line at a time. */
    if (P->cost_blocks)
        return block_lines_one(P, p, limit);
#endif
    return plain_lines_one(P, p, limit);
}

/* The body lines at the reader's position, as many as follow each other
 * in its buffer, read in place: cost lines (plain_lines(), else a line at
 * a time with fast_cost_line()) and the commonest others
 * (fast_position_line()); the first line none of them takes is left for
 * lr_next() and parse_line(). */
static void fast_cost_lines(struct parser *P)
{
    struct linereader *r = P->r;
    const char *p, *limit;
    lr_window(r, &p, &limit);
    if (p == limit)
        return;
    if (P->cols_cap < P->events.ncolumns) {
        P->cols_cap = P->events.ncolumns;
        P->cols = xrealloc(P->cols, P->cols_cap * sizeof *P->cols);
    }
    /* as in cost_line(): which subpositions' values are wanted */
    size_t ipos = P->part.by_address ? P->instr_pos : SIZE_MAX;
    size_t lpos = P->t->opt.want_lines ? P->line_pos : SIZE_MAX;
    /* a line longer than 64 MiB is lr_next()'s to report; it takes a
     * window that long to hold one */
    bool may_be_long = (size_t)(limit - p) > r->max_line;
    bool plain = plain_lines_apply(P);
    while (p < limit) {
        if (plain)
            p = plain_lines(P, p, limit);
        if (p == limit)
            break;
        char c = *p;
        if (!(is_digit(c) || c == '+' || c == '-' || c == '*')) {
            if (limit - p < LINE_BITS_MAX)
                break;
            const char *next = fast_position_line(P, p);
            if (!next)
                break;
            p = next;
            continue;
        }
        uint64_t addr = 0, line = 0, cost;
        const char *nl = fast_cost_line(P, p, ipos, lpos, &addr, &line, &cost);
        if (!nl || (may_be_long && (size_t)(nl - p) > r->max_line))
            break;
        r->lineno++; /* before cost_line_values(), whose errors cite it */
        cost_line_values(P, addr, line, cost);
        p = nl + 1;
    }
    lr_skip_to(r, p);
}

/* ---- driver ----------------------------------------------------------- */

int is_callgrind_line(const char *line, size_t len)
{
    size_t n = 0;
    while (n < len && (isalpha((unsigned char)line[n]) || line[n] == '_'))
        n++;
    if (n == 0 || n == len)
        return 0;
    if (line[n] == ':')
        return in_list(header_keys, line, n);
    if (line[n] == '=')
        return in_list(position_keys, line, n);
    return 0;
}

static void parse_line(struct parser *P, const char *line, size_t len)
{
    const char *end = line + len;
    if (len == 0 || line[0] == '#')
        return;
    char c = line[0];
    /* Cost lines reject a NUL byte as a bad number; other lines keep
     * names, which must not hide one. */
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') {
        if (!P->in_body)
            start_body(P);
        cost_line(P, line, end);
        return;
    }
    if (memchr(line, '\0', len))
        fail(P, "NUL byte in line (binary file?)");
    if (is_ascii_alpha(c)) {
        size_t n = 1;
        while (n < len && (is_ascii_alpha(line[n]) || is_digit(line[n]) || line[n] == '_'))
            n++;
        if (n < len && line[n] == ':') {
            header_line(P, line, n, line + n + 1, end);
            return;
        }
        if (n < len && line[n] == '=') {
            if (!P->in_body)
                start_body(P);
            position_line(P, line, n, line + n + 1, end);
            return;
        }
    }
    if (skip_blanks(line, end) == end)
        return; /* a line of blanks counts as empty */
    fail(P, "malformed line " TOKEN_FMT, TOKEN_ARGS(line, len));
}

static void free_parser(struct parser *P)
{
    for (int k = 0; k < KIND_COUNT; k++) {
        hashmap_free(&P->ids[k]);
        free(P->dense_ids[k]);
    }
    hashmap_free(&P->inlined_nodes);
    buf_free(&P->scratch);
    buf_free(&P->descs);
    section_free(&P->head);
    events_free(&P->events);
    free(P->weight);
    free(P->cols);
    free(P->node_memo);
    free(P->edge_memo);
    part_free(&P->part);
    for (size_t k = 0; k < P->others_cap; k++) {
        part_free(&P->others[k].part);
        hashmap_free(&P->others[k].inlined_nodes);
    }
    free(P->others);
    free(P->other_columns);
    free(P->others_below);
    free(P->other_self.cells);
    free(P->other_edge.cells);
    free(P);
}

int read_callgrind(struct linereader *r, const char *first, size_t first_len,
                   struct read_target *t, struct diag *d)
{
    struct parser *P = xcalloc(1, sizeof *P);
    P->t = t;
    P->names = t->names;
    P->d = d;
    P->r = r;
    for (int k = 0; k < KIND_COUNT; k++)
        hashmap_init(&P->ids[k]);
    hashmap_init(&P->inlined_nodes);
    events_init(&P->events);
    part_init(&P->part);
    P->prof = &P->part.prof;
    P->part.by_address = t->opt.by_address;
    /* CALLGRIND_FOLD_COST_BLOCKS=0: a line at a time only, for tests that
     * both ways read the same */
    const char *blocks = getenv("CALLGRIND_FOLD_COST_BLOCKS");
    P->cost_blocks = cost_blocks_available() && !(blocks && strcmp(blocks, "0") == 0);
    if (t->opt.by_address)
        part_expect_bytes(&P->part, t->input_bytes);
    P->empty_name = strtab_intern(t->names, "", 0);
    P->failure.d = d;
    P->failure.r = r;
    if (setjmp(P->failure.jump)) {
        free_parser(P);
        return -1;
    }
    start_part(P);
    parse_line(P, first, first_len);
    for (;;) {
        if (P->in_body)
            fast_cost_lines(P);
        const char *line;
        size_t len;
        enum lr_status st = lr_next(r, &line, &len);
        if (st == LR_EOF)
            break;
        if (st == LR_TOO_LONG)
            fail_at(P, r->lineno + 1, "line longer than 64 MiB");
        if (st == LR_READ_ERROR)
            fail_at(P, r->lineno + 1, "read error");
        parse_line(P, line, len);
    }
    finish_part(P);
    if (!P->saw_events)
        fail(P, "no \"events:\" line: not a callgrind profile");
    free_parser(P);
    return 0;
}
