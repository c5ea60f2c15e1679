/* The callgrind.out reader. It consumes a line reader whose first
 * significant line (already read by the caller, to tell the formats apart)
 * is passed in, and returns 0, or -1 with d->line and d->msg set. */
#ifndef CF_PARSE_H
#define CF_PARSE_H

#include <stddef.h>

#include "read/read.h"
#include "read/linereader.h"

/* The callgrind format (callgrind/docs/cl-format.xml), any number of
 * parts; each selected part goes to t->sink as it ends, so only one
 * part's call graph is ever held in memory. */
int read_callgrind(struct linereader *r, const char *first, size_t first_len,
                   struct read_target *t, struct diag *d);

/* True if the line can only start a callgrind profile: a known header
 * ("events: ...") or position line ("fn=..."). */
int is_callgrind_line(const char *line, size_t len);

#endif
