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
    for (size_t c = 0; c < s->ncols; c++)
        free(s->count[c]);
    free(s->count);
    free(s->count_cap);
    free(s->total);
    free(s->scratch);
    free(s->source);
    strtab_free(&s->raw_names);
    free(s->raw);
    stacks_lines_free(&s->lines);
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

void stacks_frame_source_least(struct stacks *s, uint32_t frame, uint32_t object,
                               uint32_t file, uint32_t line)
{
    stacks_frame_source(s, frame, object, file, line);
    struct frame_source *fs = s->keep_sources ? &s->source[frame] : NULL;
    if (fs && fs->file == file && line != 0 && line != NO_SOURCE_NAME && line < fs->line)
        fs->line = line;
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

/* Makes room for stack `id` in column `col`. Apart from the fold's hot
 * adds. */
static void grow_counts(struct stacks *s, size_t col, uint32_t id)
{
    if (col >= s->ncols) {
        s->count = xrealloc(s->count, (col + 1) * sizeof *s->count);
        s->count_cap = xrealloc(s->count_cap, (col + 1) * sizeof *s->count_cap);
        s->total = xrealloc(s->total, (col + 1) * sizeof *s->total);
        for (size_t c = s->ncols; c <= col; c++) {
            s->count[c] = NULL;
            s->count_cap[c] = 0;
            s->total[c] = 0;
        }
        s->ncols = col + 1;
    }
    if (id >= s->count_cap[col]) {
        size_t old = s->count_cap[col];
        GROW(s->count[col], s->count_cap[col], id);
        memset(s->count[col] + old, 0, (s->count_cap[col] - old) * sizeof **s->count);
    }
}

/* stacks_count_in, inline for the fold's and readers' adds. */
static inline bool count_in(struct stacks *s, size_t col, uint32_t id, uint64_t count)
{
    if (col >= s->ncols || id >= s->count_cap[col])
        grow_counts(s, col, id);
    uint64_t *c = &s->count[col][id], *total = &s->total[col];
    return add_u64(*c, count, c) && add_u64(*total, count, total);
}

bool stacks_count_in(struct stacks *s, size_t col, uint32_t id, uint64_t count)
{
    return count_in(s, col, id, count);
}

bool stacks_add_column(struct stacks *s, size_t to, size_t from)
{
    /* a column of zeros (as often column 0) adds nothing */
    size_t n = from < s->ncols && s->total[from] ? s->count_cap[from] : 0;
    grow_counts(s, to, n ? (uint32_t)(n - 1) : 0);
    if (n == 0)
        return true;
    const uint64_t *f = s->count[from];
    uint64_t *t = s->count[to];
    bool ok = add_u64(s->total[to], s->total[from], &s->total[to]);
    for (size_t id = 0; id < n; id++)
        ok &= add_u64(t[id], f[id], &t[id]);
    return ok;
}

uint32_t stacks_frame(struct stacks *s, const char *text, size_t len)
{
    return strtab_intern(&s->frames, text, len);
}

uint32_t stacks_frame_find(const struct stacks *s, const char *text, size_t len)
{
    return strtab_find(&s->frames, text, len, strtab_hash(text, len));
}

uint32_t stacks_intern(struct stacks *s, const uint32_t *frames, size_t nframes)
{
    return strtab_intern(&s->paths, (const char *)frames, nframes * sizeof *frames);
}

bool stacks_add(struct stacks *s, size_t col, const uint32_t *frames, size_t nframes,
                uint64_t count)
{
    return stacks_add_hashed(s, col, frames, nframes,
                             strtab_hash((const char *)frames, nframes * sizeof *frames), count);
}

void stacks_reserve(struct stacks *s, size_t more)
{
    strtab_reserve(&s->paths, more);
}

bool stacks_add_hashed(struct stacks *s, size_t col, const uint32_t *frames, size_t nframes,
                       uint32_t hash, uint64_t count)
{
    uint32_t id =
        strtab_intern_hashed(&s->paths, (const char *)frames, nframes * sizeof *frames, hash);
    return count_in(s, col, id, count);
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

void stacks_text_free(struct stacks_text *t)
{
    free(t->frames);
    memset(t, 0, sizeof *t);
}

bool stacks_add_text(struct stacks *s, size_t col, const char *stack, size_t len,
                     uint64_t count)
{
    struct stacks_text t = {s->scratch, 0, s->scratch_cap, 0};
    stacks_text_frames(s, stack, len, &t);
    s->scratch = t.frames;
    s->scratch_cap = t.cap;
    return stacks_add_hashed(s, col, t.frames, t.n, t.hash, count);
}

uint32_t stacks_intern_mapped(struct stacks *s, const struct stacks *from, uint32_t id,
                              const uint32_t *frame_map)
{
    size_t n;
    const uint32_t *f = stacks_path(from, id, &n);
    GROW(s->scratch, s->scratch_cap, n);
    for (size_t k = 0; k < n; k++)
        s->scratch[k] = frame_map[f[k]];
    return stacks_intern(s, s->scratch, n);
}

bool stacks_merge(struct stacks *s, struct stacks *from, const char *root, size_t root_len)
{
    if (!root && stacks_count_frames(s) == 0 && stacks_count_ids(s) == 0 &&
        s->ncols == 0) {
        bool keep = s->keep_sources;
        stacks_free(s);
        *s = *from;
        s->keep_sources = keep;
        stacks_init(from);
        return true;
    }
    size_t nframes = stacks_count_frames(from), ncols = stacks_ncols(from);
    uint32_t *map = xmalloc((nframes ? nframes : 1) * sizeof *map);
    memset(map, 0xff, (nframes ? nframes : 1) * sizeof *map);
    uint32_t root_frame = root ? stacks_frame(s, root, root_len) : 0;
    uint32_t *frames = NULL;
    size_t frames_cap = 0;
    bool ok = true;
    for (uint32_t id = 0; id < stacks_count_ids(from) && ok; id++) {
        uint32_t to = UINT32_MAX;
        for (size_t c = 0; c < ncols && ok; c++) {
            uint64_t count = stacks_count(from, c, id);
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
                to = stacks_intern(s, frames, k);
            }
            ok = stacks_count_in(s, c, to, count);
        }
    }
    stacks_lines_carry(s, from, map);
    free(frames);
    free(map);
    bool keep = from->keep_sources;
    stacks_free(from);
    from->keep_sources = keep;
    return ok;
}

/* -f md's parts: a stack of one frame per leaf, and the lines of each. */
bool stacks_add_self(struct stacks *s, const struct stacks *from)
{
    size_t nframes = stacks_count_frames(from);
    uint32_t *map = xmalloc((nframes ? nframes : 1) * sizeof *map);
    memset(map, 0xff, (nframes ? nframes : 1) * sizeof *map);
    bool ok = true;
    for (uint32_t id = 0; id < stacks_count_ids(from) && ok; id++) {
        size_t n;
        const uint32_t *path = stacks_path(from, id, &n);
        if (n == 0)
            continue;
        uint32_t leaf = path[n - 1], to = UINT32_MAX;
        for (size_t c = 0; c < stacks_ncols(from) && ok; c++) {
            uint64_t count = stacks_count(from, c, id);
            if (count == 0)
                continue;
            if (map[leaf] == UINT32_MAX)
                map[leaf] = stacks_frame_from(s, from, leaf);
            if (to == UINT32_MAX)
                to = stacks_intern(s, &map[leaf], 1);
            ok = stacks_count_in(s, c, to, count);
        }
    }
    /* a frame with lines is the leaf of a stack with a cost (its lines
     * sum to that cost): mapped above, but for lines of no cost */
    for (uint32_t e = 0; e < from->lines.n; e++) {
        uint32_t f = from->lines.key[e].at;
        if (map[f] == UINT32_MAX)
            map[f] = stacks_frame_from(s, from, f);
    }
    if (ok)
        stacks_lines_carry(s, from, map);
    free(map);
    return ok;
}
