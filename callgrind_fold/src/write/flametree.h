/* The tree of call stacks that a flame graph draws: one node per distinct
 * stack prefix, children in the byte order of their frame text, stored
 * in depth-first preorder (a node's subtree is [i, end[i])).
 *
 * Frames too narrow to draw are collapsed: their subtrees are left out
 * and runs of such siblings become one "merged" node holding their sum.
 * The tree is grown from the summed stacks one depth at a time and only
 * below frames wide enough to draw (a frame is never wider than its
 * parent), so time and memory grow with the drawn frames and the number
 * of stacks, not with the frames of every stack. */
#ifndef CF_FLAMETREE_H
#define CF_FLAMETREE_H

#include <stddef.h>
#include <stdint.h>

#include "stacks/model.h"

#define FLAME_ROOT_FRAME UINT32_MAX

struct flame_tree {
    size_t count;         /* nodes; node 0 is the root ("all") */
    uint32_t *frame;      /* frame id in the stacks' frame table */
    uint32_t *depth;      /* root 0 */
    uint32_t *end;        /* one past the node's subtree */
    uint64_t *value;      /* inclusive count */
    uint32_t *merged;     /* 0, or how many narrow sibling frames this
                             collapsed node stands for */
    uint64_t *base;       /* inclusive count in the base profile, or NULL */
    uint32_t max_depth;
    size_t cap;           /* allocated nodes */
};

/* base_count: per stack id of s, its count in the base profile (--diff),
 * or NULL. Stacks with both counts zero are left out. A frame is narrow,
 * and collapsed, when value * scale < minwidth (scale: pixels per count)
 * or when its value is 0 (it is only in the base profile). */
void flame_build(struct flame_tree *t, const struct stacks *s, const uint64_t *base_count,
                 double scale, double minwidth);
static inline int flame_narrow(uint64_t value, double scale, double minwidth)
{
    return value == 0 || (double)value * scale < minwidth; /* 0: only in the base */
}
void flame_free(struct flame_tree *t);

#endif
