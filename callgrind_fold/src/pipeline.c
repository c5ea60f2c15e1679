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
    if (run->keep_arcs) /* -f dot: the call graph itself, with call counts */
        callarcs_add_profile(&run->arcs, &pt->prof, &run->fold);
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
        .keep_notes = pprof,
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

/* One input: a file, or standard input, which -f pprof reads into
 * memory first (`data`) to read it again for every event. */
static int read_input(struct run *run, const char *path, const struct buf *data,
                      struct diag *d)
{
    if (data && strcmp(path, "-") == 0)
        return run_read_memory(run, "<stdin>", data->data ? data->data : "", data->len, d);
    return run_read_path(run, path, d);
}

static void read_stdin(struct buf *data)
{
    for (;;) {
        buf_reserve(data, 1 << 16);
        size_t n = fread(data->data + data->len, 1, data->cap - data->len, stdin);
        data->len += n;
        if (n == 0)
            break;
    }
}

/* Every input, summed. Returns 0, or EXIT_INPUT after printing why. */
static int read_inputs(struct run *run, const char *const *inputs, size_t ninputs,
                       const struct buf *stdin_data)
{
    struct diag d, first_empty;
    size_t empty = 0;
    for (size_t i = 0; i < ninputs; i++) {
        int rc = read_input(run, inputs[i], stdin_data, &d);
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

/* -f pprof: the counts of every event, one column each. The first pass
 * (the --event, as for any format) has filled run->out; each other event
 * of the inputs' "events:" lines gets a pass of its own over the same
 * inputs, so its stacks are made exactly as folded output makes them for
 * --event=THAT (exact, or estimated with every sum kept). Returns 0, or
 * EXIT_INPUT after printing what went wrong. */
static int pprof_columns(struct run *run, const char *const *inputs, size_t ninputs,
                         const struct buf *data)
{
    const struct render_options *ro = &run->opt.render;
    const char *selected = read_chosen_event(&run->in);
    const struct strtab *seen = &run->in.notes.events;
    size_t nseen = seen->count;
    if (nseen == 0) { /* folded stacks only: one count of unknown meaning */
        run->columns = xcalloc(1, sizeof *run->columns);
        run->ncolumns = 1;
        run->columns[0].event = ro->countname ? ro->countname
                                : run->opt.event ? run->opt.event : "samples";
        stacks_take_counts(&run->out, &run->columns[0].count, &run->columns[0].len,
                           &run->columns[0].total);
        return 0;
    }
    run->columns = xcalloc(nseen + 1, sizeof *run->columns);
    run->default_column = SIZE_MAX;
    for (uint32_t i = 0; i < nseen; i++) {
        struct event_column *c = &run->columns[run->ncolumns++];
        c->event = strtab_str(seen, i);
        if (strcmp(c->event, selected) == 0)
            run->default_column = i;
    }
    if (run->default_column == SIZE_MAX) { /* an inherited event: a column too */
        run->default_column = run->ncolumns;
        run->columns[run->ncolumns++].event = selected;
    }
    struct read_options saved_opt = run->in.opt;
    int status = 0;
    for (size_t c = 0; c < run->ncolumns && status == 0; c++) {
        struct event_column *col = &run->columns[c];
        col->long_name = notes_event_long_name(&run->in.notes, col->event,
                                               strlen(col->event));
        if (c == run->default_column)
            continue;
        uint64_t *saved;
        size_t saved_len;
        uint64_t saved_total;
        stacks_take_counts(&run->out, &saved, &saved_len, &saved_total);
        run->in.opt.event = col->event;
        run->in.opt.event_may_miss = true;
        run->in.opt.keep_notes = false;
        for (size_t i = 0; i < ninputs && status == 0; i++) {
            struct diag d;
            int rc = read_input(run, inputs[i], data, &d);
            if (rc != 0 && rc != INPUT_EMPTY) {
                print_diag(&d);
                status = EXIT_INPUT;
            }
        }
        stacks_take_counts(&run->out, &col->count, &col->len, &col->total);
        run->out.count = saved;
        run->out.count_cap = saved_len;
        run->out.total = saved_total;
    }
    struct event_column *def = &run->columns[run->default_column];
    stacks_take_counts(&run->out, &def->count, &def->len, &def->total);
    run->in.opt = saved_opt;
    return status;
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
static int write_output(struct run *run, struct run *base, const char *name)
{
    const char *output = run->opt.output;
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        fprintf(stderr, "callgrind_fold: %s: %s\n", output, strerror(errno));
        return EXIT_OUTPUT;
    }
    struct render_job job = job_of(run, base, name);
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
    /* -f pprof reads standard input once per event: kept in memory. */
    bool pprof = opt->render.format == FORMAT_PPROF;
    struct buf stdin_data = {0};
    for (size_t i = 0; i < ninputs && pprof; i++)
        if (strcmp(inputs[i], "-") == 0) {
            read_stdin(&stdin_data);
            break;
        }
    int status = read_inputs(&run, inputs, ninputs, pprof ? &stdin_data : NULL);
    if (status == 0 && pprof)
        status = pprof_columns(&run, inputs, ninputs, &stdin_data);
    /* --diff BASE: the base profile, read with the same options. */
    struct run base;
    struct run_options base_opt = *opt;
    base_opt.inline_frames = false;
    base_opt.render.format = FORMAT_FOLDED;
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
    if (status == 0)
        status = write_output(&run, opt->render.diff_base ? &base : NULL, inputs[0]);
    if (status == 0 && run.fold.estimated)
        fprintf(stderr,
                "callgrind_fold: note: stacks are estimated from the call graph "
                "(%.60s); profile with callgrind --dump-folded=yes for exact "
                "stacks\n", run.fold.estimate_reason);
    if (run.inl && status == 0)
        inline_report(run.inl, &run.names, stderr);
    buf_free(&stdin_data);
    run_free(&base);
    run_free(&run);
    return status;
}
