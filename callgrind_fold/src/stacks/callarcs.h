/* stacks/ call arcs: the call graph as -f dot draws it.
 *
 * Takes: each part's call graph (struct profile, model.h) and the
 * stacks whose frames name its functions.  Hands on: arcs between
 * frames, with call counts and inclusive costs summed over every part,
 * and each frame's object, to the dot writer (write/dot.c); renamed with
 * the frames by stacks_shorten (present.h).  Depends on the model, the
 * folding's frame interning and util/. */
#ifndef CF_STACKS_CALLARCS_H
#define CF_STACKS_CALLARCS_H

#include <stddef.h>
#include <stdint.h>

#include "present.h"
#include "model.h"
#include "util/util.h"

/* The call graph of callgrind profiles as -f dot draws it: arcs between
 * frames (the folded stacks' frame texts, so clone folding and
 * --frame=fn+obj apply) with their call counts and inclusive costs, summed
 * over every part read, and the object of each frame (for --colors=obj). */

#define NO_OBJECT UINT32_MAX

struct callarcs {
    struct hashmap index;   /* caller frame x callee frame -> arc */
    uint32_t *caller, *callee;
    uint64_t *calls, *cost; /* saturating sums */
    size_t n, cap;
    uint32_t *object;       /* frame id -> object name id in the run's names */
    size_t nobject, object_cap;
};

void callarcs_init(struct callarcs *a);
void callarcs_free(struct callarcs *a);
/* Adds to the arc from -> to (created if new); returns its index. */
uint32_t callarcs_add(struct callarcs *a, uint32_t from, uint32_t to, uint64_t calls,
                      uint64_t cost);
/* Adds one part's call arcs, its frames written in `style` and interned
 * in `frames` (the run's summed stacks, as fold_profile interns them). */
void callarcs_add_profile(struct callarcs *a, const struct profile *p,
                          const struct strtab *names, const struct frame_style *style,
                          struct stacks *frames);
/* Frame f becomes frame rename[f] (f < nframes): arcs that become alike
 * are summed (saturating), a frame several became keeps the first object
 * known. */
void callarcs_rename(struct callarcs *a, const uint32_t *rename, size_t nframes);

#endif
