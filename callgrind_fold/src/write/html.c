/* Writer: the HTML report (-f html, report.h): one self-contained page,
 * its script and style (report.js, report.css) embedded, no request to
 * anything outside it (a Content-Security-Policy says so to the browser).
 *
 * The data: for each part (or --diff pair) its pruned tree of frames
 * (reporttree.h) as a <script type="application/octet-stream"> block
 * that the script decodes only when the part's picture is first shown,
 * then one JSON block: the events, every frame name once, each part's
 * name, totals and hot lines, and the hot lines' sources (hotlines.h;
 * not for --diff). A tree block is its nodes in preorder, each
 * written as numbers: 1 + the previous node's depth - its depth, its
 * name's index, then its self count in every column (the events; for a
 * diff pair the new part's events, then the old's). A number is written
 * in base 32, most significant digit first, every digit but the last
 * from CONT_DIGITS, the last from LAST_DIGITS: "0" is 0, "x1" is 33. */
#include "hotlines.h"
#include "report.h"
#include "reporttree.h"
#include "textout.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

extern const char report_js[];
extern const char report_css[];

static const char LAST_DIGITS[] = "0123456789abcdefghijklmnopqrstuv";
static const char CONT_DIGITS[] = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-";

/* The unshortened name of a frame, for its tooltip (its text when the
 * pipeline did not shorten it). */
static const char *frame_raw_name(const struct stacks *s, uint32_t frame, size_t *len)
{
    const char *raw = stacks_frame_raw(s, frame);
    *len = strlen(raw);
    return raw;
}

/* A name's shown length: its frame's key (reporttree.h) up to the NUL
 * that ends the text of a frame kept apart from others alike. */
static size_t name_length(const struct strtab *tab, uint32_t id)
{
    const char *s = strtab_str(tab, id);
    const char *nul = memchr(s, '\0', strtab_len(tab, id));
    return nul ? (size_t)(nul - s) : strtab_len(tab, id);
}

static void put_number(struct textout *o, uint64_t v)
{
    char digits[16];
    size_t n = 0;
    do {
        digits[n++] = (char)(v & 31);
        v >>= 5;
    } while (v);
    char text[16];
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned char)digits[n - 1 - i];
        text[i] = i + 1 < n ? CONT_DIGITS[d] : LAST_DIGITS[d];
    }
    to_put(o, text, n);
}

static void put_tree(struct textout *o, size_t index, const struct report_tree *t)
{
    to_printf(o, "<script type=\"application/octet-stream\" id=\"cf-t%zu\">", index);
    uint64_t prev_depth = 0; /* the root's "previous" is one level up */
    for (size_t i = 0; i < t->count; i++) {
        uint64_t depth = t->depth[i];
        put_number(o, i == 0 ? 0 : prev_depth + 1 - depth);
        prev_depth = depth;
        put_number(o, t->name[i]);
        const uint64_t *self = t->self + i * t->ncols;
        for (size_t c = 0; c < t->ncols; c++)
            put_number(o, self[c]);
    }
    to_puts(o, "</script>\n");
}

static void put_json_string(struct textout *o, const char *s)
{
    if (!s) {
        to_puts(o, "null");
        return;
    }
    to_script_json_string(o, s, strlen(s));
}

/* What the page says of a part's tree besides its nodes. */
struct tree_facts {
    uint64_t *total, *unknown;
    size_t ncols, nodes;
    uint64_t pruned;
};

static void keep_facts(struct tree_facts *f, struct report_tree *t)
{
    f->total = t->total;
    f->unknown = t->unknown;
    t->total = t->unknown = NULL;
    f->ncols = t->ncols;
    f->nodes = t->count;
    f->pruned = t->pruned;
}

/* Part i's tree written as its data block; what the JSON needs of it
 * kept in *f, the rest freed. */
static void put_tree_keep_facts(struct textout *o, size_t i, struct report_tree *t,
                                struct tree_facts *f)
{
    put_tree(o, i, t);
    keep_facts(f, t);
    report_tree_free(t);
}

static void put_facts(struct textout *o, const struct tree_facts *f)
{
    to_printf(o, "\"cols\":%zu,\"nodes\":%zu,\"pruned\":", f->ncols, f->nodes);
    to_u64(o, f->pruned);
    to_puts(o, ",\"totals\":");
    to_u64_array(o, f->total, f->ncols);
    to_puts(o, ",\"unknown\":");
    to_u64_array(o, f->unknown, f->ncols);
}

