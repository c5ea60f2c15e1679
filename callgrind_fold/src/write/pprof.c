/* Writer: pprof's profile.proto, gzip-compressed (pprof.h).
 *
 * The protocol buffer encoding is written here directly: varints, and
 * length-delimited fields for strings, packed numbers and sub-messages
 * (each sub-message is built in a scratch buffer, then appended with its
 * length). Field numbers are those of profile.proto:
 *   Profile   1 sample_type  2 sample  3 mapping  4 location  5 function
 *             6 string_table  11 period_type  12 period  13 comment
 *             14 default_sample_type
 *   ValueType 1 type  2 unit                  (string table indexes)
 *   Sample    1 location_id (packed, leaf first)  2 value (packed)
 *             3 label
 *   Label     1 key  2 str  3 num
 *   Mapping   1 id  5 filename  7 has_functions  8 has_filenames
 *             9 has_line_numbers  10 has_inline_frames
 *   Location  1 id  4 line   (no mapping_id: put_mappings())
 *   Line      1 function_id  2 line
 *   Function  1 id  2 name  3 system_name  4 filename  5 start_line
 * The whole message is built in memory, then deflated by zlib with a
 * gzip header.
 *
 * Lines: when the stacks carry self costs by source line (a callgrind.out
 * with line positions), a sample's leaf is split by them: one sample per
 * line of the leaf function, each with its Location (function, line), so
 * that pprof's per-line views show each line's cost.  The stacks stay the
 * same (a sample's values summed over its lines are the stack's).
 * A caller's Location is at the line of its call to the next frame of
 * the stack (with several sites, the costliest), else at its function's
 * first line; so is each outer frame of an inlined chain at the line it
 * inlined the next one at, when the stacks carry such sites (--inline:
 * DW_AT_call_line), else at its first line. */
#include "pprof.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum wire { WIRE_VARINT = 0, WIRE_BYTES = 2 };

/* The bytes of varint v: 7 bits each. */
static size_t varint_size(uint64_t v)
{
    return 1 + (size_t)(63 - __builtin_clzll(v | 1)) / 7;
}

/* Writes varint v at p (room for 10 bytes); returns the end. */
static char *varint_at(char *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (char)(v | 0x80);
        v >>= 7;
    }
    *p++ = (char)v;
    return p;
}

static uint64_t key_of(unsigned field, enum wire w)
{
    return (uint64_t)field << 3 | w;
}

static void put_varint(struct buf *b, uint64_t v)
{
    if (10 >= b->cap - b->len)
        buf_reserve(b, 10);
    b->len = (size_t)(varint_at(b->data + b->len, v) - b->data);
}

static void put_key(struct buf *b, unsigned field, enum wire w)
{
    put_varint(b, key_of(field, w));
}

/* A varint field; proto3 leaves out zeros. */
static void put_uint(struct buf *b, unsigned field, uint64_t v)
{
    if (v == 0)
        return;
    put_key(b, field, WIRE_VARINT);
    put_varint(b, v);
}

static void put_bytes(struct buf *b, unsigned field, const char *data, size_t len)
{
    put_key(b, field, WIRE_BYTES);
    put_varint(b, len);
    buf_append(b, data, len);
}

/* A sub-message (or packed numbers) built in `msg`, which is emptied. */
static void put_message(struct buf *b, unsigned field, struct buf *msg)
{
    put_bytes(b, field, msg->data ? msg->data : "", msg->len);
    msg->len = 0;
}

/* ---- what the stacks become ---- */

static const char inlined_mark[] = " [inlined]";

/* Where " [inlined]" is in a frame's text ("NAME [inlined]", or with
 * --frame=fn+obj "NAME [inlined] [object]"), or SIZE_MAX. */
static size_t inlined_at(const char *text, size_t len)
{
    size_t m = sizeof inlined_mark - 1;
    for (size_t i = len >= m ? len - m + 1 : 0; i-- > 0;)
        if (memcmp(text + i, inlined_mark, m) == 0 &&
            (i + m == len || (text[i + m] == ' ' && text[i + m + 1] == '[' &&
                              text[len - 1] == ']')))
            return i;
    return SIZE_MAX;
}

/* The leaf frames' lines (stacks_line_entries()): for each frame and
 * column whether its stacks' counts are split by its lines (they are
 * when its lines sum to its leaf cost, which they do unless an input
 * without lines gave the frame cost too), its entries in line order, and
 * how far the stacks handed out so far took them: each stack takes its
 * count from the frame's lines in order, from where the stack before
 * stopped.  So every line gets exactly its cost and every stack its
 * count, and a frame of m stacks and k lines makes at most m + k - 1
 * samples a column, not m x k. */
struct leaf_lines {
    size_t ncols;
    bool *split;               /* frame * ncols + column */
    uint32_t *order;           /* entries by frame, then file, then line */
    size_t *first;             /* frame -> its first in order; [nframes] the end */
    size_t *pos;               /* frame * ncols + column -> index in order */
    uint64_t *taken;           /* ... -> taken of that entry so far */
};

