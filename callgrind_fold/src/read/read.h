/* read/: the first stage. Inputs in, parts and stacks out.
 *
 * Takes: files, standard input ("-") or memory blocks, in any of three
 * formats told apart by their first lines (input.c): callgrind profiles
 * (parse.c, with events.c for "events:"/"event:" and --event), folded
 * trees from the patched callgrind's --dump-folded=yes (tree.c), and
 * folded stacks text (folded.c). Lines come from linereader.c, without an
 * allocation per line; failure.c is the one way a reader stops at a bad
 * line.
 * Hands on, into a struct read_target that the pipeline (pipeline.h)
 * sets up:
 *   - each callgrind part that passes --part, read completely, as a
 *     struct part (stacks/stacks.h: its call graph, or with --inline its
 *     costs by address) to the target's part_sink: only one part's graph
 *     is ever held;
 *   - folded trees and folded text, which are exact stacks already,
 *     straight into the target's struct stacks;
 *   - what the inputs say besides costs (notes.c: events, their long
 *     names, "cmd:" and "desc:" lines) when asked for;
 *   - with keep_parts, each section's thread and part (struct part_info;
 *     sections.c checks the sections of one part against each other and
 *     makes --thread's choice; harness.c reads its "desc:" lines by
 *     benchmark harnesses' conventions: trigger, benchmark name,
 *     metadata).
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
    bool want_lines;          /* the first source line of each function */
    bool keep_notes;          /* fill read_target.notes */
    bool all_events;          /* -f pprof: every event of the inputs, each
                                 in its own column of the stacks
                                 (read_event_column) */
    bool keep_parts;          /* announce every part to the sink's
                                 part_start and part_end (-f html, -f md,
                                 pictures rooted per part) */
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

/* A section as part_end sees it: its part's number, its thread, and what
 * its header said. The sections of one part (one per thread with
 * callgrind --separate-threads=yes) have the same number and process. */
struct part_info {
    uint64_t number;             /* its "part:" number, else 1, 2, ... */
    const char *descs;           /* its "desc:" values, '\n' after each */
    size_t descs_len;
    const char *cmd;             /* its input's "cmd:" value, "" if none */
    bool folded_text;            /* a file of folded stacks */
    uint64_t process;            /* the part's process (sections.h): its
                                    input's pid, or the input itself */
    uint64_t pid;                /* its input's "pid:", 0 if none */
    bool has_thread;
    uint64_t thread;             /* its "thread:" (the kernel's thread id),
                                    0 if none */
    const char *thread_name;     /* its "desc: Thread name:", or NULL */
    size_t thread_name_len;
    /* At the part's end, read from descs by harness conventions
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
};

/* harness.c: fills a part_info's trigger, benchmark, name and metadata
 * from its descs. */
void read_describe_part(struct part_info *info);

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

/* The next stage, for callgrind parts. */
struct part_sink {
    void *arg;
    /* A part that passed --part, read completely. Returns 0, or -1 with
     * a message in err (the reader then fails at the part's last line). */
    int (*part)(void *arg, struct part *part, char *err, size_t errlen);
    /* An object named by "ob=" or "cob=" (`name` its id in names), only
     * with by_address: its debug file may be prepared while reading goes
     * on. May be NULL. */
    void (*object)(void *arg, uint32_t name, const char *path);
    /* With keep_parts, for every input kind (a callgrind part, a folded
     * tree's part, a file of folded stacks as one part numbered 1): a
     * part that passes --part is announced before any of its costs are
     * added, with what its header says (info: its thread, which part;
     * descs not yet), and closed after the last. part_start may point
     * t->stacks at other stacks (the part's own): readers take it up
     * again after the call, frame ids included. part_end returns as
     * `part`. */
    void (*part_start)(void *arg, struct read_target *t, const struct part_info *info);
    int (*part_end)(void *arg, const struct part_info *info, char *err, size_t errlen);
};

struct read_target {
    struct read_options opt;
    struct strtab *names;        /* every function, file and object name */
    struct stacks *stacks;       /* exact stacks of trees and folded text */
    struct part_sink sink;
    struct input_notes notes;    /* filled when opt.keep_notes */
    struct strtab event_columns; /* all_events: event -> stacks column - 1 */
    /* What was read so far. */
    char *first_event;           /* the first input's first event */
    uint64_t parts_read;         /* callgrind and tree parts, selected or not */
    bool part_matched;           /* some part passed --part */
    uint64_t folded_inputs;      /* trees and folded text: no call counts,
                                    no addresses */
    uint64_t input_bytes;        /* size of the input being read, 0 if unknown */
    struct buf cmd;              /* the "cmd:" value of the input being read */
    uint64_t inputs;             /* inputs begun, the one being read's number */
    struct sections_seen sections;
    bool *thread_matched;        /* per --thread value: some section --part
                                    selects has that thread */
};

/* target.c: the target's life cycle, and each part handed to the sink. */
void read_target_init(struct read_target *t, const struct read_options *opt,
                      struct strtab *names, struct stacks *stacks,
                      const struct part_sink *sink);
void read_target_free(struct read_target *t);
/* keep_parts: part_start, and part_end with the section's header in
 * *info (its cmd filled in here; both readers and folded text call
 * these). Returns as part_end. */
void read_part_start(struct read_target *t, const struct part_info *info);
int read_part_end(struct read_target *t, struct part_info *info, char *err, size_t errlen);
/* The same for a file of folded stacks: one part, numbered 1. */
struct part_info read_folded_part(const struct read_target *t);
int read_folded_part_end(struct read_target *t, char *err, size_t errlen);

/* The event to count: --event, else the first column of the first input
 * (remembered, so that every input counts the same event). */
const char *read_event_name(struct read_target *t, const char *first_column);
/* The event counted, or NULL when no input named one (folded stacks). */
const char *read_chosen_event(const struct read_target *t);
/* With all_events: the stacks column an event counts in, from 1 on.
 * Column 0 holds the counts of folded text, which has no events: they
 * count for every event. */
size_t read_event_column(struct read_target *t, const char *name, size_t len);
/* The column of an event seen so far, or 0 if none has it. */
size_t read_event_column_of(const struct read_target *t, const char *name);

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

#endif
