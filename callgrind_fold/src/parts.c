/* The parts kept apart (pipeline.h, "parts.c"): with -f html, -f md and
 * -f svg every part read gets stacks of its own (the readers announce
 * each part to the sink's part_start and part_end); pictures re-root each
 * at the user's code (stacks/roots.c). -f svg sums them as they end, the
 * reports keep them, named by benchmark, and --diff OLD NEW pairs two
 * runs' parts by that name. */
#include "pipeline.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_text(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* A part starts: its costs go to stacks of its own. */
static void run_part_start(void *arg, struct read_target *t)
{
    struct run *run = arg;
    struct stacks *s = xmalloc(sizeof *s);
    stacks_init(s);
    t->stacks = s;
    fold_set_out(&run->fold, s);
    run->part_open = s;
}

static bool stacks_have_cost(const struct stacks *s)
{
    bool cost = stacks_total(s) != 0;
    for (size_t c = 0; c < s->ncolumns; c++)
        cost |= s->columns[c].total != 0;
    return cost;
}

/* The process a "cmd:" line runs: the base name of its first word. */
static const char *process_name(const char *cmd, size_t *len)
{
    while (*cmd == ' ' || *cmd == '\t')
        cmd++;
    size_t n = strcspn(cmd, " \t");
    const char *base = cmd;
    for (size_t i = 0; i < n; i++)
        if (cmd[i] == '/' && i + 1 < n)
            base = cmd + i + 1;
    *len = n - (size_t)(base - cmd);
    if (*len == 0) {
        *len = strlen("program");
        return "program";
    }
    return base;
}

/* -f svg: a part's stacks (re-rooted) summed into run->out at its end,
 * and emptied. False if a sum overflows. */
static bool sum_into_run(struct run *run, struct stacks *s)
{
    if (stacks_count_ids(&run->out) == 0 && stacks_count_frames(&run->out) == 0 &&
        run->out.ncolumns == 0) { /* the first part's stacks as they are */
        stacks_free(&run->out);
        run->out = *s;
        stacks_init(s);
        return true;
    }
    size_t nframes = stacks_count_frames(s);
    uint32_t *map = xmalloc((nframes ? nframes : 1) * sizeof *map);
    for (uint32_t fr = 0; fr < nframes; fr++) {
        size_t len;
        const char *text = stacks_frame_text(s, fr, &len);
        map[fr] = stacks_frame(&run->out, text, len);
    }
    bool ok = true;
    for (uint32_t id = 0; id < stacks_count_ids(s) && ok; id++) {
        uint64_t count = stacks_count(s, id);
        if (count)
            ok = stacks_add_mapped(&run->out, s, id, map, count) != UINT32_MAX;
    }
    free(map);
    stacks_free(s);
    return ok;
}

/* A part ends: kept if it has a cost (re-rooted for pictures); a
 * CodSpeed metadata part's text noted; other parts without cost
 * ("Program termination") dropped. */
static int run_part_end(void *arg, const struct part_info *info, char *err, size_t errlen)
{
    struct run *run = arg;
    struct stacks *s = run->part_open;
    run->part_open = NULL;
    fold_set_out(&run->fold, &run->out);
    run->in.stacks = &run->out;
    if (!run->cmd)
        run->cmd = dup_text(info->cmd, strlen(info->cmd));
    const char *trigger = NULL;
    size_t trigger_len = 0;
    for (size_t i = 0; i < info->descs_len;) {
        const char *line = info->descs + i;
        size_t n = (size_t)((const char *)memchr(line, '\n', info->descs_len - i) - line);
        if (starts_with(line, n, "Trigger: ")) {
            trigger = line + strlen("Trigger: ");
            trigger_len = n - strlen("Trigger: ");
        }
        i += n + 1;
    }
    static const char request[] = "Client Request: ", metadata[] = "Metadata: ";
    bool benchmark = trigger && starts_with(trigger, trigger_len, request);
    const char *what = benchmark ? trigger + strlen(request) : NULL;
    size_t what_len = benchmark ? trigger_len - strlen(request) : 0;
    if (!stacks_have_cost(s)) {
        if (benchmark && starts_with(what, what_len, metadata)) {
            GROW(run->metadata, run->metadata_cap, run->nmetadata);
            run->metadata[run->nmetadata++] =
                dup_text(what + strlen(metadata), what_len - strlen(metadata));
        }
        stacks_free(s);
        free(s);
        return 0;
    }
    if (run->trim_roots && !info->folded_text) {
        size_t len;
        const char *process = process_name(info->cmd, &len);
        stacks_root_at_user_code(s, benchmark, process, len);
    } else {
        stacks_compact(s);
    }
    enum render_format f = run->opt.render.format;
    if (f != FORMAT_HTML && f != FORMAT_MD) { /* -f svg: summed as it goes */
        bool ok = sum_into_run(run, s);
        free(s);
        if (!ok)
            snprintf(err, errlen, "summed counts overflow 64 bits");
        return ok ? 0 : -1;
    }
    GROW(run->parts, run->parts_cap, run->nparts);
    struct kept_part *kp = &run->parts[run->nparts++];
    memset(kp, 0, sizeof *kp);
    kp->number = info->number;
    kp->stacks = s;
    kp->trigger = trigger ? dup_text(trigger, trigger_len) : NULL;
    if (benchmark && what_len) {
        kp->name = dup_text(what, what_len);
    } else {
        char name[40];
        snprintf(name, sizeof name, "part %" PRIu64, info->number);
        kp->name = dup_text(name, strlen(name));
    }
    return 0;
}

