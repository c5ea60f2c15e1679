/* stacks/: from a profile to folded stacks, the model every stage works
 * on.
 *
 * The model: struct profile (one part's call graph: functions with self
 * costs, call arcs with inclusive costs), struct part (a profile as the
 * reader hands it on, with its costs by instruction address when --inline
 * asked for them), and struct stacks (distinct folded stacks, each a
 * sequence of frame ids, with summed counts). Readers fill profiles and
 * stacks, the pipeline (pipeline.h) moves a part from stage to stage, and
 * writers read stacks through the functions below.
 *
 * The call graph becomes stacks in estimate.c (fold_profile): exact when
 * every function with cost has a single costed call path from a root
 * (contexts of --separate-callers, call trees), else estimated, the self
 * costs apportioned among the paths (apportion.c) so that every sum is
 * kept to the unit. graph.c holds the views of the graph that estimate
 * walks. frames.c turns a function into its frame text (clone folding,
 * ";" escaping, "[object]"), shortname.c frame texts into readable ones
 * (--frame=short), roots.c re-roots a part's stacks at the user's code
 * for pictures. callarcs.c keeps the call graph for -f dot. order.c puts
 * the stacks in the byte order of their written lines.
 * Depends on util/ only. */
#ifndef CF_STACKS_STACKS_H
#define CF_STACKS_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

/* ---- frames.c ---- */
/* How a function is printed as one frame of a folded stack. */

