/* The hot lines of the HTML report (hotlines.h): chosen per part from
 * its stacks' line entries, written as the page's JSON; the sources read
 * once a page, at its end. */
#include "hotlines.h"
#include "source.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines above this are no line of any source file. */
#define HOT_MAX_REAL_LINE 0x7fffffffu

struct hot_line {
    uint32_t file;              /* index in the page's files */
    uint32_t line;
    size_t cost;                /* at fn->cost[cost .. cost + nevents) */
};

struct hot_fn {
    uint32_t name;              /* the page's name id */
    uint64_t *self;             /* per event */
    struct hot_line *lines;
    size_t nlines;
    uint64_t *cost;             /* the lines' costs, nevents each */
    size_t nrest;               /* lines left out, their costs summed */
    uint64_t *rest;
    bool *partial;              /* per event: its lines do not sum to self */
    uint64_t line0, beyond;     /* cost (default event) on line 0, and
                                   the first line above any file's */
    uint32_t beyond_line;
};

struct hot_part {
    struct hot_fn *fn;
    size_t nfn;
    const char *why;            /* no lines: why */
};

/* A file of the page: its name in the run's names, the lines wanted. */
struct hot_file {
    uint32_t name;
    uint32_t *want;
    size_t nwant, cap;
};

struct hot_page {
    const struct report *r;
    const struct render_options *ro;
    size_t nevents;
    struct hot_part *part;
    struct hashmap file_index;  /* name id -> index in file[] */
    struct hot_file *file;
    size_t nfiles, files_cap;
};

struct hot_page *hot_page_new(const struct report *r, const struct render_options *ro)
{
    struct hot_page *h = xcalloc(1, sizeof *h);
    h->r = r;
    h->ro = ro;
    h->nevents = r->nevents;
    h->part = xcalloc(r->nparts + 1, sizeof *h->part);
    hashmap_init(&h->file_index);
    return h;
}

static uint32_t page_file(struct hot_page *h, uint32_t name)
{
    bool inserted;
    uint32_t at = *hashmap_upsert(&h->file_index, name, 0, (uint32_t)h->nfiles, &inserted);
    if (inserted) {
        GROW(h->file, h->files_cap, h->nfiles);
        h->file[h->nfiles++] = (struct hot_file){.name = name};
    }
    return at;
}

static void want_line(struct hot_file *f, uint32_t line)
{
    GROW(f->want, f->cap, f->nwant);
    f->want[f->nwant++] = line;
}

/* ---- choosing ------------------------------------------------------------- */

/* Each frame's self cost in column col: the counts of the stacks it is
 * the leaf of. */
static uint64_t *leaf_costs(const struct stacks *s, size_t col)
{
    size_t nframes = stacks_count_frames(s);
    uint64_t *self = xcalloc(nframes + 1, sizeof *self);
    for (size_t id = 0; id < stacks_count_ids(s); id++) {
        uint64_t c = stacks_count(s, col, (uint32_t)id);
        size_t n;
        const uint32_t *path = stacks_path(s, (uint32_t)id, &n);
        if (c && n && !add_u64(self[path[n - 1]], c, &self[path[n - 1]]))
            self[path[n - 1]] = UINT64_MAX;
    }
    return self;
}

struct ranked {
    uint32_t frame;
    uint64_t self;
};

static int by_cost(const void *pa, const void *pb)
{
    const struct ranked *a = pa, *b = pb;
    if (a->self != b->self)
        return a->self > b->self ? -1 : 1;
    return a->frame < b->frame ? -1 : a->frame > b->frame;
}

/* The hottest frames, at most HOT_MAX_FUNCTIONS of at least
 * HOT_MIN_PERMILLE of the total; returns how many. */
static size_t hottest(const uint64_t *self, size_t nframes, uint64_t total, struct ranked *top)
{
    uint64_t least = total / 1000 * HOT_MIN_PERMILLE + (total % 1000 * HOT_MIN_PERMILLE + 999) / 1000;
    size_t n = 0;
    for (uint32_t f = 0; f < nframes; f++) {
        if (!self[f] || self[f] < least)
            continue;
        struct ranked c = {f, self[f]};
        size_t at = n < HOT_MAX_FUNCTIONS ? n++ : n;
        if (at == HOT_MAX_FUNCTIONS) { /* full: replace the last if hotter */
            if (by_cost(&c, &top[n - 1]) >= 0)
                continue;
            at = n - 1;
        }
        top[at] = c;
        for (; at > 0 && by_cost(&top[at], &top[at - 1]) < 0; at--) {
            struct ranked t = top[at];
            top[at] = top[at - 1];
            top[at - 1] = t;
        }
    }
    return n;
}