/* One piece of a stack's count: `count` of column `col` at line entry
 * `entry` (NO_LINE: the stack's leaf without a line). */
#define NO_LINE UINT32_MAX
struct line_piece {
    uint32_t entry;
    size_t col;
    uint64_t count;
};

struct pprof {
    const struct render_job *job;
    const struct stacks *s;
    struct strtab strings;     /* the string table; "" is 0 */
    struct strtab locations;   /* frame id sequences -> location id - 1 */
    uint32_t *location_of;     /* frame id -> its one-frame location's id, 0: not yet */
    bool *inlined;             /* frame id -> an inlined frame */
    bool *used;                /* frame id -> some location has it */
    struct strtab objects;     /* object names -> mapping id - 1 */
    bool any_line;
    /* Thread frames (job->threads): frame id -> its thread + 1, 0: none;
     * each thread's labels, encoded once. A stack's first frame naming
     * a thread becomes the sample's labels "thread" (the frame's text)
     * and "lwpid" (the kernel's id), not a location. */
    uint32_t *thread_of;
    struct buf *labels;
    struct leaf_lines lines;
    /* Functions of a frame in another file than its own (code of
     * "fi="/"fe=" lines): (frame, file) -> index, ids after the frames'. */
    struct hashmap other_files;
    struct line_key *other;    /* index -> frame, file, least line */
    size_t nother, other_cap;
    uint32_t *key;             /* a location's key being made */
    size_t key_cap;
    /* (caller frame, callee frame) -> its pair + 1: the pair's costliest
     * call site (stacks_lines.site) and the location of a one-frame
     * caller there (0: not made yet), one look-up a caller frame */
    struct hashmap pair_index;
    uint32_t *pair_site, *pair_location;
    size_t npairs, pairs_cap;
    /* Some frame split by its lines is the leaf of several stacks: which
     * stack each line's cost went with was chosen (the comment says so). */
    bool lines_chosen;
};

static int64_t string_index(struct pprof *P, const char *s, size_t len)
{
    return strtab_intern(&P->strings, s, len);
}

static int64_t cstring_index(struct pprof *P, const char *s)
{
    return string_index(P, s, strlen(s));
}

/* The unit of an event: callgrind's long names tell time units, as
 * "sysTime (elapsed ns)"; --cycle-estimation's Ct, Cl and Cb are
 * centi-cycles (100 = one cycle); everything else is counted. */
static const char *event_unit(const struct event_column *c)
{
    if (event_counts_centicycles(c->event))
        return "centicycles";
    static const struct {
        const char *suffix, *unit;
    } units[] = {{" ns)", "nanoseconds"}, {" us)", "microseconds"},
                 {" ms)", "milliseconds"}};
    if (c->long_name) {
        size_t n = strlen(c->long_name);
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
            size_t k = strlen(units[i].suffix);
            if (n >= k && strcmp(c->long_name + n - k, units[i].suffix) == 0)
                return units[i].unit;
        }
    }
    return "count";
}

static void put_value_type(struct pprof *P, struct buf *b, unsigned field,
                           const struct event_column *c, struct buf *msg)
{
    put_uint(msg, 1, (uint64_t)cstring_index(P, c->event));
    put_uint(msg, 2, (uint64_t)cstring_index(P, event_unit(c)));
    put_message(b, field, msg);
}

/* The id of the location of frames f[0..n) (a frame and the inlined
 * frames below it), numbered in order of first use. Almost every
 * location is one frame: its id is kept in location_of (the caller looks
 * there first), so that only a frame's first use hashes it; one strtab
 * numbers both kinds, so the ids are those of interning every use. */
static uint32_t location_id(struct pprof *P, const uint32_t *f, size_t n)
{
    uint32_t loc = strtab_intern(&P->locations, (const char *)f, n * sizeof *f) + 1;
    for (size_t k = 0; k < n; k++)
        P->used[f[k]] = true;
    if (n == 1)
        P->location_of[f[0]] = loc;
    return loc;
}

/* The id of the location of frames f[0..n) at line entry `entry` of the
 * innermost frame: the location's key is its frames, NO_LINE and the
 * entry (NO_LINE is no frame id). */
static uint32_t location_line_id(struct pprof *P, const uint32_t *f, size_t n, uint32_t entry)
{
    /* at the line the location without one gives: that location */
    const struct line_key *k = stacks_line_key(P->s, entry);
    const struct frame_source *src = stacks_source_of(P->s, f[n - 1]);
    if (src && src->file == k->file && src->line == k->line) {
        uint32_t loc = n == 1 ? P->location_of[f[0]] : 0;
        return loc ? loc : location_id(P, f, n);
    }
    GROW(P->key, P->key_cap, n + 2);
    memcpy(P->key, f, n * sizeof *f);
    P->key[n] = NO_LINE;
    P->key[n + 1] = entry;
    for (size_t k = 0; k < n; k++)
        P->used[f[k]] = true;
    return strtab_intern(&P->locations, (const char *)P->key, (n + 2) * sizeof *P->key) + 1;
}