static void free_facts(struct tree_facts *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(f[i].total);
        free(f[i].unknown);
    }
    free(f);
}

/* The command can be as long as the kernel allows: the page shows this
 * much of it (the heading says what ran in short). */
#define COMMAND_MAX_CHARS 2000

/* A line of the header: "Command: ..." and the like, when known. */
static void put_fact(struct textout *o, const char *what, const char *text)
{
    if (!text || !*text)
        return;
    to_puts(o, "<p class=\"subtitle\">");
    to_xml(o, what, strlen(what), 0);
    to_xml(o, text, strlen(text), COMMAND_MAX_CHARS);
    to_puts(o, "</p>");
}

/* A run's input in small print: its name as given ("and N more" when
 * several files were read, e.g. one per thread). */
static void put_input_name(struct textout *o, const struct report *r)
{
    to_xml(o, r->input, strlen(r->input), 0);
    if (r->ninputs > 1)
        to_printf(o, " and %zu more", r->ninputs - 1);
}

/* Under the heading, which names what ran, the files it was read from. */
static void put_inputs(struct textout *o, const struct report *old, const struct report *r)
{
    if (!r->input || (old && !old->input))
        return;
    to_puts(o, old ? "<p class=\"cf-input\">Inputs: " : "<p class=\"cf-input\">Input: ");
    if (old) {
        put_input_name(o, old);
        to_puts(o, " \u2192 ");
    }
    put_input_name(o, r);
    to_puts(o, "</p>");
}

/* The page up to its data: the heading (report_heading), the inputs
 * (old's too for --diff), the subtitle and what ran. */
