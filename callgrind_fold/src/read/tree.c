/* Reader for the folded tree (docs/folded-tree.md).
 *
 * The path of the node being read is kept as one frame id per depth: a
 * node line replaces the entry at its depth and drops the deeper ones, so
 * each line costs O(1) plus, when it has a cost, the stack it adds (which
 * the output holds anyway). Nothing is recursive, so any depth works.
 * Costs of every event are summed per part, to check "totals:". Each
 * selected section is read into the stacks the target's sink names once
 * its header is read, and handed over at its "totals:" line. */
#include "tree.h"
#include "failure.h"
#include "events.h"
#include "ids.h"
#include "lex.h"
#include "treescan.h"
#include "sections.h"
#include "tiers.h"
#include "util/util.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* IN_PART_HEAD: after "part:", before the section's first "fn:", node
 * or "totals:" line, which close its header: then which thread it is,
 * and so whether it is read, is known. */
enum tree_state { IN_HEADER, IN_PART_HEAD, IN_PART, AFTER_TOTALS };

struct tree_reader {
    struct read_target *t;
    struct diag *d;
    struct linereader *r;
    struct reader_failure failure;
    enum tree_state state;

    /* Header. */
    struct event_defs events;
    uint64_t events_line;
    size_t column;              /* the selected event's column */
    /* all_events: the run's column of each event by its column here,
     * and of the selected event when it is none of them (a sum of
     * several, counted from `column`). */
    size_t *column_of;
    size_t selected_column;     /* NO_COLUMN: the selected is an event here */

    /* "fn:" ids: id -> name (in `names`), name -> frame id in `into`. */
    struct strtab names;
    uint32_t *dense;            /* id -> name, NO_NAME if undefined */
    size_t dense_cap;
    struct hashmap sparse;
    uint32_t *frame_of;         /* name -> frame */
    bool *inlined;              /* name -> "NAME [inlined]" (inlined code) */
    size_t inlined_cap;
    size_t frame_cap;
    struct buf scratch;

    /* The part being read. */
    bool part_wanted;           /* passes --part */
    bool selected;              /* and --thread: its nodes are read */
    struct section_head head;   /* its thread and dump (sections.h) */
    uint64_t number;            /* its "part:" number */
    uint64_t *sum;              /* per event: its node costs so far */
    uint32_t *path;             /* frame at depth 1, 2, ... of the last node */
    size_t path_cap;
    size_t depth;               /* depth of the last node, 0 at the start */
    uint64_t *cols;             /* fast_node_lines(): one line's costs */
    /* fast_node_lines() sums most lines' costs in lanes (treescan.h):
     * the part's sums are sum[i] plus what lanes[i] holds until
     * flush_lanes() adds that in.  lanes_ok: every sum has room for what
     * the lanes can add before they are flushed (LANE_MAX_ADDED), so no
     * sum overflows unseen. */
    struct lane *lanes;         /* one per event */
    unsigned lane_lines;        /* lines in the byte lanes */
    unsigned wide_flushes;      /* byte lanes added into the wide ones */
    bool lanes_ok;
    struct buf descs;           /* its "desc:" values */
    struct stacks *into;        /* a selected section's stacks, until it
                                   is handed over; else NULL */
    bool fast_tiers;            /* fast_node_lines() may run (tiers.h) */
};

/* ---- lexical helpers --------------------------------------------------- */

/* The decimal number token at p (p < end, not a blank); returns its end. */
static const char *number(struct tree_reader *T, const char *p, const char *end,
                          uint64_t *out, const char *what)
{
    const char *t = p;
    uint64_t v = 0;
    bool overflow = false;
    for (; t < end && (unsigned)(*t - '0') < 10; t++) {
        unsigned digit = (unsigned)(*t - '0');
        if (v > (UINT64_MAX - digit) / 10)
            overflow = true;
        v = v * 10 + digit;
    }
    if (t == p || (t < end && !is_blank(*t))) {
        t = token_end(p, end);
        fail(T, "bad %s " TOKEN_FMT, what, TOKEN_ARGS(p, (size_t)(t - p)));
    }
    if (overflow)
        fail(T, "%s " TOKEN_FMT " does not fit in 64 bits", what,
             TOKEN_ARGS(p, (size_t)(t - p)));
    *out = v;
    return t;
}

