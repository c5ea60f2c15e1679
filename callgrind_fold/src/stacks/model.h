/* stacks/ model: the data every stage works on.
 *
 * Takes: frames, stacks and call costs from the readers (read/) and the
 * inline stage.  Hands on: struct stacks (distinct folded stacks, each a
 * sequence of frame ids, with summed counts per column), struct profile
 * (one part's call graph, a vector of costs per function and call: one
 * event, or every event) and struct section_graph (a profile as the
 * reader hands it on), to the folding (fold.h), the presentation
 * (present.h) and the writers (write/), which read stacks through the
 * functions below.  Depends on util/ only. */
#ifndef CF_STACKS_MODEL_H
#define CF_STACKS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "util/util.h"

/* ---- stacks.c ---- */
/* The output: distinct folded stacks with their summed counts.
 * A stack is kept as the sequence of its frames' ids (4 bytes a frame
 * instead of the frame's text), and printed as text only when written. */

/* A stack's cost is a vector, as a pprof sample's values are: a count in
 * each of ncols columns, column c the count of the run's event c
 * (columns.h: every event with -f pprof, html and md, else the chosen
 * one's only), kept by column so that a writer of one event reads one
 * array. */
struct stacks {
    struct strtab frames; /* frame text -> frame id */
    struct strtab paths;  /* frame id sequence (as bytes) -> stack id */
    uint64_t **count;     /* column -> stack id -> summed count */
    size_t *count_cap;    /* column -> its room: stack ids past it count 0
                             (grown as counts come, as the folds of
                             different events reach different stacks) */
    uint64_t *total;      /* column -> sum of its counts */
    size_t ncols;
    uint32_t *scratch;    /* frame ids of a stack given as text */
    size_t scratch_cap;
    /* Where each frame came from, kept only when `keep_sources` is set
     * (-f pprof): frame id -> the first function seen with that frame. */
    bool keep_sources;
    struct frame_source *source;
    size_t source_cap;
    /* Raw frame names, kept when the frames were renamed (--frame=short,
     * stacks_shorten): frame id -> id in raw_names of the name as read,
     * or of "N names: ..." for a frame several raw names became. Frames
     * at or past raw_cap, and all of them when nothing was renamed, are
     * their own raw name. */
    struct strtab raw_names;
    uint32_t *raw;
    size_t raw_cap;
    /* Some frame's key is its text, a NUL and its raw name: two
     * functions whose short names read alike kept apart (stacks_shorten).
     * A frame's text is then its key up to the NUL. */
    bool split_keys;
    /* Self costs by source line of the frames, when a reader gathered
     * them (-f pprof; lines.c): beside the stacks, never frames of them. */
    struct stacks_lines {
        struct hashmap index;    /* (frame << 32 | file, line) -> entry */
        struct line_key *key;    /* entry -> its frame, file and line */
        size_t n, cap;
        uint64_t **count;        /* column -> entry -> summed count */
        size_t *count_cap;       /* column -> its room: entries past it count 0 */
        size_t ncols;
        /* Call sites: (caller frame, callee frame, file, line) -> the
         * inclusive cost of the chosen event's calls there, for a
         * caller's location at the line of its call. */
        struct hashmap site_index;
        struct call_site *site;
        size_t nsites, sites_cap;
    } lines;
};

/* Where a caller called a callee: frames (or nodes, in a part's table),
 * file and line, and the calls' inclusive cost of column 0. */
struct call_site {
    uint32_t caller, callee, file, line;
    uint64_t cost;
};

/* A source line of a function (node) or frame: `at` is the node or the
 * frame, file the id of its file's name in the run's names, line 0 when
 * the profile gave none (or one out of range). */
struct line_key {
    uint32_t at, file, line;
};

/* A frame's function: ids of its "ob=" and "fl=" names in the run's
 * names (NO_SOURCE_NAME when unknown) and the first source line seen in
 * it (0: none). */
#define NO_SOURCE_NAME UINT32_MAX
struct frame_source {
    uint32_t object, file, line;
};

void stacks_init(struct stacks *s);
void stacks_free(struct stacks *s);
/* Id of a frame's text (which must not contain ';'). */
uint32_t stacks_frame(struct stacks *s, const char *text, size_t len);
/* Id of a frame's text if s has that frame, else UINT32_MAX (frames not
 * renamed yet: their key is their text). */
