/* The summed output stacks, kept as frame id sequences, sorted and
 * written as text (stacks.h, "stacks.c"). */
#include "stacks.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void stacks_init(struct stacks *s)
{
    memset(s, 0, sizeof *s);
    strtab_init(&s->frames);
    strtab_init(&s->paths);
    strtab_init(&s->raw_names);
}

void stacks_free(struct stacks *s)
{
    strtab_free(&s->frames);
    strtab_free(&s->paths);
    free(s->count);
    for (size_t i = 0; i < s->ncolumns; i++)
        free(s->columns[i].count);
    free(s->columns);
    free(s->scratch);
    free(s->source);
    strtab_free(&s->raw_names);
    free(s->raw);
    bool keep = s->keep_sources;
    stacks_init(s);
    s->keep_sources = keep;
}

void stacks_frame_source(struct stacks *s, uint32_t frame, uint32_t object,
                         uint32_t file, uint32_t line)
{
    if (!s->keep_sources)
        return;
    if (frame >= s->source_cap) {
        size_t old = s->source_cap;
        GROW(s->source, s->source_cap, frame);
        memset(s->source + old, 0xff, (s->source_cap - old) * sizeof *s->source);
    }
    struct frame_source *fs = &s->source[frame];
    if (fs->object == NO_SOURCE_NAME && fs->file == NO_SOURCE_NAME) {
        fs->object = object;
        fs->file = file;
        fs->line = line;
    } else if (fs->line == NO_SOURCE_NAME || fs->line == 0) {
        fs->line = line;
    }
}

const struct frame_source *stacks_source_of(const struct stacks *s, uint32_t frame)
{
    if (frame >= s->source_cap || s->source[frame].object == NO_SOURCE_NAME)
        return NULL;
    return &s->source[frame];
}

const char *stacks_frame_raw(const struct stacks *s, uint32_t frame)
{
    if (frame < s->raw_cap && s->raw[frame] != UINT32_MAX)
        return strtab_str(&s->raw_names, s->raw[frame]);
    return strtab_str(&s->frames, frame);
}

uint32_t stacks_frame_from(struct stacks *s, const struct stacks *from, uint32_t frame)
{
    size_t len;
    const char *text = stacks_frame_text(from, frame, &len);
    uint32_t id = stacks_frame(s, text, len);
    const char *raw = stacks_frame_raw(from, frame);
    size_t raw_len = strlen(raw);
    if ((raw_len != len || memcmp(raw, text, len) != 0) &&
        strcmp(stacks_frame_raw(s, id), text) == 0) /* s knows no raw name for it */
        stacks_frame_set_raw(s, id, raw, raw_len);
    return id;
}

void stacks_frame_set_raw(struct stacks *s, uint32_t frame, const char *raw, size_t len)
{
    if (frame >= s->raw_cap) {
        size_t old = s->raw_cap;
        GROW(s->raw, s->raw_cap, frame);
        memset(s->raw + old, 0xff, (s->raw_cap - old) * sizeof *s->raw);
    }
    s->raw[frame] = strtab_intern(&s->raw_names, raw, len);
}

static void take_counts(struct stacks *s, uint64_t **count, size_t *len, uint64_t *total)
{
    *count = s->count;
    *len = s->count ? s->count_cap : 0;
    *total = s->total;
    s->count = NULL;
    s->count_cap = 0;
    s->total = 0;
}

void stacks_use_column(struct stacks *s, size_t column)
{
    if (column == s->column)
        return;
    if (column >= s->ncolumns || s->column >= s->ncolumns) {
        size_t want = (column > s->column ? column : s->column) + 1;
        s->columns = xrealloc(s->columns, want * sizeof *s->columns);
        memset(s->columns + s->ncolumns, 0, (want - s->ncolumns) * sizeof *s->columns);
        s->ncolumns = want;
    }
    s->columns[s->column] = (struct stack_column){s->count, s->count_cap, s->total};
    s->count = s->columns[column].count;
    s->count_cap = s->columns[column].cap;
    s->total = s->columns[column].total;
    s->columns[column] = (struct stack_column){NULL, 0, 0};
    s->column = column;
}

/* Makes room for stack `id` in a count array. */
static void grow_counts(uint64_t **count, size_t *cap, uint32_t id)
{
    if (id >= *cap) {
        size_t old = *cap;
        GROW(*count, *cap, id);
        memset(*count + old, 0, (*cap - old) * sizeof **count);
    }
}

