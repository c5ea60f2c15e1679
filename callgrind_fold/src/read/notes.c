/* What the inputs say besides costs (read.h, "notes.c"): takes event
 * names, long names, "cmd:" and "desc:" lines, hands them on in the read
 * target's notes. */
#include "read.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

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
