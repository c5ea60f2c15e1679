/* --diff BASE: two profiles side by side. The base profile's stacks are
 * entered into the new profile's stack table with a count of zero, so one
 * stack id names a stack in both; base_count[id] is its base count. */
#ifndef CF_DIFF_H
#define CF_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "stacks/model.h"

/* Returns base_count, indexed by stack id of s, the new profile's stacks
 * (caller frees); stacks only the base has are added to s with count 0. */
uint64_t *diff_align(struct stacks *s, const struct stacks *base);

/* "stack before after" lines, as difffolded.pl writes them, for every
 * stack in either profile, sorted like folded output. 0 or -1. */
int diff_write_folded(const struct stacks *s, const uint64_t *base_count, FILE *out);

#endif
