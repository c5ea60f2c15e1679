/* The parts kept apart (pipeline.h, "parts.c"): with -f html, md, svg,
 * speedscope, pprof and --thread-frames every section read gets stacks
 * of its own (the readers announce each to the sink's part_start and
 * part_end); pictures re-root each at the user's code (stacks/roots.c).
 * The sections of one part (one per thread with callgrind
 * --separate-threads=yes, from one file or several) are one benchmark:
 * once every input is read they are put together, each under a frame
 * naming its thread where the part (or the picture) has several threads.
 * The reports keep the parts, named by benchmark, and --diff OLD NEW
 * pairs two runs' parts by that name, and their threads by name, then by
 * order; the other formats sum them. */
#include "pipeline.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A section starts: its costs go to stacks of its own, unless the
 * format needs them only to put a thread frame on top and it names no
 * thread (then straight into the run's, as without parts kept). */
static void run_part_start(void *arg, struct read_target *t, const struct part_info *info)
{
    struct run *run = arg;
    bool report = render_needs(run->opt.render.format)->report;
    if (!info->has_thread && !report && !run->trim_roots) {
        run->part_open = NULL;
        return;
    }
    struct stacks *s = xmalloc(sizeof *s);
    stacks_init(s);
    s->keep_sources = run->out.keep_sources; /* -f pprof's files and lines */
    t->stacks = s;
    fold_set_out(&run->fold, s);
    run->part_open = s;
}

static bool stacks_have_cost(const struct stacks *s)
{
    bool cost = false;
    for (size_t c = 0; c < stacks_ncols(s); c++)
        cost |= stacks_col_total(s, c) != 0;
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

/* CodSpeed's "Metadata:" text, once however many threads said it. */
static void note_metadata(struct run *run, const char *text, size_t len)
{
    for (size_t i = 0; i < run->nmetadata; i++)
        if (strlen(run->metadata[i]) == len && memcmp(run->metadata[i], text, len) == 0)
            return;
    GROW(run->metadata, run->metadata_cap, run->nmetadata);
    run->metadata[run->nmetadata++] = xstrndup(text, len);
}

/* The part of a section: the one of its process and number, else new. */
static struct kept_part *part_of(struct run *run, const struct part_info *info)
{
    bool inserted;
    uint32_t at = *hashmap_upsert(&run->part_index, info->process, info->number,
                                  (uint32_t)run->nparts, &inserted);
    if (!inserted)
        return &run->parts[at];
    uint32_t order = *hashmap_upsert(&run->process_order, info->process, 0,
                                     (uint32_t)run->process_order.count, &inserted);
    GROW(run->parts, run->parts_cap, run->nparts);
    struct kept_part *kp = &run->parts[run->nparts++];
    memset(kp, 0, sizeof *kp);
    kp->number = info->number;
    kp->process = info->process;
    kp->process_order = order;
    kp->trigger = info->trigger ? xstrndup(info->trigger, info->trigger_len) : NULL;
    if (info->name_len) {
        kp->name = xstrndup(info->name, info->name_len);
    } else {
        char name[40];
        snprintf(name, sizeof name, "part %" PRIu64, info->number);
        kp->name = xstrndup(name, strlen(name));
    }
    return kp;
}

/* A section ends: kept in its part if it has a cost (re-rooted for
 * pictures); a CodSpeed metadata part's text noted; other sections
 * without cost ("Program termination", an idle thread) dropped. */
static int run_part_end(void *arg, const struct part_info *info, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    struct run *run = arg;
    struct stacks *s = run->part_open;
    if (!s) /* read straight into the run's stacks */
        return 0;
    run->part_open = NULL;
    fold_set_out(&run->fold, &run->out);
    run->in.stacks = &run->out;
    if (!run->cmd)
        run->cmd = xstrndup(info->cmd, strlen(info->cmd));
    if (!stacks_have_cost(s)) {
        if (info->metadata)
            note_metadata(run, info->metadata_text, info->metadata_len);
        stacks_free(s);
        free(s);
        return 0;
    }
    if (run->trim_roots && !info->folded_text) {
        size_t len;
        const char *process = process_name(info->cmd, &len);
        stacks_root_at_user_code(s, info->benchmark, process, len);
    } else {
        stacks_compact(s);
    }
    struct kept_part *kp = part_of(run, info);
    GROW(kp->sections, kp->sections_cap, kp->nsections);
    kp->sections[kp->nsections++] = (struct kept_section){
        .has_thread = info->has_thread,
        .thread = info->thread,
        .thread_name = info->thread_name && info->thread_name_len
                           ? xstrndup(info->thread_name, info->thread_name_len)
                           : NULL,
        .input = run->in.inputs,
        .seq = run->sections_read++,
        .stacks = s,
    };
    return 0;
}

static void free_section_stacks(struct kept_section *ks)
{
    if (ks->stacks)
        stacks_free(ks->stacks);
    free(ks->stacks);
    ks->stacks = NULL;
}

void parts_free(struct run *run)
{
    for (size_t i = 0; i < run->nparts; i++) {
        struct kept_part *kp = &run->parts[i];
        free(kp->name);
        free(kp->trigger);
        for (size_t j = 0; j < kp->nsections; j++) {
            free(kp->sections[j].thread_name);
            free(kp->sections[j].label);
            free_section_stacks(&kp->sections[j]);
        }
        free(kp->sections);
        free(kp->threads);
        if (kp->stacks)
            stacks_free(kp->stacks);
        free(kp->stacks);
        free(kp->columns);
    }
    free(run->parts);
    run->parts = NULL;
    run->nparts = run->parts_cap = 0;
    hashmap_free(&run->part_index);
    hashmap_free(&run->process_order);
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
            kp->name = xstrndup(b.data, b.len);
            buf_free(&b);
        }
    }
    free(seen);
    strtab_free(&names);
}

