/* The tree of frames a flame graph draws, grown from the summed stacks
 * one depth at a time, narrow frames merged (flametree.h). */
#include "flametree.h"
#include "stacktrie.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* Stack id's frames. */
static const uint32_t *path_of(const struct stacks *s, uint32_t id)
{
    size_t n;
    return stacks_path(s, id, &n);
}

static size_t path_len(const struct stacks *s, uint32_t id)
{
    size_t n;
    stacks_path(s, id, &n);
    return n;
}

/* The frames reached below wide frames while the tree grows: a trie of
 * frame ids (the root, wide frames, and narrow children of wide frames,
 * whose own children are never looked at), and each one's counts. */
struct grown {
    uint64_t value, base;
    int narrow;
};

struct growth {
    struct stack_trie t;
    struct grown *g;
    size_t cap;
};

/* The child (parent, frame), its counts made when new. */
static uint32_t kid_of(struct growth *gr, uint32_t parent, uint32_t frame)
{
    uint32_t kid = stack_trie_child(&gr->t, parent, frame);
    if (kid >= gr->cap) {
        size_t old = gr->cap;
        GROW(gr->g, gr->cap, kid);
        memset(gr->g + old, 0, (gr->cap - old) * sizeof *gr->g);
    }
    return kid;
}

/* qsort has no context argument: siblings are sorted by their frames'
 * text, in byte order (a prefix first); frames whose text is alike (kept
 * apart: stacks_frame_key) by their keys. */
static const struct stacks *sort_s;
static const uint32_t *sort_frame;

static int bytes_order(const char *ta, size_t la, const char *tb, size_t lb)
{
    int c = memcmp(ta, tb, la < lb ? la : lb);
    if (c)
        return c;
    return la < lb ? -1 : la > lb;
}

static int by_text(const void *pa, const void *pb)
{
    uint32_t a = sort_frame[*(const uint32_t *)pa], b = sort_frame[*(const uint32_t *)pb];
    size_t la, lb;
    const char *ta = stacks_frame_text(sort_s, a, &la), *tb = stacks_frame_text(sort_s, b, &lb);
    int c = bytes_order(ta, la, tb, lb);
    if (c || !sort_s->split_keys)
        return c;
    ta = stacks_frame_key(sort_s, a, &la);
    tb = stacks_frame_key(sort_s, b, &lb);
    return bytes_order(ta, la, tb, lb);
}

static uint32_t new_node(struct flame_tree *t, uint32_t frame, uint32_t depth)
{
    if (t->count >= UINT32_MAX - 1)
        out_of_memory();
    if (t->count >= t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        t->frame = xrealloc(t->frame, cap * sizeof *t->frame);
        t->depth = xrealloc(t->depth, cap * sizeof *t->depth);
        t->end = xrealloc(t->end, cap * sizeof *t->end);
        t->value = xrealloc(t->value, cap * sizeof *t->value);
        t->merged = xrealloc(t->merged, cap * sizeof *t->merged);
        if (t->base)
            t->base = xrealloc(t->base, cap * sizeof *t->base);
        t->cap = cap;
    }
    size_t i = t->count++;
    t->frame[i] = frame;
    t->depth[i] = depth;
    t->end[i] = (uint32_t)i + 1;
    t->value[i] = 0;
    t->merged[i] = 0;
    if (t->base)
        t->base[i] = 0;
    return (uint32_t)i;
}

/* A stack still being followed down the tree (12 bytes: there may be
 * millions): its id, its number of frames and the grown frame it has
 * reached. */
struct live {
    uint32_t id, len, at;
};

/* Grows the frames below wide frames, one depth at a time: at depth d,
 * every stack still "live" (its first d frames are wide) adds its count to
 * the child for its frame d, found by (parent, frame) in a hash table of
 * that depth's children; then the children are judged, and a stack goes
 * on to depth d + 1 only below a wide one. A child's value is the sum
 * over the stacks through it, so it is never more than its parent's: the
 * children of a narrow frame are narrow too and need not be grown. On a
 * million distinct stacks whose frames turn narrow a few frames down,
 * this is a few look-ups per stack, reading the stacks front to back,
 * instead of sorting every stack and making a node for each of its
 * frames. */
