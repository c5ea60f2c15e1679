/* The tree of frames the HTML report draws for one part (or one pair of
 * parts of --diff): one node per distinct stack prefix with its self
 * count in every column (an event, or an event of the old or new part),
 * children in the byte order of their names (a part's threads in its
 * order), in depth-first preorder.
 *
 * Frames narrower than a pixel can never be drawn: a node whose
 * inclusive count is below 1/REPORT_TREE_DIVISOR of its tree's total in
 * every column is pruned, and the pruned children of one parent become
 * one "(merged)" child holding their sums, so that every column still
 * sums to its total exactly.
 *
 * Frame names are interned in a table shared by every tree of a page
 * (struct report_names), so that a name is written once per page. */
#ifndef CF_REPORTTREE_H
#define CF_REPORTTREE_H

#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "util/util.h"

#define REPORT_TREE_DIVISOR 50000
/* Reserved name ids: the merged node and the root. Their texts in the
 * table hold a ';', which no frame has. */
#define REPORT_NAME_MERGED 0u
#define REPORT_NAME_ROOT 1u

struct report_names {
    struct strtab tab;
    struct report_name_origin *origin; /* name id -> where first seen */
    size_t origin_cap;
    struct report_frame_map *maps; /* per stacks seen: frame id -> name id */
    size_t nmaps, cap;
};

/* A name's first frame: the frame text is the name; its raw (unshortened)
 * name is asked of the stacks. Both NULL/0 for the reserved names. */
struct report_name_origin {
    const struct stacks *stacks;
    uint32_t frame;
};

void report_names_init(struct report_names *n);
void report_names_free(struct report_names *n);
/* The page's name id of frame `frame` of s (interned if new). */
uint32_t report_name_of(struct report_names *n, const struct stacks *s, uint32_t frame);

/* Where a tree's counts come from: the stacks and event columns of one
 * part, counted in the tree's columns [first, first + ncolumns). */
struct report_source {
    const struct stacks *stacks;
    const struct event_column *columns;
    size_t ncolumns;
    size_t first;
};

/* The root's children in the order the sources' stacks first have them
 * (its threads' frames, in the part's order), not by name. */
#define REPORT_ROOTS_IN_ORDER 1

struct report_tree {
    size_t count;          /* nodes; node 0 is the root */
    size_t ncols;
    uint32_t *depth;       /* root 0 */
    uint32_t *name;        /* id in the page's names */
    uint64_t *self;        /* count * ncols: node i's column c at i*ncols+c */
    uint64_t *total;       /* ncols: sum of the column */
    uint64_t *unknown;     /* ncols: counts of stacks whose leaf is "0x..." */
    uint64_t pruned;       /* frames left out (merged into "(merged)") */
    size_t merged_nodes;   /* "(merged)" nodes */
};

void report_tree_build(struct report_tree *t, struct report_names *names,
                       const struct report_source *src, size_t nsrc, size_t ncols,
                       int flags);
void report_tree_free(struct report_tree *t);

#endif
