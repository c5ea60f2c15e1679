/* The pipeline (pipeline.h): a run's stages in order, and the whole
 * command from inputs to output. */
#include "pipeline.h"
#include "inline/inline.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --inline's structures (libdw's, mapped debug images, scope trees) are
 * left to the OS at exit: freeing them cost about 1.5 ms, mostly
 * unmapping (5% of a run). Sanitizer builds free them, so that leak
 * checks stay meaningful. */
#ifndef FREE_AT_EXIT
#if defined(__SANITIZE_ADDRESS__)
#define FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FREE_AT_EXIT 1
#endif
#endif
#endif
#ifndef FREE_AT_EXIT
#define FREE_AT_EXIT 0
#endif

/* ---- one part through the stages ------------------------------------------ */

/* The readers' sink: a callgrind part, read completely and selected. */
static int run_part(void *arg, struct part *pt, char *err, size_t errlen)
{
    struct run *run = arg;
    if (run->inl && inline_apply(run->inl, pt, &run->names, err, errlen))
        return -1;
    profile_resolve_call_targets(&pt->prof);
    if (run->keep_arcs) { /* -f dot: the call graph itself, with call counts */
        /* frames named as in the summed stacks, even when the part's
         * stacks are kept apart */
        struct fold_target arcs_frames = run->fold;
        arcs_frames.out = &run->out;
        callarcs_add_profile(&run->arcs, &pt->prof, &arcs_frames);
    }
    stacks_use_column(run->fold.out, pt->column);
    return fold_profile(&pt->prof, &run->fold, err, errlen);
}

/* ---- parts kept apart (keep_parts) ------------------------------------------ */

