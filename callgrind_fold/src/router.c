/* The router (router.h): each section read, handed over whole by a
 * reader, merged into the run's stacks or kept apart in its part; once
 * every input is read the parts put together, their threads named, and
 * --diff's two runs' parts paired. */
#include "router.h"
#include "inline/inline.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void router_init(struct router *r, const struct router_setup *setup)
{
    memset(r, 0, sizeof *r);
    r->to = *setup;
    const struct writer_needs *needs = render_needs(setup->format);
    r->report = needs->report;
    r->trim_roots = needs->picture && !setup->full_stacks;
    /* a part's threads are put together once every input is read: the
     * formats that show them keep each section apart until then */
    bool threads_shown = needs->shows_threads ||
                         (setup->thread_frames && needs->threads_on_request);
    r->keep_parts = needs->report || r->trim_roots || threads_shown;
    hashmap_init(&r->part_index);
    hashmap_init(&r->process_order);
    twins_init(&r->twins);
    r->fold = (struct fold_target){.out = setup->out, .names = setup->names,
                                   .style = setup->style, .resolution = setup->resolution};
}

/* Whether a section is kept apart: unless the format keeps sections only
 * to put a thread frame on top and it names no thread (then it goes
 * straight into the run's stacks, as without parts kept). */
static bool kept_apart(const struct router *r, const struct section_info *info)
{
    return r->keep_parts && (info->has_thread || r->report || r->trim_roots);
}

static struct stacks *new_section_stacks(const struct router *r)
{
    struct stacks *s = xmalloc(sizeof *s);
    stacks_init(s);
    s->keep_sources = r->to.out->keep_sources; /* -f pprof's files and lines */
    return s;
}

