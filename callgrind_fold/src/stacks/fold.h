/* stacks/ folding: from a call graph to folded stacks.
 *
 * Takes: a part's call graph (struct profile, model.h) and how its
 * frames are written (struct frame_style, present.h).  Hands on: the
 * part's stacks added to a struct stacks, exact or estimated
 * (estimate.c, over graph.c's views, costs split by apportion.c).
 * Depends on the model, the presentation's frame texts and util/. */
#ifndef CF_STACKS_FOLD_H
#define CF_STACKS_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "present.h"
#include "util/util.h"

/* Estimated paths lighter than total / DEFAULT_RESOLUTION are not
 * followed (--resolution). */
#define DEFAULT_RESOLUTION 100000

/* Folded stacks from a call graph.
 *
 * Call paths are grown top-down from the roots (functions nobody calls;
 * then, for cycles nobody enters, their costliest member). A path's weight
 * is split between the function's own cost and its calls in proportion to
 * the inclusive cost of each call; a call back into a function already on
 * the path is not followed, which folds recursion into its outermost frame.
 * Finally each function's self cost is apportioned among its paths by
 * weight, so every function's cost, and hence the total, is preserved to
 * the unit.
 *
 * When every function with cost ends up on exactly one weighted path (as
 * with callgrind --separate-callers contexts that reach a root, or with a
 * call tree), nothing was guessed and the stacks are exact. */

/* Where fold_profile puts a part's stacks, and what it tells about them. */
struct fold_target {
    struct stacks *out;
    const struct strtab *names;  /* the profile's names */
    struct frame_style style;
    uint64_t resolution;         /* estimated paths lighter than
                                    total/resolution are not followed; 0:
                                    follow all */
    bool estimated;              /* some stacks were guessed */
    char estimate_reason[200];   /* the first thing that had to be guessed */
    /* (name, object) -> frame id in out, of the functions folded into
     * out so far: a part of several columns is folded once per column,
     * with the same functions. Emptied by fold_set_out(). */
    struct hashmap frame_of;
};

/* t's stacks go to `out` from now on. */
void fold_set_out(struct fold_target *t, struct stacks *out);
void fold_target_free(struct fold_target *t);

/* Adds the stacks of one part to t->out, column c of p's costs counted
 * in t->out's column columns[c], and sets t->estimated when any of them
 * had to be guessed. Returns 0, or -1 with a message in err when the
 * counts overflow 64 bits. */
int fold_profile(const struct profile *p, const size_t *columns, struct fold_target *t,
                 char *err, size_t errlen);

/* The part's self costs by line (lt, of profile p) added to t->out's
 * lines, each node's to its frame, column c to t->out's columns[c];
 * after fold_profile() of the same part into the same t->out, whose
 * frames it reuses (or with t->frame_of filled by the caller: a folded
 * tree's frames, twins.h); a column c with columns[c] NO_COLUMN is left
 * out.  Returns 0, or -1 when a sum overflows 64 bits. */
int fold_lines(const struct line_table *lt, const struct profile *p, const size_t *columns,
               struct fold_target *t);

#endif
