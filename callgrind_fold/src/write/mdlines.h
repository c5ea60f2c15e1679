/* -f md --diff OLD NEW: which lines of a changed benchmark to list
 * (mdlines.c); md.c writes them.
 *
 * For each benchmark of both runs whose --event total changed (the
 * table does not show its change as 0.0%) and whose parts have self
 * costs by line (stacks.lines of a callgrind.out read with line
 * positions), in the table's order, at most MD_LINES_BENCHMARKS of them:
 * the MD_LINES_FUNCTIONS functions whose self cost changed most, and of
 * each the MD_LINES_PER_FUNCTION lines that changed most. Lines pair by
 * (function, base name of the file, line): a line that moved is one
 * removed and one added. */
#ifndef CF_WRITE_MDLINES_H
#define CF_WRITE_MDLINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

#define MD_LINES_BENCHMARKS 5
#define MD_LINES_FUNCTIONS 3
#define MD_LINES_PER_FUNCTION 3

/* A line of a function, the event's self cost there in each run. */
struct changed_line {
    const char *file;         /* its file's base name ("" when unknown) */
    size_t file_len;
    uint32_t line;            /* 0: no line */
    uint64_t before, after;
};

/* A function (frame) of the benchmark, its self cost in each run. */
struct changed_function {
    const char *name;         /* the frame's text */
    size_t name_len;
    uint64_t before, after;
    /* false when its lines do not sum to its self cost in a run (some
       of its cost came without lines): no lines listed */
    bool lines_known;
    struct changed_line lines[MD_LINES_PER_FUNCTION];
    size_t nlines;
};

struct changed_benchmark {
    const struct report_pair *pair;
    struct changed_function functions[MD_LINES_FUNCTIONS];
    size_t nfunctions;
};

/* The benchmarks of d to list, at most MD_LINES_BENCHMARKS in out[];
 * returns how many, *more set to those changed with lines beyond them.
 * The texts point into d's stacks and names. */
size_t md_changed_lines(const struct report_diff *d, struct changed_benchmark *out,
                        size_t *more);

/* Whether the table shows a change from before to after: its percent,
 * as put with one decimal, is not 0.0% (a change from 0 is "n/a"). */
bool md_change_shown(uint64_t before, uint64_t after);
/* The change as the table shows it: "+12.3%", "-0.4%", "0.0%", "n/a". */
void md_change_text(char *text, size_t size, uint64_t before, uint64_t after);

#endif
