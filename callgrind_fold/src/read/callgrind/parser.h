/* The callgrind.out reader's state (parse.c and the files it drives):
 * one struct parser, cut into a part per concern so that each file
 * touches its own, and the functions the files call of each other.
 *
 *   parse.c     the driver: lines to the readers below, the fast tiers
 *               first (or not: CALLGRIND_FOLD_EXACT, tiers.h)
 *   grammar.c   the exact scanners: numbers, subpositions, costs, arcs,
 *               and cost_line(), the exact reader of one cost line
 *   names.c     "(id) name" compression: parser.names
 *   header.c    header lines and the part's life cycle: parser.header
 *   body.c      position lines ("fn=", "calls=", ...): parser.body
 *   body.h      what a cost line does with its values (inline: both the
 *               exact reader and the fast tiers run it per line)
 *   addr.c      the per-address records of --inline: parser.addr
 *   allevents.c every event at once (-f pprof): parser.all
 *   costrun.c   the fast tiers: runs of lines read in place */
#ifndef CF_READ_PARSER_H
#define CF_READ_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse.h"
#include "read/events.h"
#include "read/failure.h"
#include "read/ids.h"
#include "read/sections.h"
#include "util/util.h"

/* Name compression ids are per kind of name, shared by the "fn=", "cfn=",
 * "jfn=" family and so on. */
enum name_kind { KIND_OBJECT, KIND_FILE, KIND_FUNCTION, KIND_COUNT };

/* Names: compressed id -> interned name, per kind of name: an array for
 * the small ids that callgrind writes, a hash map for any others. */
struct parser_names {
    struct strtab *tab;             /* t->names */
    uint32_t *dense_ids[KIND_COUNT];
    size_t dense_cap[KIND_COUNT];
    struct hashmap ids[KIND_COUNT];
    struct buf scratch;
    uint32_t empty_name;
};

/* Header of the current part. */
struct parser_header {
    bool saw_events;                /* some part of the file had "events:" */
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
    struct buf descs;               /* the part's "desc:" values, '\n' after each */
    struct section_head section;    /* its thread and dump (sections.h) */
};

/* Body of the current part. */
struct parser_body {
    bool in_body;
    uint32_t object, file;          /* current "ob=", and "fl="/"fi="/"fe=" */
    uint32_t function;              /* node of the current "fn=", or NO_NODE */
    uint32_t call_object, call_file, call_name; /* "cob=" "cfi=" "cfn=" */
    bool call_pending;              /* "calls=" read, its cost line is next */
    uint32_t callee;
    uint64_t call_count;            /* the count of the pending "calls=" */
    uint64_t call_line;
    bool jump_pending;
    struct section_graph part;
    struct profile *prof;           /* &part.prof */

    /* Which fast tiers may read lines (tiers.h): none with
     * CALLGRIND_FOLD_EXACT=1, where the exact scanners read every line. */
    bool fast_tiers;                /* cost_run(), and the arcs' and ids' */
    bool cost_blocks;               /* cost_run_blocks() */

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
    struct call_edge_memo edge_memo; /* stacks/model.h */

    /* The cost columns of the last cost line, one per event (filled by
     * the fast tiers, cost_run_line(), and with all_events by
     * parse_costs()). */
    uint64_t *cols;
    size_t cols_cap;
    size_t ncols;
};

/* The positions a cost line is at, tracked as callgrind writes them:
 * relative to the last self-cost line of the function (call lines and
 * the line after "jump="/"jcnd=" do not move them). */
struct parser_addr {
    /* by_address (--inline): the "instr" subposition */
    size_t instr_pos;               /* index in "positions:", or SIZE_MAX */
    uint64_t last_instr;
    /* want_lines (-f pprof, html): the "line" subposition, for the self
     * costs by line and the first line seen in each function */
    size_t line_pos;                /* index in "positions:", or SIZE_MAX */
    uint64_t last_line;
};

/* all_events (-f pprof, html, md): the part's costs are vectors, the
 * selected event in column 0 and every other event of "events:" in a
 * column after it (struct profile), all read in one pass: a line's
 * other costs (body.cols) go to a row of the profile's (add_other_costs())
 * or, by address (--inline), of the record's. */
struct parser_all {
    size_t nothers;                 /* the part's columns but the first */
    size_t *other_columns;          /* other k: its column of "events:" */
    size_t other_columns_cap;
    uint64_t *totals;               /* other k: its cost on "totals:" */
    uint64_t *sums;                 /* other k: its cost lines' sum */
    uint64_t *line_costs;           /* other k: the line's cost (by address) */
    size_t *stacks_columns;         /* part column -> stacks column */
    /* [n], n up to the number of columns: how many others' columns are
     * below n, i.e. how many to add for a line of n costs */
    size_t *others_below;
    size_t others_below_cap;
    /* The usual layout: the selected event is the first column and the
     * others are the rest, in order (other k: column k + 1), so that
     * the fast tiers add each cost to its row as they read it. */
    bool others_follow;
};

struct parser {
    struct read_target *t;
    struct diag *d;
    struct linereader *r;
    struct reader_failure failure;
    struct parser_names names;
    struct parser_header header;
    struct parser_body body;
    struct parser_addr addr;
    struct parser_all all;
};

/* The node function_node() last gave for a name, and the (object, file)
 * it was for. */
struct node_memo {
    uint32_t object, file, node;
};

static inline _Noreturn void fail_at(struct parser *P, uint64_t line, const char *msg)
{
    P->d->line = line;
    fail(P, "%s", msg);
}


/* grammar.c: the exact scanners.  Each fails (failure.h) with the
 * message of the first thing wrong. */
uint64_t number_or_fail(struct parser *P, const char *p, const char *end, const char *what);
/* Costs from p to end (after the positions) into the chosen event; with
 * all_events every column into body.cols. */
uint64_t parse_costs(struct parser *P, const char *p, const char *end);
/* "calls=", "jump=", "jcnd=" ("two_counts"): the first count. */
uint64_t check_arc_exact(struct parser *P, const char *p, const char *end, bool two_counts);
/* A cost line [p, end), read exactly and applied (cost_line_values()). */
void cost_line(struct parser *P, const char *p, const char *end);

/* names.c */
uint32_t parse_name(struct parser *P, enum name_kind kind, const char *p, const char *end);
void names_free(struct parser_names *n);

/* header.c */
void start_part(struct parser *P);
void finish_part(struct parser *P);
void start_body(struct parser *P);
void resolve_events(struct parser *P);
void header_line(struct parser *P, const char *key, size_t keylen, const char *value,
                 const char *end);

/* body.c */
void position_line(struct parser *P, const char *key, size_t keylen, const char *value,
                   const char *end);
void enter_function(struct parser *P, uint32_t name);
void start_call(struct parser *P, uint64_t first);
void note_object(struct parser *P, uint32_t name);

/* addr.c: the part's costs by address (--inline) */
void addr_check_positions(struct parser *P);
void addr_add_cost(struct parser *P, struct section_graph *pt, bool call, uint32_t caller,
                   uint64_t addr, uint64_t cost);

/* allevents.c */
void add_other_events(struct parser *P, const char *selected);
/* The other events' sums at the part's end, into P->all.sums. */
void sum_other_events(struct parser *P);
void take_other_columns(const struct parser *P, uint64_t *row);
void add_other_costs(struct parser *P, bool call);
void all_events_free(struct parser_all *a);

/* costrun.c: the fast tiers, as many lines as follow each other in the
 * line reader's buffer; the first line none takes is left for lr_next(). */
void cost_run(struct parser *P);

#endif
