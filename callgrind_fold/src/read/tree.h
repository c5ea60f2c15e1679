/* Reader for the folded tree that the patched callgrind writes with
 * --dump-folded=yes (docs/folded-tree.md): every call path once, as a
 * "DEPTH ID COSTS" line under the path written last at the depth above.
 * Its stacks are exact, for any event of its "events:" line. */
#ifndef CF_TREE_H
#define CF_TREE_H

#include <stddef.h>

#include "read.h"
#include "linereader.h"

/* The first line of every folded tree, exactly. */
#define TREE_MARKER "# callgrind folded tree"

/* Reads the rest of a folded tree whose first line (the caller read it
 * to tell the formats apart, and it starts with TREE_MARKER) is passed
 * in; each selected section's stacks are handed to t's sink at its end.
 * Returns 0, or -1 with d->line and d->msg set. */
int read_tree(struct linereader *r, const char *first, size_t first_len,
              struct read_target *t, struct diag *d);

#endif