/* A value that must be one number and nothing else. */
static uint64_t sole_number(struct tree_reader *T, const char *p, const char *end,
                            const char *what)
{
    p = skip_blanks(p, end);
    if (p == end)
        fail(T, "missing %s", what);
    uint64_t v;
    if (skip_blanks(number(T, p, end, &v, what), end) != end)
        fail(T, "junk after the %s", what);
    return v;
}

/* ---- function ids --------------------------------------------------------- */

static inline uint32_t name_of_id(const struct tree_reader *T, uint64_t id)
{
    uint32_t name = NO_NAME;
    if (id < DENSE_ID_LIMIT) {
        if (id < T->dense_cap)
            name = T->dense[id];
    } else if (!hashmap_get(&T->sparse, id, 0, &name)) {
        name = NO_NAME;
    }
    return name;
}

/* A selected section's stacks are the sink's choice: the frames of
 * every name read so far are made in them. */
static void make_frames(struct tree_reader *T)
{
    for (uint32_t sid = 0; sid < T->names.count && sid < T->frame_cap; sid++) {
        T->scratch.len = 0;
        frame_append(&T->scratch, strtab_str(&T->names, sid), strtab_len(&T->names, sid),
                     NULL, 0, &T->t->opt.style);
        T->frame_of[sid] = stacks_frame(T->into, T->scratch.data, T->scratch.len);
    }
}

/* "fn: ID NAME": the name is the rest of the line. Its frame text is made
 * once, here, as for callgrind.out names (clone folding, ';' escaped). */
static void fn_line(struct tree_reader *T, const char *p, const char *end)
{
    uint64_t id;
    p = skip_blanks(p, end);
    if (p == end)
        fail(T, "\"fn:\" line without a function id");
    p = number(T, p, end, &id, "function id");
    if (id == 0)
        fail(T, "function id 0 (ids start at 1)");
    const char *name = skip_blanks(p, end);
    if (name == end)
        fail(T, "empty function name");
    size_t len = (size_t)(end - name);
    uint32_t sid = strtab_intern(&T->names, name, len);
    if (sid >= T->frame_cap || T->frame_of[sid] == NO_NAME) {
        size_t old = T->frame_cap;
        GROW(T->frame_of, T->frame_cap, (size_t)sid);
        for (size_t i = old; i < T->frame_cap; i++)
            T->frame_of[i] = NO_NAME;
        if (T->into) { /* else made with the next selected section's */
            T->scratch.len = 0;
            frame_append(&T->scratch, name, len, NULL, 0, &T->t->opt.style);
            T->frame_of[sid] = stacks_frame(T->into, T->scratch.data, T->scratch.len);
        }
    }
    static const char mark[] = " [inlined]";
    size_t marklen = sizeof mark - 1;
    size_t from = T->inlined_cap;
    GROW(T->inlined, T->inlined_cap, (size_t)sid);
    for (size_t i = from; i < T->inlined_cap; i++)
        T->inlined[i] = false;
    T->inlined[sid] = len > marklen && memcmp(name + len - marklen, mark, marklen) == 0;
    uint32_t old = name_of_id(T, id);
    if (old == sid)
        return;
    if (old != NO_NAME)
        fail(T, "function id %" PRIu64 " defined again as " TOKEN_FMT ", was " TOKEN_FMT,
             id, TOKEN_ARGS(name, len),
             TOKEN_ARGS(strtab_str(&T->names, old), strtab_len(&T->names, old)));
    if (id >= DENSE_ID_LIMIT) {
        hashmap_put(&T->sparse, id, 0, sid);
        return;
    }
    if (id >= T->dense_cap) {
        size_t from = T->dense_cap;
        GROW(T->dense, T->dense_cap, (size_t)id);
        for (size_t i = from; i < T->dense_cap; i++)
            T->dense[i] = NO_NAME;
    }
    T->dense[id] = sid;
}

/* ---- parts ------------------------------------------------------------------ */

