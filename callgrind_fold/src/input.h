/* One input: a file, standard input ("-") or a memory block, whose format
 * (callgrind profile, folded tree or folded stacks) is recognised from its
 * first lines. */
#ifndef CF_INPUT_H
#define CF_INPUT_H

#include <stddef.h>

#include "fold.h"

/* Each returns 0, or -1 with d filled in (d->file is set by them), or
 * INPUT_EMPTY (also with d filled in) when there is no data at all:
 * callgrind --separate-threads=yes leaves such a file next to the real
 * ones, so the caller may skip it when other inputs have data. */
#define INPUT_EMPTY 1
int fold_path(const char *path, struct fold_ctx *ctx, struct diag *d);
int fold_memory(const char *name, const char *data, size_t len,
                struct fold_ctx *ctx, struct diag *d);

#endif
