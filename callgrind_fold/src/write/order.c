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
    uint32_t node;
    bool line; /* the line of the stack ending at node, else the lines below */
};

/* qsort() has no context argument. */
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
                                   stacks_count(key_stacks, key_trie->stack[k->node]), 1);
    size_t n = (size_t)(digits + sizeof digits - start);
    tail[0] = ' ';
    memcpy(tail + 1, start, n);
    return n + 1;
}

static int compare_keys(const void *pa, const void *pb)
{
    const struct key *a = pa, *b = pb;
    if (a->node == b->node) /* a frame's line, "TEXT count", before "TEXT;..." */
        return a->line ? -1 : 1;
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

static void build_trie(struct trie *t, const struct stacks *s, const uint64_t *also)
{
    stack_trie_init(&t->t, NONE);
    size_t nids = stacks_count_ids(s), n = 0;
    uint32_t *written = xmalloc((nids ? nids : 1) * sizeof *written);
    uint32_t *leaf = xmalloc((nids ? nids : 1) * sizeof *leaf);
    struct stack_trie_cursor c = {0};
    for (size_t id = 0; id < nids; id++) {
        if (stacks_count(s, (uint32_t)id) == 0 && !(also && also[id] != 0))
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

/* Most nodes have one to a few keys: those are sorted by insertion,
 * without qsort()'s call per comparison and set-up per sort. */
static void sort_keys(struct key *k, size_t n)
{
    if (n > 8) {
        qsort(k, n, sizeof *k, compare_keys);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        struct key x = k[i];
        size_t j = i;
        for (; j > 0 && compare_keys(&k[j - 1], &x) > 0; j--)
            k[j] = k[j - 1];
        k[j] = x;
    }
}

/* A node being walked: its keys are keys[first, end), the next at `at`. */
struct walk {
    size_t first, at, end;
};

uint32_t *stacks_sorted(const struct stacks *s, const uint64_t *also, size_t *np)
{
    struct trie t;
    build_trie(&t, s, also);
    uint32_t *order = xmalloc((stacks_count_ids(s) ? stacks_count_ids(s) : 1) * sizeof *order);
    size_t n = 0;
    /* The empty stack (no frames) writes " count": before every key. */
    if (t.stack[0] != NONE)
        order[n++] = t.stack[0];
    key_stacks = s;
    key_trie = &t;
    struct key *keys = NULL;
    size_t nkeys = 0, keys_cap = 0;
    struct walk *walk = NULL;
    size_t depth = 0, walk_cap = 0;
    uint32_t node = 0; /* the node whose children are pushed next */
    for (;;) {
        if (node != NONE) { /* its children's keys, sorted, on top of `keys` */
            size_t first = nkeys;
            const uint32_t *first_kid = t.kids.first;
            for (uint32_t i = first_kid[node]; i < first_kid[node + 1]; i++) {
                uint32_t c = t.kids.kid[i];
                GROW(keys, keys_cap, nkeys + 1);
                if (t.stack[c] != NONE)
                    keys[nkeys++] = (struct key){c, true};
                if (first_kid[c + 1] > first_kid[c])
                    keys[nkeys++] = (struct key){c, false};
            }
            if (nkeys - first > 1)
                sort_keys(keys + first, nkeys - first);
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
        struct key k = keys[w->at++];
        if (k.line)
            order[n++] = t.stack[k.node];
        else
            node = k.node;
    }
    free(keys);
    free(walk);
    free(t.stack);
    stack_trie_kids_free(&t.kids);
    stack_trie_free(&t.t);
    *np = n;
    return order;
}
