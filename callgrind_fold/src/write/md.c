/* -f md: the parts of a run, or of two runs paired by benchmark name
 * (--diff OLD NEW), as Markdown tables a CI comment can post (report.h).
 *
 * A run: one row per part, its total of each event (the --event's
 * first). Two runs: one row per benchmark with its --event total before
 * and after and the change in percent, in the order the pipeline sorted
 * them (largest change first, then removed, then added benchmarks); a
 * second table gives the change of each other event, for benchmarks of
 * both runs. */
#include "report.h"
#include "textout.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Text in a table cell: Markdown's punctuation escaped, so a name is
 * shown as it is; control characters and invalid UTF-8 as U+FFFD. */
static void put_cell(struct textout *o, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        unsigned cp;
        size_t len = utf8_decode(s, n, i, &cp);
        if (cp < 0x20 || cp == 0x7f || cp == 0xFFFD) {
            to_puts(o, "\xEF\xBF\xBD");
        } else {
            if (len == 1 && strchr("\\`*_[]<>|#~", s[i]))
                to_put(o, "\\", 1);
            to_put(o, s + i, len);
        }
        i += len;
    }
}

static uint64_t total_of(const struct report_part *p, size_t e)
{
    return p && e != SIZE_MAX ? p->columns[e].total : 0;
}

/* A count with thousands separators ("7,064,247"): a CI comment's
 * reader compares magnitudes at a glance. */
static void put_count(struct textout *o, uint64_t v)
{
    char digits[32], text[48];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            text[k++] = ',';
        text[k++] = digits[i];
    }
    to_put(o, text, k);
}

/* "+12.3%", "-0.4%", "0.0%"; "n/a" from nothing to something. */
static void put_change(struct textout *o, uint64_t before, uint64_t after)
{
    if (before == 0) {
        to_puts(o, after ? "n/a" : "0.0%");
        return;
    }
    double pct = 100.0 * ((double)after - (double)before) / (double)before;
    char text[64];
    snprintf(text, sizeof text, "%+.1f%%", pct);
    if (strcmp(text, "+0.0%") == 0 || strcmp(text, "-0.0%") == 0)
        snprintf(text, sizeof text, "0.0%%");
    to_puts(o, text);
}

/* The events in table order: the default one first. */
static size_t event_at(const struct report *r, size_t k)
{
    if (k == 0)
        return r->default_event;
    return k <= r->default_event ? k - 1 : k;
}

/* "## HEADING" (report_heading), one line whatever the title holds: a
 * newline would end the heading and start a paragraph of its own. */
static void put_heading(struct textout *o, const char *heading)
{
    to_puts(o, "## ");
    put_cell(o, heading);
    to_puts(o, "\n\n");
}

static void put_header_notes(struct textout *o, const struct report *r)
{
    if (r->cmd && *r->cmd) {
        to_puts(o, "Command: ");
        put_cell(o, r->cmd);
        to_puts(o, "\n\n");
    }
    for (size_t i = 0; i < r->nmetadata; i++) {
        to_puts(o, i == 0 ? "Harness: " : ", ");
        put_cell(o, r->metadata[i]);
        if (i + 1 == r->nmetadata)
            to_puts(o, "\n\n");
    }
}

int md_write_report(FILE *out, const struct report *r)
{
    struct buf heading = {0};
    report_heading(&heading, r);
    struct textout o;
    to_init(&o, out);
    put_heading(&o, buf_cstr(&heading));
    buf_free(&heading);
    put_header_notes(&o, r);
    to_puts(&o, "| Benchmark |");
    for (size_t k = 0; k < r->nevents; k++) {
        to_puts(&o, " ");
        put_cell(&o, r->events[event_at(r, k)]);
        to_puts(&o, " |");
    }
    to_puts(&o, "\n|:---|");
    for (size_t k = 0; k < r->nevents; k++)
        to_puts(&o, "---:|");
    to_puts(&o, "\n");
    for (size_t i = 0; i < r->nparts; i++) {
        const struct report_part *p = &r->parts[i];
        to_puts(&o, "| ");
        put_cell(&o, p->name);
        to_puts(&o, " |");
        for (size_t k = 0; k < r->nevents; k++) {
            to_puts(&o, " ");
            put_count(&o, p->columns[event_at(r, k)].total);
            to_puts(&o, " |");
        }
        to_puts(&o, "\n");
    }
    if (r->nparts == 0)
        to_puts(&o, "\nNo part with a cost.\n");
    return to_finish(&o);
}

int md_write_diff(FILE *out, const struct report_diff *d)
{
    const struct report *old = d->old, *new = d->new;
    const char *event = new->nevents ? new->events[new->default_event] : "";
    size_t old_event = report_event_index(old, event), new_event = new->default_event;
    struct textout o;
    to_init(&o, out);
    struct buf heading = {0};
    report_diff_heading(&heading, d);
    put_heading(&o, buf_cstr(&heading));
    buf_free(&heading);
    put_header_notes(&o, new);
    to_puts(&o, "| Benchmark | ");
    put_cell(&o, event);
    to_puts(&o, " before | ");
    put_cell(&o, event);
    to_puts(&o, " after | Change |\n|:---|---:|---:|---:|\n");
    size_t both = 0;
    for (size_t i = 0; i < d->npairs; i++) {
        const struct report_pair *p = &d->pairs[i];
        both += p->old && p->new;
        to_puts(&o, "| ");
        put_cell(&o, p->name);
        to_puts(&o, " | ");
        if (p->old)
            put_count(&o, total_of(p->old, old_event));
        to_puts(&o, " | ");
        if (p->new)
            put_count(&o, total_of(p->new, new_event));
        to_puts(&o, " | ");
        if (p->old && p->new)
            put_change(&o, total_of(p->old, old_event), total_of(p->new, new_event));
        else
            to_puts(&o, p->old ? "removed" : "added");
        to_puts(&o, " |\n");
    }
    /* The other events both runs have: their change only. */
    size_t nother = 0;
    for (size_t e = 0; e < new->nevents; e++)
        nother += e != new_event && report_event_index(old, new->events[e]) != SIZE_MAX;
    if (both && nother) {
        to_puts(&o, "\nOther events, change:\n\n| Benchmark |");
        for (size_t e = 0; e < new->nevents; e++)
            if (e != new_event && report_event_index(old, new->events[e]) != SIZE_MAX) {
                to_puts(&o, " ");
                put_cell(&o, new->events[e]);
                to_puts(&o, " |");
            }
        to_puts(&o, "\n|:---|");
        for (size_t k = 0; k < nother; k++)
            to_puts(&o, "---:|");
        to_puts(&o, "\n");
        for (size_t i = 0; i < d->npairs; i++) {
            const struct report_pair *p = &d->pairs[i];
            if (!p->old || !p->new)
                continue;
            to_puts(&o, "| ");
            put_cell(&o, p->name);
            to_puts(&o, " |");
            for (size_t e = 0; e < new->nevents; e++) {
                size_t oe = report_event_index(old, new->events[e]);
                if (e == new_event || oe == SIZE_MAX)
                    continue;
                to_puts(&o, " ");
                put_change(&o, total_of(p->old, oe), total_of(p->new, e));
                to_puts(&o, " |");
            }
            to_puts(&o, "\n");
        }
    }
    if (d->npairs == 0)
        to_puts(&o, "\nNo part with a cost in either run.\n");
    return to_finish(&o);
}
