/* stacks/: from a profile to folded stacks, the model every later stage
 * works on.
 *
 * Takes: one part of a profile at a time, as the call graph the reader
 * built (struct profile: functions with self costs, call arcs with
 * inclusive costs), or stacks the reader already knows exactly (folded
 * trees and folded text go straight into stacks_add/stacks_add_text).
 * Hands on: struct fold_ctx, the run's summed stacks (struct stacks, each
 * a sequence of frame ids) with what is known about them (exact or
 * estimated, the event, the parts read), and, for the call graph, the call
 * arcs between frames (struct callarcs).
 *
 * The call graph becomes stacks in estimate.c: exact when every function
 * with cost has a single costed call path from a root (contexts of
 * --separate-callers, call trees), else estimated, the self costs
 * apportioned among the paths (apportion.c) so that every sum is kept to
 * the unit. graph.c holds the views of the graph that estimate walks.
 * frames.c turns a function into its frame text (clone folding, ";"
 * escaping, "[object]"). Depends on util/ only. */
#ifndef CF_STACKS_STACKS_H
#define CF_STACKS_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

/* ---- frames.c ---- */
/* How a function is printed as one frame of a folded stack. */

struct frame_style {
    bool keep_clones;  /* keep "fn'2" and "fn'caller" as callgrind wrote them */
    bool with_object;  /* append " [object-basename]" */
};

/* Length of the function name without callgrind's clone suffix: the
 * recursion mark "'N" and the caller context "'caller'caller2..." both
 * start at the first "'" outside brackets, so that a quote inside a C++
 * template argument such as foo<'a'> is not mistaken for one. */
size_t frame_base_length(const char *name, size_t len);

/* Append the frame for a function: its (possibly folded) name, ";"
 * replaced by ":" so it cannot split the stack, and the object's base
 * name in brackets when asked for and known. */
void frame_append(struct buf *out, const char *name, size_t name_len,
                  const char *object, size_t object_len,
                  const struct frame_style *style);

/* ---- stacks.c ---- */
/* The output: distinct folded stacks with their summed counts.
 * A stack is kept as the sequence of its frames' ids (4 bytes a frame
 * instead of the frame's text), and printed as text only when written. */

