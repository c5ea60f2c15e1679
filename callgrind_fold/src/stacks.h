/* The output: distinct folded stacks with their summed counts.
 * A stack is kept as the sequence of its frames' ids (4 bytes a frame
 * instead of the frame's text), and printed as text only when written. */
#ifndef CF_STACKS_H
#define CF_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "strtab.h"

struct stacks {
    struct strtab frames; /* frame text -> frame id */
    struct strtab paths;  /* frame id sequence (as bytes) -> stack id */
    uint64_t *count;      /* stack id -> summed count */
    size_t count_cap;
    uint64_t total;       /* sum of all counts */
    uint32_t *scratch;    /* frame ids of a stack given as text */
    size_t scratch_cap;
};

void stacks_init(struct stacks *s);
void stacks_free(struct stacks *s);
/* Id of a frame's text (which must not contain ';'). */
uint32_t stacks_frame(struct stacks *s, const char *text, size_t len);
/* Both return false when a sum would overflow 64 bits. */
bool stacks_add(struct stacks *s, const uint32_t *frames, size_t nframes, uint64_t count);
/* A stack as text, frames separated by ';'. */
bool stacks_add_text(struct stacks *s, const char *stack, size_t len, uint64_t count);
/* Writes "stack count" lines with a nonzero count, sorted by bytes
 * (like LC_ALL=C sort). Returns 0, or -1 on a write error. */
int stacks_write(const struct stacks *s, FILE *out);
/* Ids of the stacks with a nonzero count (or a nonzero also[id], when
 * also is not NULL), in the byte order of stacks_write. Sets *n; the
 * array is the caller's to free. */
uint32_t *stacks_sorted(const struct stacks *s, const uint64_t *also, size_t *n);

#endif
