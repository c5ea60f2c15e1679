/* The report writers' input (-f html, -f md): a run's parts
 * kept apart, each with its own stacks and every event's counts, and for
 * --diff OLD NEW the parts of both runs paired by benchmark name.
 * Filled by the pipeline; the writers only read it. */
#ifndef CF_WRITE_REPORT_H
#define CF_WRITE_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "job.h"
#include "util/util.h"

/* One part: one benchmark (a "desc: Trigger: Client Request: NAME" part)
 * or a whole-program part. */
struct report_part {
    uint64_t number;            /* its "part:" number in its input */
    const char *name;           /* benchmark name: the trigger's client
                                   request text, else "part N" */
    const char *trigger;        /* the whole "desc: Trigger:" text, or NULL */
    const struct stacks *stacks; /* its stacks (frames named as shown) */
    /* One per event of the report, in the order of struct report's
       events: columns[e].col is the column of `stacks` counting event e
       (NO_COLUMN: none), columns[e].total the part's total of it. */
    const struct event_column *columns;
    /* Its threads' frames, when its stacks start with them (one per
       thread: callgrind --separate-threads=yes), in the order to draw
       them: the thread that triggered the dump first. */
    const char *const *threads;
    size_t nthreads;
};

/* A run: its parts with a cost, in input order. Parts without any cost
 * (CodSpeed's metadata and "Program termination" parts) are left out;
 * a name that two parts of a run share is numbered from its second on:
 * "NAME (2)", "NAME (3)", ... */
struct report {
    const char *title;          /* --title, or NULL: headed by what was run */
    const char *input;          /* the first input's name as given, or NULL */
    size_t ninputs;             /* the inputs read into this run */
    const char *const *events;  /* event names, column order */
    size_t nevents;
    size_t default_event;       /* the --event's column */
    const struct report_part *parts;
    size_t nparts;
    /* The run's names: the files of the parts' line entries (NULL: none). */
    const struct strtab *files;
    /* What the inputs say besides: the first input's "cmd:" value (""
       if none), and the values of zero-cost parts triggered by
       "Client Request: Metadata: TEXT" (e.g. "codspeed-node 5.7.1"),
       which are not parts of the table. */
    const char *cmd;
    const char *const *metadata;
    size_t nmetadata;
};

/* --diff OLD NEW: a benchmark of either run, by name. */
struct report_pair {
    const char *name;
    const struct report_part *old; /* NULL: added in NEW */
    const struct report_part *new; /* NULL: removed from OLD */
};

struct report_diff {
    const struct report *old, *new;
    /* Every benchmark once: those of both runs sorted by the size of the
       default event's change in percent (then in counts), largest first;
       then those removed, then those added, each in input order. */
    const struct report_pair *pairs;
    size_t npairs;
};

/* The column of event `name` in r, or SIZE_MAX if r has no such event
 * (the two runs of a --diff may have different events). */
static inline size_t report_event_index(const struct report *r, const char *name)
{
    for (size_t e = 0; e < r->nevents; e++)
        if (strcmp(r->events[e], name) == 0)
            return e;
    return SIZE_MAX;
}

/* --cycle-estimation's block-model event (centi-cycles, 100 = one
 * cycle), the best of its estimates of time: the reports show it, as
 * cycles, beside the chosen event. */
#define REPORT_ESTIMATE_EVENT "Cb"
#define REPORT_ESTIMATE_LABEL "estimated cycles (Cb, block model)"

/* A report's heading (heading.c), one line: its title when given
 * (--title wins), else what the profile's "cmd:" line ran (report_ran),
 * else the input's base name. */
void report_heading(struct buf *out, const struct report *r);
/* --diff OLD NEW's: the new run's title, else both runs' headings, once
 * when they are the same and "OLD → NEW" when not. */
void report_diff_heading(struct buf *out, const struct report_diff *d);
/* What a "cmd:" line ran, at most REPORT_HEADING_MAX_CHARS characters:
 * the script an interpreter or test runner ran ("benches/bench.mjs" of
 * "/usr/bin/node --flag benches/bench.mjs"), else the program's base name
 * and its arguments ("pool --threads=2"). Empty without a command. */
#define REPORT_HEADING_MAX_CHARS 80
void report_ran(struct buf *out, const char *cmd);

/* Each returns 0, -1 on a write error (errno set), or -2 after printing
 * its own message. */
int html_write_report(FILE *out, const struct render_options *ro, const struct report *r);
int html_write_diff(FILE *out, const struct render_options *ro, const struct report_diff *d);
int md_write_diff(FILE *out, const struct report_diff *d);
int md_write_report(FILE *out, const struct report *r);

#endif
