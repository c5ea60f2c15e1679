/* The fast tiers of callgrind.out's body: takes the line reader's buffer
 * (lr_window()), hands on the lines it reads in place as the exact readers
 * would (cost_line_values(), position lines), and leaves the first line it
 * does not take to them.
 *
 * Four lines in five of a callgrind.out are cost lines of a few short
 * numbers ("+3 0 1 0 0 2").  lr_next() and parse_line() would cost a
 * memchr() for the line's end, a call and a dispatch per line, and the
 * exact scanners (grammar.c) test the end of the line at every byte and
 * overflow at every digit.  So a run of cost lines is read straight from
 * the line reader's buffer (lr_window()): one pass over the bytes that
 * finds the '\n' while reading the numbers.  Only the common forms are
 * taken (decimal, "0x" hex, "+N", "-N", "*", numbers short enough not to
 * overflow, a single event column or an event formula); on anything else
 * the line is left to lr_next() and cost_line(), which accept or reject
 * it exactly as before, with the same message. */

#include "body.h"
#include "costblocks.h"
#include "read/lex.h"
#include "scan.h"

#include <string.h>

/* One subposition at p: "*", "+N", "-N" or "N" (N decimal or "0x" hex);
 * its value relative to last.  Returns its end, or NULL. */
static inline const char *cost_run_subposition(const char *p, uint64_t *value, uint64_t last)
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
static inline const char *cost_run_line(struct parser *P, const char *p, size_t ipos,
                                         size_t lpos, uint64_t *addr, uint64_t *line,
                                         uint64_t *cost)
{
    size_t npos = P->header.npositions;
    if (ipos == SIZE_MAX && lpos == SIZE_MAX) {
        p = skip_subpositions(p, npos);
        if (!p)
            return NULL;
    } else {
        for (size_t i = 0; i < npos; i++) {
            uint64_t v;
            p = cost_run_subposition(p, &v, i == lpos ? P->addr.last_line : P->addr.last_instr);
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
    size_t ncolumns = P->header.events.ncolumns;
    p = scan_cost_columns(p, P->body.cols, ncolumns, &n);
    if (!p)
        return NULL;
    P->body.ncols = n;
    size_t one = P->header.single_column;
    if (one != SIZE_MAX) {
        *cost = one < n ? P->body.cols[one] : 0;
        return p;
    }
    uint64_t sum = 0; /* an event formula ("event: S = Ir + 10 Dr") */
    for (size_t i = 0; i < n; i++) {
        uint64_t term;
        if (P->header.weight[i] && (!mul_u64(P->body.cols[i], P->header.weight[i], &term) ||
                             !add_u64(sum, term, &sum)))
            return NULL;
    }
    *cost = sum;
    return p;
}

/* "(N)" from bit `at` of the line at p, of bits b, naming an id of
 * `kind` already defined: sets *name.  False for anything else
 * (parse_name() reads it then, and gives the error if there is one). */
static bool known_name_id(const struct parser *P, enum name_kind kind, const char *p,
                          const struct line_bits *b, unsigned at, uint32_t *name)
{
    uint64_t id;
    if (!plain_name_id(p, b, at, &id) || id >= P->names.dense_cap[kind])
        return false;
    *name = P->names.dense_ids[kind][id];
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
position_line_bits(struct parser *P, const char *p, const struct line_bits *b)
{
    if (P->body.call_pending)
        return NULL; /* the call's cost line is next: position_line() says so */
    if (b->len >= LINE_BITS_MAX - 1)
        return NULL;
    const char *end = p + b->len;
    uint64_t count;
    uint32_t name;
    if (b->len == 0) {
        /* an empty line: nothing to do */
    } else if (memcmp(p, "jcnd=", 5) == 0 || memcmp(p, "jump=", 5) == 0) {
        if (!plain_arc(p, b, 5, p[1] == 'c', P->header.npositions, &count))
            return NULL;
        P->body.jump_pending = true; /* its source position line follows */
    } else if (memcmp(p, "calls=", 6) == 0) {
        if (P->body.function == NO_NODE || P->body.call_name == NO_NAME ||
            !plain_arc(p, b, 6, false, P->header.npositions, &count))
            return NULL;
        P->body.jump_pending = false;
        P->r->lineno++; /* start_call() notes it */
        start_call(P, count);
        return end + 1;
    } else {
        /* a name line: its id's kind, where the id starts, what it sets
         * ("fn=": the function, entered) */
        enum name_kind kind = KIND_FILE;
        unsigned at = 4;
        uint32_t *set = NULL;
        if (memcmp(p, "cfn=", 4) == 0) {
            kind = KIND_FUNCTION;
            set = &P->body.call_name;
        } else if (memcmp(p, "fn=", 3) == 0) {
            kind = KIND_FUNCTION;
            at = 3;
        } else if (memcmp(p, "cfi=", 4) == 0 || memcmp(p, "cfl=", 4) == 0) {
            set = &P->body.call_file;
        } else if (memcmp(p, "cob=", 4) == 0) {
            kind = KIND_OBJECT;
            set = &P->body.call_object;
        } else if (p[0] == 'f' && (p[1] == 'i' || p[1] == 'e' || p[1] == 'l') && p[2] == '=') {
            at = 3;
            set = &P->body.file;
        } else {
            return NULL;
        }
        if (!known_name_id(P, kind, p, b, at, &name))
            return NULL;
        P->body.jump_pending = false;
        if (set)
            *set = name;
        else
            enter_function(P, name);
        if (kind == KIND_OBJECT)
            note_object(P, name);
    }
    P->r->lineno++;
    return end + 1;
}

/* The line's bits made again here, not passed: the cost line loop keeps
 * its own in registers that way. */
HOT_LOOP_CLONES
static const char *position_line_fast(struct parser *P, const char *p)
{
    struct line_bits b;
    line_bits(p, &b);
    return position_line_bits(P, p, &b);
}

/* Whether cost lines can go through cost_run_plain(): one event column
 * selected (other events may be read too) and no instruction addresses
 * wanted (no --inline). */
static bool cost_run_plain_applies(const struct parser *P)
{
    return P->header.single_column != SIZE_MAX && !P->body.part.by_address;
}

/* A function's self-cost lines on one source line, one after another:
 * summed here, and added to the line table once (line_cost_add()), when
 * the line or the run ends.  Lines repeat: a function without debug
 * information is all line 0, and a loop's instructions share theirs. */
struct line_run {
    uint64_t line, cost;
    bool open;     /* cost is of line */
    bool followed; /* line is P->addr.last_line and was offered as the
                      node's first line (not after "jump=") */
};

/* Out of line: once a run, and the loops keep their run in registers. */
static void line_run_add(struct parser *P, uint64_t line, uint64_t cost)
{
    line_cost_add(P, P->body.function, line, cost);
}

static inline __attribute__((always_inline)) void line_run_flush(struct parser *P,
                                                                 struct line_run *run)
{
    if (run->open)
        line_run_add(P, run->line, run->cost);
    run->open = false;
}

/* The self costs gathered by cost_run_plain_npos() for `node`, added,
 * and its last line's. */
static inline __attribute__((always_inline)) void
cost_run_add_sum(struct parser *P, struct fn_node *node, uint64_t sum, struct line_run *run)
{
    node->self += sum;
    P->body.prof->total_self += sum;
    line_run_flush(P, run);
}

/* The function a run of self cost lines adds to, if the next line is
 * one (no call pending, not in inlined code), with how much its sums
 * can still take (*room), its sum so far (*sum) and with all events its
 * row of the profile's other columns (*row); else NULL. */
static inline __attribute__((always_inline)) struct fn_node *
cost_run_start(struct parser *P, uint64_t *room, uint64_t *sum, uint64_t **row)
{
    if (P->body.call_pending || P->body.inlined != NO_NODE || P->body.function == NO_NODE)
        return NULL;
    struct fn_node *node = &P->body.prof->nodes[P->body.function];
    uint64_t total = P->body.prof->total_self;
    uint64_t most = node->self > total ? node->self : total;
    *room = UINT64_MAX - most;
    *sum = 0;
    if (P->all.nothers)
        *row = cost_rows_row(&P->body.prof->more_self, P->body.function, P->all.nothers);
    return node;
}

/* A self-cost line of a run, at `line`, once the run's sum took its
 * cost: the line followed and its cost added to it, as
 * cost_line_values() does.  With all events at once, its other costs
 * (P->body.cols) are the line's alone: not summed in `run`.  The run's
 * sum cannot overflow: the node's took the same costs. */
static inline __attribute__((always_inline)) void
cost_run_line_taken(struct parser *P, struct fn_node *node, uint64_t line, uint64_t cost,
                    bool all, struct line_run *run)
{
    /* the run's line again, past its first: no "jump=" before it (that
     * ends a run), and the line followed already */
    if (!all && run->open && run->line == line && run->followed) {
        run->cost += cost;
        return;
    }
    bool followed = !P->body.jump_pending;
    if (followed) {
        P->addr.last_line = line;
        if (line > 0 && line <= UINT32_MAX - 1 && node->line == 0)
            node->line = (uint32_t)line;
    }
    if (all) {
        line_cost_add(P, P->body.function, line, cost);
    } else if (run->open && run->line == line) {
        run->cost += cost;
        run->followed = followed;
    } else {
        line_run_flush(P, run);
        *run = (struct line_run){line, cost, true, followed};
    }
}

/* The lines at p, classified whole with bit masks (scan.h, line_bits())
 * while they are cost lines of the plain form, whose selected cost is
 * then all that is read, or position lines position_line_fast() takes.
 * With `all` (all_events, -f pprof) every cost is read, into P->body.cols, and
 * the other events' costs go to the function's row of the profile's other columns;
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
cost_run_plain_npos(struct parser *P, const char *p, const char *limit, size_t npos,
                 bool all, bool lines, size_t lpos)
{
    size_t ncolumns = P->header.events.ncolumns, one = P->header.single_column;
    struct fn_node *node = NULL; /* the function `sum` is of, if any */
    uint64_t *row = NULL;        /* all: its row of the other columns */
    uint64_t sum = 0, room = 0;
    struct line_run run = {0, 0, false, false}; /* lines: its last line's cost */
    while (limit - p >= LINE_BITS_MAX) {
        struct line_bits b;
        line_bits(p, &b);
        uint64_t costs, starts;
        if (!plain_cost_line(p, &b, npos, ncolumns, &costs, &starts)) {
            if (node) { /* the position line may change the function */
                cost_run_add_sum(P, node, sum, &run);
                node = NULL;
            }
            const char *next = position_line_fast(P, p);
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
            node = cost_run_start(P, &room, &sum, &row);
        uint64_t cost, carry = 0;
        if (all) {
            /* every cost into P->body.cols (the exact path's input if the line
             * goes there), and with others_follow into the row at once */
            size_t n = 0;
            if (node && P->all.others_follow && costs) {
                P->body.cols[n++] = plain_cost_at(p, &b, (unsigned)__builtin_ctzll(costs));
                for (costs &= costs - 1; costs; costs &= costs - 1, n++) {
                    uint64_t v = plain_cost_at(p, &b, (unsigned)__builtin_ctzll(costs));
                    P->body.cols[n] = v;
                    row[n - 1] += v;
                    carry |= row[n - 1] < v;
                }
            } else {
                for (; costs; costs &= costs - 1)
                    P->body.cols[n++] = plain_cost_at(p, &b, (unsigned)__builtin_ctzll(costs));
            }
            P->body.ncols = n; /* before add_other_columns(), which adds that many */
            if (node && !P->all.others_follow)
                carry = add_other_columns(P, row);
            cost = one < n ? P->body.cols[one] : 0;
        } else {
            for (size_t i = 0; i < one && costs; i++)
                costs &= costs - 1; /* to the selected column's */
            cost = costs ? plain_cost_at(p, &b, (unsigned)__builtin_ctzll(costs)) : 0;
        }
        uint64_t line =
            lines ? plain_subposition_at(p, &b, starts, lpos, P->addr.last_line) : 0;
        p += b.len + 1;
        P->r->lineno++;
        if (!all && !node)
            node = cost_run_start(P, &room, &sum, &row);
        if (node && cost <= room && !carry) {
            room -= cost;
            sum += cost;
            if (lines)
                cost_run_line_taken(P, node, line, cost, all, &run);
            P->body.jump_pending = false;
            continue;
        }
        if (node) {
            if (all) /* the exact path adds them again, or fails */
                take_other_columns(P, row);
            cost_run_add_sum(P, node, sum, &run);
            node = NULL;
        }
        cost_line_values(P, 0, line, cost);
    }
    if (node)
        cost_run_add_sum(P, node, sum, &run);
    return p;
}

/* cost_run_plain_npos() made for the usual numbers of subpositions
 * ("positions: line", "instr line"), one function per mode: with npos,
 * all, lines and the line's index constants, the compiler unrolls plain_cost_line()'s loop
 * over the subpositions and drops the code a mode does not use.  Apart,
 * not in one function: the one-event loop, the commonest, is then
 * compiled (registers, inlining) as if the others were not there. */
#define COST_RUN_PLAIN_MODE(name, all, lines)                                         \
    HOT_LOOP_CLONES                                                                    \
    static const char *name(struct parser *P, const char *p, const char *limit)        \
    {                                                                                  \
        size_t npos = P->header.npositions, lpos = P->addr.line_pos;                   \
        if (npos == 1)                                                                 \
            return cost_run_plain_npos(P, p, limit, 1, all, lines, 0);                 \
        if (npos == 2 && (!lines || lpos == 1))                                        \
            return cost_run_plain_npos(P, p, limit, 2, all, lines, 1);                 \
        return cost_run_plain_npos(P, p, limit, npos, all, lines, lpos);               \
    }
COST_RUN_PLAIN_MODE(cost_run_plain_one, false, false)
COST_RUN_PLAIN_MODE(cost_run_plain_one_lines, false, true)
COST_RUN_PLAIN_MODE(cost_run_plain_all, true, false)
COST_RUN_PLAIN_MODE(cost_run_plain_all_lines, true, true)

#if COST_BLOCKS
/* cost_run_plain_one()'s work (one event; with `lines` the "line"
 * subposition followed, as cost_run_plain_one_lines() does) 64 bytes at
 * a time (costblocks.h): of each block, every line whose '\n'
 * is in it is read with the block's masks, a plain cost line here, any
 * other line by position_line_bits(); the next block starts after the
 * last of them.  The self costs of a function's run of lines are
 * summed and added once, as in cost_run_plain_npos().  Stops at the first
 * line neither takes, and where fewer than COST_BLOCK_READ bytes are left
 * (LINE_BITS_MAX for a position line); returns where it stopped. */
static inline __attribute__((always_inline)) COST_BLOCKS_TARGET const char *
cost_run_blocks_npos(struct parser *P, const char *p, const char *limit, size_t npos,
                     bool lines, size_t lpos)
{
    size_t column = P->header.single_column;
    size_t max_tokens = npos + P->header.events.ncolumns;
    struct fn_node *node = NULL; /* the function `sum` is of, if any */
    uint64_t *row = NULL, sum = 0, room = 0;
    struct line_run run = {0, 0, false, false}; /* lines: its last line's cost */
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
                uint64_t at_line =
                    lines ? block_subposition(p, &b, starts & line, lpos, P->addr.last_line) : 0;
                P->r->lineno++; /* before cost_line_values(), whose errors cite it */
                if (!node)
                    node = cost_run_start(P, &room, &sum, &row);
                if (node && cost <= room) {
                    room -= cost;
                    sum += cost;
                    if (lines)
                        cost_run_line_taken(P, node, at_line, cost, false, &run);
                    P->body.jump_pending = false;
                } else {
                    if (node) {
                        cost_run_add_sum(P, node, sum, &run);
                        node = NULL;
                    }
                    cost_line_values(P, 0, at_line, cost); /* no address wanted */
                }
            } else {
                if (node) { /* the line may change the function */
                    cost_run_add_sum(P, node, sum, &run);
                    node = NULL;
                }
                /* the line's bits as line_bits() makes them (bits past
                 * its '\n' are not looked at) */
                unsigned from = (unsigned)_tzcnt_u64(line);
                struct line_bits lb = {b.digit >> from, b.blank >> from,
                                       (unsigned)_tzcnt_u64(ends) - from};
                const char *at = p + from;
                if (limit - at < LINE_BITS_MAX || !position_line_bits(P, at, &lb)) {
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
        cost_run_add_sum(P, node, sum, &run);
    return p;
}

/* cost_run_blocks_npos() made for the usual numbers of subpositions, as
 * cost_run_plain_one() is. */
/* lines: "line" the last subposition ("positions: line", "instr line")
 * is a constant too. */
#define COST_RUN_BLOCKS_MODE(name, lines)                                              \
    COST_BLOCKS_TARGET                                                                 \
    static const char *name(struct parser *P, const char *p, const char *limit)        \
    {                                                                                  \
        size_t npos = P->header.npositions, lpos = P->addr.line_pos;                   \
        if (npos == 1)                                                                 \
            return cost_run_blocks_npos(P, p, limit, 1, lines, 0);                     \
        if (npos == 2 && (!lines || lpos == 1))                                        \
            return cost_run_blocks_npos(P, p, limit, 2, lines, 1);                     \
        return cost_run_blocks_npos(P, p, limit, npos, lines, lpos);                   \
    }
COST_RUN_BLOCKS_MODE(cost_run_blocks, false)
COST_RUN_BLOCKS_MODE(cost_run_blocks_lines, true)
#endif

static const char *cost_run_plain(struct parser *P, const char *p, const char *limit)
{
    bool lines = P->t->opt.want_lines && P->addr.line_pos != SIZE_MAX;
    if (P->all.nothers)
        return lines ? cost_run_plain_all_lines(P, p, limit)
                     : cost_run_plain_all(P, p, limit);
#if COST_BLOCKS
    /* A line the blocks do not take is left to the caller, which reads
     * that one line and comes back: not to cost_run_plain_one(), which would
     * go on a line at a time. */
    if (P->body.cost_blocks)
        return lines ? cost_run_blocks_lines(P, p, limit) : cost_run_blocks(P, p, limit);
#endif
    return lines ? cost_run_plain_one_lines(P, p, limit) : cost_run_plain_one(P, p, limit);
}

/* The one dispatch of the fast tiers: the body lines at the reader's
 * position, as many as follow each other in its buffer, read in place.
 * Cost lines go to the fastest tier that applies: 64-byte blocks
 * (cost_run_blocks(), AVX2), else whole-line bit masks
 * (cost_run_plain()), else a line at a time (cost_run_line()); the
 * commonest other lines to position_line_fast().  The first line none of
 * them takes is left for lr_next() and parse_line(). */
void cost_run(struct parser *P)
{
    struct linereader *r = P->r;
    const char *p, *limit;
    lr_window(r, &p, &limit);
    if (p == limit)
        return;
    if (P->body.cols_cap < P->header.events.ncolumns) {
        P->body.cols_cap = P->header.events.ncolumns;
        P->body.cols = xrealloc(P->body.cols, P->body.cols_cap * sizeof *P->body.cols);
    }
    /* as in cost_line(): which subpositions' values are wanted */
    size_t ipos = P->body.part.by_address ? P->addr.instr_pos : SIZE_MAX;
    size_t lpos = P->t->opt.want_lines ? P->addr.line_pos : SIZE_MAX;
    /* a line longer than 64 MiB is lr_next()'s to report; it takes a
     * window that long to hold one */
    bool may_be_long = (size_t)(limit - p) > r->max_line;
    bool plain = cost_run_plain_applies(P);
    while (p < limit) {
        if (plain)
            p = cost_run_plain(P, p, limit);
        if (p == limit)
            break;
        char c = *p;
        if (!(is_digit(c) || c == '+' || c == '-' || c == '*')) {
            if (limit - p < LINE_BITS_MAX)
                break;
            const char *next = position_line_fast(P, p);
            if (!next)
                break;
            p = next;
            continue;
        }
        uint64_t addr = 0, line = 0, cost;
        const char *nl = cost_run_line(P, p, ipos, lpos, &addr, &line, &cost);
        if (!nl || (may_be_long && (size_t)(nl - p) > r->max_line))
            break;
        r->lineno++; /* before cost_line_values(), whose errors cite it */
        cost_line_values(P, addr, line, cost);
        p = nl + 1;
    }
    lr_skip_to(r, p);
}