static char *dup_text(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static bool starts_with(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

/* A part starts: its costs go to stacks of its own. */
static void run_part_start(void *arg, struct read_target *t)
{
    struct run *run = arg;
    struct stacks *s = xmalloc(sizeof *s);
    stacks_init(s);
    t->stacks = s;
    run->fold.out = s;
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
    run->fold.out = &run->out;
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

static void free_parts(struct run *run)
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

/* --inline: an object's debug file may be prepared while reading goes on. */
static void run_object(void *arg, uint32_t name, const char *path)
{
    struct run *run = arg;
    inline_note_object(run->inl, name, path);
}

void run_init(struct run *run, const struct run_options *opt)
{
    memset(run, 0, sizeof *run);
    run->opt = *opt;
    const struct render_options *ro = &opt->render;
    bool pprof = ro->format == FORMAT_PPROF;
    strtab_init(&run->names);
    stacks_init(&run->out);
    run->out.keep_sources = pprof;
    callarcs_init(&run->arcs);
    run->keep_arcs = ro->format == FORMAT_DOT || ro->format == FORMAT_PNG ||
                     ro->format == FORMAT_SVG_GRAPH || ro->colors == COLORS_OBJ;
    bool report = ro->format == FORMAT_HTML || ro->format == FORMAT_MD;
    bool picture = ro->format == FORMAT_HTML || ro->format == FORMAT_SVG;
    run->trim_roots = picture && !ro->full_stacks;
    run->keep_parts = report || run->trim_roots;
    run->fold = (struct fold_target){.out = &run->out, .names = &run->names,
                                     .style = opt->style, .resolution = opt->resolution};
    if (opt->inline_frames) {
        heap_prefer_huge_pages((size_t)64 << 20);
        char *default_dir = opt->inline_cache ? NULL : dwarf_images_default_dir();
        const char *cache_dir = !opt->inline_cache                ? default_dir
                                : strcmp(opt->inline_cache, "no") ? opt->inline_cache
                                                                  : NULL;
        run->inl = inline_new(opt->debug_dirs, cache_dir);
        free(default_dir);
    }
    struct read_options ro_in = {
        .event = opt->event,
        .part = opt->part,
        .style = opt->style,
        .by_address = run->inl != NULL,
        .want_lines = pprof,
        .keep_notes = pprof || report,
        .all_events = pprof || report,
        .keep_parts = run->keep_parts,
    };
    struct part_sink sink = {run, run_part, run->inl ? run_object : NULL,
                             run_part_start, run_part_end};
    read_target_init(&run->in, &ro_in, &run->names, &run->out, &sink);
}

void run_free(struct run *run)
{
    if (run->inl) {
        inline_finish(run->inl);
#if FREE_AT_EXIT
        inline_free(run->inl);
#endif
    }
    read_target_free(&run->in);
    callarcs_free(&run->arcs);
    stacks_free(&run->out);
    strtab_free(&run->names);
    for (size_t i = 0; i < run->ncolumns; i++)
        free(run->columns[i].count);
    free(run->columns);
    free_parts(run);
    if (run->part_open) { /* an input failed in this part */
        stacks_free(run->part_open);
        free(run->part_open);
    }
    for (size_t i = 0; i < run->nmetadata; i++)
        free(run->metadata[i]);
    free(run->metadata);
    free(run->cmd);
    free(run->events);
}

/* Folded inputs pass --inline unexpanded: its report says how many. */
static int after_input(struct run *run, uint64_t folded_before, int rc)
{
    if (run->inl && run->in.folded_inputs > folded_before)
        inline_note_folded(run->inl);
    return rc;
}

int run_read_path(struct run *run, const char *path, struct diag *d)
{
    uint64_t folded = run->in.folded_inputs;
    return after_input(run, folded, read_path(path, &run->in, d));
}

int run_read_memory(struct run *run, const char *name, const char *data, size_t len,
                    struct diag *d)
{
    uint64_t folded = run->in.folded_inputs;
    return after_input(run, folded, read_memory(name, data, len, &run->in, d));
}

/* ---- the command ------------------------------------------------------------ */

/* FILE:LINE: message, with bytes that could upset a terminal shown as '?'. */
static void print_diag(const struct diag *d)
{
    char msg[sizeof d->msg];
    size_t i;
    for (i = 0; d->msg[i]; i++) {
        unsigned char c = (unsigned char)d->msg[i];
        msg[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    msg[i] = '\0';
    if (d->line)
        fprintf(stderr, "%s:%" PRIu64 ": %s\n", d->file, d->line, msg);
    else
        fprintf(stderr, "%s: %s\n", d->file, msg);
}

/* Every input, summed. Returns 0, or EXIT_INPUT after printing why. */
static int read_inputs(struct run *run, const char *const *inputs, size_t ninputs)
{
    struct diag d, first_empty;
    size_t empty = 0;
    for (size_t i = 0; i < ninputs; i++) {
        int rc = run_read_path(run, inputs[i], &d);
        if (rc == INPUT_EMPTY) {
            if (empty++ == 0)
                first_empty = d;
        } else if (rc != 0) {
            print_diag(&d);
            return EXIT_INPUT;
        }
    }
    if (empty == ninputs) {
        print_diag(&first_empty);
        return EXIT_INPUT;
    }
    if (empty > 0)
        fprintf(stderr, "callgrind_fold: warning: skipped %zu empty input(s), "
                "e.g. %s\n", empty, first_empty.file);
    if (run->opt.part != ALL_PARTS && !run->in.part_matched && run->in.parts_read > 0) {
        fprintf(stderr, "callgrind_fold: no part %" PRIu64 " in the input\n", run->opt.part);
        return EXIT_INPUT;
    }
    return 0;
}

/* Adds the counts of `from` to `to`; false if a sum overflows. */
static bool add_column(struct event_column *to, const struct stack_column *from)
{
    if (from->cap > to->len) {
        to->count = xrealloc(to->count, from->cap * sizeof *to->count);
        memset(to->count + to->len, 0, (from->cap - to->len) * sizeof *to->count);
        to->len = from->cap;
    }
    bool ok = add_u64(to->total, from->total, &to->total);
    for (size_t id = 0; id < from->cap; id++)
        ok &= add_u64(to->count[id], from->count[id], &to->count[id]);
    return ok;
}

/* The events of the counts, one column each, as the readers left them
 * in the stacks' columns (all_events): one per event of the inputs'
 * "events:" lines in order of first sight, and the --event's if it is an
 * inherited one; with folded stacks only, one count of unknown meaning.
 * Sets run->events, nevents and default_event. */
static void choose_events(struct run *run)
{
    const struct render_options *ro = &run->opt.render;
    const struct strtab *seen = &run->in.notes.events;
    size_t nseen = seen->count;
    run->events = xcalloc(nseen + 1, sizeof *run->events);
    if (nseen == 0) { /* folded stacks only */
        run->events[run->nevents++] =
            ro->countname ? ro->countname : run->opt.event ? run->opt.event : "samples";
        return;
    }
    const char *selected = read_chosen_event(&run->in);
    run->default_event = SIZE_MAX;
    for (uint32_t i = 0; i < nseen; i++) {
        run->events[run->nevents++] = strtab_str(seen, i);
        if (strcmp(strtab_str(seen, i), selected) == 0)
            run->default_event = i;
    }
    if (run->default_event == SIZE_MAX) { /* an inherited event: a column too */
        run->default_event = run->nevents;
        run->events[run->nevents++] = selected;
    }
}

/* The counts of stacks s by event, into cols[run->nevents] (taken out of
 * s's columns): each is exactly what folded output counts for
 * --event=THAT. Folded text has no events: its counts are in every
 * column. False if a sum overflows. */
static bool take_event_columns(struct run *run, struct stacks *s, struct event_column *cols)
{
    struct stack_column every;
    stacks_take_column(s, 0, &every);
    if (run->in.notes.events.count == 0) {
        cols[0] = (struct event_column){.event = run->events[0], .count = every.count,
                                        .len = every.cap, .total = every.total};
        return true;
    }
    bool ok = true;
    for (size_t c = 0; c < run->nevents; c++) {
        struct event_column *col = &cols[c];
        col->event = run->events[c];
        col->long_name = notes_event_long_name(&run->in.notes, col->event,
                                               strlen(col->event));
        size_t at = read_event_column_of(&run->in, col->event);
        if (at) {
            struct stack_column counts;
            stacks_take_column(s, at, &counts);
            col->count = counts.count;
            col->len = counts.cap;
            col->total = counts.total;
        }
        ok &= add_column(col, &every);
    }
    free(every.count);
    return ok;
}

/* -f pprof: the counts of every event, one column each. Returns 0, or
 * EXIT_INPUT after saying what went wrong. */
static int pprof_columns(struct run *run)
{
    choose_events(run);
    run->columns = xcalloc(run->nevents, sizeof *run->columns);
    run->ncolumns = run->nevents;
    run->default_column = run->default_event;
    if (!take_event_columns(run, &run->out, run->columns)) {
        fprintf(stderr, "callgrind_fold: summed counts overflow 64 bits\n");
        return EXIT_INPUT;
    }
    return 0;
}

/* After the inputs, -f html and -f md: each part's counts by event, and
 * names made unique. Returns 0, or EXIT_INPUT after saying what went
 * wrong. */
static int finish_parts(struct run *run)
{
    choose_events(run);
    bool ok = true;
    struct strtab names;
    strtab_init(&names);
    uint32_t *seen = NULL;
    size_t seen_cap = 0;
    for (size_t i = 0; i < run->nparts; i++) {
        struct kept_part *kp = &run->parts[i];
        kp->columns = xcalloc(run->nevents, sizeof *kp->columns);
        ok &= take_event_columns(run, kp->stacks, kp->columns);
        /* a name two parts share: "NAME (2)" from the second on */
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
    if (!ok) {
        fprintf(stderr, "callgrind_fold: summed counts overflow 64 bits\n");
        return EXIT_INPUT;
    }
    return 0;
}

/* ---- reports (-f html, -f md) ------------------------------------------------ */

/* A run's parts as the report writers read them (report.h). */
struct report_view {
    struct report report;
    struct report_part *parts;
};

static void report_view_init(struct report_view *v, const struct run *run, const char *title)
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

static size_t event_index(const struct report *r, const char *name)
{
    for (size_t e = 0; e < r->nevents; e++)
        if (strcmp(r->events[e], name) == 0)
            return e;
    return SIZE_MAX;
}

/* Pairs the parts of two runs by benchmark name (names are unique in a
 * run: finish_parts numbered the repeated ones). */
static struct report_pair *pair_parts(const struct report *old, const struct report *new,
                                      size_t *npairs)
{
    const char *event = new->nevents ? new->events[new->default_event] : "";
    size_t oe = event_index(old, event), ne = new->default_event;
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

/* The job for the writers: the stacks and what they need besides. */
static struct render_job job_of(struct run *run, struct run *base, const char *name)
{
    struct render_job job = {
        .ro = &run->opt.render,
        .stacks = &run->out,
        .base = base ? &base->out : NULL,
        .names = &run->names,
        .arcs = run->keep_arcs ? &run->arcs : NULL,
        .calls_known = run->in.folded_inputs == 0,
        .event = run->in.parts_read ? read_chosen_event(&run->in) : NULL,
        .columns = run->columns,
        .ncolumns = run->ncolumns,
        .default_column = run->default_column,
        .comments = &run->in.notes.comments,
        .name = name,
    };
    return job;
}

/* Writes the output; opened only now, so a failed run leaves an existing
 * file alone. Returns 0 or EXIT_OUTPUT after saying why. */
static int write_output(struct run *run, struct run *base, const char *name,
                        const struct report *report, const struct report_diff *diff)
{
    const char *output = run->opt.output;
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        fprintf(stderr, "callgrind_fold: %s: %s\n", output, strerror(errno));
        return EXIT_OUTPUT;
    }
    struct render_job job = job_of(run, base, name);
    job.report = report;
    job.report_diff = diff;
    int rc = render_write(&job, out);
    if (rc == 0 && (fflush(out) != 0 || ferror(out)))
        rc = -1;
    if (output && fclose(out) != 0 && rc == 0)
        rc = -1;
    if (rc == -2) /* render_write said what is wrong */
        return EXIT_OUTPUT;
    if (rc) {
        fprintf(stderr, "callgrind_fold: %s: write error: %s\n",
                output ? output : "<stdout>", strerror(errno));
        return EXIT_OUTPUT;
    }
    return 0;
}

int pipeline_run(const struct run_options *opt, const char *const *inputs, size_t ninputs)
{
    struct run run;
    run_init(&run, opt);
    int status = read_inputs(&run, inputs, ninputs);
    enum render_format f = opt->render.format;
    bool report = f == FORMAT_HTML || f == FORMAT_MD;
    if (status == 0 && f == FORMAT_PPROF)
        status = pprof_columns(&run);
    if (status == 0 && report)
        status = finish_parts(&run);
    /* --diff BASE: the base profile, read with the same options (parts
     * kept and re-rooted alike). */
    struct run base;
    struct run_options base_opt = *opt;
    base_opt.inline_frames = false;
    base_opt.render.format = report || f == FORMAT_SVG ? f : FORMAT_FOLDED;
    base_opt.render.colors = COLORS_NAME;
    run_init(&base, &base_opt);
    if (status == 0 && opt->render.diff_base) {
        struct diag d;
        if (run_read_path(&base, opt->render.diff_base, &d) != 0) {
            print_diag(&d);
            status = EXIT_INPUT;
        } else if (report && (status = finish_parts(&base)) != 0) {
            /* said why */
        } else if (base.fold.estimated && !run.fold.estimated) {
            run.fold.estimated = true;
            memcpy(run.fold.estimate_reason, base.fold.estimate_reason,
                   sizeof run.fold.estimate_reason);
        }
    }
    /* --frame=short: every frame is read by now, so the root of their paths
     * is known; the base's frames share it, so that the two still align. */
    struct stacks *both[] = {&run.out, &base.out};
    if (status == 0 && opt->style.short_names)
        stacks_shorten(both, opt->render.diff_base ? 2 : 1, opt->style.short_templates);
    struct report_view view = {0}, base_view = {0};
    struct report_diff diff = {0};
    if (status == 0 && report) {
        report_view_init(&view, &run, inputs[0]);
        if (opt->render.diff_base) {
            report_view_init(&base_view, &base, opt->render.diff_base);
            diff.old = &base_view.report;
            diff.new = &view.report;
            diff.pairs = pair_parts(diff.old, diff.new, &diff.npairs);
        }
    }
    if (status == 0)
        status = write_output(&run, opt->render.diff_base ? &base : NULL, inputs[0],
                              report && !opt->render.diff_base ? &view.report : NULL,
                              report && opt->render.diff_base ? &diff : NULL);
    free(view.parts);
    free(base_view.parts);
    free((void *)diff.pairs);
    /* -f md shows totals only, which are exact either way */
    if (status == 0 && run.fold.estimated && opt->render.format != FORMAT_MD)
        fprintf(stderr,
                "callgrind_fold: note: stacks are estimated from the call graph "
                "(%.60s); profile with callgrind --dump-folded=yes for exact "
                "stacks\n", run.fold.estimate_reason);
    if (run.inl && status == 0)
        inline_report(run.inl, &run.names, stderr);
    run_free(&base);
    run_free(&run);
    return status;
}
