/* Flame graph SVG in the spirit of FlameGraph's flamegraph.pl (its own
 * code): one <g> per drawn frame holding <title> ("name (count countname,
 * percent%)"), <rect> and <text>; frames narrower than --minwidth pixels
 * are not drawn one by one: all such children of a frame become one
 * "(merged)" frame after its other children, so every frame's children
 * and self cost still add up to its width. With a base profile (--diff)
 * frames are sized by the new profile and coloured by their change. */
#ifndef CF_FLAMESVG_H
#define CF_FLAMESVG_H

#include <stdio.h>

#include "flametree.h"
#include "job.h"
#include "stacks/model.h"
#include "util/util.h"

/* Frame id -> object name for --colors=obj when the frames do not say
 * "fn [object]" themselves; any of it may be NULL/0. */
struct frame_objects {
    const uint32_t *object;   /* frame id -> name id, UINT32_MAX unknown */
    size_t count;
    const struct strtab *names;
};

struct flamesvg_input {
    const struct render_options *ro;
    const struct flame_tree *tree;
    const struct stacks *stacks;    /* frame texts */
    const char *countname;
    struct frame_objects objects;
};

/* Pixels per count for a profile of this total. */
double flamesvg_scale(const struct render_options *ro, uint64_t total);

/* Returns 0 or -1 on a write error. */
int flamesvg_write(const struct flamesvg_input *in, FILE *out);

/* flamegraph.js and flamegraph.css, made C strings by the Makefile
 * (tools/embed.sh; in obj/gen/). */
extern const char flamegraph_js[];
extern const char flamegraph_css[];

#endif