struct stacks {
    struct strtab frames; /* frame text -> frame id */
    struct strtab paths;  /* frame id sequence (as bytes) -> stack id */
    uint64_t *count;      /* stack id -> summed count */
    size_t count_cap;
    uint64_t total;       /* sum of all counts */
    uint32_t *scratch;    /* frame ids of a stack given as text */
    size_t scratch_cap;
    /* Where each frame came from, kept only when `keep_sources` is set
     * (-f pprof): frame id -> the first function seen with that frame. */
    bool keep_sources;
    struct frame_source *source;
    size_t source_cap;
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
/* Notes where a frame came from, if keep_sources and not noted before. */
void stacks_frame_source(struct stacks *s, uint32_t frame, uint32_t object,
                         uint32_t file, uint32_t line);
/* The frame's source, or NULL when none was noted. */
const struct frame_source *stacks_source_of(const struct stacks *s, uint32_t frame);
/* Moves the counts out (to *count, its length to *len, the sum to
 * *total) and starts again from zero counts, keeping the frames and stack
 * ids: -f pprof collects one such column per event. */
void stacks_take_counts(struct stacks *s, uint64_t **count, size_t *len, uint64_t *total);
/* Both return false when a sum would overflow 64 bits. */
bool stacks_add(struct stacks *s, const uint32_t *frames, size_t nframes, uint64_t count);
/* A stack as text, frames separated by ';'. */
bool stacks_add_text(struct stacks *s, const char *stack, size_t len, uint64_t count);
/* stacks_add_text in two steps, for a reader of many lines: the frames of
 * a line are interned (and its stack's slot in the table of stacks
 * fetched from memory) while the line before is added. Counts and ids
 * come out as with stacks_add_text, line after line. */
struct stacks_text {
    uint32_t *frames;
    size_t n, cap;
    uint32_t hash;            /* of the stack's frame ids */
};
void stacks_text_frames(struct stacks *s, const char *stack, size_t len,
                        struct stacks_text *out);
bool stacks_add_frames(struct stacks *s, const struct stacks_text *t, uint64_t count);
void stacks_text_free(struct stacks_text *t);
/* Writes "stack count" lines with a nonzero count, sorted by bytes
 * (like LC_ALL=C sort). Returns 0, or -1 on a write error. */
int stacks_write(const struct stacks *s, FILE *out);
/* Ids of the stacks with a nonzero count (or a nonzero also[id], when
 * also is not NULL), in the byte order of stacks_write. Sets *n; the
 * array is the caller's to free. */
uint32_t *stacks_sorted(const struct stacks *s, const uint64_t *also, size_t *n);

/* ---- profile.c ---- */
/* The call graph of one part of a profile, for one event: functions with
 * their self cost, and caller->callee edges with the inclusive cost of the
 * calls. This is all the folding needs; source positions are not kept. */

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

struct profile {
    struct fn_node *nodes;
    size_t nnodes, nodes_cap;
    struct call_edge *edges;
    size_t nedges, edges_cap;
    struct hashmap node_index;  /* (object, file) x name -> node */
    struct hashmap edge_index;  /* caller x callee -> edge */
    uint64_t total_self;        /* sum of all self costs */
};

void profile_init(struct profile *p);
void profile_free(struct profile *p);
void profile_reset(struct profile *p);
/* Node for a function identity, created on first use. */
uint32_t profile_function(struct profile *p, uint32_t object, uint32_t file,
                          uint32_t name);
/* Node of code inlined into `parent` under the frame name `name` ("NAME
 * [inlined]"): one per (parent, name), kept in `index`, the caller's (not
 * node_index: the same inlined function below two parents is two nodes). */
uint32_t profile_inlined_node(struct profile *p, struct hashmap *index, uint32_t parent,
                              uint32_t name);
/* Both return false when a sum would overflow 64 bits. */
bool profile_add_self(struct profile *p, uint32_t node, uint64_t cost);
bool profile_add_call(struct profile *p, uint32_t caller, uint32_t callee,
                      uint64_t cost);
/* Adds to the call count of an existing edge (saturating). */
void profile_add_call_count(struct profile *p, uint32_t caller, uint32_t callee,
                            uint64_t calls);
/* Call targets that never appeared in "fn=" (typically a writer that left
 * out "cfi=" or "cob=") are redirected to the one defined function of the
 * same name, so that a file quirk does not cut the graph apart. */
void profile_resolve_call_targets(struct profile *p);

/* ---- fold.c ---- */
/* State shared by the readers and the stack builder for one program run. */

struct callarcs;
struct inline_ctx;

#define ALL_PARTS 0
#define DEFAULT_RESOLUTION 100000

struct fold_options {
    const char *event;        /* NULL: the first event of the first part */
    bool event_may_miss;      /* a part without the event counts 0 for it
                                 (-f pprof's passes for the other events) */
    uint64_t part;            /* ALL_PARTS or a part number */
    uint64_t resolution;      /* estimated paths lighter than total/resolution
                                 are not followed; 0: follow all */
    struct frame_style style;
};

struct fold_ctx {
    struct fold_options opt;
    char *default_event;      /* first event seen, when opt.event is NULL */
    struct strtab names;      /* every function, file and object name */
    struct stacks out;
    bool estimated;           /* some stacks came from the call-graph estimate */
    char estimate_reason[200]; /* the first thing that had to be guessed */
    bool part_matched;        /* some part passed the --part filter */
    uint64_t parts_read;
    bool saw_folded;          /* some input was folded stacks or a folded
                                 tree: no call counts, no addresses */
    struct callarcs *arcs;    /* when set: callgrind call arcs are kept here */
    struct inline_ctx *inl;   /* --inline (inline.h): owned by main, else NULL */
    /* -f pprof: what the readers note about the inputs besides stacks
     * (fold_note_*), and the counts of every event (main fills them, one
     * pass over the inputs per event). */
    bool keep_notes;
    struct strtab events_seen;   /* event names, in order of first sight */
    char **event_long;           /* "NAME\0LONG" of "event: NAME : LONG" lines */
    size_t nevent_long, event_long_cap;
    struct strtab comments;      /* "cmd: ..." and "desc: ..." lines */
    struct event_column *columns;
    size_t ncolumns;
    size_t default_column;       /* the --event's column */
};

/* The counts of one event by stack id (ids >= len count 0). */
struct event_column {
    const char *event;           /* owned by events_seen or the options */
    const char *long_name;       /* NULL if none */
    uint64_t *count;
    size_t len;
    uint64_t total;
};

/* Where and why an input is rejected. */
struct diag {
    char file[256];
    uint64_t line;            /* 0: no line applies */
    char msg[512];
};

void fold_init(struct fold_ctx *ctx, const struct fold_options *opt);
void fold_free(struct fold_ctx *ctx);
/* When ctx->keep_notes: an event of an "events:" line, an event's long
 * name ("event: NAME : LONG"), and a line of a part's description
 * ("cmd: ...", "desc: ...", kept once each). */
/* The event to count: --event, else the first column of the first input
 * (remembered, so that every input counts the same event). */
const char *fold_event_name(struct fold_ctx *ctx, const char *first_column);
void fold_note_event(struct fold_ctx *ctx, const char *name, size_t len);
void fold_note_event_long(struct fold_ctx *ctx, const char *name, size_t len,
                          const char *long_name, size_t long_len);
void fold_note_comment(struct fold_ctx *ctx, const char *key, const char *text,
                       size_t len);
/* The long name noted for an event, or NULL. */
const char *fold_event_long(const struct fold_ctx *ctx, const char *name, size_t len);

/* ---- estimate.c ---- */
/* Folded stacks from a call graph.
 *
 * Call paths are grown top-down from the roots (functions nobody calls;
 * then, for cycles nobody enters, their costliest member). A path's weight
 * is split between the function's own cost and its calls in proportion to
 * the inclusive cost of each call; a call back into a function already on
 * the path is not followed, which folds recursion into its outermost frame.
 * Finally each function's self cost is apportioned among its paths by
 * weight, so every function's cost, and hence the total, is preserved to
 * the unit.
 *
 * When every function with cost ends up on exactly one weighted path (as
 * with callgrind --separate-callers contexts that reach a root, or with a
 * call tree), nothing was guessed and the stacks are exact. */

/* Adds the stacks of one part to ctx->out, and sets ctx->estimated when
 * any of them had to be guessed. Returns 0, or -1 with a message in d
 * when the counts overflow 64 bits. */
int fold_profile(const struct profile *p, struct fold_ctx *ctx, struct diag *d);

/* ---- callarcs.c ---- */
/* The call graph of callgrind profiles as -f dot draws it: arcs between
 * frames (the folded stacks' frame texts, so clone folding and
 * --frame=fn+obj apply) with their call counts and inclusive costs, summed
 * over every part read, and the object of each frame (for --colors=obj). */

#define NO_OBJECT UINT32_MAX

struct callarcs {
    struct hashmap index;   /* caller frame x callee frame -> arc */
    uint32_t *caller, *callee;
    uint64_t *calls, *cost; /* saturating sums */
    size_t n, cap;
    uint32_t *object;       /* frame id -> object name id in ctx->names */
    size_t nobject, object_cap;
};

void callarcs_init(struct callarcs *a);
void callarcs_free(struct callarcs *a);
/* Adds to the arc from -> to (created if new); returns its index. */
uint32_t callarcs_add(struct callarcs *a, uint32_t from, uint32_t to, uint64_t calls,
                      uint64_t cost);
/* Adds one part's call arcs (frames interned in ctx->out). */
void callarcs_add_profile(struct callarcs *a, const struct profile *p, struct fold_ctx *ctx);

#endif
