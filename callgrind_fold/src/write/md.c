/* -f md: the parts of a run, or of two runs paired by benchmark name
 * (--diff OLD NEW), as Markdown tables a CI comment can post (report.h).
 *
 * A run: one row per part, its total of each event (the --event's
 * first). Two runs: one row per benchmark with its --event total before
 * and after and the change in percent, in the order the pipeline sorted
 * them (largest change first, then removed, then added benchmarks); a
 * second table gives the change of each other event, for benchmarks of
 * both runs. A run with --cycle-estimation's Cb (REPORT_ESTIMATE_EVENT)
 * also has its estimated cycles beside the --event's columns. With line
 * positions in both runs, --diff's tables are followed by the lines that
 * changed most in the functions that changed most, per changed benchmark
 * (chosen by mdlines.c; the parts' stacks are then flat profiles:
 * stacks_add_self). */
#include "mdlines.h"
#include "report.h"
#include "textout.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Text in a table cell: Markdown's punctuation escaped, so a name is
 * shown as it is; control characters and invalid UTF-8 as U+FFFD. */
static void put_cell_n(struct textout *o, const char *s, size_t n)
{
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

static void put_cell(struct textout *o, const char *s)
{
    put_cell_n(o, s, strlen(s));
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

/* Centi-cycles as cycles with two decimals ("1,234.56"): exactly v / 100,
 * so the figure is the file's total, only scaled. */
static void put_cycles(struct textout *o, uint64_t v)
{
    put_count(o, v / 100);
    char frac[8];
    snprintf(frac, sizeof frac, ".%02u", (unsigned)(v % 100));
    to_puts(o, frac);
}

/* An event's count as the tables show it: --cycle-estimation's
 * hundredths of a cycle as cycles (`cycles`), the others as counted. */
static void put_amount(struct textout *o, bool cycles, uint64_t v)
{
    if (cycles)
        put_cycles(o, v);
    else
        put_count(o, v);
}

/* "+12.3%", "-0.4%", "0.0%"; "n/a" from nothing to something. */
static void put_change(struct textout *o, uint64_t before, uint64_t after)
{
    char text[64];
    md_change_text(text, sizeof text, before, after);
    to_puts(o, text);
}

/* A change in counts, signed: "+2,000", "-500", "0" (cycles: "+1.50"). */
static void put_delta(struct textout *o, bool cycles, uint64_t before, uint64_t after)
{
    if (before != after)
        to_puts(o, after > before ? "+" : "-");
    put_amount(o, cycles, after > before ? after - before : before - after);
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
    size_t est = report_event_index(r, REPORT_ESTIMATE_EVENT);
    to_puts(&o, "| Benchmark |");
    for (size_t k = 0; k < r->nevents; k++) {
        to_puts(&o, " ");
        put_cell(&o, r->events[event_at(r, k)]);
        to_puts(&o, " |");
        if (k == 0 && est != SIZE_MAX)
            to_puts(&o, " " REPORT_ESTIMATE_LABEL " |");
    }
    to_puts(&o, "\n|:---|");
    for (size_t k = 0; k < r->nevents + (est != SIZE_MAX); k++)
        to_puts(&o, "---:|");
    to_puts(&o, "\n");
    for (size_t i = 0; i < r->nparts; i++) {
        const struct report_part *p = &r->parts[i];
        to_puts(&o, "| ");
        put_cell(&o, p->name);
        to_puts(&o, " |");
        for (size_t k = 0; k < r->nevents; k++) {
            to_puts(&o, " ");
            size_t e = event_at(r, k);
            put_amount(&o, event_counts_centicycles(r->events[e]), p->columns[e].total);
            to_puts(&o, " |");
            if (k == 0 && est != SIZE_MAX) {
                to_puts(&o, " ");
                put_cycles(&o, p->columns[est].total);
                to_puts(&o, " |");
            }
        }
        to_puts(&o, "\n");
    }
    if (r->nparts == 0)
        to_puts(&o, "\nNo part with a cost.\n");
    return to_finish(&o);
}

/* "file.c:12", "file.c (no line)", "(no file):12". */
static void put_place(struct textout *o, const struct changed_line *l)
{
    if (l->file_len)
        put_cell_n(o, l->file, l->file_len);
    else
        to_puts(o, "(no file)");
    if (l->line)
        to_printf(o, ":%u", (unsigned)l->line);
    else
        to_puts(o, " (no line)");
}

static void put_line_row(struct textout *o, bool cycles, const struct changed_function *f,
                         const struct changed_line *l, bool first)
{
    to_puts(o, "| ");
    if (first) {
        put_cell_n(o, f->name, f->name_len);
        to_puts(o, " (self ");
        put_delta(o, cycles, f->before, f->after);
        to_puts(o, ")");
    }
    to_puts(o, " | ");
    if (l)
        put_place(o, l);
    else
        to_puts(o, "lines not known");
    uint64_t before = l ? l->before : f->before, after = l ? l->after : f->after;
    to_puts(o, " | ");
    put_amount(o, cycles, before);
    to_puts(o, " | ");
    put_amount(o, cycles, after);
    to_puts(o, " | ");
    put_delta(o, cycles, before, after);
    to_puts(o, " |\n");
}

/* Per changed benchmark whose profiles have lines (mdlines.h): the
 * functions whose self cost changed most and their lines that changed
 * most. Nothing without lines: the table is then as it always was. */
static void put_changed_lines(struct textout *o, const struct report_diff *d,
                              const char *event)
{
    struct changed_benchmark b[MD_LINES_BENCHMARKS];
    size_t more, n = md_changed_lines(d, b, &more);
    if (n == 0)
        return;
    bool cycles = event_counts_centicycles(event);
    to_puts(o, "\n### Lines that changed most\n\nThe functions whose self ");
    put_cell(o, event);
    to_puts(o, " changed most, and their lines that changed most (self cost, all callers):\n");
    for (size_t i = 0; i < n; i++) {
        to_puts(o, "\n**");
        put_cell(o, b[i].pair->name);
        to_puts(o, "**\n\n| Function | Line | ");
        put_cell(o, event);
        to_puts(o, " before | ");
        put_cell(o, event);
        to_puts(o, " after | Change |\n|:---|:---|---:|---:|---:|\n");
        for (size_t k = 0; k < b[i].nfunctions; k++) {
            const struct changed_function *f = &b[i].functions[k];
            if (!f->lines_known || f->nlines == 0)
                put_line_row(o, cycles, f, NULL, true);
            for (size_t j = 0; j < f->nlines; j++)
                put_line_row(o, cycles, f, &f->lines[j], j == 0);
        }
    }
    if (more)
        to_printf(o, "\n%zu more benchmark%s changed; %s not listed.\n", more,
                  more == 1 ? "" : "s", more == 1 ? "its lines are" : "their lines are");
    to_puts(o, "\nLines pair by function, file name and line number: a line that moved "
               "is listed as removed (after 0) at its old number and added (before 0) "
               "at its new one.\n");
}

int md_write_diff(FILE *out, const struct report_diff *d)
{
    const struct report *old = d->old, *new = d->new;
    const char *event = new->nevents ? new->events[new->default_event] : "";
    size_t old_event = report_event_index(old, event), new_event = new->default_event;
    bool cycles = event_counts_centicycles(event);
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
    to_puts(&o, " after | Change |");
    /* NEW's estimate beside; an OLD without it has no "before" */
    size_t new_est = report_event_index(new, REPORT_ESTIMATE_EVENT);
    size_t old_est = report_event_index(old, REPORT_ESTIMATE_EVENT);
    if (new_est != SIZE_MAX)
        to_puts(&o, " " REPORT_ESTIMATE_LABEL " before | " REPORT_ESTIMATE_LABEL
                    " after | Change |");
    to_puts(&o, new_est != SIZE_MAX ? "\n|:---|---:|---:|---:|---:|---:|---:|\n"
                                    : "\n|:---|---:|---:|---:|\n");
    size_t both = 0;
    for (size_t i = 0; i < d->npairs; i++) {
        const struct report_pair *p = &d->pairs[i];
        both += p->old && p->new;
        to_puts(&o, "| ");
        put_cell(&o, p->name);
        to_puts(&o, " | ");
        if (p->old)
            put_amount(&o, cycles, total_of(p->old, old_event));
        to_puts(&o, " | ");
        if (p->new)
            put_amount(&o, cycles, total_of(p->new, new_event));
        to_puts(&o, " | ");
        if (p->old && p->new)
            put_change(&o, total_of(p->old, old_event), total_of(p->new, new_event));
        else
            to_puts(&o, p->old ? "removed" : "added");
        if (new_est != SIZE_MAX) {
            to_puts(&o, " | ");
            if (p->old && old_est != SIZE_MAX)
                put_cycles(&o, total_of(p->old, old_est));
            to_puts(&o, " | ");
            if (p->new)
                put_cycles(&o, total_of(p->new, new_est));
            to_puts(&o, " | ");
            if (p->old && p->new && old_est == SIZE_MAX)
                to_puts(&o, "n/a");
            else if (p->old && p->new)
                put_change(&o, total_of(p->old, old_est), total_of(p->new, new_est));
        }
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
    put_changed_lines(&o, d, event);
    return to_finish(&o);
}
