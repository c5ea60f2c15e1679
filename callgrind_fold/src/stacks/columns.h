/* stacks/ columns: which event each column of a run's counts holds.
 *
 * One table per run, made as the readers meet events and read by every
 * stage after them: column c of every stacks and section graph of the
 * run, and of the reports' and pprof's views, holds the counts of event
 * c.  Column 0 is the chosen event's (--event, else the first event of
 * the first input that names events): it is known before any count is
 * read, so the formats that show one event find it there, and its name
 * is set once an input names it.  Folded text names no event: its counts
 * are the chosen event's (with every event counted, the router adds them
 * to each event's column once every input is read).  Depends on util/
 * only. */
#ifndef CF_STACKS_COLUMNS_H
#define CF_STACKS_COLUMNS_H

#include <stddef.h>

/* The column of the chosen event. */
#define CHOSEN_COLUMN 0

/* Not a column of the table (event_table_find). */
#define NO_COLUMN ((size_t)-1)

/* A run has a few events (callgrind's at most a dozen or two): looked up
 * by a linear search, never on a per-count path. */
struct event_table {
    char **name;                 /* column -> event; name[CHOSEN_COLUMN]
                                    NULL until chosen */
    size_t count, cap;           /* count >= 1 */
};

/* A table of one column, the chosen event's: `chosen` (--event), or
 * NULL to name it from the first input that names events. */
void event_table_init(struct event_table *t, const char *chosen);
void event_table_free(struct event_table *t);
/* The chosen event's name: `first` (an input's first event) unless one
 * was chosen before. */
const char *event_table_choose(struct event_table *t, const char *first);
/* The column of event `name` (len bytes), made if new. */
size_t event_table_column(struct event_table *t, const char *name, size_t len);
/* The column of event `name`, or NO_COLUMN. */
size_t event_table_find(const struct event_table *t, const char *name);

static inline size_t event_table_count(const struct event_table *t)
{
    return t->count;
}

/* Event `column`'s name; NULL for the chosen event while no input named
 * events. */
static inline const char *event_table_name(const struct event_table *t, size_t column)
{
    return t->name[column];
}

#endif
