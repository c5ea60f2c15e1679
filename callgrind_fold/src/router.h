/* The router (router.c): where each section read goes.
 *
 * The readers hand every section over (read.h, struct section_sink): its
 * header, and a call graph, or the stacks the router named for it once
 * its header was read. The router alone decides where it goes:
 *   - summed into the run's stacks (folded output, dot, and the formats
 *     below for a section that names no thread and needs no re-rooting):
 *     a call graph folded straight into them, folded stacks read
 *     straight into them;
 *   - kept apart (keep_parts: -f html, md, svg, speedscope, pprof,
 *     --thread-frames) as stacks of its own, re-rooted at the user's code
 *     for pictures unless --full-stacks, in its part: one benchmark, the
 *     sections of one part number and process its threads, from one file
 *     or several. Once every input is read (and frames renamed) the
 *     parts are put together: each part's own stacks for -f html, summed
 *     into the run's for the other formats, under thread frames where a
 *     part (reports) or some part (other pictures) has two threads or
 *     more, or always with --thread-frames; -f md sums totals only,
 *     and keeps a part read with lines as its functions' self costs and
 *     lines (stacks_add_self);
 *   - folded text, which names no event, while every event is counted
 *     (-f pprof, html, md): read apart, and made every event's once
 *     every input is read, when every event is known (router_inputs_read);
 *   - for --diff, a second router reads the base the same way, and its
 *     parts are paired with the run's by benchmark name, their threads by
 *     name then order.
 * A call graph passes the stages on its way: --inline's split of costs
 * by the functions inlined at their addresses, its call arcs (-f dot,
 * --colors=obj; frames named as in the summed stacks), then folding
 * (stacks/fold.h) into where the section goes. */
#ifndef CF_ROUTER_H
#define CF_ROUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/read.h"
#include "stacks/stacks.h"
#include "twins.h"
#include "write/report.h"
#include "write/write.h"

struct inline_ctx;

/* keep_parts: one section of a part with a cost (with callgrind
 * --separate-threads=yes, one thread's), its own stacks. */
struct kept_section {
    bool has_thread;
    uint64_t thread;             /* the kernel's thread id */
    char *thread_name;           /* "desc: Thread name:", or NULL */
    char *label;                 /* its thread's frame (router_assemble) */
    uint64_t input, seq;         /* read from the run's input number
                                    `input`, as its seq-th section */
    bool eventless;              /* folded text, with every event counted:
                                    its counts are every event's */
    struct stacks *stacks;       /* re-rooted for pictures */
};

/* keep_parts: one part of the inputs with a cost, kept apart: one
 * benchmark, its sections its threads. */
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
    struct stacks *stacks;       /* its own stacks (router_assemble), every
                                    event a column; -f md: its functions'
                                    self costs and lines, or NULL */
    struct event_column *columns; /* -f html|md: its event views (job.h) */
};

/* What a router routes into, and what the format asks of it. */
struct router_setup {
    struct stacks *out;          /* the run's summed stacks */
    const struct event_table *columns; /* the run's events */
    bool every_event;            /* each in its column, not the chosen one's
                                    only */
    struct strtab *names;        /* every function, file and object name */
    struct frame_style style;
    uint64_t resolution;         /* --resolution */
    struct callarcs *arcs;       /* the call arcs to add to, or NULL */
    struct inline_ctx *inl;      /* --inline, else NULL */
    enum render_format format;
    bool full_stacks;            /* --full-stacks */
    bool thread_frames;          /* --thread-frames */
};

struct router {
    struct router_setup to;
    struct fold_target fold;     /* how graphs become stacks, and the
                                    verdict: exact or estimated */
    bool keep_parts;             /* sections kept apart, in their parts */
    bool trim_roots;             /* kept sections re-rooted (pictures) */
    bool report;                 /* -f html, md: parts are benchmarks */
    /* keep_parts: every part read with a cost; the values of CodSpeed's
     * "Metadata:" parts; the first input's "cmd:". */
    struct kept_part *parts;
    size_t nparts, parts_cap;
    struct hashmap part_index;   /* (process, part number) -> parts[] */
    struct hashmap process_order; /* process -> order of first sight */
    uint64_t sections_read;
    struct stacks *open;         /* a section being read apart, until its
                                    end */
    /* every_event: folded text summed into the run's stacks once every
     * input is read (router_inputs_read), its counts every event's */
    struct stacks **eventless;
    size_t neventless, eventless_cap;
    char **metadata;
    size_t nmetadata, metadata_cap;
    char *cmd;
    /* folded trees' sections, and the callgrind.out sections that are
     * their twins: lines only (twins.h) */
    struct twins twins;
};

void router_init(struct router *r, const struct router_setup *setup);
void router_free(struct router *r);
/* The readers' sink: every section handed to r. */
struct section_sink router_sink(struct router *r);

/* Once every input is read, before anything else: with every_event, the
 * counts of folded text (which names no event) made every event's, and
 * summed into the run's stacks where the section was not kept apart.
 * Returns 0, or EXIT_INPUT after saying what went wrong. */
int router_inputs_read(struct router *r);
/* Once every input is read (and frames are renamed), with keep_parts
 * (else nothing to do): the parts in order
 * (by process, then number), their names made unique, each section's
 * thread named (with `base`, the --diff base's router, if it keeps parts
 * too: its threads paired with r's and named alike), and the sections put together: each
 * part's stacks (-f html), or all of them summed into the run's (other
 * formats but -f md), under thread frames where a part needs them. Both
 * routers. Returns 0, or EXIT_INPUT after saying what went wrong. */
int router_assemble(struct router *r, struct router *base);
/* The thread frames the assembled stacks start with, each once; *n set,
 * the array the caller's to free (the texts are the parts'). */
struct thread_frame *router_thread_frames(const struct router *r, size_t *n);

/* A run's kept parts as the report writers read them (report.h). */
struct report_view {
    struct report report;
    struct report_part *parts;
};
/* What a report's heading is made of besides the profile (report.h). */
struct report_origin {
    const char *title;          /* --title, or NULL */
    const char *input;          /* the first input's name as given */
    size_t ninputs;
};
/* Views of r's parts (names, stacks, columns) for the report, with the
 * run's events, title and inputs. Free v->parts. */
void report_view_init(struct report_view *v, const struct router *r,
                      const struct report_origin *origin,
                      const char *const *events, size_t nevents, size_t default_event);
/* --diff OLD NEW: the parts of both paired by benchmark name, sorted:
 * those of both runs by the size of the --event's change in percent
 * (then in counts), largest first; then those removed, then those added,
 * each in input order. Sets *npairs; the array is the caller's to free. */
struct report_pair *pair_parts(const struct report *old, const struct report *new,
                               size_t *npairs);

#endif
