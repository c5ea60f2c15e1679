/* The read target, the event chosen, and what the inputs say besides
 * costs (read.h, "notes.c"). */
#include "read.h"
#include "sections.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void read_target_init(struct read_target *t, const struct read_options *opt,
                      struct strtab *names, struct stacks *stacks,
                      const struct part_sink *sink)
{
    memset(t, 0, sizeof *t);
    t->opt = *opt;
    t->names = names;
    t->stacks = stacks;
    t->sink = *sink;
    strtab_init(&t->notes.events);
    strtab_init(&t->notes.comments);
    strtab_init(&t->event_columns);
    hashmap_init(&t->sections.parts);
    hashmap_init(&t->sections.threads);
    strtab_init(&t->sections.files);
    strtab_init(&t->sections.triggers);
    t->thread_matched = xcalloc(opt->nthreads + 1, sizeof *t->thread_matched);
}

void read_target_free(struct read_target *t)
{
    free(t->first_event);
    for (size_t i = 0; i < t->notes.nevent_long; i++)
        free(t->notes.event_long[i]);
    free(t->notes.event_long);
    strtab_free(&t->notes.events);
    strtab_free(&t->notes.comments);
    strtab_free(&t->event_columns);
    buf_free(&t->cmd);
    struct sections_seen *s = &t->sections;
    hashmap_free(&s->parts);
    hashmap_free(&s->threads);
    free(s->part);
    free(s->thread_line);
    free(s->thread_file);
    strtab_free(&s->files);
    strtab_free(&s->triggers);
    free(t->thread_matched);
}

void read_part_start(struct read_target *t, const struct part_info *info)
{
    if (t->opt.keep_parts && t->sink.part_start)
        t->sink.part_start(t->sink.arg, t, info);
}

int read_part_end(struct read_target *t, struct part_info *info, char *err, size_t errlen)
{
    if (!t->opt.keep_parts || !t->sink.part_end)
        return 0;
    if (!info->descs)
        info->descs_len = 0;
    info->descs = info->descs ? info->descs : "";
    info->cmd = t->cmd.len ? buf_cstr(&t->cmd) : "";
    read_describe_part(info);
    return t->sink.part_end(t->sink.arg, info, err, errlen);
}

struct part_info read_folded_part(const struct read_target *t)
{
    /* no pid, no thread: a part of its own input */
    return (struct part_info){.number = 1, .folded_text = true,
                              .process = section_input_process(t)};
}

int read_folded_part_end(struct read_target *t, char *err, size_t errlen)
{
    struct part_info info = read_folded_part(t);
    return read_part_end(t, &info, err, errlen);
}

const char *read_event_name(struct read_target *t, const char *first_column)
{
    if (t->opt.event)
        return t->opt.event;
    if (!t->first_event) {
        size_t n = strlen(first_column);
        t->first_event = xmalloc(n + 1);
        memcpy(t->first_event, first_column, n + 1);
    }
    return t->first_event;
}

const char *read_chosen_event(const struct read_target *t)
{
    return t->opt.event ? t->opt.event : t->first_event;
}

size_t read_event_column(struct read_target *t, const char *name, size_t len)
{
    return (size_t)strtab_intern(&t->event_columns, name, len) + 1;
}

size_t read_event_column_of(const struct read_target *t, const char *name)
{
    for (uint32_t id = 0; id < t->event_columns.count; id++) /* a few events */
        if (strcmp(strtab_str(&t->event_columns, id), name) == 0)
            return (size_t)id + 1;
    return 0;
}

void notes_event(struct read_target *t, const char *name, size_t len)
{
    if (t->opt.keep_notes)
        strtab_intern(&t->notes.events, name, len);
}

void notes_event_long(struct read_target *t, const char *name, size_t len,
                      const char *long_name, size_t long_len)
{
    struct input_notes *n = &t->notes;
    if (!t->opt.keep_notes || notes_event_long_name(n, name, len))
        return;
    GROW(n->event_long, n->event_long_cap, n->nevent_long);
    char *pair = xmalloc(len + long_len + 2);
    memcpy(pair, name, len);
    pair[len] = '\0';
    memcpy(pair + len + 1, long_name, long_len);
    pair[len + 1 + long_len] = '\0';
    n->event_long[n->nevent_long++] = pair;
}

const char *notes_event_long_name(const struct input_notes *n, const char *name,
                                  size_t len)
{
    for (size_t i = 0; i < n->nevent_long; i++) {
        const char *pair = n->event_long[i];
        if (strlen(pair) == len && memcmp(pair, name, len) == 0)
            return pair + len + 1;
    }
    return NULL;
}

void notes_comment(struct read_target *t, const char *key, const char *text, size_t len)
{
    if (strcmp(key, "cmd") == 0) { /* the process, for a report's parts */
        t->cmd.len = 0;
        buf_append(&t->cmd, text, len);
    }
    if (!t->opt.keep_notes)
        return;
    struct buf b = {0};
    buf_append(&b, key, strlen(key));
    buf_append(&b, ": ", 2);
    buf_append(&b, text, len);
    strtab_intern(&t->notes.comments, b.data, b.len);
    buf_free(&b);
}
