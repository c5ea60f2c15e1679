/* The call graph of one part of a profile, for one event: functions with
 * their self cost, and caller->callee edges with the inclusive cost of the
 * calls. This is all the folding needs; source positions are not kept. */
#ifndef CF_PROFILE_H
#define CF_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashmap.h"

#define NO_NODE UINT32_MAX

struct fn_node {
    uint32_t name;     /* interned full name, contexts and clone marks included */
    uint32_t object;   /* interned "ob=" name, "" if none */
    uint32_t file;     /* interned "fl=" name, "" if none */
    bool defined;      /* appeared in "fn=", not only as a call target */
    uint64_t self;     /* exclusive cost */
};

struct call_edge {
    uint32_t caller, callee;
    uint64_t cost;     /* inclusive cost of all these calls */
    uint64_t calls;    /* how many calls ("calls=" counts, saturating) */
};

struct profile {
    struct fn_node *nodes;
    size_t nnodes, nodes_cap;
    struct call_edge *edges;
    size_t nedges, edges_cap;
    struct hashmap node_index;  /* (object, file) x name -> node */
    struct hashmap edge_index;  /* caller x callee -> edge */
    uint64_t total_self;        /* sum of all self costs */
};

void profile_init(struct profile *p);
void profile_free(struct profile *p);
void profile_reset(struct profile *p);
/* Node for a function identity, created on first use. */
uint32_t profile_function(struct profile *p, uint32_t object, uint32_t file,
                          uint32_t name);
/* Both return false when a sum would overflow 64 bits. */
bool profile_add_self(struct profile *p, uint32_t node, uint64_t cost);
bool profile_add_call(struct profile *p, uint32_t caller, uint32_t callee,
                      uint64_t cost);
/* Adds to the call count of an existing edge (saturating). */
void profile_add_call_count(struct profile *p, uint32_t caller, uint32_t callee,
                            uint64_t calls);
/* Call targets that never appeared in "fn=" (typically a writer that left
 * out "cfi=" or "cob=") are redirected to the one defined function of the
 * same name, so that a file quirk does not cut the graph apart. */
void profile_resolve_call_targets(struct profile *p);

#endif
