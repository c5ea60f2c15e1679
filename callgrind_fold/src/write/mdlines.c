/* -f md --diff: the lines of the changed benchmarks to list (mdlines.h).
 *
 * A part read with lines has a flat profile (stacks_add_self): each
 * function a stack of its frame alone, counting its self cost, and the
 * frame's line entries, which sum to it. Functions of the two runs pair
 * by frame key (both runs' frames were named together), lines by file
 * base name and line number: the runs may be built in different
 * directories, and one function's lines are rarely in two files of one
 * name. */
#include "mdlines.h"
#include "stacks/present.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void md_change_text(char *text, size_t size, uint64_t before, uint64_t after)
{
    if (before == 0) {
        snprintf(text, size, "%s", after ? "n/a" : "0.0%");
        return;
    }
    double pct = 100.0 * ((double)after - (double)before) / (double)before;
    snprintf(text, size, "%+.1f%%", pct);
    if (strcmp(text, "+0.0%") == 0 || strcmp(text, "-0.0%") == 0)
        snprintf(text, size, "0.0%%");
}

bool md_change_shown(uint64_t before, uint64_t after)
{
    char text[64];
    md_change_text(text, sizeof text, before, after);
    return strcmp(text, "0.0%") != 0;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

/* One run's part: its flat profile, the event's column, its names. */
struct side {
    const struct stacks *s;
    size_t col;
    const struct strtab *files;
};

/* ---- functions ---- */

struct function_pair {
    uint32_t frame[2];        /* in the old and new part, or UINT32_MAX */
    uint64_t self[2];
    const char *key;
    size_t key_len;
};

static int compare_keys(const char *a, size_t na, const char *b, size_t nb)
{
    int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : na < nb ? -1 : na > nb;
}

/* Largest change first; then by key, so the order is the same each run. */
static int compare_functions(const void *pa, const void *pb)
{
    const struct function_pair *a = pa, *b = pb;
    uint64_t da = distance(a->self[0], a->self[1]), db = distance(b->self[0], b->self[1]);
    if (da != db)
        return da > db ? -1 : 1;
    return compare_keys(a->key, a->key_len, b->key, b->key_len);
}

/* Every function of both parts with a self cost, paired by frame key. */
static struct function_pair *pair_functions(const struct side *sides, size_t *n)
{
    struct strtab keys;
    strtab_init(&keys);
    struct function_pair *fp = NULL;
    size_t cap = 0;
    *n = 0;
    for (int k = 0; k < 2; k++) {
        const struct stacks *s = sides[k].s;
        for (uint32_t id = 0; id < stacks_count_ids(s); id++) {
            size_t len, depth;
            const uint32_t *path = stacks_path(s, id, &depth);
            uint64_t count = stacks_count(s, sides[k].col, id);
            if (depth != 1 || count == 0)
                continue;
            const char *key = stacks_frame_key(s, path[0], &len);
            uint32_t at = strtab_intern(&keys, key, len);
            if (at == *n) {
                GROW(fp, cap, *n);
                fp[(*n)++] = (struct function_pair){{UINT32_MAX, UINT32_MAX}, {0, 0}, key, len};
            }
            fp[at].frame[k] = path[0];
            /* one stack a frame in a flat profile: no sum to overflow */
            fp[at].self[k] += count;
        }
    }
    strtab_free(&keys);
    return fp;
}

/* Whether a frame's lines sum to its self cost (true for no frame). */
static bool lines_sum_to(const struct side *side, uint32_t frame, uint64_t self)
{
    if (frame == UINT32_MAX)
        return true;
    uint64_t sum = 0;
    for (uint32_t e = 0; e < stacks_line_entries(side->s); e++)
        if (stacks_line_key(side->s, e)->at == frame &&
            !add_u64(sum, stacks_line_count(side->s, side->col, e), &sum))
            return false;
    return sum == self;
}

/* ---- lines ---- */

struct line_pair {
    struct changed_line l;
    size_t order;             /* in (file, line) order */
};

static int compare_places(const void *pa, const void *pb)
{
    const struct line_pair *a = pa, *b = pb;
    int c = compare_keys(a->l.file, a->l.file_len, b->l.file, b->l.file_len);
    return c ? c : a->l.line < b->l.line ? -1 : a->l.line > b->l.line;
}

static int compare_changes(const void *pa, const void *pb)
{
    const struct line_pair *a = pa, *b = pb;
    uint64_t da = distance(a->l.before, a->l.after), db = distance(b->l.before, b->l.after);
    if (da != db)
        return da > db ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static const char *base_name(const struct strtab *files, uint32_t file, size_t *len)
{
    if (!files || file >= files->count) {
        *len = 0;
        return "";
    }
    return object_base_name(strtab_str(files, file), strtab_len(files, file), len);
}

/* The function's lines that changed most, into f->lines. */
static void choose_lines(struct changed_function *f, const struct side *sides,
                         const struct function_pair *fp)
{
    struct line_pair *lp = NULL;
    size_t n = 0, cap = 0;
    for (int k = 0; k < 2; k++) {
        const struct stacks *s = sides[k].s;
        for (uint32_t e = 0; fp->frame[k] != UINT32_MAX && e < stacks_line_entries(s); e++) {
            const struct line_key *key = stacks_line_key(s, e);
            uint64_t count = stacks_line_count(s, sides[k].col, e);
            if (key->at != fp->frame[k] || count == 0)
                continue;
            GROW(lp, cap, n);
            struct changed_line *l = &lp[n++].l;
            *l = (struct changed_line){.line = key->line};
            l->file = base_name(sides[k].files, key->file, &l->file_len);
            *(k ? &l->after : &l->before) = count;
        }
    }
    if (n)
        qsort(lp, n, sizeof *lp, compare_places);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        /* sums of parts of one self cost: no overflow */
        if (m && compare_places(&lp[m - 1], &lp[i]) == 0) {
            lp[m - 1].l.before += lp[i].l.before;
            lp[m - 1].l.after += lp[i].l.after;
            continue;
        }
        lp[m] = lp[i];
        lp[m].order = m;
        m++;
    }
    if (m)
        qsort(lp, m, sizeof *lp, compare_changes);
    for (size_t i = 0; i < m && f->nlines < MD_LINES_PER_FUNCTION; i++)
        if (lp[i].l.before != lp[i].l.after)
            f->lines[f->nlines++] = lp[i].l;
    free(lp);
}

static void choose_functions(struct changed_benchmark *b, const struct side *sides)
{
    size_t n;
    struct function_pair *fp = pair_functions(sides, &n);
    if (n)
        qsort(fp, n, sizeof *fp, compare_functions);
    for (size_t i = 0; i < n && b->nfunctions < MD_LINES_FUNCTIONS; i++) {
        if (fp[i].self[0] == fp[i].self[1])
            break;
        struct changed_function *f = &b->functions[b->nfunctions++];
        int k = fp[i].frame[1] != UINT32_MAX;
        *f = (struct changed_function){.before = fp[i].self[0], .after = fp[i].self[1]};
        f->name = stacks_frame_text(sides[k].s, fp[i].frame[k], &f->name_len);
        f->lines_known = lines_sum_to(&sides[0], fp[i].frame[0], fp[i].self[0]) &&
                         lines_sum_to(&sides[1], fp[i].frame[1], fp[i].self[1]);
        if (f->lines_known)
            choose_lines(f, sides, &fp[i]);
    }
    free(fp);
}

static bool has_lines(const struct report_part *p)
{
    return p && p->stacks && stacks_line_entries(p->stacks) != 0;
}

size_t md_changed_lines(const struct report_diff *d, struct changed_benchmark *out,
                        size_t *more)
{
    const struct report *old = d->old, *new = d->new;
    const char *event = new->nevents ? new->events[new->default_event] : "";
    size_t oe = report_event_index(old, event), ne = new->default_event;
    size_t n = 0;
    *more = 0;
    for (size_t i = 0; oe != SIZE_MAX && i < d->npairs; i++) {
        const struct report_pair *p = &d->pairs[i];
        if (!has_lines(p->old) || !has_lines(p->new) ||
            !md_change_shown(p->old->columns[oe].total, p->new->columns[ne].total))
            continue;
        if (n == MD_LINES_BENCHMARKS) {
            (*more)++;
            continue;
        }
        struct side sides[2] = {{p->old->stacks, p->old->columns[oe].col, old->files},
                                {p->new->stacks, p->new->columns[ne].col, new->files}};
        out[n] = (struct changed_benchmark){.pair = p};
        choose_functions(&out[n], sides);
        n += out[n].nfunctions != 0;
    }
    return n;
}
