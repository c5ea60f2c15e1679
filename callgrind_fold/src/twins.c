/* Twins (twins.h): a folded tree's sections remembered, each
 * callgrind.out section of one of them checked against it and its lines
 * put on the tree's frames. */
#include "twins.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NO_TREE UINT32_MAX

static char *copy(const char *s)
{
    return xstrndup(s, strlen(s));
}

void twins_init(struct twins *tw)
{
    memset(tw, 0, sizeof *tw);
    hashmap_init(&tw->first);
}

void twins_free(struct twins *tw)
{
    for (size_t i = 0; i < tw->n; i++) {
        struct twin_tree *t = &tw->tree[i];
        for (size_t k = 0; k < t->n; k++)
            free(t->events[k]);
        free(t->events);
        free(t->cols);
        free(t->totals);
        free(t->file);
        free(t->twin_file);
    }
    free(tw->tree);
    hashmap_free(&tw->first);
    free(tw->first_out);
    free(tw->first_tree);
    memset(tw, 0, sizeof *tw);
}

static bool same_section(const struct twin_tree *t, const struct section_info *info)
{
    return t->has_thread == info->has_thread && (!t->has_thread || t->thread == info->thread);
}

void twins_note_tree(struct twins *tw, const struct section_info *info, struct stacks *into,
                     const struct event_table *columns)
{
    if (!info->pid)
        return; /* no pid: nothing says which run it is of */
    if (tw->n >= NO_TREE - 1)
        out_of_memory();
    GROW(tw->tree, tw->cap, tw->n);
    uint32_t at = (uint32_t)tw->n++;
    struct twin_tree *t = &tw->tree[at];
    size_t n = info->tree_nevents;
    *t = (struct twin_tree){.pid = info->pid, .number = info->number,
                            .thread = info->thread, .has_thread = info->has_thread,
                            .into = into, .n = n, .file = copy(info->file),
                            .next = NO_TREE};
    t->cols = xcalloc(n + 1, sizeof *t->cols);
    t->totals = xcalloc(n + 1, sizeof *t->totals);
    t->events = xcalloc(n + 1, sizeof *t->events);
    for (size_t k = 0; k < n; k++) {
        t->events[k] = copy(info->tree_events[k]);
        t->cols[k] = event_table_find(columns, info->tree_events[k]);
        t->totals[k] = info->tree_totals[k];
    }
    /* the sections of one (pid, part) chained in input order */
    bool inserted;
    uint32_t *first = hashmap_upsert(&tw->first, info->pid, info->number, at, &inserted);
    if (inserted)
        return;
    uint32_t last = *first;
    while (tw->tree[last].next != NO_TREE)
        last = tw->tree[last].next;
    tw->tree[last].next = at;
}

struct twin_tree *twins_find(struct twins *tw, const struct section_info *info)
{
    uint32_t at;
    if (!info->pid || info->tree || !hashmap_get(&tw->first, info->pid, info->number, &at))
        return NULL;
    for (; at != NO_TREE; at = tw->tree[at].next)
        if (same_section(&tw->tree[at], info))
            return &tw->tree[at];
    return NULL;
}

/* "part N" or "part N, thread T", for messages. */
static void section_name(const struct twin_tree *t, char *out, size_t len)
{
    if (t->has_thread)
        snprintf(out, len, "pid %" PRIu64 ", part %" PRIu64 ", thread %" PRIu64, t->pid,
                 t->number, t->thread);
    else
        snprintf(out, len, "pid %" PRIu64 ", part %" PRIu64, t->pid, t->number);
}

/* The section's total of its column c. */
static bool graph_total(const struct section_graph *pt, size_t c, uint64_t *total)
{
    if (pt->by_address) {
        *total = pt->addr_total[c];
        return true;
    }
    return profile_total(&pt->prof, c, total);
}

/* Sets keep[c], the run's column of pt's column c where the tree counts
 * that event too (else NO_COLUMN), once its totals are found equal.
 * Returns 0, or -1 with a message. */
static int check_totals(const struct twin_tree *t, const struct section_graph *pt,
                        size_t *keep, char *err, size_t errlen)
{
    char which[160];
    section_name(t, which, sizeof which);
    size_t compared = 0;
    for (size_t c = 0; c < pt->prof.ncols; c++) {
        keep[c] = NO_COLUMN;
        size_t k = 0;
        while (k < t->n && (t->cols[k] == NO_COLUMN || t->cols[k] != pt->columns[c]))
            k++;
        if (k == t->n)
            continue;
        uint64_t total;
        if (!graph_total(pt, c, &total)) {
            snprintf(err, errlen, "summed costs overflow 64 bits");
            return -1;
        }
        if (total != t->totals[k]) {
            snprintf(err, errlen, "not the twin of the folded tree %.200s (%s): %s totals "
                     "%" PRIu64 " here, %" PRIu64 " in the tree; a folded tree and its "
                     "callgrind.out are written by one run of callgrind", t->file, which,
                     t->events[k], total, t->totals[k]);
            return -1;
        }
        keep[c] = pt->columns[c];
        compared++;
    }
    if (!compared) {
        snprintf(err, errlen, "of the same %s as the folded tree %.200s, but with no event "
                 "of the tree's: not its twin", which, t->file);
        return -1;
    }
    return 0;
}

/* Whether node i of pt has a line cost in a kept column: has[i]; and
 * least[i], its least line in its own file (0: none), its first. */