/* The header is complete at the first "part:": pick the event's column. */
static void choose_event(struct tree_reader *T)
{
    if (T->events.ncolumns == 0)
        fail(T, "no \"events:\" line before the first \"part:\"");
    const char *name = read_event_name(T->t, T->events.columns[0]);
    uint64_t *weight = xcalloc(T->events.ncolumns, sizeof *weight);
    char err[sizeof T->d->msg];
    int rc = events_resolve(&T->events, name, weight, err, sizeof err);
    T->column = 0;
    while (rc == 0 && weight[T->column] == 0)
        T->column++;
    free(weight);
    if (rc) {
        T->d->line = T->events_line;
        fail(T, "%s", err);
    }
    if (T->t->opt.all_events) {
        struct event_table *columns = T->t->columns;
        size_t selected = event_table_column(columns, name, strlen(name));
        T->selected_column = selected;
        T->column_of = xcalloc(T->events.ncolumns, sizeof *T->column_of);
        for (size_t i = 0; i < T->events.ncolumns; i++) {
            const char *event = T->events.columns[i];
            T->column_of[i] = event_table_column(columns, event, strlen(event));
            if (T->column_of[i] == selected)
                T->selected_column = NO_COLUMN;
        }
    }
    T->sum = xcalloc(T->events.ncolumns, sizeof *T->sum);
    T->cols = xcalloc(T->events.ncolumns, sizeof *T->cols);
    T->lanes = xcalloc(T->events.ncolumns, sizeof *T->lanes);
}

/* Whether the part's sums can take what the lanes add before they are
 * flushed: then no sum can overflow unseen. */
static bool sums_have_room(const struct tree_reader *T)
{
    bool room = true;
    for (size_t i = 0; i < T->events.ncolumns; i++)
        room &= T->sum[i] <= UINT64_MAX - LANE_MAX_ADDED;
    return room;
}

/* The lanes (fast_node_lines()) into the part's sums, before anything
 * else reads or adds to them.  They cannot overflow: lanes_ok was true
 * when the lanes started. */
static void flush_lanes(struct tree_reader *T)
{
    if (T->lane_lines == 0 && T->wide_flushes == 0)
        return;
    for (size_t i = 0; i < T->events.ncolumns; i++) {
        struct lane *l = &T->lanes[i];
        lane_widen(l);
        T->sum[i] += wide_value(l);
        l->wide[0] = l->wide[1] = 0;
    }
    T->lane_lines = 0;
    T->wide_flushes = 0;
    T->lanes_ok = sums_have_room(T);
}

/* Every LANE_LINES lines: the byte lanes into the wide ones. */
static void widen_lanes(struct tree_reader *T)
{
    for (size_t i = 0; i < T->events.ncolumns; i++)
        lane_widen(&T->lanes[i]);
    T->lane_lines = 0;
    if (++T->wide_flushes == WIDE_FLUSHES)
        flush_lanes(T);
}

static void part_line(struct tree_reader *T, const char *p, const char *end)
{
    if (T->state == IN_PART || T->state == IN_PART_HEAD)
        fail(T, "part ends without its \"totals:\" line (truncated file?)");
    if (T->state == IN_HEADER)
        choose_event(T);
    uint64_t number = sole_number(T, p, end, "part number");
    uint64_t want = T->t->opt.part;
    T->part_wanted = want == ALL_PARTS || want == number;
    T->selected = false;
    T->number = number;
    T->descs.len = 0;
    section_reset(&T->head);
    T->head.number = number;
    T->head.start_line = T->r->lineno;
    memset(T->sum, 0, T->events.ncolumns * sizeof *T->sum);
    memset(T->lanes, 0, T->events.ncolumns * sizeof *T->lanes);
    T->lane_lines = 0;
    T->wide_flushes = 0;
    T->lanes_ok = true;
    T->depth = 0;
    T->state = IN_PART_HEAD;
}

/* The section's header is complete: checked against its part's other
 * sections, and read if --part and --thread select it. */
static void close_head(struct tree_reader *T)
{
    char err[sizeof T->d->msg];
    uint64_t line;
    bool wanted;
    if (section_end_header(T->t, &T->head, T->d->file, T->part_wanted, &wanted, err,
                           sizeof err, &line)) {
        T->d->line = line ? line : T->r->lineno;
        fail(T, "%s", err);
    }
    T->selected = T->part_wanted && wanted;
    T->state = IN_PART;
    if (!T->selected)
        return;
    for (size_t i = 0; i < T->descs.len;) {
        const char *nl = memchr(T->descs.data + i, '\n', T->descs.len - i);
        size_t n = (size_t)(nl - (T->descs.data + i));
        notes_comment(T->t, "desc", T->descs.data + i, n);
        i += n + 1;
    }
    struct section_info head = {.number = T->number};
    section_fill_info(T->t, &T->head, &head);
    T->into = read_section_open(T->t, &head);
    make_frames(T);
}

