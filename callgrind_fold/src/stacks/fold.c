/* The run's state shared by the readers and the stack builder
 * (stacks.h, "fold.c"). */
#include "stacks.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void fold_init(struct fold_ctx *ctx, const struct fold_options *opt)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->opt = *opt;
    strtab_init(&ctx->names);
    stacks_init(&ctx->out);
    strtab_init(&ctx->events_seen);
    strtab_init(&ctx->comments);
}

void fold_free(struct fold_ctx *ctx)
{
    free(ctx->default_event);
    strtab_free(&ctx->names);
    stacks_free(&ctx->out);
    for (size_t i = 0; i < ctx->nevent_long; i++)
        free(ctx->event_long[i]);
    free(ctx->event_long);
    strtab_free(&ctx->events_seen);
    strtab_free(&ctx->comments);
    for (size_t i = 0; i < ctx->ncolumns; i++)
        free(ctx->columns[i].count);
    free(ctx->columns);
}

const char *fold_event_name(struct fold_ctx *ctx, const char *first_column)
{
    if (ctx->opt.event)
        return ctx->opt.event;
    if (!ctx->default_event) {
        size_t n = strlen(first_column);
        ctx->default_event = xmalloc(n + 1);
        memcpy(ctx->default_event, first_column, n + 1);
    }
    return ctx->default_event;
}

void fold_note_event(struct fold_ctx *ctx, const char *name, size_t len)
{
    if (ctx->keep_notes)
        strtab_intern(&ctx->events_seen, name, len);
}

void fold_note_event_long(struct fold_ctx *ctx, const char *name, size_t len,
                          const char *long_name, size_t long_len)
{
    if (!ctx->keep_notes || fold_event_long(ctx, name, len))
        return;
    GROW(ctx->event_long, ctx->event_long_cap, ctx->nevent_long);
    char *pair = xmalloc(len + long_len + 2);
    memcpy(pair, name, len);
    pair[len] = '\0';
    memcpy(pair + len + 1, long_name, long_len);
    pair[len + 1 + long_len] = '\0';
    ctx->event_long[ctx->nevent_long++] = pair;
}

const char *fold_event_long(const struct fold_ctx *ctx, const char *name, size_t len)
{
    for (size_t i = 0; i < ctx->nevent_long; i++) {
        const char *pair = ctx->event_long[i];
        if (strlen(pair) == len && memcmp(pair, name, len) == 0)
            return pair + len + 1;
    }
    return NULL;
}

void fold_note_comment(struct fold_ctx *ctx, const char *key, const char *text,
                       size_t len)
{
    if (!ctx->keep_notes)
        return;
    struct buf b = {0};
    buf_append(&b, key, strlen(key));
    buf_append(&b, ": ", 2);
    buf_append(&b, text, len);
    strtab_intern(&ctx->comments, b.data, b.len);
    buf_free(&b);
}
