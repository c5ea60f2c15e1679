/* read/: the first stage. Inputs in, parts and stacks out.
 *
 * Takes: files, standard input ("-") or memory blocks, in any of three
 * formats told apart by their first lines (input.c): callgrind profiles
 * (callgrind/, its own folder, driven by parse.c; events.c here for
 * "events:"/"event:" and --event), folded trees from the patched
 * callgrind's --dump-folded=yes (tree.c), and
 * folded stacks text (folded.c). Lines come from linereader.c, without an
 * allocation per line; failure.h is the one way a reader stops at a bad
 * line.
 * Hands on, through the struct section_sink of a struct read_target
 * that the pipeline (pipeline.h) sets up, each section that passes
 * --part and --thread, whole, once it is read: its header (struct
 * section_info: its part, its thread, its "desc:" lines; sections.c checks
 * the sections of one part against each other and makes --thread's
 * choice; harness.c reads the "desc:" lines by benchmark harnesses'
 * conventions: trigger, benchmark name, metadata) and
 *   - for callgrind profiles, its call graph as a struct section_graph
 *     (stacks/stacks.h; with --inline its costs by address): only one
 *     section's graph is ever held;
 *   - for folded trees and folded text, which are exact stacks already,
 *     its stacks: once its header is read the sink says which stacks to
 *     read it into (the run's own, to sum it straight away, or new ones
 *     of the section's), and takes them back at its end.
 * Where a section goes is not the readers' business. Besides,
 * what the inputs say besides costs (notes.c: events, their long names,
 * "cmd:" and "desc:" lines) when asked for.
 * Depends on the stacks model (stacks/stacks.h) and util/ only. Errors
 * come back as struct diag ("FILE:LINE: message"). */
#ifndef CF_READ_READ_H
#define CF_READ_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stacks/stacks.h"
#include "util/util.h"

#define ALL_PARTS 0

/* Where and why an input is rejected. */
struct diag {
    char file[256];
    uint64_t line;            /* 0: no line applies */
    char msg[512];
};

struct read_options {
    const char *event;        /* NULL: the first event of the first input */
    uint64_t part;            /* ALL_PARTS or a part number */
    struct frame_style style; /* frames of folded trees */
    bool by_address;          /* --inline: parts keep costs by address */
    bool want_lines;          /* self costs by source line (-f pprof, html) */
    bool keep_notes;          /* fill read_target.notes */
    bool all_events;          /* -f pprof, html, md: every event of the
                                 inputs, each in its column of the stacks
                                 (stacks/columns.h); else the chosen
                                 event's only */
    bool describe_sections;   /* hand over the sections without costs
                                 too, and every section's "desc:" lines
                                 (the sink keeps sections apart) */
    /* --thread values: only the sections of threads of these names or
     * kernel ids are read (sections.h); NULL, 0: every section. */
    const char *const *threads;
    size_t nthreads;
};

/* notes.c: what the inputs say besides costs, for -f pprof. */
struct input_notes {
    struct strtab events;        /* event names, in order of first sight */
    char **event_long;           /* "NAME\0LONG" of "event: NAME : LONG" lines */
    size_t nevent_long, event_long_cap;
    struct strtab comments;      /* "cmd: ..." and "desc: ..." lines, once each */
};

/* A section's header as the sink sees it: its part's number, its
 * thread, and what its header said. The sections of one part (one per
 * thread with callgrind --separate-threads=yes) have the same number and
 * process. */
struct section_info {
    uint64_t number;             /* its "part:" number, else 1, 2, ... */
    const char *descs;           /* its "desc:" values, '\n' after each */
    size_t descs_len;
    const char *cmd;             /* its input's "cmd:" value, "" if none */
    uint64_t input;              /* its input's number among the run's */
    bool folded_text;            /* a file of folded stacks */
    uint64_t process;            /* the part's process (sections.h): its
                                    input's pid, or the input itself */
    uint64_t pid;                /* its input's "pid:", 0 if none */
    bool has_thread;
    uint64_t thread;             /* its "thread:" (the kernel's thread id),
                                    0 if none */
    const char *thread_name;     /* its "desc: Thread name:", or NULL */
    size_t thread_name_len;
    /* Read from descs by harness conventions
     * (harness.c): its "desc: Trigger:" text (NULL if none); whether a
     * harness dumped it for a benchmark ("Client Request: NAME"), the
     * name; whether that request passed metadata ("Metadata: TEXT"). */
    const char *trigger;
    size_t trigger_len;
    bool benchmark;
    const char *name;
    size_t name_len;
    bool metadata;
    const char *metadata_text;
    size_t metadata_len;
    /* A section of a folded tree: its "totals:", one per event of its
     * input's "events:" line (tree_events), checked against its
     * callgrind.out twin's (router.c, twins.h). */
    bool tree;
    const uint64_t *tree_totals;
    const char *const *tree_events;
    size_t tree_nevents;
    const char *file;            /* its input's name, for messages */
};

/* harness.c: fills a section_info's trigger, benchmark, name and metadata
 * from its descs. */
void read_describe_section(struct section_info *info);

/* sections.c: every section read so far by a run, by part, for the
 * checks of sections.h. */