static void totals_line(struct tree_reader *T, const char *p, const char *end)
{
    if (T->state == IN_PART_HEAD)
        close_head(T);
    if (T->state != IN_PART)
        fail(T, T->state == IN_HEADER ? "\"totals:\" line before any \"part:\""
                                      : "second \"totals:\" line for one part");
    flush_lanes(T);
    size_t column = 0;
    for (p = skip_blanks(p, end); p < end || column < T->events.ncolumns;
         p = skip_blanks(p, end)) {
        uint64_t v = 0; /* missing trailing totals are 0, as costs */
        if (p < end)
            p = number(T, p, end, &v, "total");
        if (column >= T->events.ncolumns)
            fail(T, "more totals than the %zu event(s) of the \"events:\" line",
                 T->events.ncolumns);
        if (v != T->sum[column])
            fail(T, "\"totals:\" says %" PRIu64 " %s but the node lines sum to %" PRIu64
                 " (truncated or corrupt file?)", v, T->events.columns[column],
                 T->sum[column]);
        column++;
    }
    T->t->parts_read++;
    if (T->part_wanted)
        T->t->part_matched = true;
    char err[sizeof T->d->msg];
    struct section_info info = {.number = T->number, .descs = T->descs.data,
                                .descs_len = T->descs.len, .tree = true,
                                .tree_totals = T->sum,
                                .tree_events = (const char *const *)T->events.columns,
                                .tree_nevents = T->events.ncolumns};
    section_fill_info(T->t, &T->head, &info);
    struct stacks *read = T->into;
    T->into = NULL; /* the sink's from now on */
    if (T->selected && read_section_stacks(T->t, &info, read, err, sizeof err))
        fail(T, "%s", err);
    T->state = AFTER_TOTALS;
}

/* Checks of a node line's depth, after the path of depth T->depth. */
static void check_depth(struct tree_reader *T, uint64_t depth)
{
    if (depth == 0)
        fail(T, "depth 0 (a root frame has depth 1)");
    if (depth > (uint64_t)T->depth + 1)
        fail(T, "depth %" PRIu64 " after depth %zu: a path grows by one frame at a time",
             depth, T->depth);
}

/* The name of a node's function id; inlined code is always below the
 * function it is inlined into. */
static uint32_t node_name(struct tree_reader *T, uint64_t id, uint64_t depth)
{
    uint32_t name = name_of_id(T, id);
    if (name == NO_NAME)
        fail(T, "function id %" PRIu64 " is used before any \"fn: %" PRIu64 " NAME\" line",
             id, id);
    if (depth == 1 && T->inlined[name])
        fail(T, "inlined frame " TOKEN_FMT " at the root (it belongs below the "
                "function it is inlined into)",
             TOKEN_ARGS(strtab_str(&T->names, name), strtab_len(&T->names, name)));
    return name;
}

/* Adds the cost v of column `column` to the part's sums. */
static inline void sum_cost(struct tree_reader *T, size_t column, uint64_t v)
{
    if (!add_u64(T->sum[column], v, &T->sum[column]))
        fail(T, "cost sum overflows 64 bits");
}

/* all_events: the node's stack gets each event's cost in that event's
 * column, the path interned once. */
static void add_node_every_event(struct tree_reader *T, const uint64_t *cols, size_t n)
{
    struct stacks *s = T->into;
    uint32_t id = UINT32_MAX;
    bool ok = true;
    bool derived = T->selected_column != NO_COLUMN;
    for (size_t i = 0; i < n + derived && ok; i++) {
        size_t column = i == n ? T->selected_column : T->column_of[i];
        uint64_t cost = i < n ? cols[i] : T->column < n ? cols[T->column] : 0;
        if (cost == 0)
            continue;
        if (id == UINT32_MAX)
            id = stacks_intern(s, T->path, T->depth);
        ok = stacks_count_in(s, column, id, cost);
    }
    if (!ok)
        fail(T, "summed counts overflow 64 bits");
}

