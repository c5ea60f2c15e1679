/* The run's state shared by the readers and the stack builder
 * (stacks.h, "fold.c"). */
#include "stacks.h"

#include <stdlib.h>
#include <string.h>

void fold_init(struct fold_ctx *ctx, const struct fold_options *opt)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->opt = *opt;
    strtab_init(&ctx->names);
    stacks_init(&ctx->out);
}

void fold_free(struct fold_ctx *ctx)
{
    free(ctx->default_event);
    strtab_free(&ctx->names);
    stacks_free(&ctx->out);
}