/* The location of caller frames f[0..n) at call site `site`: its key is
 * its frames, NO_LINE twice and the site. */
static uint32_t location_site_id(struct pprof *P, const uint32_t *f, size_t n, uint32_t site)
{
    GROW(P->key, P->key_cap, n + 3);
    memcpy(P->key, f, n * sizeof *f);
    P->key[n] = P->key[n + 1] = NO_LINE;
    P->key[n + 2] = site;
    for (size_t k = 0; k < n; k++)
        P->used[f[k]] = true;
    return strtab_intern(&P->locations, (const char *)P->key, (n + 3) * sizeof *P->key) + 1;
}

/* Each (caller, callee) pair's costliest call site (the first of equal
 * ones). */
static void call_sites_prepare(struct pprof *P)
{
    const struct stacks_lines *l = &P->s->lines;
    for (uint32_t i = 0; i < l->nsites; i++) {
        const struct call_site *cs = &l->site[i];
        bool inserted;
        uint32_t pair = *hashmap_upsert(&P->pair_index, cs->caller, cs->callee,
                                        (uint32_t)P->npairs, &inserted);
        if (inserted) {
            GROW(P->pair_site, P->pairs_cap, P->npairs);
            P->pair_site[P->npairs++] = i;
        } else if (cs->cost > l->site[P->pair_site[pair]].cost) {
            P->pair_site[pair] = i;
        }
    }
    P->pair_location = xcalloc(P->npairs ? P->npairs : 1, sizeof *P->pair_location);
}

/* The pair of frame `caller` calling `callee` + 1, or 0: no call site. */
static uint32_t pair_of(const struct pprof *P, uint32_t caller, uint32_t callee)
{
    uint32_t pair;
    return P->npairs && hashmap_get(&P->pair_index, caller, callee, &pair) ? pair + 1 : 0;
}

/* ---- the leaves' lines ---- */

static const struct stacks *sort_lines_of; /* qsort has no context argument */

