/* Pictures of the folded stacks (issue 7): flame graph SVG, call graph
 * DOT (and images of it through graphviz), speedscope JSON, and the
 * comparison of two profiles. main.c fills a render_job once every input
 * has been read; render_write() picks the writer. */
#ifndef CF_RENDER_H
#define CF_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fold.h"

enum render_format {
    FORMAT_FOLDED,      /* the default: folded stacks (or diff lines) */
    FORMAT_SVG,         /* interactive flame graph */
    FORMAT_DOT,         /* call graph, graphviz source */
    FORMAT_PNG,         /* call graph rendered by graphviz */
    FORMAT_SVG_GRAPH,   /* call graph rendered by graphviz, as SVG */
    FORMAT_SPEEDSCOPE   /* speedscope JSON, one sampled profile */
};

enum color_scheme { COLORS_NAME, COLORS_OBJ };

struct render_options {
    enum render_format format;
    const char *title;        /* NULL: a default */
    const char *subtitle;     /* NULL: none */
    const char *countname;    /* NULL: derived from the event */
    double width;             /* SVG width in pixels */
    double minwidth;          /* narrower frames are merged (pixels) */
    bool inverted;            /* icicle graph: roots at the top */
    enum color_scheme colors;
    double node_thres;        /* DOT: percent of the total */
    double edge_thres;
    const char *diff_base;    /* --diff BASE, or NULL */
};

#define RENDER_DEFAULT_WIDTH 1200.0
#define RENDER_DEFAULT_MINWIDTH 0.1
#define RENDER_DEFAULT_NODE_THRES 0.5
#define RENDER_DEFAULT_EDGE_THRES 0.1

void render_options_init(struct render_options *ro);
/* Parse a --format value; false if unknown. */
bool render_parse_format(const char *s, enum render_format *f);

/* Everything a writer may need. `base` is the --diff BASE profile or NULL;
 * `ctx` the profile (the new one with --diff). */
struct render_job {
    const struct render_options *ro;
    struct fold_ctx *ctx;
    struct fold_ctx *base;
    const char *name;         /* first input's name, for titles */
};

/* Writes the output in the chosen format. Returns 0, -1 on a write error
 * (errno set), or -2 after printing its own message (e.g. no graphviz). */
int render_write(const struct render_job *job, FILE *out);

/* "instructions" for Ir, "D1 read misses" for D1mr, ...; "samples" when
 * the input was only folded stacks. Never NULL. */
const char *render_countname(const struct render_job *job);

#endif
