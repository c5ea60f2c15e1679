/* The summed output stacks, kept as frame id sequences (model.h,
 * "stacks.c"); written as text by write/foldedtext.c. */
#include "model.h"
#include "util/util.h"

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
    size_t len, key_len;
    const char *text = stacks_frame_text(from, frame, &len);
    const char *key = stacks_frame_key(from, frame, &key_len);
    s->split_keys |= from->split_keys;
    uint32_t id = stacks_frame(s, key, key_len);
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

bool stacks_merge(struct stacks *s, struct stacks *from, const char *root, size_t root_len)
{
    if (!root && stacks_count_frames(s) == 0 && stacks_count_ids(s) == 0 &&
        s->ncolumns == 0 && s->count_cap == 0) {
        bool keep = s->keep_sources;
        stacks_free(s);
        *s = *from;
        s->keep_sources = keep;
        stacks_init(from);
        return true;
    }
    size_t nframes = stacks_count_frames(from), ncolumns = stacks_column_limit(from);
    uint32_t *map = xmalloc((nframes ? nframes : 1) * sizeof *map);
    memset(map, 0xff, (nframes ? nframes : 1) * sizeof *map);
    uint32_t root_frame = root ? stacks_frame(s, root, root_len) : 0;
    uint32_t *frames = NULL;
    size_t frames_cap = 0;
    bool ok = true;
    for (uint32_t id = 0; id < stacks_count_ids(from) && ok; id++) {
        uint32_t to = UINT32_MAX;
        for (size_t c = 0; c < ncolumns && ok; c++) {
            uint64_t count = stacks_column_count(from, c, id);
            if (count == 0)
                continue;
            if (to == UINT32_MAX) {
                size_t n, k = 0;
                const uint32_t *path = stacks_path(from, id, &n);
                GROW(frames, frames_cap, n + 1);
                if (root)
                    frames[k++] = root_frame;
                for (size_t i = 0; i < n; i++) {
                    uint32_t f = path[i];
                    if (map[f] == UINT32_MAX) {
                        map[f] = stacks_frame_from(s, from, f);
                        const struct frame_source *src = stacks_source_of(from, f);
                        if (src)
                            stacks_frame_source(s, map[f], src->object, src->file, src->line);
                    }
                    frames[k++] = map[f];
                }
                to = stacks_add_id(s, frames, k, 0);
            }
            ok = stacks_count_in(s, c, to, count);
        }
    }
    free(frames);
    free(map);
    bool keep = from->keep_sources;
    stacks_free(from);
    from->keep_sources = keep;
    return ok;
}
