/* Event types of one part: the "events:" columns and "event:" definitions,
 * and resolution of the event chosen with --event into per-column weights
 * (a plain event is one column with weight 1; an inherited event such as
 * "event: Sum = Ir + 2 * Dr" is a weighted sum of columns). */
#ifndef CF_EVENTS_H
#define CF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct event_defs {
    char **columns;         /* names from "events:", in cost-line order */
    size_t ncolumns;
    char **derived_name;    /* from "event: NAME = EXPR" */
    char **derived_expr;
    size_t nderived, derived_cap;
};

void events_init(struct event_defs *ev);
void events_free(struct event_defs *ev);
/* text is the value after "events:". Returns 0, or -1 with a message. */
int events_set_columns(struct event_defs *ev, const char *text, size_t len,
                       char *err, size_t errlen);
/* text is the value after "event:". Returns 0, or -1 with a message. */
/* The NAME and LONG NAME of an "event: NAME [= EXPR] : LONG NAME" line's
 * value [p, end); false if it has no long name.  A long name tells a
 * unit, such as "sysTime (elapsed ns)". */
bool events_long_name(const char *p, const char *end, const char **name,
                      size_t *name_len, const char **long_name, size_t *long_len);

int events_add_definition(struct event_defs *ev, const char *text, size_t len,
                          char *err, size_t errlen);
/* Fill weight[0..ncolumns) for event `name`. Returns 0, or -1 with a message. */
int events_resolve(const struct event_defs *ev, const char *name, uint64_t *weight,
                   char *err, size_t errlen);

#endif
