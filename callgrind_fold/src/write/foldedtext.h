/* The folded stacks text: "f1;f2;...;fN count" lines in byte order.
 *
 * Takes: a struct stacks (stacks/model.h).  Hands on: its lines written
 * to a FILE (foldedtext.c), and the order of those lines as stack ids
 * (order.c) to the writers that follow it (--diff's text, speedscope).
 * Depends on the model, the stack trie (stacktrie.h) and util/. */
#ifndef CF_WRITE_FOLDEDTEXT_H
#define CF_WRITE_FOLDEDTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stacks/model.h"

/* foldedtext.c: writes "stack count" lines with a nonzero count,
 * sorted by bytes (like LC_ALL=C sort). Returns 0, or -1 on a write
 * error. */
int stacks_write(const struct stacks *s, FILE *out);
/* order.c: ids of the stacks with a nonzero count (or a nonzero
 * also[id], when also is not NULL), in the byte order of stacks_write.
 * Sets *n; the array is the caller's to free. */
uint32_t *stacks_sorted(const struct stacks *s, const uint64_t *also, size_t *n);
/* stacks_sorted, and sets *shared to an array (the caller's to free) of
 * how many first frames each stack shares with the one before it (0 for
 * the first), known from the sort's walk. */
uint32_t *stacks_sorted_shared(const struct stacks *s, const uint64_t *also, size_t *n,
                               uint32_t **shared);

#endif