/* A line entry of a function being gathered. */
struct gathered {
    uint32_t entry;
    uint32_t file, line;        /* file: the run's name id until placed */
    uint64_t rank;              /* its cost in the default event */
};

static int by_rank(const void *pa, const void *pb)
{
    const struct gathered *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank > b->rank ? -1 : 1;
    return a->entry < b->entry ? -1 : a->entry > b->entry;
}

static int by_place(const void *pa, const void *pb)
{
    const struct gathered *a = pa, *b = pb;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static uint64_t sum_saturating(uint64_t a, uint64_t b)
{
    uint64_t s;
    return add_u64(a, b, &s) ? s : UINT64_MAX;
}

/* fn's lines from its gathered entries g[0 .. n): the costliest kept,
 * the others summed into rest; every event's sum checked. */
static void take_lines(struct hot_page *h, struct hot_fn *fn, const struct report_part *p,
                       struct gathered *g, size_t n)
{
    size_t E = h->nevents;
    const struct stacks *s = p->stacks;
    if (n)
        qsort(g, n, sizeof *g, by_rank);
    size_t keep = n < HOT_MAX_LINES ? n : HOT_MAX_LINES;
    uint64_t *sum = xcalloc(E + 1, sizeof *sum);
    fn->rest = xcalloc(E + 1, sizeof *fn->rest);
    for (size_t k = 0; k < n; k++)
        for (size_t e = 0; e < E; e++) {
            uint64_t c = stacks_line_count(s, p->columns[e].col, g[k].entry);
            sum[e] = sum_saturating(sum[e], c);
            if (k >= keep)
                fn->rest[e] = sum_saturating(fn->rest[e], c);
        }
    fn->nrest = n - keep;
    fn->partial = xcalloc(E + 1, sizeof *fn->partial);
    for (size_t e = 0; e < E; e++)
        fn->partial[e] = sum[e] != fn->self[e];
    free(sum);
    for (size_t k = 0; k < keep; k++) { /* files numbered hottest first */
        uint32_t at = page_file(h, g[k].file); /* may move h->file */
        struct hot_file *f = &h->file[at];
        uint32_t line = g[k].line;
        g[k].file = at;
        if (line == 0)
            fn->line0 = sum_saturating(fn->line0, g[k].rank);
        else if (line > HOT_MAX_REAL_LINE && (!fn->beyond || line < fn->beyond_line)) {
            fn->beyond = g[k].rank;
            fn->beyond_line = line;
        } else if (line <= HOT_MAX_REAL_LINE)
            want_line(f, line);
    }
    if (keep)
        qsort(g, keep, sizeof *g, by_place);
    fn->lines = xcalloc(keep + 1, sizeof *fn->lines);
    fn->cost = xcalloc(keep * E + 1, sizeof *fn->cost);
    for (size_t k = 0; k < keep; k++) {
        fn->lines[k] = (struct hot_line){g[k].file, g[k].line, k * E};
        for (size_t e = 0; e < E; e++)
            fn->cost[k * E + e] = stacks_line_count(s, p->columns[e].col, g[k].entry);
    }
    fn->nlines = keep;
}

void hot_part_choose(struct hot_page *h, size_t index, const struct report_part *p,
                     struct report_names *names)
{
    struct hot_part *hp = &h->part[index];
    size_t E = h->nevents, de = h->r->default_event;
    const struct stacks *s = p->stacks;
    if (!s || !p->columns || de >= E || !p->columns[de].total) {
        hp->why = "no cost in this part";
        return;
    }
    if (!stacks_line_entries(s) || !h->r->files) {
        hp->why = "no line costs in the input: callgrind.out files without \"line\" in "
                  "\"positions:\" and folded stacks give none (a folded tree has them when "
                  "its callgrind.out is given with it)";
        return;
    }
    size_t nframes = stacks_count_frames(s);
    uint64_t *self0 = leaf_costs(s, p->columns[de].col);
    struct ranked top[HOT_MAX_FUNCTIONS];
    hp->nfn = hottest(self0, nframes, p->columns[de].total, top);
    free(self0);
    if (!hp->nfn) {
        hp->why = "no function has 1% of the part's self cost";
        return;
    }
    hp->fn = xcalloc(hp->nfn, sizeof *hp->fn);
    uint32_t *slot = xmalloc((nframes + 1) * sizeof *slot);
    memset(slot, 0xff, (nframes + 1) * sizeof *slot);
    for (size_t i = 0; i < hp->nfn; i++) {
        slot[top[i].frame] = (uint32_t)i;
        hp->fn[i].name = report_name_of(names, s, top[i].frame);
        hp->fn[i].self = xcalloc(E + 1, sizeof *hp->fn[i].self);
    }
    for (size_t e = 0; e < E; e++) {
        uint64_t *self = leaf_costs(s, p->columns[e].col);
        for (size_t i = 0; i < hp->nfn; i++)
            hp->fn[i].self[e] = self[top[i].frame];
        free(self);
    }
    /* each function's line entries, then its lines */
    struct gathered **g = xcalloc(hp->nfn, sizeof *g);
    size_t *ng = xcalloc(hp->nfn, sizeof *ng), *cap = xcalloc(hp->nfn, sizeof *cap);
    for (uint32_t id = 0; id < stacks_line_entries(s); id++) {
        const struct line_key *k = stacks_line_key(s, id);
        uint32_t i = k->at < nframes ? slot[k->at] : UINT32_MAX;
        if (i == UINT32_MAX)
            continue;
        GROW(g[i], cap[i], ng[i]);
        g[i][ng[i]++] = (struct gathered){id, k->file, k->line,
                                          stacks_line_count(s, p->columns[de].col, id)};
    }
    for (size_t i = 0; i < hp->nfn; i++) {
        take_lines(h, &hp->fn[i], p, g[i], ng[i]);
        free(g[i]);
    }
    free(g);
    free(ng);
    free(cap);
    free(slot);
}

/* ---- writing ----------------------------------------------------------------- */

/* What the profile itself gets wrong about a function's lines. */
static void put_fn_notes(struct textout *o, const struct hot_fn *fn, const char *event)
{
    char note[200];
    bool first = true;
    to_puts(o, ",\"notes\":[");
    if (fn->line0) {
        snprintf(note, sizeof note, "%" PRIu64 " %s on line 0: code the profile gives no "
                 "line for", fn->line0, event);
        to_script_json_string(o, note, strlen(note));
        first = false;
    }
    if (fn->beyond) {
        snprintf(note, sizeof note, "line %" PRIu32 " is beyond any source file: the "
                 "profile's line numbers are wrong here", fn->beyond_line);
        if (!first)
            to_puts(o, ",");
        to_script_json_string(o, note, strlen(note));
    }
    to_puts(o, "]");
}

void hot_part_put(struct textout *o, const struct hot_page *h, size_t index)
{
    const struct hot_part *hp = &h->part[index];
    size_t E = h->nevents;
    to_puts(o, ",\"hot\":{");
    if (hp->why) {
        to_puts(o, "\"why\":");
        to_script_json_string(o, hp->why, strlen(hp->why));
        to_puts(o, "}");
        return;
    }
    const char *event = h->r->events[h->r->default_event];
    to_puts(o, "\"fns\":[");
    for (size_t i = 0; i < hp->nfn; i++) {
        const struct hot_fn *fn = &hp->fn[i];
        to_printf(o, "%s{\"f\":%" PRIu32 ",\"self\":", i ? ",\n" : "\n", fn->name);
        to_u64_array(o, fn->self, E);
        to_puts(o, ",\"lines\":[");
        for (size_t k = 0; k < fn->nlines; k++) {
            to_printf(o, "%s[%" PRIu32 ",%" PRIu32, k ? "," : "", fn->lines[k].file,
                      fn->lines[k].line);
            for (size_t e = 0; e < E; e++) {
                to_puts(o, ",");
                to_u64(o, fn->cost[fn->lines[k].cost + e]);
            }
            to_puts(o, "]");
        }
        to_printf(o, "],\"rest\":{\"n\":%zu,\"cost\":", fn->nrest);
        to_u64_array(o, fn->rest, E);
        to_puts(o, "},\"partial\":[");
        bool first = true;
        for (size_t e = 0; e < E; e++)
            if (fn->partial[e]) {
                to_printf(o, "%s%zu", first ? "" : ",", e);
                first = false;
            }
        to_puts(o, "]");
        put_fn_notes(o, fn, event);
        to_puts(o, "}");
    }
    to_puts(o, "]}");
}

static int by_number(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* Whether s[0 .. n) is valid UTF-8. */
static bool valid_utf8(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned cp;
        size_t len = utf8_decode(s, n, i, &cp);
        if (cp == 0xFFFD && len == 1)
            return false;
        i += len;
    }
    return true;
}

/* "text": the wanted lines and HOT_CONTEXT lines each side, in runs of
 * consecutive lines: [first, text, text, ...]. Notes what it met. */
struct text_facts {
    bool not_utf8, cut_lines;
    uint32_t beyond;            /* the first wanted line past the file's */
};

static void put_text(struct textout *o, const struct source_file *sf, const struct hot_file *f,
                     struct text_facts *facts)
{
    to_puts(o, ",\"text\":[");
    uint64_t next = 0;          /* the line after the run being written */
    bool open = false, any = false;
    for (size_t i = 0; i < f->nwant; i++) {
        uint64_t w = f->want[i];
        if (w > sf->nlines) {
            if (!facts->beyond)
                facts->beyond = (uint32_t)w;
            continue;
        }
        uint64_t from = w > HOT_CONTEXT ? w - HOT_CONTEXT : 1;
        uint64_t to = w + HOT_CONTEXT < sf->nlines ? w + HOT_CONTEXT : sf->nlines;
        if (open && from > next) {
            to_puts(o, "]");
            open = false;
        }
        if (from < next)
            from = next;
        for (uint64_t n = from; n <= to; n++) {
            if (!open) {
                to_printf(o, "%s[%" PRIu64, any ? "," : "", n);
                open = any = true;
            }
            size_t len;
            bool cut;
            const char *t = source_line(sf, n, &len, &cut);
            facts->not_utf8 |= !valid_utf8(t, len);
            facts->cut_lines |= cut;
            to_puts(o, ",\"");
            to_script_json(o, t, len);
            to_puts(o, cut ? "\u2026\"" : "\"");
        }
        if (to + 1 > next)
            next = to + 1;
    }
    to_puts(o, open ? "]]" : "]");
}

static void put_file_notes(struct textout *o, const struct source_file *sf,
                           const struct text_facts *facts)
{
    char note[300];
    const char *notes[4];
    size_t n = 0;
    char beyond[200];
    if (facts->beyond && !sf->cut) {
        snprintf(beyond, sizeof beyond, "the file has %zu lines and the profile names line "
                 "%" PRIu32 ": it is not the source this was built from", sf->nlines,
                 facts->beyond);
        notes[n++] = beyond;
    } else if (facts->beyond) {
        snprintf(beyond, sizeof beyond, "line %" PRIu32 " is past the first 4 MB of the "
                 "file, which is all that is read of a file", facts->beyond);
        notes[n++] = beyond;
    }
    if (facts->not_utf8)
        notes[n++] = "not UTF-8: bytes that are not valid UTF-8 are shown as \ufffd";
    if (facts->cut_lines) {
        snprintf(note, sizeof note, "lines longer than %d bytes are cut (\u2026)",
                 SOURCE_MAX_LINE);
        notes[n++] = note;
    }
    to_puts(o, ",\"notes\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            to_puts(o, ",");
        to_script_json_string(o, notes[i], strlen(notes[i]));
    }
    to_puts(o, "]");
}

void hot_sources_put(struct textout *o, struct hot_page *h)
{
    to_printf(o, ",\n\"hotLimits\":{\"functions\":%d,\"permille\":%d,\"lines\":%d,"
                 "\"context\":%d}",
              HOT_MAX_FUNCTIONS, HOT_MIN_PERMILLE, HOT_MAX_LINES, HOT_CONTEXT);
    to_puts(o, ",\n\"sources\":[");
    for (size_t i = 0; i < h->nfiles; i++) {
        struct hot_file *f = &h->file[i];
        const char *name = strtab_str(h->r->files, f->name);
        to_puts(o, i ? ",\n{\"path\":" : "\n{\"path\":");
        to_script_json_string(o, name, strtab_len(h->r->files, f->name));
        if (f->nwant)
            qsort(f->want, f->nwant, sizeof *f->want, by_number);
        struct source_file sf;
        if (!source_read(&sf, name, h->ro->source_dirs, h->ro->nsource_dirs)) {
            to_puts(o, ",\"why\":");
            to_script_json_string(o, sf.why, strlen(sf.why));
        } else {
            if (strcmp(sf.path, name) != 0) {
                to_puts(o, ",\"found\":");
                to_script_json_string(o, sf.path, strlen(sf.path));
            }
            to_printf(o, ",\"lines\":%zu", sf.nlines);
            struct text_facts facts = {0};
            put_text(o, &sf, f, &facts);
            put_file_notes(o, &sf, &facts);
        }
        source_free(&sf);
        to_puts(o, "}");
    }
    to_puts(o, "]");
}

void hot_page_free(struct hot_page *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->r->nparts; i++) {
        struct hot_part *hp = &h->part[i];
        for (size_t j = 0; j < hp->nfn; j++) {
            struct hot_fn *fn = &hp->fn[j];
            free(fn->self);
            free(fn->lines);
            free(fn->cost);
            free(fn->rest);
            free(fn->partial);
        }
        free(hp->fn);
    }
    free(h->part);
    for (size_t i = 0; i < h->nfiles; i++)
        free(h->file[i].want);
    free(h->file);
    hashmap_free(&h->file_index);
    free(h);
}
