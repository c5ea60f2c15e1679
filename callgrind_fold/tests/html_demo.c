/* Test harness of the HTML report writer (write/html.c): calls
 * html_write_report or html_write_diff directly on parts given as files,
 * so that tests can make pages of many parts, hostile names and --diff
 * pairs whatever the pipeline does.
 *
 *   html_demo report OUT PART...     one part per file
 *   html_demo diff OUT OLD:NEW...    one pair per argument ("-": none)
 *
 * A part file: "name: TEXT", "events: E1 E2 ..." (the first file's are
 * the report's), then lines "frame;frame;... C1 C2 ..." with one count
 * per event (frames may hold any byte but ';' and newline). */
#include "stacks/stacks.h"
#include "util/util.h"
#include "write/job.h"
#include "write/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 32

struct demo_part {
    struct stacks stacks;
    struct event_column cols[MAX_EVENTS];
    char *name;
    char *events[MAX_EVENTS];
    size_t nevents;
};

static void die(const char *what, const char *file)
{
    fprintf(stderr, "html_demo: %s: %s\n", file, what);
    exit(2);
}

static void read_part(struct demo_part *p, const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        die("cannot open", file);
    memset(p, 0, sizeof *p);
    stacks_init(&p->stacks);
    for (size_t e = 0; e < MAX_EVENTS; e++)
        p->cols[e].col = NO_COLUMN;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    uint32_t frames[1024];
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] == '\n')
            line[--len] = '\0';
        if (strncmp(line, "name: ", 6) == 0) {
            p->name = strdup(line + 6);
            continue;
        }
        if (strncmp(line, "events:", 7) == 0) {
            for (char *tok = strtok(line + 7, " "); tok && p->nevents < MAX_EVENTS;
                 tok = strtok(NULL, " "))
                p->events[p->nevents++] = strdup(tok);
            continue;
        }
        /* The counts: the last nevents words. */
        uint64_t counts[MAX_EVENTS];
        size_t end = (size_t)len;
        for (size_t e = p->nevents; e-- > 0;) {
            size_t sp = end;
            while (sp > 0 && line[sp - 1] != ' ')
                sp--;
            if (sp == 0)
                die("a line without its counts", file);
            counts[e] = strtoull(line + sp, NULL, 10);
            end = sp - 1;
        }
        size_t n = 0, start = 0;
        for (size_t i = 0; i <= end && n < 1024; i++)
            if (i == end || line[i] == ';') {
                frames[n++] = stacks_frame(&p->stacks, line + start, i - start);
                start = i + 1;
            }
        uint32_t id = stacks_intern(&p->stacks, frames, n);
        /* event e counts in column e of the stacks */
        for (size_t e = 0; e < p->nevents; e++) {
            struct event_column *c = &p->cols[e];
            if (!stacks_count_in(&p->stacks, e, id, counts[e]))
                die("counts overflow", file);
            c->col = e;
            c->total = stacks_col_total(&p->stacks, e);
            c->event = p->events[e];
        }
    }
    free(line);
    fclose(f);
    if (!p->name)
        die("no name: line", file);
}

static void free_part(struct demo_part *p)
{
    stacks_free(&p->stacks);
    for (size_t e = 0; e < p->nevents; e++)
        free(p->events[e]);
    free(p->name);
}

static struct report_part part_of(const struct demo_part *p, uint64_t number)
{
    return (struct report_part){.number = number, .name = p->name, .trigger = p->name,
                                .stacks = &p->stacks, .columns = p->cols};
}

static struct report report_of(const struct demo_part *first, const struct report_part *parts,
                               size_t n)
{
    return (struct report){.title = "html_demo",
                           .events = (const char *const *)first->events,
                           .nevents = first->nevents,
                           .parts = parts,
                           .nparts = n,
                           .cmd = ""};
}

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "report") && strcmp(argv[1], "diff"))) {
        fprintf(stderr, "usage: html_demo report|diff OUT FILE...\n");
        return 1;
    }
    bool diff = strcmp(argv[1], "diff") == 0;
    size_t n = (size_t)argc - 3;
    struct demo_part *old = xcalloc(n, sizeof *old), *new = xcalloc(n, sizeof *new);
    struct report_part *old_parts = xcalloc(n, sizeof *old_parts);
    struct report_part *new_parts = xcalloc(n, sizeof *new_parts);
    struct report_pair *pairs = xcalloc(n, sizeof *pairs);
    size_t nold = 0, nnew = 0;
    const struct demo_part *first_old = NULL, *first_new = NULL;
    for (size_t i = 0; i < n; i++) {
        char *arg = argv[3 + i], *colon = diff ? strchr(arg, ':') : NULL;
        if (diff && !colon)
            die("wants OLD:NEW", arg);
        if (colon)
            *colon = '\0';
        const char *o = diff ? arg : "-", *nw = diff ? colon + 1 : arg;
        pairs[i] = (struct report_pair){NULL, NULL, NULL};
        if (strcmp(o, "-")) {
            read_part(&old[nold], o);
            first_old = first_old ? first_old : &old[nold];
            old_parts[nold] = part_of(&old[nold], nold + 1);
            pairs[i].old = &old_parts[nold];
            pairs[i].name = old[nold++].name;
        }
        if (strcmp(nw, "-")) {
            read_part(&new[nnew], nw);
            first_new = first_new ? first_new : &new[nnew];
            new_parts[nnew] = part_of(&new[nnew], nnew + 1);
            pairs[i].new = &new_parts[nnew];
            pairs[i].name = new[nnew++].name;
        }
    }
    if (!first_new)
        first_new = first_old;
    if (!first_old)
        first_old = first_new;
    FILE *out = fopen(argv[2], "w");
    if (!out)
        die("cannot write", argv[2]);
    struct render_options ro;
    render_options_init(&ro);
    ro.format = FORMAT_HTML;
    struct report rn = report_of(first_new, new_parts, nnew);
    struct report ro_old = report_of(first_old, old_parts, nold);
    int rc;
    if (diff) {
        struct report_diff d = {&ro_old, &rn, pairs, n};
        rc = html_write_diff(out, &ro, &d);
    } else {
        rc = html_write_report(out, &ro, &rn);
    }
    if (fclose(out) != 0)
        rc = -1;
    for (size_t i = 0; i < nold; i++)
        free_part(&old[i]);
    for (size_t i = 0; i < nnew; i++)
        free_part(&new[i]);
    free(old);
    free(new);
    free(old_parts);
    free(new_parts);
    free(pairs);
    return rc ? 3 : 0;
}
