/* The pipeline: one run of callgrind_fold, stage by stage.
 *
 *   inputs ──read/──▶ section (its header, and a call graph or stacks)
 *                       │ router.c: where it goes
 *                       │   a call graph through the stages:
 *                       │     inline/  (--inline: costs split by the
 *                       │              functions inlined at their addresses)
 *                       │     call arcs kept (-f dot, --colors=obj)
 *                       │     stacks/  (fold_profile: exact or estimated)
 *                       ▼   then summed into the run's stacks, or kept
 *                           apart in its part (one benchmark, its threads)
 *   every input read: frames renamed, parts put together ──▶ stacks
 *                       ──write/──▶ output
 *
 * --diff BASE is a second input: a second struct run reads it the same
 * way, set up only then. struct run owns what lives as long as the run:
 * the names, the summed stacks, the call arcs, the inline stage's
 * context, the router (router.h: the fold target and its estimate
 * verdict, the parts kept apart) and, for -f pprof, html and md, the
 * events' columns. The readers hand each section to the router through a
 * struct section_sink (read.h), so read/ knows nothing of the later
 * stages; the writers get a struct render_job (write/job.h) filled from
 * the run. main.c only parses options. */
#ifndef CF_PIPELINE_H
#define CF_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/read.h"
#include "router.h"
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
    const char *diff_base;       /* --diff BASE (an input the output is
                                    compared with), or NULL */
    const char *const *threads;  /* --thread values (names or kernel ids) */
    size_t nthreads;
    bool thread_frames;          /* --thread-frames: every stack under its
                                    thread's frame, folded output too */
};

struct inline_ctx;

struct run {
    struct run_options opt;
    struct strtab names;         /* every function, file and object name */
    struct stacks out;           /* the summed stacks */
    struct read_target in;       /* the readers' view of the run */
    struct router route;         /* where each section goes: summed into
                                    out, or kept apart in its part; the
                                    estimate verdict */
    bool keep_arcs;
    struct callarcs arcs;        /* the call graph, when kept */
    struct inline_ctx *inl;      /* --inline, else NULL */
    struct event_table columns;  /* which event each column counts */
    /* -f pprof, html, md: the events as the output lists them (the
     * inputs' order) with their columns (event_views()); for pprof with
     * `out`'s totals. */
    struct event_column *views;
    const char **view_names;
    size_t nviews, default_view;
};

/* A run reading with these options; `render` decides what is kept
 * besides the stacks (call arcs, notes, sources, every event). */
void run_init(struct run *run, const struct run_options *opt);
void run_free(struct run *run);

/* Reads one input, each section routed (into run->out or kept apart):
 * a file, "-" (standard input) or a memory block. Return as read_path (read.h). */
int run_read_path(struct run *run, const char *path, struct diag *d);
int run_read_memory(struct run *run, const char *name, const char *data, size_t len,
                    struct diag *d);

/* The whole command: every input (summed), the --diff base, the output
 * written, notes and warnings on standard error. Returns the exit status
 * (util.h). */
int pipeline_run(const struct run_options *opt, const char *const *inputs, size_t ninputs);

#endif
