/* The call graph of callgrind profiles as -f dot draws it: arcs between
 * frames (the folded stacks' frame texts, so clone folding and
 * --frame=fn+obj apply) with their call counts and inclusive costs, summed
 * over every part read, and the object of each frame (for --colors=obj). */
#ifndef CF_CALLARCS_H
#define CF_CALLARCS_H

#include <stddef.h>
#include <stdint.h>

#include "fold.h"
#include "hashmap.h"
#include "profile.h"

#define NO_OBJECT UINT32_MAX

struct callarcs {
    struct hashmap index;   /* caller frame x callee frame -> arc */
    uint32_t *caller, *callee;
    uint64_t *calls, *cost; /* saturating sums */
    size_t n, cap;
    uint32_t *object;       /* frame id -> object name id in ctx->names */
    size_t nobject, object_cap;
};

void callarcs_init(struct callarcs *a);
void callarcs_free(struct callarcs *a);
/* Adds to the arc from -> to (created if new); returns its index. */
uint32_t callarcs_add(struct callarcs *a, uint32_t from, uint32_t to, uint64_t calls,
                      uint64_t cost);
/* Adds one part's call arcs (frames interned in ctx->out). */
void callarcs_add_profile(struct callarcs *a, const struct profile *p, struct fold_ctx *ctx);

#endif
