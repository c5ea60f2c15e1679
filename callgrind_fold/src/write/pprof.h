/* pprof's profile.proto (github.com/google/pprof, proto/profile.proto),
 * gzip-compressed: what `go tool pprof`, Pyroscope/Grafana and speedscope
 * read. One sample type per event (the job's event columns, filled by
 * the pipeline from one pass over the inputs), one sample per distinct
 * stack (leaf first) with the value of every event, functions with their source file
 * and first line, a mapping per object marked as already symbolized, the
 * frames "NAME [inlined]" of --inline as extra lines of one location, and
 * the parts' "cmd:"/"desc:" lines as comments. */
#ifndef CF_PPROF_H
#define CF_PPROF_H

#include <stdio.h>

#include "job.h"

/* Returns 0, -1 on a write error (errno set), or -2 after printing its
 * own message. */
int pprof_write(const struct render_job *job, FILE *out);

#endif
