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
 * left to the OS at exit: freeing them is mostly unmapping, a
 * noticeable part of a short run. Sanitizer builds free them, so that
 * leak checks stay meaningful. */
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

void run_init(struct run *run, const struct run_options *opt)
{
    memset(run, 0, sizeof *run);
    run->opt = *opt;
    const struct render_options *ro = &opt->render;
    const struct writer_needs *needs = render_needs(ro->format);
    strtab_init(&run->names);
    event_table_init(&run->columns, opt->event);
    stacks_init(&run->out);
    run->out.keep_sources = needs->sources;
    callarcs_init(&run->arcs);
    run->keep_arcs = needs->call_arcs || ro->colors == COLORS_OBJ;
    /* the lines a writer shows: an html diff page has none to show */
    bool lines = needs->lines && (!opt->diff_base || needs->diff_lines);
    if (opt->inline_frames) {
        heap_prefer_huge_pages((size_t)64 << 20);
        char *default_dir = opt->inline_cache ? NULL : dwarf_images_default_dir();
        const char *cache_dir = !opt->inline_cache                ? default_dir
                                : strcmp(opt->inline_cache, "no") ? opt->inline_cache
                                                                  : NULL;
        run->inl = inline_new(opt->debug_dirs, cache_dir, lines);
        free(default_dir);
    }
    bool every_event = needs->run_columns || needs->part_columns;
    struct router_setup to = {
        .out = &run->out,
        .columns = &run->columns,
        .every_event = every_event,
        .names = &run->names,
        .style = opt->style,
        .resolution = opt->resolution,
        .arcs = run->keep_arcs ? &run->arcs : NULL,
        .inl = run->inl,
        .format = ro->format,
        .full_stacks = ro->full_stacks,
        .thread_frames = opt->thread_frames,
    };
    router_init(&run->route, &to);
    struct read_options ro_in = {
        .event = opt->event,
        .part = opt->part,
        .style = opt->style,
        .by_address = run->inl != NULL,
        .want_lines = lines,
        .keep_notes = needs->notes,
        .all_events = every_event,
        .describe_sections = run->route.keep_parts,
        .threads = opt->threads,
        .nthreads = opt->nthreads,
    };
    struct section_sink sink = router_sink(&run->route);
    read_target_init(&run->in, &ro_in, &run->names, &run->columns, &sink);
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
    router_free(&run->route);
    callarcs_free(&run->arcs);
    stacks_free(&run->out);
    strtab_free(&run->names);
    event_table_free(&run->columns);
    free(run->views);
    free(run->view_names);
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

/* Each input read, the empty ones counted (*empty, the first in
 * *first_empty). Returns 0, or EXIT_INPUT after printing why. */
static int read_each(struct run *run, const char *const *inputs, size_t ninputs,
                     struct diag *d, struct diag *first_empty, size_t *empty)
{
    for (size_t i = 0; i < ninputs; i++) {
        int rc = run_read_path(run, inputs[i], d);
        if (rc == INPUT_EMPTY) {
            if ((*empty)++ == 0)
                *first_empty = *d;
        } else if (rc != 0) {
            print_diag(d);
            return EXIT_INPUT;
        }
    }
    return 0;
}

/* The inputs in the order they are read: the folded trees first (in
 * their order), then the others, so that a callgrind.out finds the tree
 * it is the twin of (twins.h) whichever comes first on the command line.
 * Sums do not depend on the order. The array is the caller's to free. */
static const char **reading_order(const char *const *inputs, size_t ninputs)
{
    const char **order = xcalloc(ninputs + 1, sizeof *order);
    bool *tree = xcalloc(ninputs + 1, sizeof *tree);
    size_t n = 0;
    for (size_t i = 0; i < ninputs; i++)
        if ((tree[i] = read_path_is_tree(inputs[i])))
            order[n++] = inputs[i];
    for (size_t i = 0; i < ninputs; i++)
        if (!tree[i])
            order[n++] = inputs[i];
    free(tree);
    return order;
}

/* Every input, summed. Returns 0, or EXIT_INPUT after printing why. */
static int read_inputs(struct run *run, const char *const *given, size_t ninputs)
{
    struct diag d, first_empty;
    size_t empty = 0;
    const char **inputs = ninputs > 1 ? reading_order(given, ninputs) : NULL;
    int rc = read_each(run, inputs ? (const char *const *)inputs : given, ninputs, &d,
                       &first_empty, &empty);
    free(inputs);
    if (rc)
        return rc;
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
    for (size_t i = 0; i < run->opt.nthreads; i++) {
        if (run->in.thread_matched[i])
            continue;
        char part[48] = "";
        if (run->opt.part != ALL_PARTS)
            snprintf(part, sizeof part, " of part %" PRIu64, run->opt.part);
        fprintf(stderr, "callgrind_fold: --thread=%s: no thread%s of the input has this "
                "name or kernel id (\"thread:\", \"desc: Thread name:\")\n",
                run->opt.threads[i], part);
        return EXIT_INPUT;
    }
    return 0;
}

/* The events as pprof and the reports list them: every event of the
 * inputs' "events:" lines in order of first sight, then the chosen one
 * if it is none of them (a sum of several); each with its column (the
 * run's event table) and long name. With folded stacks only, one count
 * of unknown meaning. Sets run->views, view_names, nviews, default_view. */
static void event_views(struct run *run)
{
    const struct render_options *ro = &run->opt.render;
    const struct strtab *seen = &run->in.notes.events;
    size_t nseen = seen->count;
    run->views = xcalloc(nseen + 1, sizeof *run->views);
    run->view_names = xcalloc(nseen + 1, sizeof *run->view_names);
    const char *chosen = read_chosen_event(&run->in);
    if (nseen == 0) { /* folded stacks only */
        const char *name = ro->countname ? ro->countname : chosen ? chosen : "samples";
        run->views[run->nviews++] = (struct event_column){.event = name, .col = CHOSEN_COLUMN};
    } else {
        run->default_view = SIZE_MAX;
        for (uint32_t i = 0; i <= nseen; i++) {
            if (i == nseen && run->default_view != SIZE_MAX)
                break; /* the chosen event is one of the inputs' */
            const char *name = i < nseen ? strtab_str(seen, i) : chosen;
            if (strcmp(name, chosen) == 0)
                run->default_view = run->nviews;
            run->views[run->nviews++] = (struct event_column){
                .event = name,
                .long_name = notes_event_long_name(&run->in.notes, name, strlen(name)),
                .col = event_table_find(&run->columns, name),
            };
        }
    }
    for (size_t e = 0; e < run->nviews; e++)
        run->view_names[e] = run->views[e].event;
}

/* The views with the totals of stacks all[0 .. n) summed, into cols[].
 * False if a sum overflows. */
static bool view_totals(const struct run *run, struct stacks *const *all, size_t n,
                        struct event_column *cols)
{
    bool ok = true;
    for (size_t e = 0; e < run->nviews; e++) {
        cols[e] = run->views[e];
        cols[e].total = 0;
        for (size_t i = 0; i < n; i++)
            ok &= add_u64(cols[e].total, stacks_col_total(all[i], cols[e].col),
                          &cols[e].total);
    }
    return ok;
}

/* After the inputs: -f pprof's events with the run's totals; -f html's
 * and md's with each part's (md: its sections' sums). Returns 0, or
 * EXIT_INPUT after saying what went wrong. */
static int count_views(struct run *run, bool of_run, bool of_parts)
{
    event_views(run);
    bool ok = true;
    if (of_run) {
        struct stacks *out = &run->out;
        ok &= view_totals(run, &out, 1, run->views);
    }
    for (size_t i = 0; of_parts && i < run->route.nparts; i++) {
        struct kept_part *kp = &run->route.parts[i];
        kp->columns = xcalloc(run->nviews, sizeof *kp->columns);
        if (kp->stacks) {
            ok &= view_totals(run, &kp->stacks, 1, kp->columns);
            continue;
        }
        struct stacks **all = xcalloc(kp->nsections + 1, sizeof *all);
        for (size_t j = 0; j < kp->nsections; j++)
            all[j] = kp->sections[j].stacks;
        ok &= view_totals(run, all, kp->nsections, kp->columns);
        free(all);
        for (size_t e = 0; e < run->nviews; e++)
            kp->columns[e].col = NO_COLUMN; /* totals only: no stacks of its own */
    }
    if (!ok) {
        fprintf(stderr, "callgrind_fold: summed counts overflow 64 bits\n");
        return EXIT_INPUT;
    }
    return 0;
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
        .columns = run->views,
        .ncolumns = run->nviews,
        .default_column = run->default_view,
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
    struct thread_frame *threads = router_thread_frames(&run->route, &job.nthreads);
    job.threads = threads;
    int rc = render_write(&job, out);
    free(threads);
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

/* The stacks of every section kept in r's parts, at all[*n...]. */
static void section_stacks(const struct router *r, struct stacks **all, size_t *n)
{
    for (size_t i = 0; i < r->nparts; i++)
        for (size_t j = 0; j < r->parts[i].nsections; j++)
            all[(*n)++] = r->parts[i].sections[j].stacks;
}

static size_t count_sections(const struct run *run)
{
    size_t n = 0;
    for (size_t i = 0; run && i < run->route.nparts; i++)
        n += run->route.parts[i].nsections;
    return n;
}

/* --frame=short: the run's stacks, the base's, and every kept section's
 * renamed in one go (one root for all their paths). Functions whose
 * names read alike stay apart where a raw name is shown beside each
 * frame (the pictures, pprof), not in folded text. */
static void shorten_frames(struct run *run, struct run *base)
{
    size_t n = 0, cap = 2 + count_sections(run) + count_sections(base);
    struct stacks **all = xmalloc(cap * sizeof *all);
    all[n++] = &run->out; /* first: its call arcs are renamed too */
    section_stacks(&run->route, all, &n);
    if (base) {
        all[n++] = &base->out;
        section_stacks(&base->route, all, &n);
    }
    stacks_shorten(all, n, run->opt.style.short_templates,
                   render_needs(run->opt.render.format)->raw_names_shown,
                   run->keep_arcs ? &run->arcs : NULL);
    free(all);
}

/* --diff BASE: the base profile, read with the same options (parts kept
 * and re-rooted alike, as the format needs), without --inline. Returns
 * 0, or EXIT_INPUT after printing why. */
static int read_base(struct run *base, const struct run *run)
{
    const struct run_options *opt = &run->opt;
    struct run_options base_opt = *opt;
    enum render_format f = opt->render.format;
    base_opt.inline_frames = false;
    base_opt.render.format = render_needs(f)->diff_in_format ? f : FORMAT_FOLDED;
    base_opt.render.colors = COLORS_NAME;
    run_init(base, &base_opt);
    struct diag d;
    if (run_read_path(base, opt->diff_base, &d) != 0) {
        print_diag(&d);
        return EXIT_INPUT;
    }
    return router_inputs_read(&base->route);
}

/* The report's view of a run's parts, read from `ninputs` files. */
static void report_view(struct report_view *v, const struct run *run,
                        const char *const *inputs, size_t ninputs)
{
    struct report_origin origin = {run->opt.render.title, inputs[0], ninputs};
    report_view_init(v, &run->route, &origin, run->view_names, run->nviews, run->default_view);
}

int pipeline_run(const struct run_options *opt, const char *const *inputs, size_t ninputs)
{
    struct run run;
    run_init(&run, opt);
    int status = read_inputs(&run, inputs, ninputs);
    if (status == 0)
        status = router_inputs_read(&run.route);
    enum render_format f = opt->render.format;
    const struct writer_needs *needs = render_needs(f);
    bool report = needs->report;
    /* --diff BASE: a second input, the profile the output compares with */
    struct run base_run, *base = NULL;
    if (status == 0 && opt->diff_base) {
        base = &base_run;
        status = read_base(base, &run);
        if (status == 0 && base->route.fold.estimated && !run.route.fold.estimated) {
            run.route.fold.estimated = true;
            memcpy(run.route.fold.estimate_reason, base->route.fold.estimate_reason,
                   sizeof run.route.fold.estimate_reason);
        }
    }
    /* --frame=short (the pictures' default): every frame is read by now,
     * so the root of their paths is known; the base's frames and every
     * kept part's share it, so that they still align. The call arcs'
     * frames are renamed with the stacks', and the columns of every event
     * taken after. Renamed before the sections are put together: the
     * thread frames put on them then are names, not functions, and
     * would not survive the renaming ("worker (thread 12)" read as a
     * function's parameters). */
    if (status == 0 && opt->style.short_names)
        shorten_frames(&run, base);
    /* a part's sections (its threads) put together, their threads named
     * (the base's paired with the run's) */
    if (status == 0)
        status = router_assemble(&run.route, base ? &base->route : NULL);
    /* lines from twins (twins.h): what the profile says of them */
    const char *twins_comment_text = twins_comment(&run.route.twins);
    if (status == 0 && twins_comment_text && run.in.opt.want_lines && run.in.opt.keep_notes)
        strtab_intern(&run.in.notes.comments, twins_comment_text, strlen(twins_comment_text));
    if (status == 0 && (needs->run_columns || needs->part_columns))
        status = count_views(&run, needs->run_columns, needs->part_columns);
    if (status == 0 && needs->part_columns && base)
        status = count_views(base, false, true);
    struct report_view view = {0}, base_view = {0};
    struct report_diff diff = {0};
    if (status == 0 && report) {
        report_view(&view, &run, inputs, ninputs);
        if (base) {
            report_view(&base_view, base, &opt->diff_base, 1);
            diff.old = &base_view.report;
            diff.new = &view.report;
            diff.pairs = pair_parts(diff.old, diff.new, &diff.npairs);
        }
    }
    if (status == 0)
        status = write_output(&run, base, inputs[0], report && !base ? &view.report : NULL,
                              report && base ? &diff : NULL);
    free(view.parts);
    free(base_view.parts);
    free((void *)diff.pairs);
    if (status == 0 && run.route.fold.estimated && needs->notes_estimate)
        fprintf(stderr,
                "callgrind_fold: note: stacks are estimated from the call graph "
                "(%.60s); profile with callgrind --dump-folded=yes for exact "
                "stacks\n", run.route.fold.estimate_reason);
    if (status == 0)
        twins_report(&run.route.twins, run.in.opt.want_lines, stderr);
    if (run.inl && status == 0)
        inline_report(run.inl, &run.names, stderr);
    if (base)
        run_free(base);
    run_free(&run);
    return status;
}