uint32_t stacks_frame_find(const struct stacks *s, const char *text, size_t len);
/* Notes where a frame came from, if keep_sources and not noted before. */
void stacks_frame_source(struct stacks *s, uint32_t frame, uint32_t object,
                         uint32_t file, uint32_t line);
/* The same, and a line of the noted file below the noted one lowers it:
 * a function's parts (dumps) each say the first line they saw, the
 * function's first is the least. */
void stacks_frame_source_least(struct stacks *s, uint32_t frame, uint32_t object,
                               uint32_t file, uint32_t line);
/* The frame's source, or NULL when none was noted. */
const struct frame_source *stacks_source_of(const struct stacks *s, uint32_t frame);
/* Two ways to count a stack.  By its frames: stacks_add() (or
 * stacks_add_hashed() when the caller carried the hash along), or by its
 * text (stacks_add_text(), stacks_text_frames()), each adding a count in
 * column `col`.  Or by its id: stacks_intern() (or stacks_intern_mapped())
 * gives the id of a stack, made with no count, and stacks_count_in()
 * adds to it in any column, for a caller with counts in several.  The
 * adds return false when a sum would overflow 64 bits. */
bool stacks_add(struct stacks *s, size_t col, const uint32_t *frames, size_t nframes,
                uint64_t count);
/* stacks_add of a stack whose hash the caller carried along as it grew
 * (stacks_path_hash()). */
bool stacks_add_hashed(struct stacks *s, size_t col, const uint32_t *frames, size_t nframes,
                       uint32_t hash, uint64_t count);
/* The hash of frames[0 .. n) as stacks_add takes it, for a walk that
 * grows a stack a frame at a time: words[k] is the hash of its first k
 * pairs of frames (hash_word() from HASH_START, util.h), kept by the
 * caller for k up to n / 2 (stacks_path_word()). */
static inline uint32_t stacks_path_hash(const uint64_t *words, const uint32_t *frames, size_t n)
{
    size_t len = n * sizeof *frames;
    return (uint32_t)hash_ending(words[hash_whole_words(len)], (const unsigned char *)frames,
                                 len);
}
/* words[k + 1] from words[k], once frames 2k and 2k + 1 are set. */
static inline uint64_t stacks_path_word(const uint64_t *words, const uint32_t *frames, size_t k)
{
    return hash_word(words[k], load64(frames + 2 * k));
}
/* A stack as text, frames separated by ';'. */
bool stacks_add_text(struct stacks *s, size_t col, const char *stack, size_t len,
                     uint64_t count);
/* stacks_add_text in two steps, for a reader of many lines: the frames of
 * a line are interned (and its stack's slot in the table of stacks
 * fetched from memory) while the line before is added with
 * stacks_add_hashed(t->frames, t->n, t->hash). */
struct stacks_text {
    uint32_t *frames;
    size_t n, cap;
    uint32_t hash;            /* of the stack's frame ids */
};
void stacks_text_frames(struct stacks *s, const char *stack, size_t len,
                        struct stacks_text *out);
void stacks_text_free(struct stacks_text *t);
/* The id of the stack of these frames, made with no count if new. */
uint32_t stacks_intern(struct stacks *s, const uint32_t *frames, size_t nframes);
/* stacks_intern of stack `id` of `from`, its frame f becoming frame
 * frame_map[f] of s. */
uint32_t stacks_intern_mapped(struct stacks *s, const struct stacks *from, uint32_t id,
                              const uint32_t *frame_map);
bool stacks_count_in(struct stacks *s, size_t col, uint32_t id, uint64_t count);
/* Adds column `from`'s counts to column `to`'s; false on overflow. */
bool stacks_add_column(struct stacks *s, size_t to, size_t from);
/* Up to `more` new stacks are to come: room for them made at once. */
void stacks_reserve(struct stacks *s, size_t more);
/* Reading the stacks (writers use these, not the fields; inline, as the
 * flame tree calls them once per stack and depth). Stack ids and frame
 * ids count from 0; a stack id below stacks_count_ids may have count 0
 * (e.g. a --diff stack only the base has). */