static void grow(struct growth *gr, const struct stacks *s, const uint64_t *base_count,
                 double scale, double minwidth, uint32_t *max_len)
{
    size_t nlive = 0;
    size_t nids = stacks_count_ids(s);
    struct live *live = xmalloc((nids ? nids : 1) * sizeof *live);
    stack_trie_init(&gr->t, FLAME_ROOT_FRAME);
    GROW(gr->g, gr->cap, 0);
    memset(gr->g, 0, gr->cap * sizeof *gr->g);
    uint32_t root = 0;
    *max_len = 0;
    for (size_t id = 0; id < nids; id++) {
        uint64_t c = stacks_count(s, CHOSEN_COLUMN, (uint32_t)id), b = base_count ? base_count[id] : 0;
        if (!c && !b) /* left out, as flametree.h says */
            continue;
        gr->g[root].value += c;
        gr->g[root].base += b;
        size_t nf = path_len(s, (uint32_t)id);
        if (nf > *max_len)
            *max_len = (uint32_t)nf;
        if (nf > 0)
            live[nlive++] = (struct live){(uint32_t)id, (uint32_t)nf, root};
    }

    for (size_t depth = 0, first = gr->t.count; nlive > 0; depth++, first = gr->t.count) {
        /* Neighbouring stacks often go on through the same frame (they
         * share a prefix): the last child found is tried first, and
         * their counts are summed here, added to it when another comes. */
        uint32_t last_at = UINT32_MAX, last_frame = 0, last_kid = 0;
        uint64_t sum = 0, base_sum = 0;
        for (size_t i = 0; i < nlive; i++) {
            struct live *l = &live[i];
            /* The stacks' frames are far apart in memory, a cache line
             * each: asked for a few stacks ahead. */
            if (i + 8 < nlive)
                __builtin_prefetch(path_of(s, live[i + 8].id) + depth);
            uint32_t frame = path_of(s, l->id)[depth];
            if (l->at != last_at || frame != last_frame) {
                gr->g[last_kid].value += sum; /* (the root's 0 at first) */
                gr->g[last_kid].base += base_sum;
                sum = base_sum = 0;
                last_at = l->at;
                last_frame = frame;
                last_kid = kid_of(gr, l->at, frame);
            }
            sum += stacks_count(s, CHOSEN_COLUMN, l->id);
            if (base_count)
                base_sum += base_count[l->id];
            l->at = last_kid;
        }
        gr->g[last_kid].value += sum;
        gr->g[last_kid].base += base_sum;
        for (size_t c = first; c < gr->t.count; c++)
            gr->g[c].narrow = flame_narrow(gr->g[c].value, scale, minwidth);
        size_t keep = 0;
        for (size_t i = 0; i < nlive; i++)
            if (!gr->g[live[i].at].narrow && live[i].len > depth + 1)
                live[keep++] = live[i];
        nlive = keep;
        /* Emptied for the next depth, at a size fit for this one: a wide
         * depth followed by many narrow ones (a long chain) must not
         * clear a big table at every depth. */
        stack_trie_forget_children(&gr->t, gr->t.count - first);
    }
    free(live);
}

/* An open node of the depth-first walk: the grown frame, its node in the
 * tree, and the next of its sorted children. */
struct walk {
    uint32_t grown, node;
    size_t next;
};

void flame_build(struct flame_tree *t, const struct stacks *s, const uint64_t *base_count,
                 double scale, double minwidth)
{
    memset(t, 0, sizeof *t);
    if (base_count)
        t->base = xmalloc(sizeof *t->base);

    struct growth gr = {0};
    uint32_t max_len;
    grow(&gr, s, base_count, scale, minwidth, &max_len);
    struct grown *g = gr.g;

    /* The children of each grown frame, together, then each family in
     * text order. */
    struct stack_trie_kids k;
    stack_trie_group(&gr.t, &k);
    const uint32_t *first_kid = k.first, *frame = gr.t.label;
    uint32_t *kids = k.kid;
    sort_s = s;
    sort_frame = frame;
    for (size_t i = 0; i < gr.t.count; i++)
        if (first_kid[i + 1] - first_kid[i] > 1)
            qsort(kids + first_kid[i], first_kid[i + 1] - first_kid[i], sizeof *kids, by_text);

    /* The tree in depth-first preorder: a wide child is a node followed by
     * its subtree, a run of narrow neighbours one merged node. */
    struct walk *walk = NULL;
    size_t walk_cap = 0, nwalk = 0;
    uint32_t root = new_node(t, FLAME_ROOT_FRAME, 0);
    t->value[root] = g[0].value;
    if (t->base)
        t->base[root] = g[0].base;
    GROW(walk, walk_cap, 0);
    walk[nwalk++] = (struct walk){0, root, first_kid[0]};
    while (nwalk > 0) {
        struct walk *w = &walk[nwalk - 1];
        if (w->next == first_kid[w->grown + 1]) {
            t->end[w->node] = (uint32_t)t->count;
            nwalk--;
            continue;
        }
        uint32_t c = kids[w->next++];
        uint32_t node = new_node(t, frame[c], t->depth[w->node] + 1);
        t->value[node] = g[c].value;
        if (t->base)
            t->base[node] = g[c].base;
        if (g[c].narrow) {
            t->merged[node] = 1;
            while (w->next < first_kid[w->grown + 1] && g[kids[w->next]].narrow) {
                c = kids[w->next++];
                t->value[node] += g[c].value;
                if (t->base)
                    t->base[node] += g[c].base;
                t->merged[node]++;
            }
            continue;
        }
        GROW(walk, walk_cap, nwalk);
        walk[nwalk++] = (struct walk){c, node, first_kid[c]};
    }
    t->max_depth = max_len;
    free(walk);
    stack_trie_kids_free(&k);
    stack_trie_free(&gr.t);
    free(gr.g);
}

void flame_free(struct flame_tree *t)
{
    free(t->frame);
    free(t->depth);
    free(t->end);
    free(t->value);
    free(t->merged);
    free(t->base);
    memset(t, 0, sizeof *t);
}
