/* A section's thread (read/, private): what the header of a section of a
 * callgrind.out or folded tree says about its thread and its dump, the
 * checks of those lines against the other sections of the same part, and
 * --thread. Both readers feed it header lines only, never cost lines.
 *
 * With --separate-threads=yes callgrind writes each dump as one section
 * per thread, all with the dump's "part:" number ("thread: LWPID", then
 * "desc: Thread name: NAME" if the thread named itself), in one file or
 * in a file per thread. The sections of one part number of one process
 * are one part, whatever the files: the process is the input's "pid:"
 * when the section names its thread, else the input itself (so inputs
 * without "thread:" lines keep their parts to themselves, as before).
 * Two sections of one part may not name the same thread, nor different
 * "desc: Trigger:" lines (the part's name); a folded tree's section and
 * its callgrind.out's (twins, router.c) are of one thread, told apart by
 * `tree`. */
#ifndef CF_READ_SECTIONS_H
#define CF_READ_SECTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "read.h"

struct section_head {
    uint64_t number;            /* its "part:" number */
    uint64_t start_line;        /* its "part:" line, else its first line */
    bool has_pid;
    uint64_t pid;               /* the input's "pid:" (kept across sections) */
    bool has_thread;
    uint64_t thread, thread_line;
    bool has_name;
    struct buf name;            /* "desc: Thread name:" */
    uint64_t name_line;
    bool has_trigger;
    struct buf trigger;         /* "desc: Trigger:" */
    uint64_t trigger_line;
    bool tree;                  /* a folded tree's section (kept across
                                   sections, as the pid) */
};

/* A new section: everything but the input's pid forgotten. */
void section_reset(struct section_head *h);
void section_free(struct section_head *h);
/* "pid: N": an unreadable value is no pid (it only groups sections). */
void section_pid(struct section_head *h, const char *value, const char *end);
/* "thread: N", the value's blanks skipped: 0, or -1 with a message. */
int section_thread(struct section_head *h, const char *value, const char *end,
                   uint64_t line, char *err, size_t errlen);
/* A "desc:" value: its "Thread name:" and "Trigger:" are noted. */
void section_desc(struct section_head *h, const char *value, const char *end, uint64_t line);

/* The section's header is complete (its first cost, or its end). Checks
 * it against the part's other sections read so far by this run (the
 * inputs' names are kept for messages); notes which --thread values it
 * matches when `part_wanted`. Returns 0 and sets *wanted (--thread
 * selects it: always when no --thread was given), or -1 with a message
 * and *line, the line it is about. */
int section_end_header(struct read_target *t, const struct section_head *h,
                       const char *file, bool part_wanted, bool *wanted, char *err,
                       size_t errlen, uint64_t *line);
/* The process of a section without a pid and thread: the input being
 * read (folded text's too). */
uint64_t section_input_process(const struct read_target *t);
/* The section's thread and process in info (struct section_info of
 * read.h). */
void section_fill_info(const struct read_target *t, const struct section_head *h,
                       struct section_info *info);

#endif