struct frame_style {
    bool keep_clones;  /* keep "fn'2" and "fn'caller" as callgrind wrote them */
    bool with_object;  /* append " [object-basename]" */
    /* --frame=short: readable names (shortname.c). Not applied by
     * frame_append but to the whole output at once (stacks_shorten),
     * since paths are made relative to a root common to all frames. */
    bool short_names;
    bool short_templates; /* and C++ templates shortened */
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

/* Counts of the stacks by stack id, for one event. */
struct stack_column {
    uint64_t *count;
    size_t cap;
    uint64_t total;
};

struct stacks {
    struct strtab frames; /* frame text -> frame id */
    struct strtab paths;  /* frame id sequence (as bytes) -> stack id */
    uint64_t *count;      /* stack id -> summed count, in the current column */
    size_t count_cap;
    uint64_t total;       /* sum of all counts of the current column */
    /* -f pprof counts every event in one pass: one column per event,
     * `count` and `total` above being the current one's. */
    struct stack_column *columns;
    size_t ncolumns, column;
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
/* Later stacks_add calls count in column `column` (0 at the start). */
void stacks_use_column(struct stacks *s, size_t column);
/* Adds count to stack `id` (from stacks_add_id) in column `column`;
 * false when a sum would overflow 64 bits. */
bool stacks_count_in(struct stacks *s, size_t column, uint32_t id, uint64_t count);
/* Moves column `column`'s counts out and starts it again from zero,
 * keeping the frames and stack ids: -f pprof takes one column per event. */
void stacks_take_column(struct stacks *s, size_t column, struct stack_column *out);
/* Both return false when a sum would overflow 64 bits. */
bool stacks_add(struct stacks *s, const uint32_t *frames, size_t nframes, uint64_t count);
/* stacks_add, returning the stack's id (UINT32_MAX on overflow). */
uint32_t stacks_add_id(struct stacks *s, const uint32_t *frames, size_t nframes,
                       uint64_t count);
/* stacks_add_id of stack `id` of `from`, its frame f becoming frame
 * frame_map[f] of s. */
uint32_t stacks_add_mapped(struct stacks *s, const struct stacks *from, uint32_t id,
                           const uint32_t *frame_map, uint64_t count);
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

static inline uint64_t stacks_count(const struct stacks *s, uint32_t id)
{
    return id < s->count_cap ? s->count[id] : 0;
}

static inline uint64_t stacks_total(const struct stacks *s)
{
    return s->total;
}

/* The columns a stack may count in: 0 .. stacks_column_limit(s) - 1. */
static inline size_t stacks_column_limit(const struct stacks *s)
{
    return s->ncolumns > s->column + 1 ? s->ncolumns : s->column + 1;
}

/* The count of stack `id` in column c. */
static inline uint64_t stacks_column_count(const struct stacks *s, size_t c, uint32_t id)
{
    if (c == s->column)
        return stacks_count(s, id);
    if (c >= s->ncolumns)
        return 0;
    const struct stack_column *col = &s->columns[c];
    return id < col->cap ? col->count[id] : 0;
}

/* Adds every stack of `from` to s, every column, each under a first
 * frame `root` when root is not NULL (a thread's frame); frames keep
 * their raw names and sources. `from` is emptied (taken whole when s is
 * empty and there is no root). False if a sum overflows 64 bits. */
bool stacks_merge(struct stacks *s, struct stacks *from, const char *root, size_t root_len);

/* The number of first frames stacks a and b share.  Neighbours in
 * byte order (and in a folded tree's order) share most of a deep stack:
 * compared four frames at a time, in two 8-byte words. */
static inline size_t stacks_common_frames(const uint32_t *a, size_t na, const uint32_t *b,
                                          size_t nb)
{
    size_t n = na < nb ? na : nb, i = 0;
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

/* ---- shortname.c ---- */
/* Readable frame names: perf-map names of JIT code (V8, CPython) reduced
 * to the function and a short location ("JS:*fib /home/u/p/work.js:5:13"
 * -> "fib  work.js:5"), paths relative to the root all frames share; C++
 * names kept, or with `templates` shortened ("std::vector<...>::
 * push_back(...)"). The rules, kind by kind, are in shortname.c's
 * opening comment. Two steps: every name of a profile is noted (for the
 * root), then each is made. */

struct shortnames {
    bool templates;  /* C++ names as "std::vector<...>::push_back(...)" */
    bool have_root;  /* an absolute path was noted */
    struct buf root; /* the directory every noted path is in, with its '/' */
    struct buf out;  /* the last name made */
    bool jit;        /* the last name made was a perf-map name */
};

void shortnames_init(struct shortnames *sn, bool templates);
void shortnames_free(struct shortnames *sn);
/* Takes the name's path, if it has one, into the root. */
void shortnames_note(struct shortnames *sn, const char *name, size_t len);
/* The short form of a frame name: never with ';', never empty (unless
 * the name is). Sets *out_len; valid until the next call. */
const char *shortnames_make(struct shortnames *sn, const char *name, size_t len,
                            size_t *out_len);
/* symlabel.c: the label of a C++ or Rust function name (not a perf-map
 * name) as a person writes it: "std::_Rb_tree::_M_insert_unique",
 * "Index::add", "wc::count_words", "HashMap::rustc_entry" (the rules are
 * in symlabel.c's opening comment). Appended to out; false, with out
 * unchanged, when the name's brackets do not balance. */
bool symbol_label(struct buf *out, const char *name, size_t len);
/* Every frame of the n stacks (a profile, and its --diff base) replaced
 * by its short name, with one root for all, its raw name kept
 * (stacks_frame_raw): stacks that become alike are merged, their counts
 * summed in every column (perf-map frames that read alike, such as a JS
 * function's tiers, become one; a merged frame keeps the source of its
 * first raw frame). With `keep_apart` (pictures and pprof, which show a
 * raw name beside each frame), other frames that read alike but are
 * different functions (C++ overloads, Rust instances) stay apart, by
 * their keys (stacks_frame_key); without it (folded text, where a frame
 * is its text) they become one. `arcs`, when not NULL, holds frame ids
 * of s[0] (-f dot, --colors=obj): they are renamed too, arcs that become
 * alike summed. */
struct callarcs;
void stacks_shorten(struct stacks *const *s, size_t n, bool templates, bool keep_apart,
                    struct callarcs *arcs);

/* ---- roots.c ---- */
/* Pictures start where the user's code starts: every stack of s (every
 * column) loses the frames below the user's first frame and starts with
 * one frame `base` (the process) instead. The user's first frame: for a
 * benchmark (a part a client request triggered) the one above CodSpeed's
 * __codspeed_root_frame__, for a whole program `main` or a thread's
 * start routine (above start_thread), else the deepest frame every stack
 * with a cost passes through. Stacks that become alike are summed: every
 * column's total stays. */
void stacks_root_at_user_code(struct stacks *s, bool benchmark, const char *base,
                              size_t base_len);
/* The same stacks, every column, rebuilt without the frames no stack
 * with a cost has when those are most of them (a part's stacks, after a
 * reader made the frames of every function of its input there). */
void stacks_compact(struct stacks *s);

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

/* A lookup index of a profile's nodes or edges by their keys: an open
 * addressing table of entry numbers + 1 (0: empty), whose keys are read
 * from the entries themselves (profile.c). */
struct entry_index {
    uint32_t *slots;
    size_t capacity;   /* power of two, or 0 */
    size_t count;
};

struct profile {
    struct fn_node *nodes;
    size_t nnodes, nodes_cap;
    struct call_edge *edges;
    size_t nedges, edges_cap;
    struct entry_index node_index;  /* (object, file, name) -> node */
    struct entry_index edge_index;  /* (caller, callee) -> edge */
    uint64_t total_self;        /* sum of all self costs */
};

void profile_init(struct profile *p);
void profile_free(struct profile *p);
void profile_reset(struct profile *p);
/* dst becomes a copy of src's graph: the same nodes, edges and ids, but
 * empty lookup indexes: dst is to be folded (and its call targets
 * resolved), not to get functions or calls added. */
void profile_copy(struct profile *dst, const struct profile *src);
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
/* Both return false when a sum would overflow 64 bits. */
bool profile_add_self(struct profile *p, uint32_t node, uint64_t cost);
bool profile_add_call(struct profile *p, uint32_t caller, uint32_t callee,
                      uint64_t cost);
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

/* ---- part.c ---- */
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

struct part {
    struct profile prof;
    uint64_t number;            /* its "part:" number, else 1, 2, ... */
    size_t column;              /* the stacks column its costs count in */
    bool by_address;
    struct addr_self *selfs;    /* one per cost line (neighbours merged) */
    size_t nselfs, selfs_cap;
    struct addr_call *calls;    /* one per (caller, callee, address) */
    size_t ncalls, calls_cap;
    struct hashmap call_index;
    uint64_t addr_total;        /* sum of the selfs' costs */
};

void part_init(struct part *pt);
void part_free(struct part *pt);
/* Empties the part for the next one, keeping its memory. */
void part_reset(struct part *pt);
/* An input of `bytes` bytes is next: room for its cost lines is made at
 * once instead of by doubling (copying megabytes). */
void part_expect_bytes(struct part *pt, uint64_t bytes);
/* Costs at an address (by_address parts). Both return false when a sum
 * overflows 64 bits. */
bool part_add_self_at(struct part *pt, uint32_t node, uint64_t addr, uint64_t cost);
bool part_add_call_at(struct part *pt, uint32_t node, uint32_t callee, uint64_t addr,
                      uint64_t cost, uint64_t calls);

#define DEFAULT_RESOLUTION 100000

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

/* Where fold_profile puts a part's stacks, and what it tells about them. */
struct fold_target {
    struct stacks *out;
    const struct strtab *names;  /* the profile's names */
    struct frame_style style;
    uint64_t resolution;         /* estimated paths lighter than
                                    total/resolution are not followed; 0:
                                    follow all */
    bool estimated;              /* some stacks were guessed */
    char estimate_reason[200];   /* the first thing that had to be guessed */
    /* (name, object) -> frame id in out, of the functions folded into
     * out so far: -f pprof folds each part once per event, with the same
     * functions. Emptied by fold_set_out(). */
    struct hashmap frame_of;
};

/* t's stacks go to `out` from now on. */
void fold_set_out(struct fold_target *t, struct stacks *out);
void fold_target_free(struct fold_target *t);

/* Adds the stacks of one part to t->out, and sets t->estimated when any
 * of them had to be guessed. Returns 0, or -1 with a message in err when
 * the counts overflow 64 bits. */
int fold_profile(const struct profile *p, struct fold_target *t, char *err, size_t errlen);

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
    uint32_t *object;       /* frame id -> object name id in the run's names */
    size_t nobject, object_cap;
};

void callarcs_init(struct callarcs *a);
void callarcs_free(struct callarcs *a);
/* Adds to the arc from -> to (created if new); returns its index. */
uint32_t callarcs_add(struct callarcs *a, uint32_t from, uint32_t to, uint64_t calls,
                      uint64_t cost);
/* Adds one part's call arcs, frames interned in t->out as fold_profile
 * interns them. */
void callarcs_add_profile(struct callarcs *a, const struct profile *p,
                          const struct fold_target *t);
/* Frame f becomes frame rename[f] (f < nframes): arcs that become alike
 * are summed (saturating), a frame several became keeps the first object
 * known. */
void callarcs_rename(struct callarcs *a, const uint32_t *rename, size_t nframes);

#endif
