/* The byte order of the written lines "f1;f2;...;fN count" (foldedtext.h,
 * stacks_sorted), without sorting all of them.
 *
 * The stacks go into a trie of frame ids, and the trie is walked depth
 * first, each node's children in the byte order of what follows the
 * node's text in their lines.  A child c stands for up to two keys:
 * "TEXT count" for the line of the stack that ends at c, and "TEXT;" for
 * the lines of the stacks below it.  All lines of one key start with that
 * key.  A key that is a prefix of another key is a line's, "TEXT count"
 * ("TEXT;" cannot be: a frame holds no ';'), and then its one line is
 * that prefix, which comes first in byte order as it does among the keys.
 * So ordering the keys orders the lines, even when a frame is a prefix of
 * its sibling or holds bytes below ' ' and ';'.  Only siblings are
 * sorted: a folded tree of a million stacks has small sibling sets, where
 * the sort of all the lines cost tens of comparisons per line, each
 * walking two deep stacks.
 *
 * The trie is stacktrie.h's, labelled by frame id. Nothing is recursive,
 * so any depth works. */
#include "foldedtext.h"
#include "stacktrie.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* The trie of the written stacks, and for each node the stack ending
 * there (NONE when none is written). */
struct trie {
    struct stack_trie t;
    struct stack_trie_kids kids;
    uint32_t *stack;
};

/* One key among a node's children (see the top of the file). */
struct key {
    /* The first 8 bytes of the node's frame text as a big-endian number,
     * zeros past its end: where two differ within both texts, that
     * settles the order without a look at the texts. */
    uint64_t head;
    uint32_t node;
    uint32_t len; /* of the frame text, at most UINT32_MAX */
    bool line; /* the line of the stack ending at node, else the lines below */
};

/* For the comparisons. */
static const struct stacks *key_stacks;
static const struct trie *key_trie;

/* What follows a key's frame text in its lines: ";" or " count". */
static size_t key_tail(const struct key *k, char tail[24])
{
    if (!k->line) {
        tail[0] = ';';
        return 1;
    }
    char digits[U64_DIGITS];
    const char *start = u64_digits(digits + sizeof digits,
                                   stacks_count(key_stacks, CHOSEN_COLUMN, key_trie->stack[k->node]), 1);
    size_t n = (size_t)(digits + sizeof digits - start);
    tail[0] = ' ';
    memcpy(tail + 1, start, n);
    return n + 1;
}

/* Keys of two different nodes, compared by their bytes. */
static int compare_key_bytes(const struct key *a, const struct key *b)
{
    const struct strtab *frames = &key_stacks->frames;
    uint32_t fa = key_trie->t.label[a->node], fb = key_trie->t.label[b->node];
    const unsigned char *ta = (const unsigned char *)strtab_str(frames, fa);
    const unsigned char *tb = (const unsigned char *)strtab_str(frames, fb);
    size_t la = strtab_len(frames, fa), lb = strtab_len(frames, fb);
    size_t m = la < lb ? la : lb;
    int c = memcmp(ta, tb, m);
    if (c)
        return c;
    /* Equal up to the shorter text: the rest of each key is the rest of
     * its text, then its tail; the shorter text's key is down to its
     * tail, so this ends within 22 bytes. */
    char tail_a[24], tail_b[24];
    size_t na = key_tail(a, tail_a), nb = key_tail(b, tail_b);
    size_t ra = la - m + na, rb = lb - m + nb;
    for (size_t i = 0; i < ra && i < rb; i++) {
        unsigned char x = m + i < la ? ta[m + i] : (unsigned char)tail_a[m + i - la];
        unsigned char y = m + i < lb ? tb[m + i] : (unsigned char)tail_b[m + i - lb];
        if (x != y)
            return x < y ? -1 : 1;
    }
    return ra < rb ? -1 : ra > rb ? 1 : 0;
}

static inline int compare_keys(const struct key *a, const struct key *b)
{
    if (a->node == b->node) /* a frame's line, "TEXT count", before "TEXT;..." */
        return a->line ? -1 : 1;
    uint64_t differ = a->head ^ b->head;
    if (differ) {
        uint32_t at = (uint32_t)__builtin_clzll(differ) / 8; /* the first byte that differs */
        if (at < a->len && at < b->len)
            return a->head < b->head ? -1 : 1;
    }
    return compare_key_bytes(a, b);
}

/* Each frame's key head (struct key). */
static uint64_t *frame_heads(const struct stacks *s)
{
    size_t n = stacks_count_frames(s);
    uint64_t *head = xmalloc((n ? n : 1) * sizeof *head);
    for (size_t f = 0; f < n; f++) {
        const unsigned char *text = (const unsigned char *)strtab_str(&s->frames, (uint32_t)f);
        size_t len = strtab_len(&s->frames, (uint32_t)f);
        uint64_t h = 0;
        for (size_t j = 0; j < 8; j++)
            h = h << 8 | (j < len ? text[j] : 0);
        head[f] = h;
    }
    return head;
}