static void put_head(struct textout *o, const struct render_options *ro, const char *title,
                     const struct report *old, const struct report *r)
{
    to_puts(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
               "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
               "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
    to_xml(o, title, strlen(title), 0);
    to_puts(o, "</title>\n<style>\n");
    to_puts(o, report_css);
    to_puts(o, "</style>\n</head>\n<body>\n<header><h1>");
    to_xml(o, title, strlen(title), 0);
    to_puts(o, "</h1>");
    put_inputs(o, old, r);
    if (ro->subtitle) {
        to_puts(o, "<p class=\"subtitle\">");
        to_xml(o, ro->subtitle, strlen(ro->subtitle), 0);
        to_puts(o, "</p>");
    }
    /* what ran: the command, and the harness's own words (CodSpeed's
     * "Metadata:" parts, e.g. "codspeed-node 5.7.1") */
    put_fact(o, "Command: ", r->cmd);
    for (size_t i = 0; i < r->nmetadata; i++)
        put_fact(o, "Harness: ", r->metadata[i]);
    to_puts(o, "</header>\n<main id=\"cf-main\"><noscript>This report is drawn by its "
               "script: allow JavaScript for this file.</noscript></main>\n");
}

/* "estimate": which event the page shows as estimated cycles, and its
 * label; for --diff, whether OLD has it too. Only when the run has it, so
 * other pages stay as they were. */
static void put_estimate(struct textout *o, const struct report *old, const struct report *r)
{
    size_t e = report_event_index(r, REPORT_ESTIMATE_EVENT);
    if (e == SIZE_MAX)
        return;
    to_printf(o, ",\"estimate\":{\"event\":%zu,\"label\":", e);
    put_json_string(o, REPORT_ESTIMATE_LABEL);
    if (old)
        to_printf(o, ",\"old\":%s",
                  report_event_index(old, REPORT_ESTIMATE_EVENT) != SIZE_MAX ? "true" : "false");
    to_puts(o, "}");
}

/* The JSON block's opening: kind, title, events and the frame names
 * (index = id in the tree blocks; the two reserved ones by their role). */
static void put_meta_start(struct textout *o, const char *kind, const char *title,
                           const struct report *old, const struct report *r,
                           const struct event_column *long_names,
                           const struct report_names *names)
{
    to_printf(o, "<script type=\"application/json\" id=\"cf-meta\">{\"kind\":\"%s\","
                 "\"title\":", kind);
    put_json_string(o, title);
    to_printf(o, ",\"divisor\":%d,\"defaultEvent\":%zu,\"events\":[", REPORT_TREE_DIVISOR,
              r->default_event < r->nevents ? r->default_event : 0);
    for (size_t e = 0; e < r->nevents; e++) {
        to_puts(o, e ? ",[" : "[");
        put_json_string(o, r->events[e]);
        to_puts(o, ",");
        put_json_string(o, long_names ? long_names[e].long_name : NULL);
        to_puts(o, "]");
    }
    /* per event, what a cycle estimate estimates (the page shows those
     * in cycles), else null */
    to_puts(o, "],\"cycles\":[");
    for (size_t e = 0; e < r->nevents; e++) {
        to_puts(o, e ? "," : "");
        put_json_string(o, event_cycles_estimate(r->events[e]));
    }
    to_puts(o, "]");
    put_estimate(o, old, r);
    to_puts(o, ",\n\"names\":[\"(merged)\",\"all\"");
    const struct strtab *tab = &names->tab;
    for (uint32_t id = REPORT_NAME_ROOT + 1; id < tab->count; id++) {
        to_puts(o, ",\"");
        to_script_json(o, strtab_str(tab, id), name_length(tab, id));
        to_puts(o, "\"");
    }
    /* Raw names, only of the frames whose shown name differs. */
    to_puts(o, "],\n\"raw\":{");
    bool first = true;
    for (uint32_t id = REPORT_NAME_ROOT + 1; id < tab->count; id++) {
        const struct report_name_origin *src = &names->origin[id];
        size_t len;
        const char *raw = frame_raw_name(src->stacks, src->frame, &len);
        if (len == name_length(tab, id) && memcmp(raw, strtab_str(tab, id), len) == 0)
            continue;
        to_printf(o, "%s\"%u\":\"", first ? "" : ",", id);
        to_script_json(o, raw, len);
        to_puts(o, "\"");
        first = false;
    }
    to_puts(o, "},\n\"parts\":[");
}

/* After the parts: the sources of their hot lines (none for --diff). */
static void put_page_end(struct textout *o, struct hot_page *hot)
{
    to_puts(o, "]");
    if (hot)
        hot_sources_put(o, hot);
    to_puts(o, "}</script>\n<script>\n");
    to_puts(o, report_js);
    to_puts(o, "</script>\n</body>\n</html>\n");
}

/* The first part's columns that name the events' long names, or NULL. */
static const struct event_column *long_names_of(const struct report *r)
{
    for (size_t i = 0; i < r->nparts; i++)
        if (r->parts[i].columns)
            return r->parts[i].columns;
    return NULL;
}

/* A part whose stacks start with its threads draws them in its order. */
static int tree_flags(const struct report_part *p)
{
    return p && p->nthreads ? REPORT_ROOTS_IN_ORDER : 0;
}

static void build_part_tree(struct report_tree *t, struct report_names *names,
                            const struct report_part *p, size_t nevents)
{
    struct report_source src = {p->stacks, p->columns, nevents, 0};
    report_tree_build(t, names, &src, p->stacks && p->columns ? 1 : 0, nevents,
                      tree_flags(p));
}

/* "threads":[...]: the part's threads' frames, in order. */
static void put_threads(struct textout *o, const struct report_part *p)
{
    to_puts(o, ",\"threads\":[");
    for (size_t t = 0; t < p->nthreads; t++) {
        if (t)
            to_puts(o, ",");
        put_json_string(o, p->threads[t]);
    }
    to_puts(o, "]");
}

int html_write_report(FILE *out, const struct render_options *ro, const struct report *r)
{
    struct buf heading = {0};
    report_heading(&heading, r);
    const char *title = buf_cstr(&heading);
    struct textout o;
    to_init(&o, out);
    put_head(&o, ro, title, NULL, r);
    struct report_names names;
    report_names_init(&names);
    struct tree_facts *facts = xcalloc(r->nparts + 1, sizeof *facts);
    struct hot_page *hot = hot_page_new(r, ro);
    for (size_t i = 0; i < r->nparts; i++) {
        struct report_tree t;
        build_part_tree(&t, &names, &r->parts[i], r->nevents);
        put_tree_keep_facts(&o, i, &t, &facts[i]);
        hot_part_choose(hot, i, &r->parts[i], &names);
    }
    put_meta_start(&o, "report", title, NULL, r, long_names_of(r), &names);
    for (size_t i = 0; i < r->nparts; i++) {
        const struct report_part *p = &r->parts[i];
        to_puts(&o, i ? ",\n{\"name\":" : "\n{\"name\":");
        put_json_string(&o, p->name);
        to_puts(&o, ",\"number\":");
        to_u64(&o, p->number);
        to_puts(&o, ",\"trigger\":");
        put_json_string(&o, p->trigger);
        put_threads(&o, p);
        to_printf(&o, ",\"tree\":%zu,", i);
        put_facts(&o, &facts[i]);
        hot_part_put(&o, hot, i);
        to_puts(&o, "}");
    }
    put_page_end(&o, hot);
    hot_page_free(hot);
    free_facts(facts, r->nparts);
    report_names_free(&names);
    buf_free(&heading);
    return to_finish(&o);
}

/* The old part's columns in the new run's event order (an event the old
 * run lacks counts nothing). */
static struct event_column *columns_by_name(const struct report *from,
                                            const struct report_part *p,
                                            const struct report *to)
{
    struct event_column *cols = xcalloc(to->nevents + 1, sizeof *cols);
    for (size_t e = 0; e < to->nevents; e++) {
        size_t f = p->columns ? report_event_index(from, to->events[e]) : SIZE_MAX;
        if (f != SIZE_MAX)
            cols[e] = p->columns[f];
        else
            cols[e].col = NO_COLUMN;
    }
    return cols;
}

static void put_side(struct textout *o, const char *key, const struct report_part *p,
                     const struct event_column *cols, size_t nevents)
{
    to_printf(o, ",\"%s\":", key);
    if (!p) {
        to_puts(o, "null");
        return;
    }
    to_puts(o, "{\"number\":");
    to_u64(o, p->number);
    to_puts(o, ",\"trigger\":");
    put_json_string(o, p->trigger);
    put_threads(o, p);
    to_puts(o, ",\"totals\":[");
    for (size_t e = 0; e < nevents; e++) {
        if (e)
            to_puts(o, ",");
        to_u64(o, cols ? cols[e].total : 0);
    }
    to_puts(o, "]}");
}

int html_write_diff(FILE *out, const struct render_options *ro, const struct report_diff *d)
{
    const struct report *r = d->new;
    struct buf heading = {0};
    report_diff_heading(&heading, d);
    const char *title = buf_cstr(&heading);
    size_t ne = r->nevents;
    struct textout o;
    to_init(&o, out);
    put_head(&o, ro, title, d->old, r);
    struct report_names names;
    report_names_init(&names);
    struct tree_facts *facts = xcalloc(d->npairs + 1, sizeof *facts);
    struct event_column **old_cols = xcalloc(d->npairs + 1, sizeof *old_cols);
    for (size_t i = 0; i < d->npairs; i++) {
        const struct report_pair *p = &d->pairs[i];
        if (p->old)
            old_cols[i] = columns_by_name(d->old, p->old, r);
        struct report_tree t;
        if (p->old && p->new) { /* new counts in columns [0, ne), old in [ne, 2ne) */
            struct report_source src[2] = {{p->new->stacks, p->new->columns, ne, 0},
                                           {p->old->stacks, old_cols[i], ne, ne}};
            size_t first = p->new->stacks && p->new->columns ? 0 : 1;
            size_t nsrc = p->old->stacks ? 2 : 1;
            report_tree_build(&t, &names, src + first, nsrc - first, 2 * ne,
                              tree_flags(p->new));
        } else if (p->new) {
            build_part_tree(&t, &names, p->new, ne);
        } else {
            struct report_source src = {p->old->stacks, old_cols[i], ne, 0};
            report_tree_build(&t, &names, &src, p->old->stacks ? 1 : 0, ne,
                              tree_flags(p->old));
        }
        put_tree_keep_facts(&o, i, &t, &facts[i]);
    }
    put_meta_start(&o, "diff", title, d->old, r, long_names_of(r), &names);
    for (size_t i = 0; i < d->npairs; i++) {
        const struct report_pair *p = &d->pairs[i];
        to_puts(&o, i ? ",\n{\"name\":" : "\n{\"name\":");
        put_json_string(&o, p->name);
        put_side(&o, "old", p->old, old_cols[i], ne);
        put_side(&o, "new", p->new, p->new ? p->new->columns : NULL, ne);
        to_printf(&o, ",\"tree\":%zu,\"diff\":%s,", i, p->old && p->new ? "true" : "false");
        put_facts(&o, &facts[i]);
        to_puts(&o, "}");
        free(old_cols[i]);
    }
    put_page_end(&o, NULL);
    free(old_cols);
    free_facts(facts, d->npairs);
    report_names_free(&names);
    buf_free(&heading);
    return to_finish(&o);
}
