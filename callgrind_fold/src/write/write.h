/* write/: the last stage. Stacks in, the chosen output format out.
 *
 * Takes: a struct render_job (job.h): the run's summed stacks
 * (stacks/model.h, every event a column where the format shows them),
 * the event and its columns, the call arcs when kept, the options, and
 * for --diff the base profile's stacks or, for the reports, the parts
 * of both runs (report.h).
 * Hands on: bytes on the output stream, one writer per format:
 *   folded stacks    foldedtext.c (stacks_write), its lines in the byte
 *                    order of order.c, and diff.c ("stack before after")
 *   svg              flametree.c (the tree of frames, narrow ones merged)
 *                    then flamesvg.c, with flamegraph.js/.css embedded and
 *                    colors.c
 *   dot, png, svg-graph  dot.c (DOT from the call arcs, colors.c), drawn
 *                    by gvrender.c (libgvc or the dot program)
 *   speedscope       speedscope.c (JSON)
 *   pprof            pprof.c (profile.proto, gzipped; every event, one
 *                    column per event that the pipeline fills)
 *   html             html.c (the report of every part: report.h; its trees
 *                    pruned by reporttree.c over stacktrie.c), with
 *                    report.js/.css embedded
 *   md               md.c (Markdown tables of the parts: report.h)
 * textout.c is the buffered output with XML/JSON/DOT escaping they share,
 * job.c the options and format names.
 * write.c (render_write) only chooses the writer; every writer depends on
 * job.h and the stack model, none on another writer. */
#ifndef CF_WRITE_WRITE_H
#define CF_WRITE_WRITE_H

#include <stdio.h>

#include "foldedtext.h"
#include "job.h"

/* Writes the output in the chosen format. Returns 0, -1 on a write error
 * (errno set), or -2 after printing its own message (e.g. no graphviz). */
int render_write(const struct render_job *job, FILE *out);

#endif