/* The node's path (the frame of `name` at `depth`, under the last node one
 * depth up) gets its cost of the selected event: cols[T->column] of its
 * n costs (every event's with all_events). */
static inline void add_node(struct tree_reader *T, uint64_t depth, uint32_t name,
                            const uint64_t *cols, size_t n)
{
    size_t at = (size_t)depth - 1;
    GROW(T->path, T->path_cap, at);
    T->path[at] = T->frame_of[name];
    T->depth = (size_t)depth;
    if (!T->selected)
        return;
    if (T->column_of) {
        add_node_every_event(T, cols, n);
        return;
    }
    uint64_t cost = T->column < n ? cols[T->column] : 0;
    if (cost && !stacks_add(T->into, CHOSEN_COLUMN, T->path, T->depth, cost))
        fail(T, "summed counts overflow 64 bits");
}

/* "DEPTH ID [C1 C2 ...]": the path's own cost goes to the stack of the
 * frames at depths 1..DEPTH. */
static void node_line(struct tree_reader *T, const char *p, const char *end)
{
    if (T->state == IN_PART_HEAD)
        close_head(T);
    if (T->state != IN_PART)
        fail(T, T->state == IN_HEADER ? "node line before any \"part:\" line"
                                      : "node line after the part's \"totals:\" line");
    flush_lanes(T); /* the sums are checked for overflow here */
    uint64_t depth, id;
    p = number(T, p, end, &depth, "depth");
    check_depth(T, depth);
    p = skip_blanks(p, end);
    if (p == end)
        fail(T, "node line without a function id");
    p = number(T, p, end, &id, "function id");
    uint32_t name = node_name(T, id, depth);
    size_t column = 0, ncolumns = T->events.ncolumns;
    for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
        uint64_t v;
        p = number(T, p, end, &v, "cost");
        if (column >= ncolumns)
            fail(T, "more costs than the %zu event(s) of the \"events:\" line", ncolumns);
        sum_cost(T, column, v);
        T->cols[column++] = v;
    }
    T->lanes_ok = sums_have_room(T);
    add_node(T, depth, name, T->cols, column);
}

/* ---- node lines read in place: the hot loop ------------------------------
 *
 * As for callgrind.out's cost lines (costrun.c, cost_run()): the node
 * lines that follow each other in the line reader's buffer are read in one
 * pass that finds each '\n' while scanning the numbers, with no memchr(),
 * call or dispatch per line and no overflow test per digit; the costs go
 * into the part's sums as they are read (treescan.h).  A line in any other
 * form (a long number, CRLF, junk, ...) is left to lr_next() and
 * node_line(), which read it exactly and give the error if any; a line
 * taken here meets the same checks, in the same order. */

/* The costs a node line read by scan_lane_line() gives its node, as
 * numbers in T->cols (none in a part not selected): the others stay in
 * the lanes for the totals. */
static inline void lane_node_costs(struct tree_reader *T, size_t n)
{
    const struct lane *lanes = T->lanes;
    if (!T->selected)
        return;
    if (T->column_of) {
        for (size_t i = 0; i < n; i++)
            T->cols[i] = aligned_value(lanes[i].line);
    } else if (T->column < n) {
        T->cols[T->column] = aligned_value(lanes[T->column].line);
    }
}

/* The same with lex.h's scanners and exact sums, for any line the above
 * does not take: NULL, the sums as they were, for what only node_line()
 * reads. */
static const char *exact_node_line(struct tree_reader *T, const char *p, uint64_t *depth,
                                   uint64_t *id, size_t *n)
{
    const char *t = scan_udec(p, depth);
    if (!t || *t != ' ' || !(t = scan_udec(t + 1, id)))
        return NULL;
    return scan_summed_costs(t, T->sum, T->cols, T->events.ncolumns, n);
}

