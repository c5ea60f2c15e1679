/* One trie of stacks, for the writers that see the stacks as a tree.
 *
 * Takes: stacks' frame-id sequences (stacks/model.h), one after another,
 * each frame given a node label by the caller (its frame id, or an id of
 * the caller's own, such as a name shared by several stacks tables).
 * Hands on: nodes numbered in the order they were made, node 0 the root,
 * each with its parent and label; the children of every node grouped,
 * in the order made, for the caller to sort; and per-node counts summed
 * into inclusive ones.  The byte order of folded text (order.c), the
 * HTML report's tree (reporttree.c) and the flame graph's tree
 * (flametree.c) are walks of it.  Depends on the model (stacks/model.h:
 * stacks_common_frames) and util/. */
#ifndef CF_WRITE_STACKTRIE_H
#define CF_WRITE_STACKTRIE_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct stack_trie {
    uint32_t *parent;  /* node -> its parent; NONE for the root */
    uint32_t *label;   /* node -> its label */
    size_t count, cap; /* nodes made, room for */
    /* (parent, label) -> child: open addressing on one array of key and
     * value, one cache line a probe (a child is looked up for every new
     * frame of every stack). */
    struct stack_trie_slot {
        uint64_t key;  /* stack_trie_key(parent, label); 0: free */
        uint32_t child;
    } *slot;
    size_t slot_cap, slot_count; /* slot_cap: a power of two */
};

/* An empty trie: the root alone, labelled root_label. */
void stack_trie_init(struct stack_trie *t, uint32_t root_label);
void stack_trie_free(struct stack_trie *t);
/* Room for about `nodes` nodes, made before the first child: a caller
 * that knows how many are coming spares the table's regrowths. */
void stack_trie_reserve(struct stack_trie *t, size_t nodes);

/* A slot's key: never 0 (a free slot's, so that a table starts as
 * calloc's zeroed pages), as no parent is NONE. */
static inline uint64_t stack_trie_key(uint32_t parent, uint32_t label)
{
    return ((uint64_t)parent << 32 | label) + 1;
}

/* stack_trie_child when the child is new, `free_slot` the free slot its
 * look-up ended at (stacktrie.c). */
uint32_t stack_trie_new_child(struct stack_trie *t, uint32_t parent, uint32_t label,
                              size_t free_slot);

/* The child of `parent` labelled `label`, made when new (the new node is
 * then node count - 1).  Inline: the flame tree asks for a known child
 * once per stack and depth. */
static inline uint32_t stack_trie_child(struct stack_trie *t, uint32_t parent, uint32_t label)
{
    uint64_t key = stack_trie_key(parent, label);
    size_t mask = t->slot_cap - 1;
    for (size_t i = (size_t)(hash_mix(key, 0) & mask);; i = (i + 1) & mask) {
        if (t->slot[i].key == key)
            return t->slot[i].child;
        if (t->slot[i].key == 0)
            return stack_trie_new_child(t, parent, label, i);
    }
}

/* Forgets which children were found (the nodes stay), making room for
 * about `expect` new ones: for a caller that grows the trie one depth at
 * a time and never asks for an older depth's children again, so that
 * the table stays the size of one depth. */
void stack_trie_forget_children(struct stack_trie *t, size_t expect);

/* Stacks added one after another: stacks that follow each other share
 * their first frames (readers add them in tree order, stack ids keep
 * that order), so only the frames after those of the previous stack are
 * looked up.  Zeroed before the first stack; freed after the last. */
struct stack_trie_cursor {
    const uint32_t *prev; /* the previous stack's frames */
    size_t nprev;
    uint32_t *node;       /* node[d]: the node of its first d frames */
    size_t cap;
};

/* A frame's label (ctx: the caller's); NULL: the frame id itself. */
typedef uint32_t stack_trie_label_fn(void *ctx, uint32_t frame);

/* The node of the stack path[0..n) (the root for n == 0), made with its
 * missing ancestors.  path must stay valid until the next call. */
uint32_t stack_trie_add(struct stack_trie *t, struct stack_trie_cursor *c,
                        const uint32_t *path, size_t n, stack_trie_label_fn *label,
                        void *ctx);
void stack_trie_cursor_free(struct stack_trie_cursor *c);

/* The children of each node: kid[first[i] .. first[i + 1]) are node i's,
 * in the order they were made. */
struct stack_trie_kids {
    uint32_t *first; /* count + 1 */
    uint32_t *kid;   /* count - 1 (no root) */
};
void stack_trie_group(const struct stack_trie *t, struct stack_trie_kids *k);
void stack_trie_kids_free(struct stack_trie_kids *k);

/* Counts made inclusive: each node's ncols values, v[i * ncols ...],
 * added into its parent's, from the last node made to the first (a
 * child is made after its parent, so it holds its subtree's sums by
 * then). */
void stack_trie_sum_up(const struct stack_trie *t, uint64_t *v, size_t ncols);

#endif
