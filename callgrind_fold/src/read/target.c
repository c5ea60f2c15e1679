/* The read target (read.h) from start to end, and each section handed
 * to the sink: called by every reader, so kept apart from input.c, which
 * calls the readers (no two files call each other). */
#include "read.h"
#include "sections.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void read_target_init(struct read_target *t, const struct read_options *opt,
                      struct strtab *names, struct event_table *columns,
                      const struct section_sink *sink)
{
    memset(t, 0, sizeof *t);
    t->opt = *opt;
    t->names = names;
    t->columns = columns;
    t->sink = *sink;
    strtab_init(&t->notes.events);
    strtab_init(&t->notes.comments);
    hashmap_init(&t->sections.parts);
    hashmap_init(&t->sections.threads);
    strtab_init(&t->sections.files);
    strtab_init(&t->sections.triggers);
    t->thread_matched = xcalloc(opt->nthreads + 1, sizeof *t->thread_matched);
}

void read_target_free(struct read_target *t)
{
    for (size_t i = 0; i < t->notes.nevent_long; i++)
        free(t->notes.event_long[i]);
    free(t->notes.event_long);
    strtab_free(&t->notes.events);
    strtab_free(&t->notes.comments);
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

/* The header's last fields, once the section is read. */
static void complete_info(struct read_target *t, struct section_info *info)
{
    if (!info->descs)
        info->descs_len = 0;
    info->descs = info->descs ? info->descs : "";
    info->cmd = t->cmd.len ? buf_cstr(&t->cmd) : "";
    info->input = t->inputs;
    info->file = t->input_name ? t->input_name : "";
    read_describe_section(info);
}

int read_section_graph(struct read_target *t, struct section_info *info, struct section_graph *graph,
                       char *err, size_t errlen)
{
    complete_info(t, info);
    return t->sink.graph(t->sink.arg, info, graph, err, errlen);
}

int read_section_stacks(struct read_target *t, struct section_info *info, struct stacks *s,
                        char *err, size_t errlen)
{
    complete_info(t, info);
    return t->sink.stacks(t->sink.arg, info, s, err, errlen);
}

struct stacks *read_section_open(struct read_target *t, const struct section_info *head)
{
    return t->sink.open(t->sink.arg, head);
}

struct section_info read_folded_section(const struct read_target *t)
{
    /* no pid, no thread: a part of its own input */
    return (struct section_info){.number = 1, .folded_text = true,
                              .process = section_input_process(t)};
}