void parts_free(struct run *run)
{
    for (size_t i = 0; i < run->nparts; i++) {
        struct kept_part *kp = &run->parts[i];
        free(kp->name);
        free(kp->trigger);
        if (kp->stacks)
            stacks_free(kp->stacks);
        free(kp->stacks);
        for (size_t e = 0; kp->columns && e < run->nevents; e++)
            free(kp->columns[e].count);
        free(kp->columns);
    }
    free(run->parts);
    run->parts = NULL;
    run->nparts = run->parts_cap = 0;
}

void parts_sink(struct part_sink *sink)
{
    sink->part_start = run_part_start;
    sink->part_end = run_part_end;
}

void parts_number_names(struct run *run)
{
    struct strtab names;
    strtab_init(&names);
    uint32_t *seen = NULL;
    size_t seen_cap = 0;
    for (size_t i = 0; i < run->nparts; i++) {
        struct kept_part *kp = &run->parts[i];
        uint32_t id = strtab_intern(&names, kp->name, strlen(kp->name));
        if (id >= seen_cap) {
            size_t from = seen_cap;
            GROW(seen, seen_cap, (size_t)id);
            memset(seen + from, 0, (seen_cap - from) * sizeof *seen);
        }
        if (seen[id]++) {
            char nth[32];
            snprintf(nth, sizeof nth, " (%" PRIu32 ")", seen[id]);
            struct buf b = {0};
            buf_append(&b, kp->name, strlen(kp->name));
            buf_append(&b, nth, strlen(nth));
            free(kp->name);
            kp->name = dup_text(b.data, b.len);
            buf_free(&b);
        }
    }
    free(seen);
    strtab_free(&names);
}

/* ---- reports: the writers' view, --diff OLD NEW's pairs ------------------ */

void report_view_init(struct report_view *v, const struct run *run, const char *title)
{
    v->parts = xcalloc(run->nparts ? run->nparts : 1, sizeof *v->parts);
    for (size_t i = 0; i < run->nparts; i++) {
        const struct kept_part *kp = &run->parts[i];
        v->parts[i] = (struct report_part){.number = kp->number, .name = kp->name,
                                           .trigger = kp->trigger, .stacks = kp->stacks,
                                           .columns = kp->columns};
    }
    v->report = (struct report){
        .title = run->opt.render.title ? run->opt.render.title : title,
        .events = run->events,
        .nevents = run->nevents,
        .default_event = run->default_event,
        .parts = v->parts,
        .nparts = run->nparts,
        .cmd = run->cmd ? run->cmd : "",
        .metadata = (const char *const *)run->metadata,
        .nmetadata = run->nmetadata,
    };
}

/* The order of --diff OLD NEW's table: benchmarks of both runs by the
 * size of the change of the --event in percent (then of the change in
 * counts), largest first; then those removed, then those added, each in
 * input order. */
struct ranked_pair {
    struct report_pair pair;
    int group;                  /* 0 both runs, 1 removed, 2 added */
    double change;              /* |percent| */
    uint64_t delta;             /* |new - old| */
    size_t order;
};

static int compare_ranked(const void *pa, const void *pb)
{
    const struct ranked_pair *a = pa, *b = pb;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if (a->change != b->change)
        return a->change > b->change ? -1 : 1;
    if (a->delta != b->delta)
        return a->delta > b->delta ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Pairs the parts of two runs by benchmark name (names are unique in a
 * run: finish_parts numbered the repeated ones). */
struct report_pair *pair_parts(const struct report *old, const struct report *new,
                                      size_t *npairs)
{
    const char *event = new->nevents ? new->events[new->default_event] : "";
    size_t oe = report_event_index(old, event), ne = new->default_event;
    struct strtab names;
    strtab_init(&names);
    for (size_t i = 0; i < old->nparts; i++)
        strtab_intern(&names, old->parts[i].name, strlen(old->parts[i].name));
    const struct report_part **match = xcalloc(old->nparts + 1, sizeof *match);
    struct ranked_pair *r = xcalloc(old->nparts + new->nparts + 1, sizeof *r);
    size_t n = 0;
    for (size_t i = 0; i < new->nparts; i++) {
        const struct report_part *np = &new->parts[i];
        uint32_t id = strtab_intern(&names, np->name, strlen(np->name));
        if (id < old->nparts)
            match[id] = np;
        else
            r[n++] = (struct ranked_pair){{np->name, NULL, np}, 2, 0, 0, i};
    }
    for (size_t i = 0; i < old->nparts; i++) {
        const struct report_part *op = &old->parts[i];
        if (!match[i]) {
            r[n++] = (struct ranked_pair){{op->name, op, NULL}, 1, 0, 0, i};
            continue;
        }
        uint64_t before = oe == SIZE_MAX ? 0 : op->columns[oe].total;
        uint64_t after = match[i]->columns[ne].total;
        uint64_t delta = after > before ? after - before : before - after;
        double change = before ? 100.0 * (double)delta / (double)before
                        : after ? 1e300 : 0;
        r[n++] = (struct ranked_pair){{op->name, op, match[i]}, 0, change, delta, i};
    }
    qsort(r, n, sizeof *r, compare_ranked);
    struct report_pair *pairs = xcalloc(n + 1, sizeof *pairs);
    for (size_t i = 0; i < n; i++)
        pairs[i] = r[i].pair;
    free(r);
    free(match);
    strtab_free(&names);
    *npairs = n;
    return pairs;
}
