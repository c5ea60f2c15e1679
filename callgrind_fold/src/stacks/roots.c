/* Pictures start where the user's code starts (present.h, "roots.c").
 *
 * A part's stacks, every column, re-rooted: each stack loses the frames
 * below the first frame of the user's code and gets one base frame that
 * names the process instead. Where the user's code starts, stack by
 * stack:
 *   - a benchmark (a part a client request triggered): the frame above
 *     CodSpeed's __codspeed_root_frame__ (the harness calls each
 *     benchmark through it), in any stack that has that frame;
 *   - a whole program: `main`, or in a thread the start routine (the
 *     frame above start_thread);
 *   - otherwise the deepest frame that every stack with a cost passes
 *     through (the frames all share, less the deepest of them).
 * Counts are moved, never changed: every column's total stays.
 * stacks_compact rebuilds stacks the same way, frames kept, when most of
 * their frames are in no stack: a folded tree's reader makes the frame
 * of every function of the input in each part's stacks. */
#include "present.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define CODSPEED_ROOT_FRAME "__codspeed_root_frame__"

/* The frame's function name, without " [object]" (--frame=fn+obj). */
static bool frame_is(const char *text, size_t len, const char *name)
{
    size_t n = strlen(name);
    return len >= n && memcmp(text, name, n) == 0 &&
           (len == n || (len > n + 1 && text[n] == ' ' && text[n + 1] == '['));
}

static bool contains(const char *text, size_t len, const char *what)
{
    size_t n = strlen(what);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(text + i, what, n) == 0)
            return true;
    return false;
}

enum frame_mark { MARK_NONE, MARK_CODSPEED_ROOT, MARK_MAIN, MARK_THREAD_START };

static bool has_cost(const struct stacks *s, uint32_t id)
{
    for (size_t c = 0; c < stacks_ncols(s); c++)
        if (stacks_count(s, c, id))
            return true;
    return false;
}

/* Where stack `path` (n frames) starts being the user's, or SIZE_MAX when
 * no rule of its kind applies. */
static size_t user_start(const uint32_t *path, size_t n, const uint8_t *mark, bool benchmark)
{
    for (size_t i = 0; i < n; i++) {
        enum frame_mark m = mark[path[i]];
        if (benchmark && m == MARK_CODSPEED_ROOT)
            return i + 1 < n ? i + 1 : i;
        if (!benchmark && m == MARK_MAIN)
            return i;
        if (!benchmark && m == MARK_THREAD_START)
            return i + 1 < n ? i + 1 : i;
    }
    return SIZE_MAX;
}

/* s rebuilt from its stacks with a cost: each from frame `from(stack)`
 * on (0 when `mark` is NULL), below `base` when there is one. */
static void rebuild(struct stacks *s, const uint8_t *mark, bool benchmark, size_t shared,
                    const char *base, size_t base_len)
{
    size_t nframes = stacks_count_frames(s), nids = stacks_count_ids(s);
    struct stacks out;
    stacks_init(&out);
    out.keep_sources = s->keep_sources;
    out.split_keys = s->split_keys;
    uint32_t *frame_map = xmalloc((nframes ? nframes : 1) * sizeof *frame_map);
    memset(frame_map, 0xff, (nframes ? nframes : 1) * sizeof *frame_map);
    uint32_t *frames = NULL;
    size_t frames_cap = 0;
    uint32_t base_frame = base ? stacks_frame(&out, base, base_len) : 0;
    size_t ncols = stacks_ncols(s);
    for (uint32_t id = 0; id < nids; id++) {
        if (!has_cost(s, id))
            continue;
        size_t n;
        const uint32_t *path = stacks_path(s, id, &n);
        size_t from = mark ? user_start(path, n, mark, benchmark) : 0;
        if (from == SIZE_MAX)
            from = shared < n ? shared : 0;
        GROW(frames, frames_cap, n - from + 1);
        size_t k = 0;
        if (base)
            frames[k++] = base_frame;
        for (size_t i = from; i < n; i++) {
            uint32_t f = path[i];
            if (frame_map[f] == UINT32_MAX) {
                size_t len;
                const char *key = stacks_frame_key(s, f, &len);
                frame_map[f] = stacks_frame(&out, key, len);
                /* -f pprof's files and lines go with the frame */
                const struct frame_source *src = stacks_source_of(s, f);
                if (src)
                    stacks_frame_source(&out, frame_map[f], src->object, src->file,
                                        src->line);
            }
            frames[k++] = frame_map[f];
        }
        uint32_t to = stacks_intern(&out, frames, k);
        for (size_t c = 0; c < ncols; c++) {
            uint64_t count = stacks_count(s, c, id);
            /* the sums were made once already: they cannot overflow */
            if (count)
                (void)stacks_count_in(&out, c, to, count);
        }
    }
    stacks_lines_carry(&out, s, frame_map);
    free(frames);
    free(frame_map);
    stacks_free(s);
    *s = out;
}

void stacks_root_at_user_code(struct stacks *s, bool benchmark, const char *base,
                              size_t base_len)
{
    size_t nframes = stacks_count_frames(s), nids = stacks_count_ids(s);
    uint8_t *mark = xcalloc(nframes ? nframes : 1, 1);
    for (uint32_t f = 0; f < nframes; f++) {
        size_t len;
        const char *text = stacks_frame_text(s, f, &len);
        mark[f] = contains(text, len, CODSPEED_ROOT_FRAME) ? MARK_CODSPEED_ROOT
                  : frame_is(text, len, "main")           ? MARK_MAIN
                  : frame_is(text, len, "start_thread")   ? MARK_THREAD_START
                                                          : MARK_NONE;
    }
    /* The frames every stack with a cost shares. */
    const uint32_t *common = NULL;
    size_t ncommon = 0;
    for (uint32_t id = 0; id < nids; id++) {
        if (!has_cost(s, id))
            continue;
        size_t n;
        const uint32_t *path = stacks_path(s, id, &n);
        if (!common) {
            common = path;
            ncommon = n;
            continue;
        }
        size_t k = 0;
        while (k < ncommon && k < n && common[k] == path[k])
            k++;
        ncommon = k;
    }
    rebuild(s, mark, benchmark, ncommon ? ncommon - 1 : 0, base, base_len);
    free(mark);
}

void stacks_compact(struct stacks *s)
{
    size_t nframes = stacks_count_frames(s), nids = stacks_count_ids(s), used = 0;
    uint8_t *seen = xcalloc(nframes ? nframes : 1, 1);
    for (uint32_t id = 0; id < nids; id++) {
        if (!has_cost(s, id))
            continue;
        size_t n;
        const uint32_t *path = stacks_path(s, id, &n);
        for (size_t i = 0; i < n; i++) {
            used += !seen[path[i]];
            seen[path[i]] = 1;
        }
    }
    free(seen);
    if (used < nframes / 2)
        rebuild(s, NULL, false, 0, NULL, 0);
}