static int by_frame_file_line(const void *a, const void *b)
{
    const struct line_key *x = stacks_line_key(sort_lines_of, *(const uint32_t *)a),
                          *y = stacks_line_key(sort_lines_of, *(const uint32_t *)b);
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* The leaf frame of a stack, or NO_LINE for a stack of a thread's frame
 * alone. */
static uint32_t leaf_of(const struct pprof *P, const uint32_t *f, size_t n)
{
    return n == 0 || (n == 1 && P->thread_of[f[0]]) ? NO_LINE : f[n - 1];
}

/* Per frame and column, the counts of the stacks it is the leaf of
 * (leaf) and of its lines (lines, saturating: a sum that does not fit
 * cannot be a leaf's), and whether it leads two stacks or more (several,
 * 2 at most). */
static void leaf_sums(const struct pprof *P, uint64_t *leaf, uint64_t *lines, uint8_t *several)
{
    const struct render_job *job = P->job;
    const struct stacks *s = P->s;
    size_t ncols = job->ncolumns;
    for (uint32_t id = 0; id < stacks_count_ids(s); id++) {
        size_t n;
        const uint32_t *f = stacks_path(s, id, &n);
        uint32_t at = leaf_of(P, f, n);
        if (at == NO_LINE)
            continue;
        bool any = false;
        for (size_t c = 0; c < ncols; c++) {
            uint64_t v = stacks_count(s, job->columns[c].col, id);
            leaf[(size_t)at * ncols + c] += v; /* parts of a column's total */
            any |= v != 0;
        }
        several[at] += any && several[at] < 2;
    }
    for (uint32_t e = 0; e < stacks_line_entries(s); e++) {
        uint64_t *row = lines + (size_t)stacks_line_key(s, e)->at * ncols;
        for (size_t c = 0; c < ncols; c++)
            if (!add_u64(row[c], stacks_line_count(s, job->columns[c].col, e), &row[c]))
                row[c] = UINT64_MAX;
    }
}

/* Which frames' stacks are split by their lines, and their lines in
 * order, when the stacks carry lines. */
static void leaf_lines_prepare(struct pprof *P)
{
    const struct stacks *s = P->s;
    struct leaf_lines *L = &P->lines;
    size_t nentries = stacks_line_entries(s), nframes = stacks_count_frames(s);
    size_t ncols = P->job->ncolumns;
    if (nentries == 0 || ncols == 0)
        return;
    L->ncols = ncols;
    uint64_t *leaf = xcalloc(nframes * ncols, sizeof *leaf);
    uint64_t *lines = xcalloc(nframes * ncols, sizeof *lines);
    uint8_t *several = xcalloc(nframes, 1);
    leaf_sums(P, leaf, lines, several);
    L->order = xmalloc(nentries * sizeof *L->order);
    for (uint32_t e = 0; e < nentries; e++) {
        L->order[e] = e;
        P->any_line |= stacks_line_key(s, e)->line != 0;
    }
    sort_lines_of = s;
    qsort(L->order, nentries, sizeof *L->order, by_frame_file_line);
    L->first = xcalloc(nframes + 1, sizeof *L->first);
    for (size_t i = 0; i < nentries; i++)
        L->first[stacks_line_key(s, L->order[i])->at + 1]++;
    for (size_t f = 0; f < nframes; f++)
        L->first[f + 1] += L->first[f];
    L->split = xcalloc(nframes * ncols, sizeof *L->split);
    for (size_t f = 0; f < nframes; f++)
        for (size_t c = 0; c < ncols; c++) {
            size_t fc = f * ncols + c;
            L->split[fc] = leaf[fc] != 0 && leaf[fc] == lines[fc];
            /* several stacks and several lines: which went with which
             * was chosen */
            P->lines_chosen |=
                L->split[fc] && several[f] >= 2 && L->first[f + 1] - L->first[f] >= 2;
        }
    L->pos = xmalloc(nframes * ncols * sizeof *L->pos);
    for (size_t f = 0; f < nframes; f++)
        for (size_t c = 0; c < ncols; c++)
            L->pos[f * ncols + c] = L->first[f];
    L->taken = xcalloc(nframes * ncols, sizeof *L->taken);
    free(leaf);
    free(lines);
    free(several);
}

static void leaf_lines_free(struct leaf_lines *L)
{
    free(L->split);
    free(L->order);
    free(L->first);
    free(L->pos);
    free(L->taken);
}

/* Whether frame `at`'s stacks are split by its lines in some column. */
static bool leaf_has_lines(const struct pprof *P, uint32_t at)
{
    const struct leaf_lines *L = &P->lines;
    if (!L->split || at == NO_LINE)
        return false;
    for (size_t c = 0; c < L->ncols; c++)
        if (L->split[(size_t)at * L->ncols + c])
            return true;
    return false;
}

/* Column c's `count` of a stack of leaf `at` as pieces (appended to
 * *pieces from n; returns the new n): taken from the frame's lines in
 * order when the column is split by them, else one piece without a line. */
static size_t take_lines(struct pprof *P, uint32_t at, size_t c, uint64_t count,
                         struct line_piece **pieces, size_t *cap, size_t n)
{
    struct leaf_lines *L = &P->lines;
    size_t fc = (size_t)at * L->ncols + c, col = P->job->columns[c].col;
    while (L->split[fc] && count > 0 && L->pos[fc] < L->first[at + 1]) {
        uint32_t e = L->order[L->pos[fc]];
        uint64_t left = stacks_line_count(P->s, col, e) - L->taken[fc];
        if (left == 0) {
            L->pos[fc]++;
            L->taken[fc] = 0;
            continue;
        }
        uint64_t take = count < left ? count : left;
        GROW(*pieces, *cap, n);
        (*pieces)[n++] = (struct line_piece){e, c, take};
        L->taken[fc] += take;
        count -= take;
    }
    if (count) { /* not split (the lines' sums are the leaves', checked) */
        GROW(*pieces, *cap, n);
        (*pieces)[n++] = (struct line_piece){NO_LINE, c, count};
    }
    return n;
}

static int by_entry_then_column(const void *a, const void *b)
{
    const struct line_piece *x = a, *y = b;
    if (x->entry != y->entry)
        return x->entry < y->entry ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

/* Each thread's two labels as Sample fields, and which frames are
 * thread frames. */
static void thread_labels(struct pprof *P)
{
    const struct render_job *job = P->job;
    const struct stacks *s = P->s;
    P->labels = xcalloc(job->nthreads + 1, sizeof *P->labels);
    struct strtab frames;
    strtab_init(&frames);
    struct buf label = {0};
    for (size_t t = 0; t < job->nthreads; t++) {
        const struct thread_frame *tf = &job->threads[t];
        strtab_intern(&frames, tf->frame, strlen(tf->frame));
        put_uint(&label, 1, (uint64_t)cstring_index(P, "thread"));
        put_uint(&label, 2, (uint64_t)cstring_index(P, tf->frame));
        put_message(&P->labels[t], 3, &label);
        put_uint(&label, 1, (uint64_t)cstring_index(P, "lwpid"));
        put_uint(&label, 3, tf->thread);
        put_message(&P->labels[t], 3, &label);
    }
    for (uint32_t f = 0; f < stacks_count_frames(s) && job->nthreads; f++) {
        size_t len;
        const char *text = stacks_frame_text(s, f, &len);
        uint32_t t = strtab_find(&frames, text, len, strtab_hash(text, len));
        P->thread_of[f] = t == UINT32_MAX ? 0 : t + 1;
    }
    buf_free(&label);
    strtab_free(&frames);
}

/* One sample, written straight into the profile, its lengths known
 * beforehand: the location ids (root first in locs) packed into a
 * scratch buffer, the values' varint sizes counted. */
static void put_sample(struct pprof *P, struct buf *pb, struct buf *packed, const uint32_t *locs,
                       size_t nlocs, const uint64_t *values, const struct buf *labels)
{
    size_t ncols = P->job->ncolumns, values_size = 0;
    for (size_t c = 0; c < ncols; c++)
        values_size += varint_size(values[c]);
    size_t labels_size = labels ? labels->len : 0;
    buf_reserve(packed, 5 * nlocs); /* a 32-bit varint has at most 5 bytes */
    char *p = packed->data;
    for (size_t i = nlocs; i-- > 0;) /* leaf first */
        p = varint_at(p, locs[i]);
    size_t locs_size = (size_t)(p - packed->data);
    /* Profile field 2, a Sample: its field 1 the location ids
     * (packed), its field 2 the values (packed) */
    const uint64_t sample_key = key_of(2, WIRE_BYTES), locs_key = key_of(1, WIRE_BYTES),
                   values_key = key_of(2, WIRE_BYTES);
    size_t size = varint_size(locs_key) + varint_size(locs_size) + locs_size +
                  varint_size(values_key) + varint_size(values_size) + values_size +
                  labels_size;
    buf_reserve(pb, varint_size(sample_key) + varint_size(size) + size);
    p = pb->data + pb->len;
    p = varint_at(p, sample_key);
    p = varint_at(p, size);
    p = varint_at(p, locs_key);
    p = varint_at(p, locs_size);
    memcpy(p, packed->data, locs_size);
    p += locs_size;
    p = varint_at(p, values_key);
    p = varint_at(p, values_size);
    for (size_t c = 0; c < ncols; c++)
        p = varint_at(p, values[c]);
    if (labels_size) {
        memcpy(p, labels->data, labels_size);
        p += labels_size;
    }
    pb->len = (size_t)(p - pb->data);
}

/* Scratch of the samples' writing. */
struct sample_scratch {
    uint64_t *values;
    uint32_t *locs;
    size_t locs_cap;
    size_t *ends;              /* location k ends before frame ends[k] */
    size_t ends_cap;
    const uint32_t *prev;      /* the stack before: its frames, locations */
    size_t prev_n, prev_nlocs;
    struct buf packed;
    struct line_piece *pieces;
    size_t pieces_cap;
};

/* A stack whose leaf frames f[leaf .. n) (its location, the last of
 * locs) are split by the leaf's lines: a sample per line with the
 * values of every column at that line (values[] the stack's). */
static void put_line_samples(struct pprof *P, struct buf *pb, struct sample_scratch *x,
                             const uint32_t *f, size_t leaf, size_t n, size_t nlocs,
                             const struct buf *labels)
{
    size_t ncols = P->job->ncolumns, npieces = 0;
    for (size_t c = 0; c < ncols; c++)
        if (x->values[c])
            npieces = take_lines(P, f[n - 1], c, x->values[c], &x->pieces, &x->pieces_cap,
                                 npieces);
    qsort(x->pieces, npieces, sizeof *x->pieces, by_entry_then_column);
    for (size_t i = 0; i < npieces;) {
        uint32_t entry = x->pieces[i].entry;
        memset(x->values, 0, ncols * sizeof *x->values);
        for (; i < npieces && x->pieces[i].entry == entry; i++)
            x->values[x->pieces[i].col] = x->pieces[i].count;
        /* the leaf's location without a line made only if a column has
         * no lines: a leaf split in every column needs none */
        uint32_t plain = n - leaf == 1 ? P->location_of[f[leaf]] : 0;
        if (entry == NO_LINE && !plain)
            plain = location_id(P, f + leaf, n - leaf);
        x->locs[nlocs - 1] = entry == NO_LINE ? plain
                                              : location_line_id(P, f + leaf, n - leaf, entry);
        put_sample(P, pb, &x->packed, x->locs, nlocs, x->values, labels);
    }
}

/* The location of frames f[i..j) of a stack of n frames: a caller's at
 * the line of its call to f[j] when the call's site is known, else
 * without a line; 0 for a leaf split by lines (`lines`), whose
 * locations put_line_samples() makes. */
static uint32_t location_of_frames(struct pprof *P, const uint32_t *f, size_t i, size_t j,
                                   size_t n, bool lines)
{
    uint32_t pair = j < n ? pair_of(P, f[j - 1], f[j]) : 0;
    if (pair && j == i + 1) {
        uint32_t *loc = &P->pair_location[pair - 1];
        if (!*loc)
            *loc = location_site_id(P, f + i, 1, P->pair_site[pair - 1]);
        return *loc;
    }
    if (pair)
        return location_site_id(P, f + i, j - i, P->pair_site[pair - 1]);
    uint32_t loc = j == i + 1 ? P->location_of[f[i]] : 0;
    if (!loc && !(lines && j == n))
        loc = location_id(P, f + i, j - i);
    return loc;
}

/* Samples: one per stack with a nonzero value for some event, or with
 * lines one per line of its leaf. There are as many samples as stacks
 * and location ids as frames, so each location id is looked up once per
 * frame (location_of) and each sample written straight into the
 * profile. */
static void put_samples(struct pprof *P, struct buf *pb)
{
    const struct render_job *job = P->job;
    const struct stacks *s = P->s;
    size_t ncols = job->ncolumns ? job->ncolumns : 1;
    struct sample_scratch x = {.values = xcalloc(ncols, sizeof *x.values)};
    /* each event's counts, straight from its column of the stacks */
    const uint64_t **counts = xcalloc(ncols, sizeof *counts);
    size_t *len = xcalloc(ncols, sizeof *len);
    for (size_t c = 0; c < job->ncolumns; c++)
        counts[c] = stacks_col_counts(s, job->columns[c].col, &len[c]);
    for (size_t id = 0; id < stacks_count_ids(s); id++) {
        bool any = false;
        for (size_t c = 0; c < job->ncolumns; c++) {
            x.values[c] = id < len[c] ? counts[c][id] : 0;
            any |= x.values[c] != 0;
        }
        if (!any)
            continue;
        size_t n;
        const uint32_t *f = stacks_path(s, (uint32_t)id, &n);
        uint32_t thread = n ? P->thread_of[f[0]] : 0;
        const struct buf *labels = thread ? &P->labels[thread - 1] : NULL;
        /* A frame and the inlined frames below it are one location;
         * the leaf's, split by lines, is made by put_line_samples(). */
        bool lines = leaf_has_lines(P, leaf_of(P, f, n));
        GROW(x.locs, x.locs_cap, n);
        GROW(x.ends, x.ends_cap, n);
        /* The locations of the stack before that end before the frames
         * both share end are this one's too (a caller's depends on its
         * callee): neighbours share most of their frames. */
        size_t k = x.prev ? stacks_common_frames(x.prev, x.prev_n, f, n) : 0, nlocs = 0;
        while (nlocs < x.prev_nlocs && x.ends[nlocs] < k)
            nlocs++;
        size_t leaf = 0;
        for (size_t i = nlocs ? x.ends[nlocs - 1] : thread ? 1 : 0; i < n;) {
            size_t j = i + 1;
            while (j < n && P->inlined[f[j]])
                j++;
            x.ends[nlocs] = j;
            x.locs[nlocs++] = location_of_frames(P, f, i, j, n, lines);
            leaf = i;
            i = j;
        }
        x.prev = f;
        x.prev_n = n;
        x.prev_nlocs = nlocs;
        if (lines && nlocs)
            put_line_samples(P, pb, &x, f, leaf, n, nlocs, labels);
        else
            put_sample(P, pb, &x.packed, x.locs, nlocs, x.values, labels);
    }
    free(x.locs);
    free(x.ends);
    free(x.values);
    free(x.pieces);
    buf_free(&x.packed);
    free(counts);
    free(len);
}

/* Mappings: one per object of the frames that head a location, marked
 * symbolized. No Location refers to one: a Location has no address
 * (callgrind.out gives none a disassembler could use), and go tool
 * pprof's source views (-weblist, -http's source) disassemble the object
 * file of a Location's mapping around its address when the file exists,
 * which for an address-less Location is code it never ran (Go 1.19's
 * disassembler then crashes). Without a mapping they show the Lines. */
static void put_mappings(struct pprof *P, struct buf *pb)
{
    const struct stacks *s = P->s;
    const struct strtab *names = P->job->names;
    for (uint32_t loc = 0; loc < P->locations.count; loc++) {
        uint32_t head = *(const uint32_t *)(const void *)strtab_str(&P->locations, loc);
        const struct frame_source *src = stacks_source_of(s, head);
        if (!src || src->object == NO_SOURCE_NAME || strtab_len(names, src->object) == 0)
            continue;
        strtab_intern(&P->objects, strtab_str(names, src->object),
                      strtab_len(names, src->object));
    }
    struct buf msg = {0};
    bool any_inline = false;
    for (size_t f = 0; f < stacks_count_frames(s); f++)
        any_inline |= P->used[f] && P->inlined[f];
    for (uint32_t m = 0; m < P->objects.count; m++) {
        put_uint(&msg, 1, m + 1);
        put_uint(&msg, 5, (uint64_t)string_index(P, strtab_str(&P->objects, m),
                                                 strtab_len(&P->objects, m)));
        put_uint(&msg, 7, 1); /* has_functions: already symbolized */
        put_uint(&msg, 8, 1); /* has_filenames */
        put_uint(&msg, 9, P->any_line);
        put_uint(&msg, 10, any_inline);
        put_message(pb, 3, &msg);
    }
    buf_free(&msg);
}

/* The id of frame `frame`'s Function in file `file`: the frame's own
 * (its id + 1) in its own file, else one of the same name in that file
 * (pprof's Line has no file of its own), numbered after the frames'. */
static uint64_t function_in_file(struct pprof *P, uint32_t frame, uint32_t file, uint32_t line)
{
    const struct frame_source *src = stacks_source_of(P->s, frame);
    if (!src || src->file == file)
        return (uint64_t)frame + 1;
    bool inserted;
    uint32_t k = *hashmap_upsert(&P->other_files, frame, file, (uint32_t)P->nother, &inserted);
    if (inserted) {
        GROW(P->other, P->other_cap, P->nother);
        P->other[P->nother++] = (struct line_key){frame, file, line};
    } else if (line && (P->other[k].line == 0 || line < P->other[k].line)) {
        P->other[k].line = line; /* its start_line: the least line seen */
    }
    return (uint64_t)stacks_count_frames(P->s) + 1 + k;
}

static void put_locations(struct pprof *P, struct buf *pb)
{
    struct buf msg = {0}, line = {0};
    for (uint32_t loc = 0; loc < P->locations.count; loc++) {
        size_t n = strtab_len(&P->locations, loc) / sizeof(uint32_t);
        const uint32_t *f = (const uint32_t *)(const void *)strtab_str(&P->locations, loc);
        /* a leaf's location at a line: its frames, NO_LINE, the entry;
         * a caller's at a call site: its frames, NO_LINE twice, the site */
        struct line_key at_line;
        const struct line_key *at = NULL;
        if (n >= 4 && f[n - 3] == NO_LINE && f[n - 2] == NO_LINE) {
            const struct call_site *cs = &P->s->lines.site[f[n - 1]];
            at_line = (struct line_key){cs->caller, cs->file, cs->line};
            at = &at_line;
            n -= 3;
        } else if (n >= 3 && f[n - 2] == NO_LINE) {
            at = stacks_line_key(P->s, f[n - 1]);
            n -= 2;
        }
        put_uint(&msg, 1, loc + 1); /* no mapping_id: put_mappings() says why */
        for (size_t i = n; i-- > 0;) { /* the innermost inlined function first */
            const struct frame_source *src = stacks_source_of(P->s, f[i]);
            /* an outer frame of an inlined chain: at the line it inlined
             * the next one at (--inline's call sites from DWARF) */
            uint32_t pair = i + 1 < n ? pair_of(P, f[i], f[i + 1]) : 0;
            if (at && i == n - 1) {
                put_uint(&line, 1, function_in_file(P, f[i], at->file, at->line));
                put_uint(&line, 2, at->line);
            } else if (pair) {
                const struct call_site *cs = &P->s->lines.site[P->pair_site[pair - 1]];
                put_uint(&line, 1, function_in_file(P, f[i], cs->file, cs->line));
                put_uint(&line, 2, cs->line);
            } else {
                put_uint(&line, 1, (uint64_t)f[i] + 1);
                if (src && src->line != NO_SOURCE_NAME)
                    put_uint(&line, 2, src->line);
            }
            put_message(&msg, 4, &line);
        }
        put_message(pb, 4, &msg);
    }
    buf_free(&msg);
    buf_free(&line);
}

/* The string index of a function's name: the frame's text without the
 * " [inlined]" mark of an inlined frame (pprof's Line says that). */
static int64_t function_name(struct pprof *P, struct buf *name, const char *text, size_t len,
                             bool inlined)
{
    size_t at = inlined ? inlined_at(text, len) : SIZE_MAX;
    name->len = 0;
    if (at == SIZE_MAX) {
        buf_append(name, text, len);
    } else {
        size_t m = sizeof inlined_mark - 1;
        buf_append(name, text, at);
        buf_append(name, text + at + m, len - at - m);
    }
    return string_index(P, name->data ? name->data : "", name->len);
}

/* Function `id` of frame f, in file `file` from `line` (NO_SOURCE_NAME:
 * unknown). */
static void put_function(struct pprof *P, struct buf *pb, struct buf *msg, struct buf *name,
                         uint64_t id, uint32_t f, uint32_t file, uint32_t line)
{
    const struct stacks *s = P->s;
    const struct strtab *names = P->job->names;
    size_t len;
    const char *text = stacks_frame_text(s, f, &len);
    int64_t ni = function_name(P, name, text, len, P->inlined[f]);
    /* system_name: the raw name, the short one's (--frame=short) as read */
    const char *raw = stacks_frame_raw(s, f);
    int64_t si = raw == text ? ni : function_name(P, name, raw, strlen(raw), P->inlined[f]);
    put_uint(msg, 1, id);
    put_uint(msg, 2, (uint64_t)ni);
    put_uint(msg, 3, (uint64_t)si);
    if (file != NO_SOURCE_NAME)
        put_uint(msg, 4, (uint64_t)string_index(P, strtab_str(names, file),
                                                strtab_len(names, file)));
    if (line != NO_SOURCE_NAME)
        put_uint(msg, 5, line);
    put_message(pb, 5, msg);
}

static void put_functions(struct pprof *P, struct buf *pb)
{
    const struct stacks *s = P->s;
    struct buf msg = {0}, name = {0};
    for (uint32_t f = 0; f < stacks_count_frames(s); f++) {
        if (!P->used[f])
            continue;
        const struct frame_source *src = stacks_source_of(s, f);
        put_function(P, pb, &msg, &name, (uint64_t)f + 1, f,
                     src ? src->file : NO_SOURCE_NAME, src ? src->line : NO_SOURCE_NAME);
    }
    for (size_t k = 0; k < P->nother; k++) /* a frame's code in other files */
        put_function(P, pb, &msg, &name, (uint64_t)stacks_count_frames(s) + 1 + k,
                     P->other[k].at, P->other[k].file, P->other[k].line);
    buf_free(&msg);
    buf_free(&name);
}

/* Deflates the message with a gzip header onto out. */
static int gzip_out(const struct buf *pb, FILE *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        out_of_memory();
    unsigned char chunk[1 << 16];
    z.next_in = (unsigned char *)(pb->data ? pb->data : "");
    size_t left = pb->len;
    int rc = 0, zrc;
    do {
        unsigned in = left > (1u << 30) ? 1u << 30 : (unsigned)left;
        z.avail_in = in;
        left -= in;
        int flush = left ? Z_NO_FLUSH : Z_FINISH;
        do {
            z.next_out = chunk;
            z.avail_out = sizeof chunk;
            zrc = deflate(&z, flush);
            size_t have = sizeof chunk - z.avail_out;
            if (rc == 0 && have && fwrite(chunk, 1, have, out) != have)
                rc = -1;
        } while (z.avail_out == 0);
    } while (left);
    deflateEnd(&z);
    if (zrc != Z_STREAM_END)
        out_of_memory();
    return rc;
}

static const char lines_comment[] =
    "lines: each line's cost is exact; callgrind.out does not say which call "
    "path of a function each of its lines was reached by, so a function's "
    "lines are given to its stacks in line order";

int pprof_write(const struct render_job *job, FILE *out)
{
    const struct stacks *s = job->stacks;
    struct pprof P = {.job = job, .s = s};
    strtab_init(&P.strings);
    strtab_init(&P.locations);
    strtab_init(&P.objects);
    string_index(&P, "", 0);
    size_t nframes = stacks_count_frames(s), nf = nframes ? nframes : 1;
    P.inlined = xcalloc(nf, sizeof *P.inlined);
    P.used = xcalloc(nf, sizeof *P.used);
    P.location_of = xcalloc(nf, sizeof *P.location_of);
    P.thread_of = xcalloc(nf, sizeof *P.thread_of);
    thread_labels(&P);
    hashmap_init(&P.other_files);
    hashmap_init(&P.pair_index);
    leaf_lines_prepare(&P);
    call_sites_prepare(&P);
    for (uint32_t f = 0; f < nframes; f++) {
        size_t len;
        const char *text = stacks_frame_text(s, f, &len);
        P.inlined[f] = inlined_at(text, len) != SIZE_MAX;
        const struct frame_source *src = stacks_source_of(s, f);
        P.any_line |= src && src->line != NO_SOURCE_NAME && src->line != 0;
    }

    struct buf pb = {0}, msg = {0};
    for (size_t c = 0; c < job->ncolumns; c++)
        put_value_type(&P, &pb, 1, &job->columns[c], &msg);
    put_samples(&P, &pb);
    put_mappings(&P, &pb);
    put_locations(&P, &pb);
    put_functions(&P, &pb);
    if (job->ncolumns) {
        const struct event_column *def = &job->columns[job->default_column];
        put_value_type(&P, &pb, 11, def, &msg);
        put_uint(&pb, 12, 1);
        put_uint(&pb, 14, (uint64_t)cstring_index(&P, def->event));
    }
    for (uint32_t i = 0; i < job->comments->count; i++) {
        int64_t k = string_index(&P, strtab_str(job->comments, i),
                                 strtab_len(job->comments, i));
        put_uint(&pb, 13, (uint64_t)k);
    }
    if (P.lines_chosen) /* so that nobody reads lines as call paths */
        put_uint(&pb, 13, (uint64_t)cstring_index(&P, lines_comment));
    for (uint32_t i = 0; i < P.strings.count; i++)
        put_bytes(&pb, 6, strtab_str(&P.strings, i), strtab_len(&P.strings, i));

    int rc = gzip_out(&pb, out);
    buf_free(&pb);
    buf_free(&msg);
    free(P.inlined);
    free(P.used);
    free(P.location_of);
    free(P.thread_of);
    free(P.key);
    free(P.other);
    hashmap_free(&P.other_files);
    hashmap_free(&P.pair_index);
    free(P.pair_site);
    free(P.pair_location);
    leaf_lines_free(&P.lines);
    for (size_t t = 0; t < job->nthreads; t++)
        buf_free(&P.labels[t]);
    free(P.labels);
    strtab_free(&P.strings);
    strtab_free(&P.locations);
    strtab_free(&P.objects);
    return rc;
}