static bool *nodes_with_lines(const struct section_graph *pt, const size_t *keep,
                              uint32_t *least)
{
    const struct line_table *lt = &pt->lines;
    bool *has = xcalloc(pt->prof.nnodes + 1, sizeof *has);
    for (uint32_t e = 0; e < lt->n; e++) {
        const struct line_key *k = &lt->key[e];
        if (k->line && k->file == pt->prof.nodes[k->at].file &&
            (!least[k->at] || k->line < least[k->at]))
            least[k->at] = k->line;
        for (size_t c = 0; c < lt->ncols && c < pt->prof.ncols; c++) {
            if (keep[c] != NO_COLUMN && line_table_cost(lt, e, c) != 0)
                has[k->at] = true;
        }
    }
    return has;
}

/* The twin's lines and call sites onto the tree's frames in t->into:
 * each node's frame the one of the text the tree reader makes of its
 * name (no object: the tree names none), its source noted from the
 * node (its first line the least of every dump's). Counts the functions left out (no such frame). */
static int fold_twin_lines(struct twins *tw, struct twin_tree *t,
                           const struct section_graph *pt, const size_t *keep,
                           const struct strtab *names, const struct frame_style *style)
{
    const struct profile *p = &pt->prof;
    struct fold_target ft = {.out = t->into, .names = names, .style = *style};
    hashmap_init(&ft.frame_of);
    struct hashmap left_out; /* names whose lines had no frame */
    hashmap_init(&left_out);
    uint32_t *least = xcalloc(p->nnodes + 1, sizeof *least);
    bool *has = nodes_with_lines(pt, keep, least);
    struct buf text = {0};
    for (uint32_t i = 0; i < p->nnodes; i++) {
        const struct fn_node *fn = &p->nodes[i];
        text.len = 0;
        frame_append(&text, strtab_str(names, fn->name), strtab_len(names, fn->name), NULL, 0,
                     style);
        uint32_t frame = stacks_frame_find(t->into, text.data ? text.data : "", text.len);
        if (frame != UINT32_MAX) {
            hashmap_put(&ft.frame_of, fn->name, fn->object, frame);
            stacks_frame_source_least(t->into, frame, fn->object, fn->file,
                                      least[i] ? least[i] : fn->line);
        } else if (has[i]) {
            bool inserted;
            hashmap_upsert(&left_out, fn->name, 0, 0, &inserted);
            tw->functions_left_out += inserted;
        }
    }
    buf_free(&text);
    free(has);
    free(least);
    hashmap_free(&left_out);
    int rc = fold_lines(&pt->lines, p, keep, &ft);
    fold_target_free(&ft);
    return rc;
}

int twins_check_unpaired(const struct twins *tw, const struct section_info *info,
                         const struct section_graph *pt, char *err, size_t errlen)
{
    if (!tw->n || info->tree || !info->pid)
        return 0; /* without a pid, from no run of callgrind: summed */
    bool cost = false;
    for (size_t c = 0; c < pt->prof.ncols; c++) {
        uint64_t total;
        cost |= !graph_total(pt, c, &total) || total != 0;
    }
    if (!cost)
        return 0;
    char which[160];
    struct twin_tree self = {.pid = info->pid, .number = info->number,
                             .thread = info->thread, .has_thread = info->has_thread};
    section_name(&self, which, sizeof which);
    snprintf(err, errlen, "no folded tree given has this section (%s), the twin of its "
             "callgrind.out; a callgrind.out given with folded trees (such as %.200s, pid "
             "%" PRIu64 ") is one of theirs, from the same run; fold the others apart",
             which, tw->tree[0].file, tw->tree[0].pid);
    return -1;
}

int twins_pair(struct twins *tw, struct twin_tree *t, const struct section_info *info,
               const struct section_graph *pt, const struct strtab *names,
               const struct frame_style *style, char *err, size_t errlen)
{
    if (t->twin_file) {
        char which[160];
        section_name(t, which, sizeof which);
        snprintf(err, errlen, "a second callgrind.out of the folded tree %.200s's section (%s):"
                 " its twin is %.200s", t->file, which, t->twin_file);
        return -1;
    }
    size_t *keep = xcalloc(pt->prof.ncols + 1, sizeof *keep);
    int rc = check_totals(t, pt, keep, err, errlen);
    if (rc == 0 && t->into && (pt->lines.n || pt->lines.nsites) &&
        fold_twin_lines(tw, t, pt, keep, names, style)) {
        snprintf(err, errlen, "summed line costs overflow 64 bits");
        rc = -1;
    }
    free(keep);
    if (rc)
        return rc;
    t->twin_file = copy(info->file);
    if (!tw->pairs++) {
        tw->first_out = copy(info->file);
        tw->first_tree = copy(t->file);
    }
    if (tw->out_inputs == 0 || info->input != tw->last_input)
        tw->out_inputs++;
    tw->last_input = info->input;
    return 0;
}

void twins_report(const struct twins *tw, bool lines, FILE *to)
{
    if (!tw->pairs)
        return;
    char more[80] = "";
    if (tw->out_inputs > 1)
        snprintf(more, sizeof more, " (and %" PRIu64 " more callgrind.out files, each with its "
                 "tree)", tw->out_inputs - 1);
    if (lines)
        fprintf(to, "callgrind_fold: note: lines from %s, stacks from its folded tree %s%s\n",
                tw->first_out, tw->first_tree, more);
    else
        fprintf(to, "callgrind_fold: note: stacks from the folded tree %s; %s, its "
                "callgrind.out, adds none (its lines show with -f pprof)%s\n",
                tw->first_tree, tw->first_out, more);
    if (lines && tw->functions_left_out)
        fprintf(to, "callgrind_fold: note: the lines of %" PRIu64 " function(s) of the "
                "callgrind.out are left out: the folded tree has no frame of their name\n",
                tw->functions_left_out);
}

const char *twins_comment(const struct twins *tw)
{
    if (!tw->pairs)
        return NULL;
    return "lines: the stacks are exact, from callgrind's folded tree; each line's cost "
           "is exact, from its callgrind.out, and per function: all of the function's "
           "callers together";
}