/* ---- putting a part's sections together ---------------------------------- */

/* Parts by their process's first sight, then by number: the per-thread
 * files of a run read in any order give the same parts in the same
 * order. */
static int compare_parts(const void *pa, const void *pb)
{
    const struct kept_part *a = pa, *b = pb;
    if (a->process_order != b->process_order)
        return a->process_order < b->process_order ? -1 : 1;
    return a->number < b->number ? -1 : a->number > b->number;
}

/* A section's place in its part: each input's sections in the order
 * read (callgrind writes the thread that triggered the dump first), the
 * inputs (files of one thread each) by the kernel id of their first
 * section: the main thread's is the pid, the lowest. */
struct section_key {
    uint64_t first_thread, input, seq;
    size_t at;                  /* in kp->sections */
};

static int compare_keys(const void *pa, const void *pb)
{
    const struct section_key *a = pa, *b = pb;
    if (a->first_thread != b->first_thread)
        return a->first_thread < b->first_thread ? -1 : 1;
    if (a->input != b->input)
        return a->input < b->input ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void order_sections(struct kept_part *kp)
{
    size_t n = kp->nsections;
    struct section_key *key = xmalloc((n ? n : 1) * sizeof *key);
    uint64_t first = 0, input = UINT64_MAX;
    for (size_t i = 0; i < n; i++) { /* sections come in read order */
        const struct kept_section *ks = &kp->sections[i];
        if (ks->input != input) {
            input = ks->input;
            first = ks->thread;
        }
        key[i] = (struct section_key){first, ks->input, ks->seq, i};
    }
    qsort(key, n, sizeof *key, compare_keys);
    struct kept_section *sorted = xmalloc((n ? n : 1) * sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        sorted[i] = kp->sections[key[i].at];
    memcpy(kp->sections, sorted, n * sizeof *sorted);
    free(sorted);
    free(key);
}

/* A thread's frame, ';' made ':' as in every frame. */
static char *frame_label(const char *text)
{
    char *label = xstrndup(text, strlen(text));
    for (char *p = label; *p; p++)
        if (*p == ';')
            *p = ':';
    return label;
}

/* Each section's thread frame: the thread's name; "NAME (thread ID)"
 * when threads of the run that are not the same thread (process and
 * kernel id) share that name; "thread ID" for a thread without a name. */
static void label_threads(struct run *run)
{
    struct strtab names;
    strtab_init(&names);
    struct identity {
        uint64_t process, thread;
        bool shared;
    } *first = NULL; /* by name: its first thread, whether others have it */
    for (size_t i = 0; i < run->nparts; i++) {
        const struct kept_part *kp = &run->parts[i];
        for (size_t j = 0; j < kp->nsections; j++) {
            const struct kept_section *ks = &kp->sections[j];
            if (!ks->has_thread || !ks->thread_name)
                continue;
            size_t known = names.count;
            uint32_t id = strtab_intern(&names, ks->thread_name, strlen(ks->thread_name));
            if (id >= known) {
                first = xrealloc(first, names.count * sizeof *first);
                first[id] = (struct identity){kp->process, ks->thread, false};
            } else {
                first[id].shared |= first[id].process != kp->process ||
                                    first[id].thread != ks->thread;
            }
        }
    }
    for (size_t i = 0; i < run->nparts; i++) {
        const struct kept_part *kp = &run->parts[i];
        for (size_t j = 0; j < kp->nsections; j++) {
            struct kept_section *ks = &kp->sections[j];
            if (!ks->has_thread)
                continue;
            char id[48];
            struct buf label = {0};
            if (!ks->thread_name) {
                snprintf(id, sizeof id, "thread %" PRIu64, ks->thread);
                buf_append(&label, id, strlen(id));
            } else {
                buf_append(&label, ks->thread_name, strlen(ks->thread_name));
                uint32_t n = strtab_intern(&names, ks->thread_name, strlen(ks->thread_name));
                if (first[n].shared) {
                    snprintf(id, sizeof id, " (thread %" PRIu64 ")", ks->thread);
                    buf_append(&label, id, strlen(id));
                }
            }
            free(ks->label);
            ks->label = frame_label(buf_cstr(&label));
            buf_free(&label);
        }
    }
    free(first);
    strtab_free(&names);
}

/* The part of `in` named `name`, or NULL. */
static struct kept_part *part_named(struct run *in, const char *name)
{
    for (size_t i = 0; i < in->nparts; i++)
        if (strcmp(in->parts[i].name, name) == 0)
            return &in->parts[i];
    return NULL;
}

static bool same_name(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* --diff: the old part's threads named as the new part's they pair
 * with: by name, several of one name (and the unnamed, whose ids differ
 * from run to run) in their order in the part. */
static void pair_threads(struct kept_part *old, const struct kept_part *new)
{
    bool *taken = xcalloc(new->nsections + 1, sizeof *taken);
    for (size_t i = 0; i < old->nsections; i++) {
        struct kept_section *o = &old->sections[i];
        for (size_t j = 0; o->has_thread && j < new->nsections; j++) {
            const struct kept_section *n = &new->sections[j];
            if (taken[j] || !n->has_thread || !same_name(o->thread_name, n->thread_name))
                continue;
            taken[j] = true;
            free(o->label);
            o->label = xstrndup(n->label, strlen(n->label));
            break;
        }
    }
    free(taken);
}

/* Whether parts' stacks start with their threads' frames: with
 * --thread-frames always; in a report, a part's (or a --diff pair's)
 * when it has two threads or more; in the other pictures, all of them
 * when some part has; never in folded output otherwise. */
static void choose_threaded(struct run *run, struct run *base)
{
    const struct writer_needs *needs = render_needs(run->opt.render.format);
    bool report = needs->report;
    bool any = false;
    for (size_t i = 0; i < run->nparts; i++)
        any |= run->parts[i].nsections > 1;
    for (size_t i = 0; base && i < base->nparts; i++)
        any |= base->parts[i].nsections > 1;
    bool all = run->opt.thread_frames || (any && !report && needs->shows_threads);
    for (size_t i = 0; i < run->nparts; i++) {
        struct kept_part *kp = &run->parts[i];
        struct kept_part *old = base ? part_named(base, kp->name) : NULL;
        kp->threaded = all || (report && (kp->nsections > 1 || (old && old->nsections > 1)));
        if (old)
            old->threaded = kp->threaded;
    }
    for (size_t i = 0; base && i < base->nparts; i++) {
        struct kept_part *kp = &base->parts[i];
        if (!part_named(run, kp->name))
            kp->threaded = all || (report && kp->nsections > 1);
    }
}

/* The run's parts' stacks made of their sections: each part's own
 * (-f html) or all summed into run->out; -f md, which shows totals
 * only, sums its sections' (pipeline.c). False if a sum overflows. */
static bool build_stacks(struct run *run)
{
    const struct writer_needs *needs = render_needs(run->opt.render.format);
    bool report = needs->report;
    bool ok = true;
    if (needs->totals_only)
        return true;
    for (size_t i = 0; i < run->nparts; i++) {
        struct kept_part *kp = &run->parts[i];
        struct stacks *to = &run->out;
        if (report) {
            to = kp->stacks = xmalloc(sizeof *kp->stacks);
            stacks_init(to);
            to->keep_sources = run->out.keep_sources;
        }
        kp->threads = xcalloc(kp->nsections + 1, sizeof *kp->threads);
        for (size_t j = 0; j < kp->nsections; j++) {
            struct kept_section *ks = &kp->sections[j];
            bool framed = kp->threaded && ks->label;
            if (framed)
                kp->threads[kp->nthreads++] = ks->label;
            ok &= stacks_merge(to, ks->stacks, framed ? ks->label : NULL,
                               framed ? strlen(ks->label) : 0);
            free_section_stacks(ks);
        }
    }
    return ok;
}

static void arrange(struct run *run)
{
    if (run->nparts > 1)
        qsort(run->parts, run->nparts, sizeof *run->parts, compare_parts);
    parts_number_names(run);
    for (size_t i = 0; i < run->nparts; i++)
        order_sections(&run->parts[i]);
    label_threads(run);
}

int parts_assemble(struct run *run, struct run *base)
{
    arrange(run);
    if (base) {
        arrange(base);
        for (size_t i = 0; i < base->nparts; i++) {
            const struct kept_part *new = part_named(run, base->parts[i].name);
            if (new)
                pair_threads(&base->parts[i], new);
        }
    }
    choose_threaded(run, base);
    bool ok = build_stacks(run) && (!base || build_stacks(base));
    if (!ok) {
        fprintf(stderr, "callgrind_fold: summed counts overflow 64 bits\n");
        return EXIT_INPUT;
    }
    return 0;
}

struct thread_frame *parts_thread_frames(const struct run *run, size_t *n)
{
    struct strtab seen;
    strtab_init(&seen);
    size_t cap = 0;
    struct thread_frame *out = NULL;
    *n = 0;
    for (size_t i = 0; i < run->nparts; i++) {
        const struct kept_part *kp = &run->parts[i];
        for (size_t j = 0; kp->threaded && j < kp->nsections; j++) {
            const struct kept_section *ks = &kp->sections[j];
            size_t known = seen.count;
            if (!ks->label || strtab_intern(&seen, ks->label, strlen(ks->label)) < known)
                continue;
            GROW(out, cap, *n);
            out[(*n)++] = (struct thread_frame){ks->label, ks->thread};
        }
    }
    strtab_free(&seen);
    return out;
}

/* ---- reports: the writers' view, --diff OLD NEW's pairs ------------------ */

void report_view_init(struct report_view *v, const struct run *run, const char *title)
{
    v->parts = xcalloc(run->nparts ? run->nparts : 1, sizeof *v->parts);
    for (size_t i = 0; i < run->nparts; i++) {
        const struct kept_part *kp = &run->parts[i];
        v->parts[i] = (struct report_part){.number = kp->number, .name = kp->name,
                                           .trigger = kp->trigger, .stacks = kp->stacks,
                                           .threads = kp->threads,
                                           .nthreads = kp->nthreads,
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
