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
#ifndef CF_ESTIMATE_H
#define CF_ESTIMATE_H

#include "fold.h"
#include "profile.h"

/* Adds the stacks of one part to ctx->out, and sets ctx->estimated when
 * any of them had to be guessed. Returns 0, or -1 with a message in d
 * when the counts overflow 64 bits. */
int fold_profile(const struct profile *p, struct fold_ctx *ctx, struct diag *d);

#endif
