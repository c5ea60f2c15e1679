/* The pipeline (pipeline.h): a run's stages in order, and the whole
 * command from inputs to output. */
#include "pipeline.h"
#include "inline/inline.h"
#include "util/util.h"
#include "write/report.h"

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
    if (run->keep_arcs) /* -f dot: the call graph itself, with call counts */
        callarcs_add_profile(&run->arcs, &pt->prof, &run->fold);
    stacks_use_column(&run->out, pt->column);
    return fold_profile(&pt->prof, &run->fold, err, errlen);
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
    bool every_event = pprof || ro->format == FORMAT_HTML;
    strtab_init(&run->names);
    stacks_init(&run->out);
    run->out.keep_sources = pprof;
    callarcs_init(&run->arcs);
    run->keep_arcs = ro->format == FORMAT_DOT || ro->format == FORMAT_PNG ||
                     ro->format == FORMAT_SVG_GRAPH || ro->colors == COLORS_OBJ;
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
        .keep_notes = every_event,
        .all_events = every_event,
    };
    struct part_sink sink = {run, run_part, run->inl ? run_object : NULL};
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

/* -f pprof: the counts of every event, one column each, as the readers
 * left them in the stacks' columns (all_events): one per event of the
 * inputs' "events:" lines in order of first sight, and the --event's if
 * it is an inherited one. Each is exactly what folded output counts for
 * --event=THAT. Folded text has no events: its counts are in every
 * column. Returns 0, or EXIT_INPUT after saying what went wrong. */
static int pprof_columns(struct run *run)
{
    const struct render_options *ro = &run->opt.render;
    const struct strtab *seen = &run->in.notes.events;
    size_t nseen = seen->count;
    struct stack_column every;
    stacks_take_column(&run->out, 0, &every);
    if (nseen == 0) { /* folded stacks only: one count of unknown meaning */
        run->columns = xcalloc(1, sizeof *run->columns);
        run->ncolumns = 1;
        run->columns[0] = (struct event_column){
            .event = ro->countname ? ro->countname : run->opt.event ? run->opt.event : "samples",
            .count = every.count, .len = every.cap, .total = every.total};
        return 0;
    }
    const char *selected = read_chosen_event(&run->in);
    run->columns = xcalloc(nseen + 1, sizeof *run->columns);
    run->default_column = SIZE_MAX;
    for (uint32_t i = 0; i < nseen; i++) {
        run->columns[run->ncolumns++].event = strtab_str(seen, i);
        if (strcmp(strtab_str(seen, i), selected) == 0)
            run->default_column = i;
    }
    if (run->default_column == SIZE_MAX) { /* an inherited event: a column too */
        run->default_column = run->ncolumns;
        run->columns[run->ncolumns++].event = selected;
    }
    bool ok = true;
    for (size_t c = 0; c < run->ncolumns; c++) {
        struct event_column *col = &run->columns[c];
        col->long_name = notes_event_long_name(&run->in.notes, col->event,
                                               strlen(col->event));
        size_t at = read_event_column_of(&run->in, col->event);
        if (at) {
            struct stack_column counts;
            stacks_take_column(&run->out, at, &counts);
            col->count = counts.count;
            col->len = counts.cap;
            col->total = counts.total;
        }
        ok &= add_column(col, &every);
    }
    free(every.count);
    if (!ok) {
        fprintf(stderr, "callgrind_fold: summed counts overflow 64 bits\n");
        return EXIT_INPUT;
    }
    return 0;
}

/* ---- -f html: provisional wiring (issue 29) ------------------------------
 * The report writer (write/html.c) is given the whole run as ONE part,
 * with every event's column, and with --diff the base run as the other
 * side of one pair. Replaced by the per-part pipeline at merge. */

static const char **html_event_names(const struct run *run)
{
    const char **ev = xcalloc(run->ncolumns + 1, sizeof *ev);
    for (size_t c = 0; c < run->ncolumns; c++)
        ev[c] = run->columns[c].event;
    return ev;
}

static int html_write_run(FILE *out, struct run *run, struct run *base, const char *name)
{
    const char **events = html_event_names(run), **base_events = NULL;
    struct report_part part = {1, name, NULL, &run->out, run->columns}, base_part;
    struct report r = {NULL, events, run->ncolumns, run->default_column, &part, 1}, rb;
    int rc;
    if (!base) {
        rc = html_write_report(out, &run->opt.render, &r);
    } else {
        base_events = html_event_names(base);
        base_part = (struct report_part){1, name, NULL, &base->out, base->columns};
        rb = (struct report){NULL, base_events, base->ncolumns, base->default_column,
                             &base_part, 1};
        struct report_pair pair = {name, &base_part, &part};
        struct report_diff d = {&rb, &r, &pair, 1};
        rc = html_write_diff(out, &run->opt.render, &d);
    }
    free(events);
    free(base_events);
    return rc;
}

/* ---- end of the provisional -f html wiring ---- */

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
static int write_output(struct run *run, struct run *base, const char *name)
{
    const char *output = run->opt.output;
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        fprintf(stderr, "callgrind_fold: %s: %s\n", output, strerror(errno));
        return EXIT_OUTPUT;
    }
    struct render_job job = job_of(run, base, name);
    int rc = run->opt.render.format == FORMAT_HTML ? html_write_run(out, run, base, name)
                                                   : render_write(&job, out);
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
    bool html = opt->render.format == FORMAT_HTML;
    /* --diff BASE: the base profile, read with the same options. */
    struct run base;
    struct run_options base_opt = *opt;
    base_opt.inline_frames = false;
    base_opt.render.format = html ? FORMAT_HTML : FORMAT_FOLDED;
    base_opt.render.colors = COLORS_NAME;
    run_init(&base, &base_opt);
    if (status == 0 && opt->render.diff_base) {
        struct diag d;
        if (run_read_path(&base, opt->render.diff_base, &d) != 0) {
            print_diag(&d);
            status = EXIT_INPUT;
        } else if (base.fold.estimated && !run.fold.estimated) {
            run.fold.estimated = true;
            memcpy(run.fold.estimate_reason, base.fold.estimate_reason,
                   sizeof run.fold.estimate_reason);
        }
    }
    /* --frame=short: every frame is read by now, so the root of their paths
     * is known; the base's frames share it, so that the two still align.
     * The call arcs' frames are renamed with the stacks', and -f pprof's
     * columns taken after. */
    struct stacks *both[] = {&run.out, &base.out};
    if (status == 0 && opt->style.short_names)
        stacks_shorten(both, opt->render.diff_base ? 2 : 1, opt->style.short_templates,
                       run.keep_arcs ? &run.arcs : NULL);
    if (status == 0 && (opt->render.format == FORMAT_PPROF || html))
        status = pprof_columns(&run);
    if (status == 0 && html && opt->render.diff_base)
        status = pprof_columns(&base);
    if (status == 0)
        status = write_output(&run, opt->render.diff_base ? &base : NULL, inputs[0]);
    if (status == 0 && run.fold.estimated)
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