static void build_trie(struct trie *t, const struct stacks *s, const uint64_t *also)
{
    stack_trie_init(&t->t, NONE);
    size_t nids = stacks_count_ids(s), n = 0;
    /* Stacks in tree order (readers, the estimate) make about one node
     * each, a few more where a path has no stack of its own. */
    stack_trie_reserve(&t->t, nids + nids / 8 + 64);
    uint32_t *written = xmalloc((nids ? nids : 1) * sizeof *written);
    uint32_t *leaf = xmalloc((nids ? nids : 1) * sizeof *leaf);
    struct stack_trie_cursor c = {0};
    size_t ncounts;
    const uint64_t *count = stacks_col_counts(s, CHOSEN_COLUMN, &ncounts);
    for (size_t id = 0; id < nids; id++) {
        if ((id >= ncounts || count[id] == 0) && !(also && also[id] != 0))
            continue;
        size_t nf;
        const uint32_t *f = stacks_path(s, (uint32_t)id, &nf);
        written[n] = (uint32_t)id;
        leaf[n++] = stack_trie_add(&t->t, &c, f, nf, NULL, NULL);
    }
    stack_trie_cursor_free(&c);
    /* Each node's stack, set once the nodes are all made. */
    t->stack = xmalloc(t->t.count * sizeof *t->stack);
    memset(t->stack, 0xff, t->t.count * sizeof *t->stack); /* NONE */
    for (size_t i = 0; i < n; i++)
        t->stack[leaf[i]] = written[i];
    free(written);
    free(leaf);
    stack_trie_group(&t->t, &t->kids);
}

static void insertion_sort(struct key *k, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct key x = k[i];
        size_t j = i;
        for (; j > 0 && compare_keys(&k[j - 1], &x) > 0; j--)
            k[j] = k[j - 1];
        k[j] = x;
    }
}

/* Most nodes have one to a few keys: sorted by insertion.  More are
 * merged in runs, by our own merge rather than qsort(): the comparison
 * inlined, without a call per comparison. */
static void sort_keys(struct key *k, size_t n, struct key **tmp, size_t *tmp_cap)
{
    enum { RUN = 8 };
    for (size_t i = 0; i < n; i += RUN)
        insertion_sort(k + i, n - i < RUN ? n - i : RUN);
    if (n <= RUN)
        return;
    GROW(*tmp, *tmp_cap, n);
    struct key *from = k, *to = *tmp;
    for (size_t width = RUN; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                to[o++] = compare_keys(&from[b], &from[a]) < 0 ? from[b++] : from[a++];
            while (a < mid)
                to[o++] = from[a++];
            while (b < hi)
                to[o++] = from[b++];
        }
        struct key *swap = from;
        from = to;
        to = swap;
    }
    if (from != k)
        memcpy(k, from, n * sizeof *k);
}

/* A node being walked: its keys are keys[first, end), the next at `at`. */
struct walk {
    size_t first, at, end;
};

uint32_t *stacks_sorted_shared(const struct stacks *s, const uint64_t *also, size_t *np,
                               uint32_t **shared_out)
{
    struct trie t;
    build_trie(&t, s, also);
    uint32_t *order = xmalloc((stacks_count_ids(s) ? stacks_count_ids(s) : 1) * sizeof *order);
    size_t n = 0;
    /* shared[i]: the frames stack order[i] shares with order[i - 1], the
     * depth of their deepest common node: the shallowest node walked
     * from the one to the other. */
    uint32_t *shared = NULL;
    if (shared_out)
        shared = xmalloc((stacks_count_ids(s) ? stacks_count_ids(s) : 1) * sizeof *shared);
    size_t low = 0; /* the shallowest depth walked since the last line */
    /* The empty stack (no frames) writes " count": before every key. */
    if (t.stack[0] != NONE) {
        if (shared)
            shared[n] = 0;
        order[n++] = t.stack[0];
    }
    key_stacks = s;
    key_trie = &t;
    uint64_t *head = frame_heads(s);
    struct key *keys = NULL, *tmp = NULL;
    size_t nkeys = 0, keys_cap = 0, tmp_cap = 0;
    struct walk *walk = NULL;
    size_t depth = 0, walk_cap = 0;
    uint32_t node = 0; /* the node whose children are pushed next */
    for (;;) {
        if (node != NONE) { /* its children's keys, sorted, on top of `keys` */
            size_t first = nkeys;
            const uint32_t *first_kid = t.kids.first;
            for (uint32_t i = first_kid[node]; i < first_kid[node + 1]; i++) {
                uint32_t c = t.kids.kid[i], f = t.t.label[c];
                GROW(keys, keys_cap, nkeys + 1);
                struct key k = {head[f], c, (uint32_t)strtab_len(&s->frames, f), true};
                if (t.stack[c] != NONE)
                    keys[nkeys++] = k;
                k.line = false;
                if (first_kid[c + 1] > first_kid[c])
                    keys[nkeys++] = k;
            }
            if (nkeys - first > 1)
                sort_keys(keys + first, nkeys - first, &tmp, &tmp_cap);
            GROW(walk, walk_cap, depth);
            walk[depth++] = (struct walk){first, first, nkeys};
            node = NONE;
        }
        if (depth == 0)
            break;
        struct walk *w = &walk[depth - 1];
        if (w->at == w->end) {
            nkeys = w->first;
            depth--;
            continue;
        }
        /* walk[d]'s node is d frames deep, its children d + 1. */
        if (depth - 1 < low)
            low = depth - 1;
        struct key k = keys[w->at++];
        if (k.line) {
            if (shared)
                shared[n] = (uint32_t)low;
            order[n++] = t.stack[k.node];
            low = depth;
        } else {
            node = k.node;
        }
    }
    free(keys);
    free(tmp);
    free(head);
    free(walk);
    free(t.stack);
    stack_trie_kids_free(&t.kids);
    stack_trie_free(&t.t);
    *np = n;
    if (shared_out)
        *shared_out = shared;
    return order;
}

uint32_t *stacks_sorted(const struct stacks *s, const uint64_t *also, size_t *np)
{
    return stacks_sorted_shared(s, also, np, NULL);
}