/* Not inlined in read_tree(): its loops get the registers to themselves. */
__attribute__((noinline)) static void fast_node_lines(struct tree_reader *T)
{
    struct linereader *r = T->r;
    const char *p, *limit;
    lr_window(r, &p, &limit);
    size_t ncolumns = T->events.ncolumns;
    bool may_be_long = (size_t)(limit - p) > r->max_line; /* as in costrun.c */
    /* What scan_lane_line() may read from a line's start: the depth and
     * id in 16 bytes, then 8 bytes a cost and the byte after the last. */
    size_t reach = 24 + 8 * ncolumns;
    bool lanes_ok = SWAR_WORDS && T->lanes_ok;
    while (p < limit && is_digit(*p)) {
        uint64_t depth, id;
        size_t n;
        const char *nl;
        bool in_lanes = lanes_ok && (size_t)(limit - p) >= reach &&
                        (nl = scan_lane_line(p, T->lanes, ncolumns, &depth, &id, &n));
        if (in_lanes) {
            lane_node_costs(T, n);
        } else {
            flush_lanes(T); /* the exact sums are checked for overflow */
            nl = exact_node_line(T, p, &depth, &id, &n);
            if (!nl)
                break;
        }
        if (may_be_long && (size_t)(nl - p) > r->max_line) {
            for (size_t i = 0; i < n; i++) /* lr_next() reports it */
                if (in_lanes)
                    T->lanes[i].sum -= T->lanes[i].line;
                else
                    T->sum[i] -= T->cols[i];
            break;
        }
        if (!in_lanes) {
            T->lanes_ok = lanes_ok = SWAR_WORDS && sums_have_room(T);
        } else if (++T->lane_lines == LANE_LINES) {
            widen_lanes(T);
            lanes_ok = T->lanes_ok;
        }
        r->lineno++; /* before the checks, whose errors cite it */
        check_depth(T, depth);
        uint32_t name = node_name(T, id, depth);
        add_node(T, depth, name, T->cols, n);
        p = nl + 1;
    }
    lr_skip_to(r, p);
}

/* ---- lines ------------------------------------------------------------------ */

static void key_line(struct tree_reader *T, const char *key, size_t keylen,
                     const char *value, const char *end)
{
    bool thread = key_is(key, keylen, "thread"), desc = key_is(key, keylen, "desc");
    if (T->state == IN_PART_HEAD && !thread && !desc)
        close_head(T);
    if (key_is(key, keylen, "fn")) {
        fn_line(T, value, end);
    } else if (key_is(key, keylen, "part")) {
        part_line(T, value, end);
    } else if (key_is(key, keylen, "totals")) {
        totals_line(T, value, end);
    } else if (T->state == IN_HEADER) {
        char err[sizeof T->d->msg];
        value = skip_blanks(value, end);
        if (key_is(key, keylen, "events")) {
            if (events_set_columns(&T->events, value, (size_t)(end - value), err, sizeof err))
                fail(T, "%s", err);
            T->events_line = T->r->lineno;
            for (size_t i = 0; i < T->events.ncolumns; i++)
                notes_event(T->t, T->events.columns[i], strlen(T->events.columns[i]));
        } else if (key_is(key, keylen, "event")) {
            /* "event: NAME : LONG NAME", as in callgrind.out: the long
             * name tells a unit ("sysTime (elapsed ns)") */
            const char *name, *lng;
            size_t nlen, llen;
            if (events_long_name(value, end, &name, &nlen, &lng, &llen))
                notes_event_long(T->t, name, nlen, lng, llen);
        } else if (key_is(key, keylen, "cmd")) {
            notes_comment(T->t, "cmd", value, (size_t)(end - value));
        } else if (key_is(key, keylen, "version") && !key_is(value, (size_t)(end - value), "1")) {
            fail(T, "folded tree version " TOKEN_FMT " is not supported (only 1 is)",
                 TOKEN_ARGS(value, (size_t)(end - value)));
        } else if (key_is(key, keylen, "pid")) {
            section_pid(&T->head, value, end);
        }
        /* creator and unknown keys: nothing to do */
    } else if (T->state == IN_PART_HEAD) {
        /* which thread and why the dump: which sections are read, and a
         * note for -f pprof */
        value = skip_blanks(value, end);
        char err[sizeof T->d->msg];
        if (thread && section_thread(&T->head, value, end, T->r->lineno, err, sizeof err))
            fail(T, "%s", err);
        if (desc) {
            section_desc(&T->head, value, end, T->r->lineno);
            buf_append(&T->descs, value, (size_t)(end - value));
            buf_putc(&T->descs, '\n');
        }
    } else if (T->state == IN_PART && desc) {
        value = skip_blanks(value, end);
        if (starts_with(value, (size_t)(end - value), "Thread name:"))
            fail(T, "\"desc: Thread name:\" after the part's first \"fn:\" or node line "
                 "(a section's thread is said in its header)");
        if (T->selected) {
            notes_comment(T->t, "desc", value, (size_t)(end - value));
            buf_append(&T->descs, value, (size_t)(end - value));
            buf_putc(&T->descs, '\n');
        }
    } else if (T->state == IN_PART && thread) {
        fail(T, "\"thread:\" line after the part's first \"fn:\" or node line (a "
             "section's thread is said in its header)");
    } else {
        fail(T, "unexpected \"%.*s:\" line %s", (int)(keylen > 40 ? 40 : keylen), key,
             T->state == IN_PART ? "in a part" : "after the part's \"totals:\" line");
    }
}

