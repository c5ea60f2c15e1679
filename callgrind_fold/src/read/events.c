/* Event types of a part: "events:" columns, "event:" definitions, and
 * the --event choice as per-column weights (events.h); the event chosen
 * for every input, and the columns of all events (read.h). */
#include "events.h"
#include "read.h"
#include "lex.h"
#include "util/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool events_long_name(const char *p, const char *end, const char **name,
                      size_t *name_len, const char **long_name, size_t *long_len)
{
    p = skip_blanks(p, end);
    const char *n = p;
    while (p < end && !is_blank(*p) && *p != '=' && *p != ':')
        p++;
    const char *colon = memchr(p, ':', (size_t)(end - p));
    if (!colon || p == n)
        return false;
    const char *lng = skip_blanks(colon + 1, end), *lend = end;
    while (lend > lng && is_blank(lend[-1]))
        lend--;
    if (lend == lng)
        return false;
    *name = n;
    *name_len = (size_t)(p - n);
    *long_name = lng;
    *long_len = (size_t)(lend - lng);
    return true;
}

/* Inherited events may refer to other inherited events; this bounds the
 * nesting so that a definition cycle cannot recurse forever. */
#define MAX_DERIVED_DEPTH 16

void events_init(struct event_defs *ev)
{
    memset(ev, 0, sizeof *ev);
}

static void free_list(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void events_free(struct event_defs *ev)
{
    free_list(ev->columns, ev->ncolumns);
    free_list(ev->derived_name, ev->nderived);
    free_list(ev->derived_expr, ev->nderived);
    events_init(ev);
}

static bool is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

int events_set_columns(struct event_defs *ev, const char *text, size_t len,
                       char *err, size_t errlen)
{
    free_list(ev->columns, ev->ncolumns);
    ev->columns = NULL;
    ev->ncolumns = 0;
    size_t cap = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && is_blank(text[i]))
            i++;
        size_t start = i;
        while (i < len && !is_blank(text[i]))
            i++;
        if (i == start)
            break;
        GROW(ev->columns, cap, ev->ncolumns);
        ev->columns[ev->ncolumns++] = xstrndup(text + start, i - start);
    }
    if (ev->ncolumns == 0) {
        snprintf(err, errlen, "\"events:\" line names no event");
        return -1;
    }
    return 0;
}

int events_add_definition(struct event_defs *ev, const char *text, size_t len,
                          char *err, size_t errlen)
{
    size_t i = 0;
    while (i < len && is_blank(text[i]))
        i++;
    size_t start = i;
    while (i < len && is_name_char(text[i]))
        i++;
    if (i == start) {
        snprintf(err, errlen, "\"event:\" line without an event name");
        return -1;
    }
    size_t name_end = i;
    while (i < len && is_blank(text[i]))
        i++;
    if (i >= len || text[i] != '=')
        return 0; /* only a long name: nothing to compute */
    i++;
    /* The expression ends where the optional ": long name" starts. */
    size_t expr_start = i;
    while (i < len && text[i] != ':')
        i++;
    if (ev->nderived >= ev->derived_cap) {
        GROW(ev->derived_name, ev->derived_cap, ev->nderived);
        ev->derived_expr = xrealloc(ev->derived_expr,
                                    ev->derived_cap * sizeof *ev->derived_expr);
    }
    ev->derived_name[ev->nderived] = xstrndup(text + start, name_end - start);
    ev->derived_expr[ev->nderived] = xstrndup(text + expr_start, i - expr_start);
    ev->nderived++;
    return 0;
}

static int resolve(const struct event_defs *ev, const char *name, size_t name_len,
                   uint64_t factor, uint64_t *weight, int depth, char *err,
                   size_t errlen);

/* Add factor * (EXPR) to weight; EXPR := TERM ("+" TERM)*,
 * TERM := [NUMBER ["*"]] NAME. */
static int add_expression(const struct event_defs *ev, const char *expr,
                          uint64_t factor, uint64_t *weight, int depth,
                          char *err, size_t errlen)
{
    const char *p = expr;
    for (;;) {
        while (is_blank(*p))
            p++;
        uint64_t coef = 1;
        if (isdigit((unsigned char)*p)) {
            coef = 0;
            while (isdigit((unsigned char)*p)) {
                if (!mul_u64(coef, 10, &coef) ||
                    !add_u64(coef, (uint64_t)(*p - '0'), &coef)) {
                    snprintf(err, errlen, "event factor too large in \"%s\"", expr);
                    return -1;
                }
                p++;
            }
            while (is_blank(*p))
                p++;
            if (*p == '*')
                p++;
            while (is_blank(*p))
                p++;
        }
        const char *name = p;
        while (is_name_char(*p))
            p++;
        if (p == name) {
            snprintf(err, errlen, "bad inherited event expression \"%s\"", expr);
            return -1;
        }
        uint64_t f;
        if (!mul_u64(factor, coef, &f)) {
            snprintf(err, errlen, "event factor too large in \"%s\"", expr);
            return -1;
        }
        if (resolve(ev, name, (size_t)(p - name), f, weight, depth + 1, err, errlen))
            return -1;
        while (is_blank(*p))
            p++;
        if (*p == '\0')
            return 0;
        if (*p != '+') {
            snprintf(err, errlen, "bad inherited event expression \"%s\"", expr);
            return -1;
        }
        p++;
    }
}

static int resolve(const struct event_defs *ev, const char *name, size_t name_len,
                   uint64_t factor, uint64_t *weight, int depth, char *err,
                   size_t errlen)
{
    if (depth > MAX_DERIVED_DEPTH) {
        snprintf(err, errlen, "inherited event definitions nest too deeply");
        return -1;
    }
    for (size_t i = 0; i < ev->ncolumns; i++) {
        if (strlen(ev->columns[i]) == name_len &&
            memcmp(ev->columns[i], name, name_len) == 0) {
            if (!add_u64(weight[i], factor, &weight[i])) {
                snprintf(err, errlen, "event factor too large");
                return -1;
            }
            return 0;
        }
    }
    /* The last definition of a name wins, as with repeated header lines. */
    for (size_t i = ev->nderived; i-- > 0;) {
        if (strlen(ev->derived_name[i]) == name_len &&
            memcmp(ev->derived_name[i], name, name_len) == 0)
            return add_expression(ev, ev->derived_expr[i], factor, weight, depth,
                                  err, errlen);
    }
    snprintf(err, errlen, "no event \"%.*s\" in this part (events:", (int)name_len, name);
    for (size_t i = 0; i < ev->ncolumns; i++) {
        size_t used = strlen(err);
        snprintf(err + used, errlen - used, " %s", ev->columns[i]);
    }
    size_t used = strlen(err);
    snprintf(err + used, errlen - used, ")");
    return -1;
}

int events_resolve(const struct event_defs *ev, const char *name, uint64_t *weight,
                   char *err, size_t errlen)
{
    for (size_t i = 0; i < ev->ncolumns; i++)
        weight[i] = 0;
    return resolve(ev, name, strlen(name), 1, weight, 0, err, errlen);
}

/* ---- the event chosen, for every input (read.h) ---- */

const char *read_event_name(struct read_target *t, const char *first_column)
{
    return event_table_choose(t->columns, first_column);
}

const char *read_chosen_event(const struct read_target *t)
{
    return event_table_name(t->columns, CHOSEN_COLUMN);
}
