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
 * and, for -f pprof, the counts of every event; for -f html, md, svg,
 * speedscope, pprof and --thread-frames each section kept apart in its
 * part (its own stacks, re-rooted at the user's code for pictures unless
 * --full-stacks; the sections of a part, its threads, put together once
 * every input is read: parts.c). The readers hand it each
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
    const char *diff_base;       /* --diff BASE (an input the output is
                                    compared with), or NULL */
    const char *const *threads;  /* --thread values (names or kernel ids) */
    size_t nthreads;
    bool thread_frames;          /* --thread-frames: every stack under its
                                    thread's frame, folded output too */
};

struct inline_ctx;

/* keep_parts: one section of a part with a cost (with callgrind
 * --separate-threads=yes, one thread's), its own stacks. */
struct kept_section {
    bool has_thread;
    uint64_t thread;             /* the kernel's thread id */
    char *thread_name;           /* "desc: Thread name:", or NULL */
    char *label;                 /* its thread's frame (parts_assemble) */
    uint64_t input, seq;         /* read from the run's input number
                                    `input`, as its seq-th section */
    struct stacks *stacks;       /* re-rooted for pictures */
};

/* keep_parts (-f html, md, svg, speedscope, pprof, --thread-frames): one
 * part of the inputs with a cost, kept apart: one benchmark, its sections
 * its threads. */
struct kept_part {
    uint64_t number;             /* its "part:" number */
    uint64_t process;            /* with number, which part (read.h) */
    size_t process_order;        /* its process's place among the inputs' */
    char *name;                  /* benchmark name (report.h) */
    char *trigger;               /* its "desc: Trigger:" text, or NULL */
    struct kept_section *sections; /* in order once assembled: the thread
                                      that triggered the dump first */
    size_t nsections, sections_cap;
    bool threaded;               /* its stacks start with thread frames */
    const char **threads;        /* then their labels, in order */
    size_t nthreads;
    struct stacks *stacks;       /* its own stacks (parts_assemble), every
                                    event a column */
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
    /* -f pprof: every event, named with its column of `out`. */
    struct event_column *columns;
    size_t ncolumns, default_column;
    /* keep_parts: every part read with a cost, its own stacks; the values
     * of CodSpeed's "Metadata:" parts; the first input's "cmd:". */
    bool keep_parts, trim_roots;
    struct kept_part *parts;
    size_t nparts, parts_cap;
    struct hashmap part_index;   /* (process, part number) -> parts[] */
    struct hashmap process_order; /* process -> order of first sight */
    uint64_t sections_read;
    struct stacks *part_open;    /* the part being read, until its end */
    char **metadata;
    size_t nmetadata, metadata_cap;
    char *cmd;
    const char **events;         /* -f html|md: the columns' event names */
    size_t nevents, default_event;
};

/* parts.c: the parts kept apart (keep_parts). The sink's part_start and
 * part_end: each section's own stacks, re-rooted for pictures, kept in
 * its part in run->parts. */
void parts_sink(struct part_sink *sink);
void parts_free(struct run *run);
/* Once every input is read (and frames are renamed): the parts in order
 * (by process, then number), their names made unique, each section's
 * thread named (with `base`, the --diff base, its threads paired with
 * run's and named alike), and the sections put together: each part's
 * stacks (-f html, md), or all of them summed into run->out (other
 * formats), under thread frames where parts_threaded says. Both runs.
 * Returns 0, or EXIT_INPUT after saying what went wrong. */
int parts_assemble(struct run *run, struct run *base);
/* A name two parts share becomes "NAME (2)", "NAME (3)", ... from its
 * second part on. */
void parts_number_names(struct run *run);
/* The thread frames the assembled stacks start with, each once; *n set,
 * the array the caller's to free (the texts are the parts'). */
struct thread_frame *parts_thread_frames(const struct run *run, size_t *n);

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
