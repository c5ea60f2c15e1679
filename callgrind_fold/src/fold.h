/* State shared by the readers and the stack builder for one program run. */
#ifndef CF_FOLD_H
#define CF_FOLD_H

#include <stdbool.h>
#include <stdint.h>

#include "frames.h"
#include "stacks.h"
#include "strtab.h"

struct callarcs;
struct inline_ctx;

#define ALL_PARTS 0
#define DEFAULT_RESOLUTION 100000

struct fold_options {
    const char *event;        /* NULL: the first event of the first part */
    uint64_t part;            /* ALL_PARTS or a part number */
    uint64_t resolution;      /* estimated paths lighter than total/resolution
                                 are not followed; 0: follow all */
    struct frame_style style;
};

struct fold_ctx {
    struct fold_options opt;
    char *default_event;      /* first event seen, when opt.event is NULL */
    struct strtab names;      /* every function, file and object name */
    struct stacks out;
    bool estimated;           /* some stacks came from the call-graph estimate */
    char estimate_reason[200]; /* the first thing that had to be guessed */
    bool part_matched;        /* some part passed the --part filter */
    uint64_t parts_read;
    bool saw_folded;          /* some input was folded stacks or a folded
                                 tree: no call counts, no addresses */
    struct callarcs *arcs;    /* when set: callgrind call arcs are kept here */
    struct inline_ctx *inl;   /* --inline (inline.h): owned by main, else NULL */
};

/* Where and why an input is rejected. */
struct diag {
    char file[256];
    uint64_t line;            /* 0: no line applies */
    char msg[512];
};

void fold_init(struct fold_ctx *ctx, const struct fold_options *opt);
void fold_free(struct fold_ctx *ctx);

#endif