struct sections_seen {
    struct hashmap parts;        /* (process, part number) -> seen_part */
    struct hashmap threads;      /* (seen_part, thread) -> its line */
    struct seen_part *part;
    size_t nparts, parts_cap;
    uint64_t *thread_line;       /* a thread's section: its "thread:" line */
    uint32_t *thread_file;       /* and its input's name, in files */
    size_t nthreads, threads_cap;
    struct strtab files;         /* inputs' names */
    struct strtab triggers;      /* "desc: Trigger:" texts */
};

struct seen_part {
    bool has_trigger;
    uint32_t trigger;            /* in triggers */
    uint32_t file;               /* where the first section said it */
    uint64_t line;
};

struct read_target;

/* The next stage: where the readers hand each section they read, whole,
 * with its header. */
struct section_sink {
    void *arg;
    /* A callgrind section: its call graph (with by_address, its costs by
     * address), which the sink may change. Returns 0, or -1 with a
     * message in err (the reader then fails at the section's last line). */
    int (*graph)(void *arg, const struct section_info *info, struct section_graph *graph, char *err,
                 size_t errlen);
    /* A section of a folded tree or a file of folded stacks (one
     * section, numbered 1), its header read (descs not yet): the stacks
     * its costs are to be added to, the sink's choice. The reader adds
     * to them until it hands the section over, and never after; frame
     * ids made in other stacks do not hold there. */
    struct stacks *(*open)(void *arg, const struct section_info *head);
    /* That section read, handed over with its stacks (those open gave),
     * or with describe_sections a callgrind section without costs (s
     * NULL). Returns as graph. */
    int (*stacks)(void *arg, const struct section_info *info, struct stacks *s, char *err,
                  size_t errlen);
    /* An object named by "ob=" or "cob=" (`name` its id in names), only
     * with by_address: its debug file may be prepared while reading goes
     * on. May be NULL. */
    void (*object)(void *arg, uint32_t name, const char *path);
};

struct read_target {
    struct read_options opt;
    struct strtab *names;        /* every function, file and object name */
    struct section_sink sink;
    struct input_notes notes;    /* filled when opt.keep_notes */
    struct event_table *columns; /* the run's: event -> column */
    /* What was read so far. */
    uint64_t parts_read;         /* callgrind and tree parts, selected or not */
    bool part_matched;           /* some part passed --part */
    uint64_t folded_inputs;      /* trees and folded text: no call counts,
                                    no addresses */
    uint64_t input_bytes;        /* size of the input being read, 0 if unknown */
    struct buf cmd;              /* the "cmd:" value of the input being read */
    uint64_t inputs;             /* inputs begun, the one being read's number */
    const char *input_name;      /* the one being read's name, as given */
    struct sections_seen sections;
    bool *thread_matched;        /* per --thread value: some section --part
                                    selects has that thread */
};

/* target.c: the target's life cycle, and each section handed to the
 * sink, its header completed here in *info (its input, its cmd, what
 * harnesses say in its descs). Each returns as the sink's call. */
void read_target_init(struct read_target *t, const struct read_options *opt,
                      struct strtab *names, struct event_table *columns,
                      const struct section_sink *sink);
void read_target_free(struct read_target *t);
int read_section_graph(struct read_target *t, struct section_info *info, struct section_graph *graph,
                       char *err, size_t errlen);
int read_section_stacks(struct read_target *t, struct section_info *info, struct stacks *s,
                        char *err, size_t errlen);
/* The stacks a section of stacks is read into (the sink's open). */
struct stacks *read_section_open(struct read_target *t, const struct section_info *head);
/* The header of a file of folded stacks: one part, numbered 1. */
struct section_info read_folded_section(const struct read_target *t);

/* The event to count: --event, else the first column of the first input
 * that names events (remembered, so that every input counts the same
 * event): the chosen event of the run's columns. */
const char *read_event_name(struct read_target *t, const char *first_column);
/* The event counted, or NULL when no input named one (folded stacks). */
const char *read_chosen_event(const struct read_target *t);

/* notes.c: each does nothing unless opt.keep_notes. An event of an
 * "events:" line, an event's long name ("event: NAME : LONG"), and a line
 * of a part's description ("cmd: ...", "desc: ...", kept once each). */
void notes_event(struct read_target *t, const char *name, size_t len);
void notes_event_long(struct read_target *t, const char *name, size_t len,
                      const char *long_name, size_t long_len);
void notes_comment(struct read_target *t, const char *key, const char *text, size_t len);
/* The long name noted for an event, or NULL. */
const char *notes_event_long_name(const struct input_notes *n, const char *name,
                                  size_t len);

/* input.c: one input, a file, standard input ("-") or a memory block,
 * whose format (callgrind profile, folded tree or folded stacks) is
 * recognised from its first lines.
 *
 * Each returns 0, or -1 with d filled in (d->file is set by them), or
 * INPUT_EMPTY (also with d filled in) when there is no data at all:
 * callgrind --separate-threads=yes leaves such a file next to the real
 * ones, so the caller may skip it when other inputs have data. */
#define INPUT_EMPTY 1
int read_path(const char *path, struct read_target *t, struct diag *d);
int read_memory(const char *name, const char *data, size_t len, struct read_target *t,
                struct diag *d);
/* Whether the file at `path` is a folded tree (its first line the tree's
 * marker): the pipeline reads trees first, so that each callgrind.out
 * finds the tree it is the twin of. Only a regular file is looked at
 * (not standard input, nor a pipe). */
bool read_path_is_tree(const char *path);

#endif