bool stacks_count_in(struct stacks *s, size_t column, uint32_t id, uint64_t count)
{
    if (column == s->column) {
        grow_counts(&s->count, &s->count_cap, id);
        return add_u64(s->count[id], count, &s->count[id]) &&
               add_u64(s->total, count, &s->total);
    }
    if (column >= s->ncolumns) {
        s->columns = xrealloc(s->columns, (column + 1) * sizeof *s->columns);
        memset(s->columns + s->ncolumns, 0, (column + 1 - s->ncolumns) * sizeof *s->columns);
        s->ncolumns = column + 1;
    }
    struct stack_column *c = &s->columns[column];
    grow_counts(&c->count, &c->cap, id);
    return add_u64(c->count[id], count, &c->count[id]) && add_u64(c->total, count, &c->total);
}

void stacks_take_column(struct stacks *s, size_t column, struct stack_column *out)
{
    stacks_use_column(s, column);
    take_counts(s, &out->count, &out->cap, &out->total);
}

uint32_t stacks_frame(struct stacks *s, const char *text, size_t len)
{
    return strtab_intern(&s->frames, text, len);
}

/* The count of stack `id`, which may be new. */
static bool add_count(struct stacks *s, uint32_t id, uint64_t count)
{
    grow_counts(&s->count, &s->count_cap, id);
    return add_u64(s->count[id], count, &s->count[id]) &&
           add_u64(s->total, count, &s->total);
}

uint32_t stacks_add_id(struct stacks *s, const uint32_t *frames, size_t nframes,
                       uint64_t count)
{
    uint32_t id = strtab_intern(&s->paths, (const char *)frames, nframes * sizeof *frames);
    return add_count(s, id, count) ? id : UINT32_MAX;
}

bool stacks_add(struct stacks *s, const uint32_t *frames, size_t nframes, uint64_t count)
{
    return stacks_add_id(s, frames, nframes, count) != UINT32_MAX;
}


void stacks_text_frames(struct stacks *s, const char *stack, size_t len,
                        struct stacks_text *out)
{
    size_t n = 0;
    const char *end = stack + len;
    for (const char *p = stack;;) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *stop = semi ? semi : end;
        size_t flen = (size_t)(stop - p);
        uint32_t h = strtab_hash(p, flen);
        uint32_t id = strtab_find(&s->frames, p, flen, h); /* inline: most are known */
        if (id == UINT32_MAX)
            id = strtab_intern_hashed(&s->frames, p, flen, h);
        GROW(out->frames, out->cap, n);
        out->frames[n++] = id;
        if (!semi)
            break;
        p = semi + 1;
    }
    out->n = n;
    out->hash = strtab_hash((const char *)out->frames, n * sizeof *out->frames);
    strtab_prefetch(&s->paths, out->hash);
}

bool stacks_add_frames(struct stacks *s, const struct stacks_text *t, uint64_t count)
{
    uint32_t id = strtab_intern_hashed(&s->paths, (const char *)t->frames,
                                       t->n * sizeof *t->frames, t->hash);
    return add_count(s, id, count);
}

void stacks_text_free(struct stacks_text *t)
{
    free(t->frames);
    memset(t, 0, sizeof *t);
}

bool stacks_add_text(struct stacks *s, const char *stack, size_t len, uint64_t count)
{
    struct stacks_text t = {s->scratch, 0, s->scratch_cap, 0};
    stacks_text_frames(s, stack, len, &t);
    s->scratch = t.frames;
    s->scratch_cap = t.cap;
    return stacks_add_frames(s, &t, count);
}

uint32_t stacks_add_mapped(struct stacks *s, const struct stacks *from, uint32_t id,
                           const uint32_t *frame_map, uint64_t count)
{
    size_t n;
    const uint32_t *f = stacks_path(from, id, &n);
    GROW(s->scratch, s->scratch_cap, n);
    for (size_t k = 0; k < n; k++)
        s->scratch[k] = frame_map[f[k]];
    return stacks_add_id(s, s->scratch, n, count);
}

/* ---- sorting ------------------------------------------------------------ */

/* Stacks are compared frame by frame, so the long common prefixes of deep
 * stacks cost one integer comparison per frame; only the first differing
 * frames are compared as text. The result is the byte order of the whole
 * printed lines "f1;f2;... count". */
static const struct stacks *sort_stacks; /* qsort has no context argument */

