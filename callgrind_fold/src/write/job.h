/* What every writer is given: the options of the pictures (-f, --title,
 * --width, ...) and the job (the profile's stacks, the --diff base, a name
 * for titles), plus the helpers writers share about it (job.c). It depends
 * on the stack model only (stacks/model.h): writers include this, never
 * each other or the dispatcher (write.c). */
#ifndef CF_WRITE_JOB_H
#define CF_WRITE_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stacks/model.h"

enum render_format {
    FORMAT_FOLDED,      /* the default: folded stacks (or diff lines) */
    FORMAT_SVG,         /* interactive flame graph */
    FORMAT_DOT,         /* call graph, graphviz source */
    FORMAT_PNG,         /* call graph rendered by graphviz */
    FORMAT_SVG_GRAPH,   /* call graph rendered by graphviz, as SVG */
    FORMAT_SPEEDSCOPE,  /* speedscope JSON, one sampled profile */
    FORMAT_PPROF,       /* pprof's profile.proto, gzipped, every event */
    FORMAT_HTML,        /* one page: every part, its flame graph (report.h) */
    FORMAT_MD           /* Markdown table of the parts (report.h) */
};

enum color_scheme { COLORS_NAME, COLORS_OBJ };

struct render_options {
    enum render_format format;
    const char *title;        /* NULL: a default */
    const char *subtitle;     /* NULL: none */
    const char *countname;    /* NULL: derived from the event */
    double width;             /* SVG width in pixels */
    double minwidth;          /* narrower frames are merged (pixels) */
    bool inverted;            /* icicle graph: roots at the top */
    enum color_scheme colors;
    double node_thres;        /* DOT: percent of the total */
    double edge_thres;
    bool full_stacks;         /* --full-stacks: pictures keep every frame
                                 below the user's code */
    const char *const *source_dirs; /* --source-dir: where -f html looks for
                                       the sources of its hot lines */
    size_t nsource_dirs;
};

#define RENDER_DEFAULT_WIDTH 1200.0
#define RENDER_DEFAULT_MINWIDTH 0.1
#define RENDER_DEFAULT_NODE_THRES 0.5
#define RENDER_DEFAULT_EDGE_THRES 0.1

void render_options_init(struct render_options *ro);
/* Parse a --format value; false if unknown. */
bool render_parse_format(const char *s, enum render_format *f);

/* What a format's writer needs from the stages before it. The pipeline
 * and the router read this instead of testing formats. */
struct writer_needs {
    bool call_arcs;       /* the call graph itself (DOT and its drawings) */
    bool run_columns;     /* every event of the whole run, a column each */
    bool part_columns;    /* every event of each part, a column each */
    bool sources;         /* each frame's object, file and first line */
    bool lines;           /* each frame's self costs by source line */
    bool diff_lines;      /* ...with --diff too (else a diff shows none) */
    bool notes;           /* the inputs' "cmd:"/"desc:" lines and event names */
    bool report;          /* parts kept apart, each a benchmark of the report */
    bool totals_only;     /* of those parts, only their totals */
    bool picture;         /* drawn: stacks re-rooted at the user's code
                             unless --full-stacks */
    bool shows_threads;   /* a part's threads kept apart, then put under
                             thread frames when some part has several */
    bool threads_on_request; /* ...only with --thread-frames */
    bool raw_names_shown; /* raw names beside the frames: functions whose
                             short names read alike are kept apart */
    bool diff_in_format;  /* --diff's base read for this format (else as
                             folded stacks) */
    bool notes_estimate;  /* says on stderr when stacks are estimated */
};
const struct writer_needs *render_needs(enum render_format f);

/* One event of a run or part: the column of its stacks holding its
 * counts (the run's event table, stacks/columns.h; read with
 * stacks_count), and their sum. A view: the counts stay in the stacks.
 * -f pprof writes one sample value per event. */
struct event_column {
    const char *event;
    const char *long_name;       /* NULL if none */
    size_t col;                  /* the stacks' column, or NO_COLUMN */
    uint64_t total;
};

struct report;
struct report_diff;

/* A frame that names a thread (callgrind --separate-threads=yes): the
 * first frame of a stack, when the pipeline put each thread's stacks
 * under one (-f pprof makes it sample labels instead). */
struct thread_frame {
    const char *frame;         /* its text */
    uint64_t thread;           /* the thread's kernel id */
};

/* Everything a writer may need, filled by the pipeline. */
struct render_job {
    const struct render_options *ro;
    struct stacks *stacks;             /* the profile (the new one with --diff) */
    const struct stacks *base;         /* the --diff BASE profile, or NULL */
    const struct strtab *names;        /* the run's names (objects of arcs) */
    const struct callarcs *arcs;       /* call arcs and frames' objects of
                                          callgrind inputs, or NULL */
    bool calls_known;                  /* arcs hold every call: no folded input */
    const char *event;                 /* NULL: only folded stacks were read */
    const struct event_column *columns; /* -f pprof: every event */
    size_t ncolumns, default_column;
    const struct strtab *comments;     /* -f pprof: "cmd:" and "desc:" lines */
    const char *name;                  /* first input's name, for titles */
    const struct thread_frame *threads; /* the stacks' thread frames */
    size_t nthreads;
    /* -f html, -f md: the parts kept apart (report.h), one of the two. */
    const struct report *report;
    const struct report_diff *report_diff;
};

/* "instructions" for Ir, "D1 read misses" for D1mr, ...; "samples" when
 * the input was only folded stacks. Never NULL. */
const char *render_countname(const struct render_job *job);
/* --cycle-estimation's events (Ct, Cl, Cb) count hundredths of a cycle:
 * what `event` estimates ("throughput"), or NULL for any other event. */
const char *event_cycles_estimate(const char *event);
bool event_counts_centicycles(const char *event);

#endif
