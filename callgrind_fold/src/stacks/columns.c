/* Which event each column holds (columns.h). */
#include "columns.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void event_table_init(struct event_table *t, const char *chosen)
{
    memset(t, 0, sizeof *t);
    GROW(t->name, t->cap, 0);
    t->name[CHOSEN_COLUMN] = chosen ? xstrndup(chosen, strlen(chosen)) : NULL;
    t->count = 1;
}

void event_table_free(struct event_table *t)
{
    for (size_t c = 0; c < t->count; c++)
        free(t->name[c]);
    free(t->name);
    memset(t, 0, sizeof *t);
}

const char *event_table_choose(struct event_table *t, const char *first)
{
    if (!t->name[CHOSEN_COLUMN])
        t->name[CHOSEN_COLUMN] = xstrndup(first, strlen(first));
    return t->name[CHOSEN_COLUMN];
}

size_t event_table_column(struct event_table *t, const char *name, size_t len)
{
    for (size_t c = 0; c < t->count; c++)
        if (t->name[c] && strlen(t->name[c]) == len && memcmp(t->name[c], name, len) == 0)
            return c;
    GROW(t->name, t->cap, t->count);
    t->name[t->count] = xstrndup(name, len);
    return t->count++;
}

size_t event_table_find(const struct event_table *t, const char *name)
{
    for (size_t c = 0; c < t->count; c++)
        if (t->name[c] && strcmp(t->name[c], name) == 0)
            return c;
    return NO_COLUMN;
}
