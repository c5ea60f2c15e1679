/* The folded stacks reader ("a;b;c 123" lines). Like read_callgrind
 * (parse.h), it consumes a line reader whose first significant line is
 * passed in, and returns 0, or -1 with d->line and d->msg set. */
#ifndef CF_FOLDED_H
#define CF_FOLDED_H

#include <stddef.h>

#include "read.h"
#include "linereader.h"

/* Folded stacks: the file read as one section, its stacks as written,
 * into the stacks the target's sink names. */
int read_folded(struct linereader *r, const char *first, size_t first_len,
                struct read_target *t, struct diag *d);

#endif
