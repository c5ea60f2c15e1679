/* The call graph in graphviz DOT. Nodes are frames, labelled with their
 * inclusive cost (the stacks that contain them, each counted once) and
 * self cost; edges carry the inclusive cost of the calls and, from
 * callgrind profiles, the number of calls (folded stacks have no call
 * counts: the graph says so). Nodes below node_thres percent of the total
 * and edges below edge_thres are left out; colours go from blue (cold)
 * to red (hot) with the inclusive cost. */
#ifndef CF_DOT_H
#define CF_DOT_H

#include <stdio.h>

#include "job.h"

int dot_write(const struct render_job *job, FILE *out);

#endif
