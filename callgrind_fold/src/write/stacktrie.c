/* The stack trie the tree-shaped writers share (stacktrie.h). */
#include "stacktrie.h"
#include "stacks/model.h"

#include <stdlib.h>
#include <string.h>

static void slots_reset(struct stack_trie *t, size_t cap)
{
    free(t->slot);
    t->slot = xcalloc(cap, sizeof *t->slot); /* every key 0: free */
    t->slot_cap = cap;
    t->slot_count = 0;
}

void stack_trie_init(struct stack_trie *t, uint32_t root_label)
{
    memset(t, 0, sizeof *t);
    GROW(t->parent, t->cap, 0);
    t->label = xmalloc(t->cap * sizeof *t->label);
    t->parent[0] = NONE;
    t->label[0] = root_label;
    t->count = 1;
    slots_reset(t, 64);
}

void stack_trie_reserve(struct stack_trie *t, size_t nodes)
{
    if (nodes > t->cap) {
        t->parent = xrealloc(t->parent, nodes * sizeof *t->parent);
        t->label = xrealloc(t->label, nodes * sizeof *t->label);
        t->cap = nodes;
    }
    size_t cap = t->slot_cap;
    while (cap < 2 * nodes) /* load at most 1/2, as stack_trie_new_child keeps */
        cap *= 2;
    if (cap > t->slot_cap && t->slot_count == 0)
        slots_reset(t, cap);
}

void stack_trie_free(struct stack_trie *t)
{
    free(t->parent);
    free(t->label);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

static struct stack_trie_slot *slot_of(const struct stack_trie *t, uint64_t key)
{
    size_t mask = t->slot_cap - 1;
    size_t i = (size_t)(hash_mix(key, 0) & mask);
    while (t->slot[i].key != key && t->slot[i].key != 0)
        i = (i + 1) & mask;
    return &t->slot[i];
}

static uint32_t new_node(struct stack_trie *t, uint32_t parent, uint32_t label)
{
    if (t->count >= UINT32_MAX - 1)
        out_of_memory();
    if (t->count >= t->cap) {
        size_t cap = t->cap * 2;
        t->parent = xrealloc(t->parent, cap * sizeof *t->parent);
        t->label = xrealloc(t->label, cap * sizeof *t->label);
        t->cap = cap;
    }
    t->parent[t->count] = parent;
    t->label[t->count] = label;
    return (uint32_t)t->count++;
}

uint32_t stack_trie_new_child(struct stack_trie *t, uint32_t parent, uint32_t label,
                              size_t free_slot)
{
    uint64_t key = stack_trie_key(parent, label);
    struct stack_trie_slot *slot = &t->slot[free_slot];
    if ((t->slot_count + 1) * 2 > t->slot_cap) { /* load at most 1/2 */
        struct stack_trie_slot *old = t->slot;
        size_t old_cap = t->slot_cap, count = t->slot_count;
        t->slot = NULL;
        slots_reset(t, old_cap * 2);
        for (size_t k = 0; k < old_cap; k++)
            if (old[k].key != 0)
                *slot_of(t, old[k].key) = old[k];
        t->slot_count = count;
        free(old);
        slot = slot_of(t, key);
    }
    slot->key = key;
    slot->child = new_node(t, parent, label);
    t->slot_count++;
    return slot->child;
}

void stack_trie_forget_children(struct stack_trie *t, size_t expect)
{
    size_t cap = 64;
    while (cap < 4 * expect)
        cap *= 2;
    slots_reset(t, cap);
}

uint32_t stack_trie_add(struct stack_trie *t, struct stack_trie_cursor *c,
                        const uint32_t *path, size_t n, stack_trie_label_fn *label,
                        void *ctx)
{
    size_t k = c->prev ? stacks_common_frames(c->prev, c->nprev, path, n) : 0;
    GROW(c->node, c->cap, n);
    c->node[0] = 0;
    for (size_t d = k; d < n; d++)
        c->node[d + 1] =
            stack_trie_child(t, c->node[d], label ? label(ctx, path[d]) : path[d]);
    c->prev = path;
    c->nprev = n;
    return c->node[n];
}

void stack_trie_cursor_free(struct stack_trie_cursor *c)
{
    free(c->node);
    memset(c, 0, sizeof *c);
}

void stack_trie_group(const struct stack_trie *t, struct stack_trie_kids *k)
{
    /* A counting sort on the parent: first[p] is first where p's
     * children end; placed from the last node to the first, each family
     * keeps the order made, and first[p] moves back to where they begin. */
    size_t n = t->count;
    k->first = xcalloc(n + 1, sizeof *k->first);
    k->kid = xmalloc((n ? n : 1) * sizeof *k->kid);
    for (size_t i = 1; i < n; i++)
        k->first[t->parent[i]]++;
    for (size_t i = 1; i <= n; i++)
        k->first[i] += k->first[i - 1];
    for (size_t i = n; i-- > 1;)
        k->kid[--k->first[t->parent[i]]] = (uint32_t)i;
}

void stack_trie_kids_free(struct stack_trie_kids *k)
{
    free(k->first);
    free(k->kid);
    memset(k, 0, sizeof *k);
}

void stack_trie_sum_up(const struct stack_trie *t, uint64_t *v, size_t ncols)
{
    for (size_t i = t->count; i-- > 1;) {
        uint64_t *p = v + (size_t)t->parent[i] * ncols;
        const uint64_t *c = v + i * ncols;
        for (size_t j = 0; j < ncols; j++)
            p[j] += c[j];
    }
}
