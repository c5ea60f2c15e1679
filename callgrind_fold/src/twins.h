/* Twins (twins.c): a folded tree's section and the callgrind.out section
 * of the same dump, as callgrind --dump-folded=yes writes them side by
 * side.  The tree has the exact stacks and no lines; the callgrind.out has
 * exact self costs by line and stacks it can only estimate.  Given
 * together (the pipeline reads the trees first), a callgrind.out section
 * of the same (pid, part, thread) as a tree's section is its twin: the
 * router does not fold it, checks that its totals equal the tree's for
 * every event both have (else they are not twins: an error naming both
 * files), and adds only its lines (and call sites) to the stacks the
 * tree's section went to, onto the tree's frames, found by the frame
 * text the tree reader makes of a name.  A function whose frame the tree
 * does not have keeps its lines out, counted for a note.  A
 * callgrind.out section with a pid and a cost given with trees but the
 * twin of none is an error (from another run: its estimated stacks would
 * mix with the exact ones).  Sections without a pid are never twins,
 * and summed as before. */
#ifndef CF_TWINS_H
#define CF_TWINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "read/read.h"
#include "stacks/stacks.h"

/* A tree's section, remembered until every input is read. */
struct twin_tree {
    uint64_t pid, number, thread;
    bool has_thread;
    struct stacks *into;         /* where its stacks went; NULL: dropped
                                    (no cost) */
    size_t n;                    /* its events: */
    size_t *cols;                /* the run's column of each (NO_COLUMN:
                                    none, not counted in this run) */
    uint64_t *totals;            /* and its "totals:" */
    char **events;               /* and their names */
    char *file;                  /* its input */
    char *twin_file;             /* its callgrind.out once paired, or NULL */
    uint32_t next;               /* the next tree section of its (pid,
                                    part), or UINT32_MAX */
};

struct twins {
    struct twin_tree *tree;
    size_t n, cap;
    struct hashmap first;        /* (pid, part) -> its first tree section */
    /* what the run says of its twins (twins_report) */
    uint64_t pairs;              /* callgrind.out sections paired */
    uint64_t out_inputs;         /* callgrind.out files with a twin */
    uint64_t last_input;         /* the input of the latest pair */
    char *first_out, *first_tree; /* the first pair's files */
    uint64_t functions_left_out; /* whose lines had no frame of the tree */
};

void twins_init(struct twins *tw);
void twins_free(struct twins *tw);
/* A tree's section (info->tree) handed over, its stacks gone to `into`
 * (NULL if they were dropped); `columns`, the run's events. */
void twins_note_tree(struct twins *tw, const struct section_info *info, struct stacks *into,
                     const struct event_table *columns);
/* The tree section a callgrind.out section is the twin of, or NULL. */
struct twin_tree *twins_find(struct twins *tw, const struct section_info *info);
/* A callgrind.out section that is no tree's twin (twins_find() NULL):
 * given with folded trees (of a pid), one with a pid and a cost must be
 * one's, else it is from another run. Returns 0, or -1 with a message. */
int twins_check_unpaired(const struct twins *tw, const struct section_info *info,
                         const struct section_graph *pt, char *err, size_t errlen);
/* The callgrind.out section pt, of `info`, the twin of t: its totals
 * checked against t's, its lines added to t's stacks (names: the run's,
 * style: the frames' as the tree reader makes them).  Returns 0, or -1
 * with a message in err (not twins; a second callgrind.out for one tree
 * section; an overflow). */
int twins_pair(struct twins *tw, struct twin_tree *t, const struct section_info *info,
               const struct section_graph *pt, const struct strtab *names,
               const struct frame_style *style, char *err, size_t errlen);

/* The notes of a run with twins, on `to`: where the stacks and lines came
 * from (`lines`: the format shows lines), and how many functions' lines
 * were left out. Nothing without twins. */
void twins_report(const struct twins *tw, bool lines, FILE *to);
/* The comment a profile with lines from twins carries (-f pprof), or NULL
 * without twins. */
const char *twins_comment(const struct twins *tw);

#endif
