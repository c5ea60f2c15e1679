/* The pipeline: one run of callgrind_fold, stage by stage.
 *
 *   inputs ──read/──▶ part (call graph, or costs by address)
 *                       │ inline/  (--inline: costs split by the functions
 *                       │           inlined at their addresses)
 *                       │ call arcs kept (-f dot, --colors=obj)
 *                       ▼ stacks/  (fold_profile: exact or estimated)
 *          folded trees and folded text ──▶ stacks ──write/──▶ output
 *
 * struct run owns what lives as long as the run: the names, the summed
 * stacks, the call arcs, the inline stage's context, the estimate verdict
 * and, for -f pprof, the counts of every event; for -f html, -f md and
 * -f svg each part kept apart (its own stacks, re-rooted at the user's
 * code for pictures unless --full-stacks: parts.c). The readers hand it each
 * callgrind part through a struct part_sink (read.h), so read/ knows
 * nothing of the later stages; the writers get a struct render_job
 * (write/job.h) filled from it. main.c only parses options. */
#ifndef CF_PIPELINE_H
#define CF_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/read.h"
#include "stacks/stacks.h"
#include "write/report.h"
#include "write/write.h"

struct run_options {
    const char *event;           /* --event; NULL: the first of the first input */
    uint64_t part;               /* --part: ALL_PARTS or a part number */
    uint64_t resolution;         /* --resolution */
    struct frame_style style;    /* --keep-clones, --frame */
    bool inline_frames;          /* --inline */
    const char *debug_dirs;      /* --debug-dir values, ':'-separated, or NULL */
    const char *inline_cache;    /* --inline-cache: a directory, "no", or NULL */
    struct render_options render; /* -f and the pictures' options */
    const char *output;          /* -o, or NULL for standard output */
};

struct inline_ctx;

/* keep_parts (-f html, -f md, -f svg rooted at the user's code): one part
 * of the inputs with a cost, kept apart. */
struct kept_part {
    uint64_t number;             /* its "part:" number */
    char *name;                  /* benchmark name (report.h) */
    char *trigger;               /* its "desc: Trigger:" text, or NULL */
    struct stacks *stacks;       /* its own stacks, every event a column */
    struct event_column *columns; /* -f html|md: by event, run.events order */
};

struct run {
    struct run_options opt;
    struct strtab names;         /* every function, file and object name */
    struct stacks out;           /* the summed stacks */
    struct read_target in;       /* the readers' view of the run */
    struct fold_target fold;     /* how parts become stacks, and the verdict */
    bool keep_arcs;
    struct callarcs arcs;        /* the call graph, when kept */
    struct inline_ctx *inl;      /* --inline, else NULL */
    /* -f pprof: the counts of every event, one column each. */
    struct event_column *columns;
    size_t ncolumns, default_column;
    /* keep_parts: every part read with a cost, its own stacks; the values
     * of CodSpeed's "Metadata:" parts; the first input's "cmd:". */
    bool keep_parts, trim_roots;
    struct kept_part *parts;
    size_t nparts, parts_cap;
    struct stacks *part_open;    /* the part being read, until its end */
    char **metadata;
    size_t nmetadata, metadata_cap;
    char *cmd;
    const char **events;         /* -f html|md: the columns' event names */
    size_t nevents, default_event;
};

/* parts.c: the parts kept apart (keep_parts). The sink's part_start and
 * part_end: each part's own stacks, re-rooted for pictures, summed into
 * run->out (-f svg) or kept in run->parts (-f html, -f md). */
void parts_sink(struct part_sink *sink);
void parts_free(struct run *run);
/* A name two parts share becomes "NAME (2)", "NAME (3)", ... from its
 * second part on. */
void parts_number_names(struct run *run);

/* A run's kept parts as the report writers read them (report.h). */
struct report_view {
    struct report report;
    struct report_part *parts;
};
/* Views of run->parts (names, stacks, columns) for the report; `title`
 * unless --title. Free v->parts. */
void report_view_init(struct report_view *v, const struct run *run, const char *title);
/* --diff OLD NEW: the parts of both paired by benchmark name, sorted:
 * those of both runs by the size of the --event's change in percent
 * (then in counts), largest first; then those removed, then those added,
 * each in input order. Sets *npairs; the array is the caller's to free. */
struct report_pair *pair_parts(const struct report *old, const struct report *new,
                               size_t *npairs);

/* A run reading with these options; `render` decides what is kept
 * besides the stacks (call arcs, notes, sources, every event). */
void run_init(struct run *run, const struct run_options *opt);
void run_free(struct run *run);

/* Reads one input through every stage into run->out: a file, "-"
 * (standard input) or a memory block. Return as read_path (read.h). */
int run_read_path(struct run *run, const char *path, struct diag *d);
int run_read_memory(struct run *run, const char *name, const char *data, size_t len,
                    struct diag *d);

/* The whole command: every input (summed), the --diff base, the output
 * written, notes and warnings on standard error. Returns the exit status
 * (util.h). */
int pipeline_run(const struct run_options *opt, const char *const *inputs, size_t ninputs);

#endif