static const uint32_t *frames_of(uint32_t id, size_t *n)
{
    return stacks_path(sort_stacks, id, n);
}

static void line_text(uint32_t id, struct buf *b)
{
    size_t n;
    const uint32_t *f = frames_of(id, &n);
    const struct strtab *ft = &sort_stacks->frames;
    b->len = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_putc(b, ';');
        buf_append(b, strtab_str(ft, f[i]), strtab_len(ft, f[i]));
    }
    char num[32];
    int len = snprintf(num, sizeof num, " %" PRIu64, sort_stacks->count[id]);
    buf_append(b, num, (size_t)len);
    buf_cstr(b);
}

static int compare_stacks(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    size_t na, nb;
    const uint32_t *fa = frames_of(a, &na), *fb = frames_of(b, &nb);
    /* Deep stacks share long prefixes (a folded tree's neighbours differ
     * in their last frames): the common prefix is skipped four frames at a
     * time, two 8-byte compares. */
    size_t i = 0, n = na < nb ? na : nb;
    while (i + 4 <= n) {
        uint64_t a0, a1, b0, b1;
        memcpy(&a0, fa + i, 8);
        memcpy(&a1, fa + i + 2, 8);
        memcpy(&b0, fb + i, 8);
        memcpy(&b1, fb + i + 2, 8);
        if ((a0 ^ b0) | (a1 ^ b1))
            break;
        i += 4;
    }
    while (i < n && fa[i] == fb[i])
        i++;
    if (i == na || i == nb) /* the shorter ends with ' ', the other goes on with ';' */
        return na < nb ? -1 : na > nb ? 1 : 0;
    const struct strtab *ft = &sort_stacks->frames;
    const unsigned char *ta = (const unsigned char *)strtab_str(ft, fa[i]);
    const unsigned char *tb = (const unsigned char *)strtab_str(ft, fb[i]);
    size_t la = strtab_len(ft, fa[i]), lb = strtab_len(ft, fb[i]);
    /* Frames that differ often share a long start (C++ scopes, "0x0000"
     * addresses): skipped eight bytes at a time. */
    size_t k = 0, m = la < lb ? la : lb;
    while (k + 8 <= m) {
        uint64_t x, y;
        memcpy(&x, ta + k, 8);
        memcpy(&y, tb + k, 8);
        if (x != y)
            break;
        k += 8;
    }
    while (k < m && ta[k] == tb[k])
        k++;
    /* Next byte of each line: frame text, else ';' or, at the end, ' '. */
    int ca = k < la ? ta[k] : (i + 1 < na ? ';' : ' ');
    int cb = k < lb ? tb[k] : (i + 1 < nb ? ';' : ' ');
    if (ca != cb)
        return ca - cb;
    /* A frame ending where the other has a space: compare whole lines. */
    static struct buf x, y;
    line_text(a, &x);
    line_text(b, &y);
    return strcmp(x.data, y.data);
}

uint32_t *stacks_sorted(const struct stacks *s, const uint64_t *also, size_t *np)
{
    size_t n = 0;
    uint32_t *order = xmalloc((s->paths.count ? s->paths.count : 1) * sizeof *order);
    for (size_t id = 0; id < s->paths.count; id++)
        if (s->count[id] != 0 || (also && also[id] != 0))
            order[n++] = (uint32_t)id;
    sort_stacks = s;
    qsort(order, n, sizeof *order, compare_stacks);
    *np = n;
    return order;
}

int stacks_write(const struct stacks *s, FILE *out)
{
    size_t n;
    uint32_t *order = stacks_sorted(s, NULL, &n);
    /* Lines are assembled in one buffer and written in large blocks. */
    int rc = 0;
    struct buf line = {0};
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t nf;
        const uint32_t *f = frames_of(order[i], &nf);
        for (size_t j = 0; j < nf; j++) {
            if (j)
                buf_putc(&line, ';');
            buf_append(&line, strtab_str(&s->frames, f[j]), strtab_len(&s->frames, f[j]));
        }
        char num[24];
        size_t k = sizeof num;
        uint64_t v = s->count[order[i]];
        num[--k] = '\n';
        do {
            num[--k] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        num[--k] = ' ';
        buf_append(&line, num + k, sizeof num - k);
        if (line.len >= (1 << 16) || i + 1 == n) {
            if (fwrite(line.data, 1, line.len, out) != line.len)
                rc = -1;
            line.len = 0;
        }
    }
    buf_free(&line);
    free(order);
    return rc;
}