/* Frees stacks made by new_section_stacks (or NULL). */
static void delete_stacks(struct stacks *s)
{
    if (s)
        stacks_free(s);
    free(s);
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
static void note_metadata(struct router *r, const char *text, size_t len)
{
    for (size_t i = 0; i < r->nmetadata; i++)
        if (strlen(r->metadata[i]) == len && memcmp(r->metadata[i], text, len) == 0)
            return;
    GROW(r->metadata, r->metadata_cap, r->nmetadata);
    r->metadata[r->nmetadata++] = xstrndup(text, len);
}

/* The part of a section: the one of its process and number, else new. */
static struct kept_part *part_of(struct router *r, const struct section_info *info)
{
    bool inserted;
    uint32_t at = *hashmap_upsert(&r->part_index, info->process, info->number,
                                  (uint32_t)r->nparts, &inserted);
    if (!inserted)
        return &r->parts[at];
    uint32_t order = *hashmap_upsert(&r->process_order, info->process, 0,
                                     (uint32_t)r->process_order.count, &inserted);
    GROW(r->parts, r->parts_cap, r->nparts);
    struct kept_part *kp = &r->parts[r->nparts++];
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

/* Folded text while every event is counted: read apart, to be made
 * every event's once every event is known. */
static bool read_eventless(const struct router *r, const struct section_info *info)
{
    return r->to.every_event && info->folded_text;
}

/* A kept section into its part if it has a cost (re-rooted for
 * pictures); a CodSpeed metadata part's text noted; other sections
 * without cost ("Program termination", an idle thread) dropped. Takes s;
 * returns the stacks kept, or NULL. */
static struct stacks *keep_section(struct router *r, const struct section_info *info,
                                   struct stacks *s)
{
    bool eventless = read_eventless(r, info);
    if (!r->cmd)
        r->cmd = xstrndup(info->cmd, strlen(info->cmd));
    if (!stacks_have_cost(s)) {
        if (info->metadata)
            note_metadata(r, info->metadata_text, info->metadata_len);
        delete_stacks(s);
        return NULL;
    }
    if (r->trim_roots && !info->folded_text) {
        size_t len;
        const char *process = process_name(info->cmd, &len);
        stacks_root_at_user_code(s, info->benchmark, process, len);
    } else {
        stacks_compact(s);
    }
    struct kept_part *kp = part_of(r, info);
    GROW(kp->sections, kp->sections_cap, kp->nsections);
    kp->sections[kp->nsections++] = (struct kept_section){
        .has_thread = info->has_thread,
        .thread = info->thread,
        .thread_name = info->thread_name && info->thread_name_len
                           ? xstrndup(info->thread_name, info->thread_name_len)
                           : NULL,
        .input = info->input,
        .seq = r->sections_read++,
        .eventless = eventless,
        .stacks = s,
    };
    return s;
}

/* A section's graph folded into r->fold's stacks, and its self costs by
 * line (when read) beside them, onto the frames the fold made. */
static int fold_section(struct router *r, const struct section_graph *pt, char *err,
                        size_t errlen)
{
    if (fold_profile(&pt->prof, pt->columns, &r->fold, err, errlen))
        return -1;
    if ((pt->lines.n || pt->lines.nsites) && fold_lines(&pt->lines, &pt->prof, pt->columns, &r->fold)) {
        snprintf(err, errlen, "summed line costs overflow 64 bits");
        return -1;
    }
    return 0;
}

/* A callgrind section: its graph through the stages, folded where the
 * section goes. */
static int route_graph(void *arg, const struct section_info *info, struct section_graph *pt, char *err,
                       size_t errlen)
{
    struct router *r = arg;
    struct twin_tree *twin = twins_find(&r->twins, info);
    if (twin) /* the tree has its stacks: its lines only, onto them */
        return twins_pair(&r->twins, twin, info, pt, r->to.names, &r->to.style, err, errlen);
    if (twins_check_unpaired(&r->twins, info, pt, err, errlen))
        return -1;
    if (r->to.inl && inline_apply(r->to.inl, pt, r->to.names, err, errlen))
        return -1;
    profile_resolve_call_targets(&pt->prof);
    if (r->to.arcs) /* -f dot: the call graph itself, with call counts */
        callarcs_add_profile(r->to.arcs, &pt->prof, r->to.names, &r->to.style, r->to.out);
    if (!kept_apart(r, info))
        return fold_section(r, pt, err, errlen);
    struct stacks *s = new_section_stacks(r);
    fold_set_out(&r->fold, s);
    int rc = fold_section(r, pt, err, errlen);
    fold_set_out(&r->fold, r->to.out);
    if (rc) {
        delete_stacks(s);
        return -1;
    }
    keep_section(r, info, s);
    return 0;
}

/* A section of stacks, its header read: summed straight into the run's
 * stacks, or read into stacks of its own to keep. */
static struct stacks *route_open(void *arg, const struct section_info *head)
{
    struct router *r = arg;
    if (!kept_apart(r, head) && !read_eventless(r, head))
        return r->to.out;
    r->open = new_section_stacks(r);
    return r->open;
}

/* A section of stacks read (none: a callgrind section without costs):
 * kept if it was read apart. */
static int route_stacks(void *arg, const struct section_info *info, struct stacks *s,
                        char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    struct router *r = arg;
    if (s == r->to.out || (!s && !kept_apart(r, info))) {
        if (info->tree) /* summed as it was read */
            twins_note_tree(&r->twins, info, s, r->to.columns);
        return 0;
    }
    if (!s)
        s = new_section_stacks(r);
    r->open = NULL;
    if (kept_apart(r, info)) {
        struct stacks *kept = keep_section(r, info, s);
        if (info->tree)
            twins_note_tree(&r->twins, info, kept, r->to.columns);
    } else {
        GROW(r->eventless, r->eventless_cap, r->neventless);
        r->eventless[r->neventless++] = s;
    }
    return 0;
}

/* --inline: an object's debug file may be prepared while reading goes on. */
static void route_object(void *arg, uint32_t name, const char *path)
{
    struct router *r = arg;
    inline_note_object(r->to.inl, name, path);
}

struct section_sink router_sink(struct router *r)
{
    return (struct section_sink){r, route_graph, route_open, route_stacks,
                                 r->to.inl ? route_object : NULL};
}

void router_free(struct router *r)
{
    for (size_t i = 0; i < r->nparts; i++) {
        struct kept_part *kp = &r->parts[i];
        free(kp->name);
        free(kp->trigger);
        for (size_t j = 0; j < kp->nsections; j++) {
            free(kp->sections[j].thread_name);
            free(kp->sections[j].label);
            delete_stacks(kp->sections[j].stacks);
        }
        free(kp->sections);
        free(kp->threads);
        delete_stacks(kp->stacks);
        free(kp->columns);
    }
    free(r->parts);
    r->parts = NULL;
    r->nparts = r->parts_cap = 0;
    hashmap_free(&r->part_index);
    hashmap_free(&r->process_order);
    for (size_t i = 0; i < r->nmetadata; i++)
        free(r->metadata[i]);
    free(r->metadata);
    free(r->cmd);
    fold_target_free(&r->fold);
    twins_free(&r->twins);
    delete_stacks(r->open); /* an input failed in this section */
    for (size_t i = 0; i < r->neventless; i++)
        delete_stacks(r->eventless[i]);
    free(r->eventless);
}

/* A name two parts share becomes "NAME (2)", "NAME (3)", ... from its
 * second part on. */
static void number_names(struct router *r)
{
    struct strtab names;
    strtab_init(&names);
    uint32_t *seen = NULL;
    size_t seen_cap = 0;
    for (size_t i = 0; i < r->nparts; i++) {
        struct kept_part *kp = &r->parts[i];
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
static void label_threads(struct router *r)
{
    struct strtab names;
    strtab_init(&names);
    struct identity {
        uint64_t process, thread;
        bool shared;
    } *first = NULL; /* by name: its first thread, whether others have it */
    for (size_t i = 0; i < r->nparts; i++) {
        const struct kept_part *kp = &r->parts[i];
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
    for (size_t i = 0; i < r->nparts; i++) {
        const struct kept_part *kp = &r->parts[i];
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
static struct kept_part *part_named(struct router *in, const char *name)
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
static void choose_threaded(struct router *r, struct router *base)
{
    const struct writer_needs *needs = render_needs(r->to.format);
    bool report = needs->report;
    bool any = false;
    for (size_t i = 0; i < r->nparts; i++)
        any |= r->parts[i].nsections > 1;
    for (size_t i = 0; base && i < base->nparts; i++)
        any |= base->parts[i].nsections > 1;
    bool all = r->to.thread_frames || (any && !report && needs->shows_threads);
    for (size_t i = 0; i < r->nparts; i++) {
        struct kept_part *kp = &r->parts[i];
        struct kept_part *old = base ? part_named(base, kp->name) : NULL;
        kp->threaded = all || (report && (kp->nsections > 1 || (old && old->nsections > 1)));
        if (old)
            old->threaded = kp->threaded;
    }
    for (size_t i = 0; base && i < base->nparts; i++) {
        struct kept_part *kp = &base->parts[i];
        if (!part_named(r, kp->name))
            kp->threaded = all || (report && kp->nsections > 1);
    }
}

/* -f md: a part whose sections have self costs by line keeps them, and
 * its functions' self costs, as a flat profile (stacks_add_self); the
 * others keep only their sections' totals. False if a sum overflows. */
static bool keep_self_costs(struct router *r)
{
    bool ok = true;
    for (size_t i = 0; i < r->nparts; i++) {
        struct kept_part *kp = &r->parts[i];
        bool lines = false;
        for (size_t j = 0; j < kp->nsections; j++)
            lines |= stacks_line_entries(kp->sections[j].stacks) != 0;
        if (!lines)
            continue;
        kp->stacks = new_section_stacks(r);
        for (size_t j = 0; j < kp->nsections; j++) {
            ok &= stacks_add_self(kp->stacks, kp->sections[j].stacks);
            delete_stacks(kp->sections[j].stacks);
            kp->sections[j].stacks = NULL;
        }
    }
    return ok;
}

/* The parts' stacks made of their sections: each part's own (-f html)
 * or all summed into the run's; -f md, which shows totals and lines
 * only, sums its sections' (pipeline.c) or keeps their self costs. False
 * if a sum overflows. */
static bool build_stacks(struct router *r)
{
    const struct writer_needs *needs = render_needs(r->to.format);
    bool report = needs->report;
    bool ok = true;
    if (needs->totals_only)
        return !needs->lines || keep_self_costs(r);
    for (size_t i = 0; i < r->nparts; i++) {
        struct kept_part *kp = &r->parts[i];
        struct stacks *to = r->to.out;
        if (report)
            to = kp->stacks = new_section_stacks(r);
        kp->threads = xcalloc(kp->nsections + 1, sizeof *kp->threads);
        for (size_t j = 0; j < kp->nsections; j++) {
            struct kept_section *ks = &kp->sections[j];
            bool framed = kp->threaded && ks->label;
            if (framed)
                kp->threads[kp->nthreads++] = ks->label;
            ok &= stacks_merge(to, ks->stacks, framed ? ks->label : NULL,
                               framed ? strlen(ks->label) : 0);
            delete_stacks(ks->stacks);
            ks->stacks = NULL;
        }
    }
    return ok;
}

/* The counts of folded text, read as the chosen event's, made every
 * event's: what folded output counts for --event=E, whichever E. */
static bool count_for_every_event(const struct router *r, struct stacks *s)
{
    bool ok = true;
    for (size_t c = 0; c < event_table_count(r->to.columns); c++)
        if (c != CHOSEN_COLUMN)
            ok &= stacks_add_column(s, c, CHOSEN_COLUMN);
    return ok;
}

int router_inputs_read(struct router *r)
{
    bool ok = true;
    for (size_t i = 0; i < r->nparts; i++)
        for (size_t j = 0; j < r->parts[i].nsections; j++)
            if (r->parts[i].sections[j].eventless)
                ok &= count_for_every_event(r, r->parts[i].sections[j].stacks);
    for (size_t i = 0; i < r->neventless; i++) {
        ok &= count_for_every_event(r, r->eventless[i]) &&
              stacks_merge(r->to.out, r->eventless[i], NULL, 0);
        delete_stacks(r->eventless[i]);
    }
    r->neventless = 0;
    if (!ok) {
        fprintf(stderr, "callgrind_fold: summed counts overflow 64 bits\n");
        return EXIT_INPUT;
    }
    return 0;
}

static void arrange(struct router *r)
{
    if (r->nparts > 1)
        qsort(r->parts, r->nparts, sizeof *r->parts, compare_parts);
    number_names(r);
    for (size_t i = 0; i < r->nparts; i++)
        order_sections(&r->parts[i]);
    label_threads(r);
}

int router_assemble(struct router *r, struct router *base)
{
    if (!r->keep_parts)
        return 0;
    if (base && !base->keep_parts)
        base = NULL;
    arrange(r);
    if (base) {
        arrange(base);
        for (size_t i = 0; i < base->nparts; i++) {
            const struct kept_part *new = part_named(r, base->parts[i].name);
            if (new)
                pair_threads(&base->parts[i], new);
        }
    }
    choose_threaded(r, base);
    bool ok = build_stacks(r) && (!base || build_stacks(base));
    if (!ok) {
        fprintf(stderr, "callgrind_fold: summed counts overflow 64 bits\n");
        return EXIT_INPUT;
    }
    return 0;
}

struct thread_frame *router_thread_frames(const struct router *r, size_t *n)
{
    struct strtab seen;
    strtab_init(&seen);
    size_t cap = 0;
    struct thread_frame *out = NULL;
    *n = 0;
    for (size_t i = 0; i < r->nparts; i++) {
        const struct kept_part *kp = &r->parts[i];
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

void report_view_init(struct report_view *v, const struct router *r,
                      const struct report_origin *origin,
                      const char *const *events, size_t nevents, size_t default_event)
{
    v->parts = xcalloc(r->nparts ? r->nparts : 1, sizeof *v->parts);
    for (size_t i = 0; i < r->nparts; i++) {
        const struct kept_part *kp = &r->parts[i];
        v->parts[i] = (struct report_part){.number = kp->number, .name = kp->name,
                                           .trigger = kp->trigger, .stacks = kp->stacks,
                                           .threads = kp->threads,
                                           .nthreads = kp->nthreads,
                                           .columns = kp->columns};
    }
    v->report = (struct report){
        .title = origin->title,
        .input = origin->input,
        .ninputs = origin->ninputs,
        .events = events,
        .nevents = nevents,
        .default_event = default_event,
        .parts = v->parts,
        .nparts = r->nparts,
        .files = r->to.names,
        .cmd = r->cmd ? r->cmd : "",
        .metadata = (const char *const *)r->metadata,
        .nmetadata = r->nmetadata,
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
 * run: router_assemble numbered the repeated ones). */
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