static void tree_line(struct tree_reader *T, const char *line, size_t len)
{
    const char *end = line + len;
    if (len == 0 || line[0] == '#')
        return;
    char c = line[0];
    if (c >= '0' && c <= '9') {
        node_line(T, line, end);
        return;
    }
    if (memchr(line, '\0', len))
        fail(T, "NUL byte in line (binary file?)");
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        size_t n = 1;
        while (n < len && (line[n] == '_' || (line[n] >= 'a' && line[n] <= 'z') ||
                           (line[n] >= 'A' && line[n] <= 'Z') ||
                           (line[n] >= '0' && line[n] <= '9')))
            n++;
        if (n < len && line[n] == ':') {
            key_line(T, line, n, line + n + 1, end);
            return;
        }
    }
    if (skip_blanks(line, end) == end)
        return; /* a line of blanks counts as empty */
    fail(T, "malformed line " TOKEN_FMT, TOKEN_ARGS(line, len));
}

static void free_reader(struct tree_reader *T)
{
    events_free(&T->events);
    strtab_free(&T->names);
    free(T->dense);
    hashmap_free(&T->sparse);
    free(T->frame_of);
    free(T->inlined);
    buf_free(&T->scratch);
    buf_free(&T->descs);
    section_free(&T->head);
    free(T->sum);
    free(T->cols);
    free(T->lanes);
    free(T->column_of);
    free(T->path);
    free(T);
}

int read_tree(struct linereader *r, const char *first, size_t first_len,
              struct read_target *t, struct diag *d)
{
    struct tree_reader *T = xcalloc(1, sizeof *T);
    T->t = t;
    T->d = d;
    T->r = r;
    T->state = IN_HEADER;
    T->fast_tiers = !read_exact();
    events_init(&T->events);
    strtab_init(&T->names);
    hashmap_init(&T->sparse);
    T->failure.d = d;
    T->failure.r = r;
    T->head.tree = true;
    if (setjmp(T->failure.jump)) {
        free_reader(T);
        return -1;
    }
    if (r->lineno != 1 || !key_is(first, first_len, TREE_MARKER))
        fail(T, "a folded tree starts with exactly \"" TREE_MARKER "\", not " TOKEN_FMT,
             TOKEN_ARGS(first, first_len));
    /* No call counts and no addresses: for -f dot and --inline, a tree is
     * like folded stacks. */
    t->folded_inputs++;
    for (;;) {
        if (T->state == IN_PART && T->fast_tiers)
            fast_node_lines(T);
        const char *line;
        size_t len;
        enum lr_status st = lr_next(r, &line, &len);
        if (st == LR_EOF)
            break;
        if (st != LR_LINE) {
            d->line = r->lineno + 1;
            fail(T, "%s", st == LR_TOO_LONG ? "line longer than 64 MiB" : "read error");
        }
        tree_line(T, line, len);
    }
    if (T->state == IN_PART || T->state == IN_PART_HEAD)
        fail(T, "part ends without its \"totals:\" line (truncated file?)");
    if (T->state == IN_HEADER)
        fail(T, "no \"part:\" line: a folded tree without data (truncated file?)");
    free_reader(T);
    return 0;
}
