/* A section's thread, its checks against the other sections of its part,
 * and --thread (sections.h). Header lines only: nothing here runs per
 * cost line. */
#include "sections.h"
#include "lex.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* pids above this are no pid: a process key is pid * 2 (input * 2 + 1
 * for an input's own sections), so that the two never meet. */
#define PID_LIMIT ((uint64_t)1 << 62)

void section_reset(struct section_head *h)
{
    h->number = 0;
    h->start_line = 0;
    h->has_thread = h->has_name = h->has_trigger = false;
    h->thread = h->thread_line = h->name_line = h->trigger_line = 0;
    h->name.len = h->trigger.len = 0;
}

void section_free(struct section_head *h)
{
    buf_free(&h->name);
    buf_free(&h->trigger);
}

void section_pid(struct section_head *h, const char *value, const char *end)
{
    value = skip_blanks(value, end);
    const char *t = token_end(value, end);
    uint64_t pid;
    h->has_pid = t > value && skip_blanks(t, end) == end && parse_number(value, t, &pid) &&
                 pid < PID_LIMIT;
    h->pid = h->has_pid ? pid : 0;
}

int section_thread(struct section_head *h, const char *value, const char *end,
                   uint64_t line, char *err, size_t errlen)
{
    value = skip_blanks(value, end);
    const char *t = token_end(value, end);
    size_t n = (size_t)(t - value);
    if (n == 0) {
        snprintf(err, errlen, "\"thread:\" line without a thread number");
        return -1;
    }
    uint64_t thread;
    if (!parse_number(value, t, &thread)) {
        snprintf(err, errlen, "bad thread number " TOKEN_FMT, TOKEN_ARGS(value, n));
        return -1;
    }
    if (skip_blanks(t, end) != end) {
        snprintf(err, errlen, "junk after the thread number");
        return -1;
    }
    if (h->has_thread) {
        snprintf(err, errlen, "a second \"thread:\" line in one section (a section is "
                 "one thread's: \"part:\" starts the next)");
        return -1;
    }
    h->has_thread = true;
    h->thread = thread;
    h->thread_line = line;
    return 0;
}

void section_desc(struct section_head *h, const char *value, const char *end, uint64_t line)
{
    size_t len = (size_t)(end - value);
    static const char name[] = "Thread name: ", trigger[] = "Trigger: ";
    if (starts_with(value, len, name)) {
        h->has_name = true;
        h->name.len = 0;
        buf_append(&h->name, value + strlen(name), len - strlen(name));
        h->name_line = line;
    } else if (starts_with(value, len, trigger)) {
        h->has_trigger = true;
        h->trigger.len = 0;
        buf_append(&h->trigger, value + strlen(trigger), len - strlen(trigger));
        h->trigger_line = line;
    }
}

uint64_t section_input_process(const struct read_target *t)
{
    return t->inputs * 2 + 1;
}

static uint64_t process_of(const struct read_target *t, const struct section_head *h)
{
    return h->has_pid && h->has_thread ? h->pid * 2 : section_input_process(t);
}

/* Whether --thread value v names the section's thread: its name, or its
 * kernel id in decimal. */
static bool names_thread(const char *v, const struct section_head *h)
{
    size_t n = strlen(v);
    if (h->has_name && h->name.len == n && memcmp(h->name.data, v, n) == 0)
        return true;
    uint64_t id;
    return h->has_thread && n > 0 && parse_number(v, v + n, &id) && id == h->thread;
}

/* The text of a trigger for a message. */
static const char *trigger_text(const struct strtab *tab, bool has, uint32_t id)
{
    return has ? strtab_str(tab, id) : "(none)";
}

int section_end_header(struct read_target *t, const struct section_head *h,
                       const char *file, bool part_wanted, bool *wanted, char *err,
                       size_t errlen, uint64_t *line)
{
    struct sections_seen *s = &t->sections;
    uint32_t file_id = strtab_intern(&s->files, file, strlen(file));
    uint32_t trigger = UINT32_MAX;
    if (h->has_trigger)
        trigger = strtab_intern(&s->triggers, h->trigger.data ? h->trigger.data : "",
                                h->trigger.len);
    uint64_t where = h->has_trigger ? h->trigger_line
                     : h->has_thread ? h->thread_line
                                     : h->start_line;
    bool inserted;
    uint32_t *slot = hashmap_upsert(&s->parts, process_of(t, h), h->number,
                                    (uint32_t)s->nparts, &inserted);
    uint32_t at = *slot;
    if (inserted) {
        GROW(s->part, s->parts_cap, s->nparts);
        s->part[s->nparts++] = (struct seen_part){h->has_trigger, trigger, file_id, where};
    } else {
        const struct seen_part *p = &s->part[at];
        if (p->has_trigger != h->has_trigger || (h->has_trigger && p->trigger != trigger)) {
            *line = where;
            snprintf(err, errlen, "part %" PRIu64 "'s \"desc: Trigger:\" is \"%.80s\" here "
                     "but \"%.80s\" in another of its sections (%.120s:%" PRIu64 "): one "
                     "part, two names", h->number,
                     trigger_text(&s->triggers, h->has_trigger, trigger),
                     trigger_text(&s->triggers, p->has_trigger, p->trigger),
                     strtab_str(&s->files, p->file), p->line);
            return -1;
        }
    }
    if (h->has_thread) {
        /* a tree's thread apart from its callgrind.out's: twins */
        uint64_t kind = h->tree ? (uint64_t)1 << 32 : 0;
        uint32_t *seen = hashmap_upsert(&s->threads, at | kind, h->thread,
                                        (uint32_t)s->nthreads, &inserted);
        if (!inserted) {
            *line = h->thread_line;
            snprintf(err, errlen, "part %" PRIu64 " has a second section of thread %" PRIu64
                     " (the first: %.120s:%" PRIu64 ")", h->number, h->thread,
                     strtab_str(&s->files, s->thread_file[*seen]), s->thread_line[*seen]);
            return -1;
        }
        GROW(s->thread_line, s->threads_cap, s->nthreads);
        s->thread_file = xrealloc(s->thread_file, s->threads_cap * sizeof *s->thread_file);
        s->thread_line[s->nthreads] = h->thread_line;
        s->thread_file[s->nthreads++] = file_id;
    }
    const struct read_options *o = &t->opt;
    *wanted = o->nthreads == 0;
    for (size_t i = 0; i < o->nthreads; i++) {
        if (!names_thread(o->threads[i], h))
            continue;
        *wanted = true;
        if (part_wanted)
            t->thread_matched[i] = true;
    }
    return 0;
}

void section_fill_info(const struct read_target *t, const struct section_head *h,
                       struct section_info *info)
{
    info->process = process_of(t, h);
    info->pid = h->has_pid ? h->pid : 0;
    info->has_thread = h->has_thread;
    info->thread = h->thread;
    info->thread_name = h->has_name ? (h->name.data ? h->name.data : "") : NULL;
    info->thread_name_len = h->has_name ? h->name.len : 0;
}
