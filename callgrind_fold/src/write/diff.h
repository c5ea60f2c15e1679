/* --diff BASE: two profiles side by side. The base profile's stacks are
 * entered into the new profile's stack table with a count of zero, so one
 * stack id names a stack in both; base_count[id] is its base count. */
#ifndef CF_DIFF_H
#define CF_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "stacks/stacks.h"

/* Returns base_count, indexed by stack id of ctx->out (caller frees). */
uint64_t *diff_align(struct fold_ctx *ctx, const struct fold_ctx *base);

/* "stack before after" lines, as difffolded.pl writes them, for every
 * stack in either profile, sorted like folded output. 0 or -1. */
int diff_write_folded(const struct stacks *s, const uint64_t *base_count, FILE *out);

#endif