static inline size_t stacks_count_ids(const struct stacks *s)
{
    return s->paths.count;
}

static inline size_t stacks_count_frames(const struct stacks *s)
{
    return s->frames.count;
}

/* The columns: 0 .. stacks_ncols(s) - 1 (columns.h says whose). */
static inline size_t stacks_ncols(const struct stacks *s)
{
    return s->ncols;
}

/* The count of stack `id` in column `col`. */
static inline uint64_t stacks_count(const struct stacks *s, size_t col, uint32_t id)
{
    return col < s->ncols && id < s->count_cap[col] ? s->count[col][id] : 0;
}

/* Column `col`'s counts by stack id, *len of them (ids past count 0), or
 * NULL when it has none: for a writer reading every column of each stack. */
static inline const uint64_t *stacks_col_counts(const struct stacks *s, size_t col,
                                                size_t *len)
{
    *len = col < s->ncols ? s->count_cap[col] : 0;
    return *len ? s->count[col] : NULL;
}

/* The sum of column `col`'s counts. */
static inline uint64_t stacks_col_total(const struct stacks *s, size_t col)
{
    return col < s->ncols ? s->total[col] : 0;
}

/* Adds every stack of `from` to s, every column, each under a first
 * frame `root` when root is not NULL (a thread's frame); frames keep
 * their raw names and sources. `from` is emptied (taken whole when s is
 * empty and there is no root). False if a sum overflows 64 bits. */
bool stacks_merge(struct stacks *s, struct stacks *from, const char *root, size_t root_len);
/* Adds from's self costs to s as a flat profile: each frame's
 * counts as the leaf of from's stacks, every column, as a stack of that
 * frame alone, and from's lines with them (-f md shows no stacks, only
 * functions and their lines). False if a sum overflows 64 bits. */
bool stacks_add_self(struct stacks *s, const struct stacks *from);

/* The number of first frames stacks a and b share.  Neighbours in
 * byte order (and in a folded tree's order) share most of a deep stack:
 * compared eight frames at a time, in four 8-byte words, then four. */
static inline size_t stacks_common_frames(const uint32_t *a, size_t na, const uint32_t *b,
                                          size_t nb)
{
    size_t n = na < nb ? na : nb, i = 0;
    while (i + 8 <= n) {
        uint64_t a0, a1, a2, a3, b0, b1, b2, b3;
        memcpy(&a0, a + i, 8);
        memcpy(&a1, a + i + 2, 8);
        memcpy(&a2, a + i + 4, 8);
        memcpy(&a3, a + i + 6, 8);
        memcpy(&b0, b + i, 8);
        memcpy(&b1, b + i + 2, 8);
        memcpy(&b2, b + i + 4, 8);
        memcpy(&b3, b + i + 6, 8);
        if ((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2) | (a3 ^ b3))
            break;
        i += 8;
    }
    while (i + 4 <= n) {
        uint64_t a0, a1, b0, b1;
        memcpy(&a0, a + i, 8);
        memcpy(&a1, a + i + 2, 8);
        memcpy(&b0, b + i, 8);
        memcpy(&b1, b + i + 2, 8);
        if ((a0 ^ b0) | (a1 ^ b1))
            break;
        i += 4;
    }
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

/* The frames of stack `id`, root first; *n is set to their number. */
static inline const uint32_t *stacks_path(const struct stacks *s, uint32_t id, size_t *n)
{
    *n = strtab_len(&s->paths, id) / sizeof(uint32_t);
    return (const uint32_t *)(const void *)strtab_str(&s->paths, id);
}

/* The text of frame `frame`; *len is set to its length. */
static inline const char *stacks_frame_text(const struct stacks *s, uint32_t frame,
                                            size_t *len)
{
    const char *text = strtab_str(&s->frames, frame);
    *len = strtab_len(&s->frames, frame);
    if (s->split_keys) {
        const char *nul = memchr(text, '\0', *len);
        if (nul)
            *len = (size_t)(nul - text);
    }
    return text;
}

/* The key frame `frame` is interned by: its text, or for a frame kept
 * apart from others that read alike, its text, a NUL and its raw name.
 * What stacks must use to make a frame of another's (frames alike by
 * text are not the same frame). */
static inline const char *stacks_frame_key(const struct stacks *s, uint32_t frame, size_t *len)
{
    *len = strtab_len(&s->frames, frame);
    return strtab_str(&s->frames, frame);
}

/* The raw name of frame `frame` (NUL-terminated): the frame's name as
 * read, for tooltips beside a short label; for a frame that several
 * raw names became, "N names: RAW1 | RAW2 | ..." (the first few); the
 * frame's text when the frames were not renamed. */
const char *stacks_frame_raw(const struct stacks *s, uint32_t frame);
/* Frame `frame` of `from` as a frame of s (interned by its key), its raw
 * name kept: --diff's base frames joining the profile's. */
uint32_t stacks_frame_from(struct stacks *s, const struct stacks *from, uint32_t frame);
/* Sets the raw name of frame `frame` (stacks_shorten's renaming). */
void stacks_frame_set_raw(struct stacks *s, uint32_t frame, const char *raw, size_t len);

/* ---- lines.c: the stacks' self costs by source line ---- */
/* Adds `count` to the line (frame, file, line) in column `col`; false
 * when the sum would overflow 64 bits.  Invariant the writers check:
 * per frame and column, its lines sum to the counts of the stacks it is
 * the leaf of (its functions' self cost). */
bool stacks_line_add(struct stacks *s, size_t col, uint32_t frame, uint32_t file,
                     uint32_t line, uint64_t count);
/* The line entries: ids 0 .. stacks_line_entries(s) - 1. */
static inline size_t stacks_line_entries(const struct stacks *s)
{
    return s->lines.n;
}

static inline const struct line_key *stacks_line_key(const struct stacks *s, uint32_t id)
{
    return &s->lines.key[id];
}

static inline uint64_t stacks_line_count(const struct stacks *s, size_t col, uint32_t id)
{
    return col < s->lines.ncols && id < s->lines.count_cap[col] ? s->lines.count[col][id] : 0;
}

/* Adds `cost` to the call site (caller, callee, file, line); saturating:
 * it only ranks a pair's sites. */
void stacks_site_add(struct stacks *s, uint32_t caller, uint32_t callee, uint32_t file,
                     uint32_t line, uint64_t cost);
/* The lines and call sites of `from` added to `to`, each frame f of from
 * as frame frame_map[f] of to (UINT32_MAX: a frame dropped, its lines
 * too): what every function that makes stacks of other stacks does with
 * them. */
void stacks_lines_carry(struct stacks *to, const struct stacks *from, const uint32_t *frame_map);
void stacks_lines_free(struct stacks_lines *l);

/* ---- profile.c ---- */
/* The call graph of one part of a profile: functions with their self
 * cost, and caller->callee edges with the inclusive cost of the calls, each
 * cost a vector of ncols events (struct profile). This is all the folding needs; source positions are not kept. */

#define NO_NODE UINT32_MAX

struct fn_node {
    uint32_t name;     /* interned full name, contexts and clone marks included */
    uint32_t object;   /* interned "ob=" name, "" if none */
    uint32_t file;     /* interned "fl=" name, "" if none */
    bool defined;      /* appeared in "fn=", not only as a call target */
    uint32_t line;     /* first source line seen in it, 0 if none */
    uint64_t self;     /* exclusive cost */
};

struct call_edge {
    uint32_t caller, callee;
    uint64_t cost;     /* inclusive cost of all these calls */
    uint64_t calls;    /* how many calls ("calls=" counts, saturating) */
};

/* A lookup index of a profile's nodes or edges by their keys: an open
 * addressing table of entry numbers + 1 (0: empty), whose keys are read
 * from the entries themselves (profile.c). */
struct entry_index {
    uint32_t *slots;
    size_t capacity;   /* power of two, or 0 */
    size_t count;
};

/* Doubles the index (or makes it with `first` slots) and places every
 * entry again by `hash(entry number + 1, keys)`. */
void entry_index_grow(struct entry_index *ix, size_t first,
                      uint64_t (*hash)(uint32_t v, const void *keys), const void *keys);

/* Rows of costs, one row per node, edge or record: cells below `zeroed`
 * hold costs or 0; the rest of the `allocated` ones are not yet written,
 * so that growing touches no page before a row needs it. */
struct cost_rows {
    uint64_t *cells;
    size_t zeroed, allocated;
};

/* At least `need` cells of m zeroed (profile.c). */
void cost_rows_grow(struct cost_rows *m, size_t need);
/* The first `used` cells of m zeroed again. */
void cost_rows_clear(struct cost_rows *m, size_t used);

/* Row `index` of rows of `width` cells, made (zeroed) if new.  Inline,
 * with the growing apart: a reader of every event asks for each cost
 * line, and the row is there but for a new node or edge. */
static inline uint64_t *cost_rows_row(struct cost_rows *m, size_t index, size_t width)
{
    size_t need = (index + 1) * width;
    if (need > m->zeroed)
        cost_rows_grow(m, need);
    return m->cells + index * width;
}

/* more[0 .. width) added to row[0 .. width); false if a sum wraps. */
static inline bool cost_row_add(uint64_t *row, const uint64_t *more, size_t width)
{
    uint64_t carry = 0;
    for (size_t k = 0; k < width; k++) {
        row[k] += more[k];
        carry |= row[k] < more[k];
    }
    return !carry;
}

static inline uint64_t cost_rows_cell(const struct cost_rows *m, size_t at)
{
    return at < m->zeroed ? m->cells[at] : 0;
}

/* A cost is a vector of ncols values, one per event the part is read
 * for (ncols is 1 unless every event is): column 0 in nodes[].self,
 * edges[].cost and total_self, where the reader of one event adds in its
 * hot loop; columns 1 .. ncols - 1 in a row of ncols - 1 cells per node
 * (more_self) and per edge (more_cost). */
struct profile {
    struct fn_node *nodes;
    size_t nnodes, nodes_cap;
    struct call_edge *edges;
    size_t nedges, edges_cap;
    struct entry_index node_index;  /* (object, file, name) -> node */
    struct entry_index edge_index;  /* (caller, callee) -> edge */
    uint64_t total_self;        /* sum of all self costs, column 0 */
    size_t ncols;
    struct cost_rows more_self, more_cost;
};

/* Node `node`'s self cost in column `col`. */
static inline uint64_t profile_self(const struct profile *p, uint32_t node, size_t col)
{
    return col == 0 ? p->nodes[node].self
                    : cost_rows_cell(&p->more_self, (size_t)node * (p->ncols - 1) + col - 1);
}

/* Edge `edge`'s cost in column `col`. */
static inline uint64_t profile_edge_cost(const struct profile *p, uint32_t edge, size_t col)
{
    return col == 0 ? p->edges[edge].cost
                    : cost_rows_cell(&p->more_cost, (size_t)edge * (p->ncols - 1) + col - 1);
}

void profile_init(struct profile *p);
void profile_free(struct profile *p);
/* Empties p for the next part, of `ncols` columns. */
void profile_reset(struct profile *p, size_t ncols);
/* An input of `bytes` bytes is next: its lookup indexes sized for the
 * functions and calls such an input has, rather than doubled (and every
 * entry placed again) as they come. */
void profile_expect_bytes(struct profile *p, uint64_t bytes);
/* The sum of column `col`'s self costs into *sum; false on overflow. */
bool profile_total(const struct profile *p, size_t col, uint64_t *sum);
/* dst becomes src's graph with column `col`'s costs in column 0 (and
 * one column): what the folding of one column reads.  Its lookup
 * indexes are left empty: dst is folded, not added to. */
void profile_column(struct profile *dst, const struct profile *src, size_t col);
/* Node for a function identity, created on first use. */
uint32_t profile_function(struct profile *p, uint32_t object, uint32_t file,
                          uint32_t name);
/* Appended to the name of every inlined frame: "NAME [inlined]", made
 * by --inline from DWARF and from callgrind's "cfni=" lines alike. */
#define INLINE_MARK " [inlined]"

/* Node of code inlined into `parent` under the frame name `name` ("NAME
 * [inlined]"): one per (parent, name), kept in `index`, the caller's (not
 * node_index: the same inlined function below two parents is two nodes). */
uint32_t profile_inlined_node(struct profile *p, struct hashmap *index, uint32_t parent,
                              uint32_t name);
/* The index of the edge caller -> callee, made with no cost on first use:
 * profiles given the same calls in the same order number them alike. */
uint32_t profile_call_edge(struct profile *p, uint32_t caller, uint32_t callee);

/* profile_call_edge() remembered per callee, for a reader that asks for
 * the same edge again and again (callgrind names the callee before each
 * of its calls, and calls it from the same caller in a row): most
 * look-ups one compare.  Zeroed is empty; forgotten when the profile is
 * reset (call_edge_memo_forget()). */
struct call_edge_memo_slot {
    uint32_t caller, edge;
};
struct call_edge_memo {
    struct call_edge_memo_slot *slot; /* by callee; caller NO_NODE: none */
    size_t cap;
};
/* The edge caller -> callee of p, looked up and remembered on a miss. */
uint32_t call_edge_memo_miss(struct call_edge_memo *m, struct profile *p, uint32_t caller,
                             uint32_t callee);
static inline uint32_t call_edge_memo_edge(struct call_edge_memo *m, struct profile *p,
                                           uint32_t caller, uint32_t callee)
{
    if (callee < m->cap && m->slot[callee].caller == caller)
        return m->slot[callee].edge;
    return call_edge_memo_miss(m, p, caller, callee);
}
void call_edge_memo_forget(struct call_edge_memo *m);
void call_edge_memo_free(struct call_edge_memo *m);
/* Both return false when a sum would overflow 64 bits. */
bool profile_add_self(struct profile *p, uint32_t node, uint64_t cost);
bool profile_add_call(struct profile *p, uint32_t caller, uint32_t callee,
                      uint64_t cost);
/* Columns 1 .. ncols - 1 of a cost (more[0 .. ncols - 2]) added to node
 * `node`'s self cost and to edge `edge`'s cost: what goes with
 * profile_add_self() and profile_add_call() when ncols > 1.  False when a
 * sum would overflow 64 bits. */
bool profile_add_self_more(struct profile *p, uint32_t node, const uint64_t *more);
bool profile_add_edge_more(struct profile *p, uint32_t edge, const uint64_t *more);
/* profile_add_call() and profile_add_call_count() in one, on the edge
 * of index `edge` (profile_call_edge()), for a reader that knows it: false,
 * with the count not added, when the cost sum would overflow. */
bool profile_add_to_edge(struct profile *p, uint32_t edge, uint64_t cost, uint64_t calls);
/* Adds to the call count of an existing edge (saturating). */
void profile_add_call_count(struct profile *p, uint32_t caller, uint32_t callee,
                            uint64_t calls);
/* Call targets that never appeared in "fn=" (typically a writer that left
 * out "cfi=" or "cob=") are redirected to the one defined function of the
 * same name, so that a file quirk does not cut the graph apart. */
void profile_resolve_call_targets(struct profile *p);

/* ---- lines.c: a part's self costs by source line ---- */
/* Filled by the callgrind.out reader when a writer shows lines: per
 * (node, file, line) a cost in each column of the part, column 0 in
 * cost[], the others in a row of ncols - 1 cells (more), as the
 * profile keeps a node's self cost.  Invariant: per node and column, its
 * lines sum to its self cost. */
struct line_table {
    struct entry_index index;   /* (node, file, line) -> entry */
    struct line_key *key;
    uint64_t *cost;             /* column 0 */
    size_t n, cap;
    size_t ncols;
    struct cost_rows more;      /* columns 1 .. ncols - 1 */
    uint32_t last;              /* the entry last asked for: consecutive
                                   cost lines often share a line */
    /* call sites by (caller node, callee node, file, line), column 0;
     * found from the call's edge, which the reader has at hand: the
     * edge's latest site (+ 1, 0: none) and each site's one before */
    struct call_site *site;
    uint32_t *site_before;
    size_t nsites, sites_cap;
    uint32_t *edge_site;
    size_t edge_sites;          /* edge_site's length, all written */
};

void line_table_init(struct line_table *lt);
void line_table_free(struct line_table *lt);
/* Sizes lt's indexes for a callgrind.out of `bytes` bytes. */
void line_table_expect_bytes(struct line_table *lt, uint64_t bytes);
/* Empties lt for a part of `ncols` columns. */
void line_table_reset(struct line_table *lt, size_t ncols);
uint32_t line_table_miss(struct line_table *lt, uint32_t node, uint32_t file, uint32_t line);
/* The entry of (node, file, line), made with no cost if new. */
static inline uint32_t line_table_entry(struct line_table *lt, uint32_t node, uint32_t file,
                                        uint32_t line)
{
    if (lt->last < lt->n) {
        const struct line_key *k = &lt->key[lt->last];
        if (k->line == line && k->at == node && k->file == file)
            return lt->last;
    }
    return line_table_miss(lt, node, file, line);
}

/* Adds a call's inclusive cost (column 0) to its site; saturating.
 * edge: the part's edge caller -> callee, or NO_NODE. */
void line_table_site(struct line_table *lt, uint32_t edge, uint32_t caller, uint32_t callee,
                     uint32_t file, uint32_t line, uint64_t cost);

/* Row of entry e's columns 1 .. ncols - 1. */
static inline uint64_t *line_table_more(struct line_table *lt, uint32_t e)
{
    return cost_rows_row(&lt->more, e, lt->ncols - 1);
}

/* Column c of entry e. */
static inline uint64_t line_table_cost(const struct line_table *lt, uint32_t e, size_t c)
{
    return c == 0 ? lt->cost[e]
                  : cost_rows_cell(&lt->more, (size_t)e * (lt->ncols - 1) + c - 1);
}

/* ---- section_graph.c ---- */
/* One part of a callgrind profile as the reader hands it on. With
 * `by_address` (--inline) the costs are not in the graph yet but kept by
 * instruction address, for the inline stage to split them by the
 * functions inlined there; the graph then has the functions and their
 * names only. */

struct addr_self {
    uint32_t node;
    uint64_t addr, cost;
};

struct addr_call {
    uint32_t node, callee;
    uint64_t addr, cost, calls;
};

/* A section's call graph, as the callgrind.out reader hands it on (one
 * part of one thread of one input).  The records' costs are vectors as
 * the profile's: column 0 in the record, columns 1 .. prof.ncols - 1 in
 * a row per record (more_selfs, more_calls). */
struct section_graph {
    struct profile prof;
    uint64_t number;            /* its "part:" number, else 1, 2, ... */
    size_t *columns;            /* prof's column -> the run's column its
                                   costs count in (columns.h) */
    size_t columns_cap;
    bool by_address;
    bool want_lines;            /* a writer shows lines: with by_address,
                                   the inline stage fills `lines` */
    struct addr_self *selfs;    /* one per cost line (neighbours merged) */
    size_t nselfs, selfs_cap;
    struct addr_call *calls;    /* one per (caller, callee, address) */
    size_t ncalls, calls_cap;
    struct hashmap call_index;
    struct cost_rows more_selfs, more_calls;
    uint64_t *addr_total;       /* column -> sum of the selfs' costs */
    struct line_table lines;    /* self costs by line, when wanted */
};

void section_graph_init(struct section_graph *pt);
void section_graph_free(struct section_graph *pt);
/* Empties the part for the next one, keeping its memory: one column,
 * the chosen event's (columns.h), until section_graph_set_columns(). */
void section_graph_reset(struct section_graph *pt);
/* The part has ncols columns; column c counts in stacks column
 * columns[c]. */
void section_graph_set_columns(struct section_graph *pt, const size_t *columns, size_t ncols);
/* An input of `bytes` bytes is next: room for its cost lines is made at
 * once instead of by doubling (copying megabytes). */
void section_graph_expect_bytes(struct section_graph *pt, uint64_t bytes);
/* A cost at an address (by_address parts): column 0's `cost` and, when
 * prof.ncols > 1, more[0 .. ncols - 2] the others'. Both return false
 * when a sum overflows 64 bits. */
bool section_graph_add_self_at(struct section_graph *pt, uint32_t node, uint64_t addr, uint64_t cost,
                      const uint64_t *more);
bool section_graph_add_call_at(struct section_graph *pt, uint32_t node, uint32_t callee, uint64_t addr,
                      uint64_t cost, const uint64_t *more, uint64_t calls);

#endif
