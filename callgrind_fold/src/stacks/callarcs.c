/* The call arcs between frames that -f dot draws, summed over the parts
 * read, and each frame's object (callarcs.h). */
#include "callarcs.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

void callarcs_init(struct callarcs *a)
{
    memset(a, 0, sizeof *a);
    hashmap_init(&a->index);
}

void callarcs_free(struct callarcs *a)
{
    hashmap_free(&a->index);
    free(a->caller);
    free(a->callee);
    free(a->calls);
    free(a->cost);
    free(a->object);
    memset(a, 0, sizeof *a);
}

static void add_sat(uint64_t *sum, uint64_t v)
{
    if (!add_u64(*sum, v, sum))
        *sum = UINT64_MAX;
}

uint32_t callarcs_add(struct callarcs *a, uint32_t from, uint32_t to, uint64_t calls,
                      uint64_t cost)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&a->index, from, to, (uint32_t)a->n, &inserted);
    if (inserted) {
        if (a->n >= UINT32_MAX - 1)
            out_of_memory();
        if (a->n >= a->cap) {
            size_t cap = a->cap ? a->cap * 2 : 256;
            a->caller = xrealloc(a->caller, cap * sizeof *a->caller);
            a->callee = xrealloc(a->callee, cap * sizeof *a->callee);
            a->calls = xrealloc(a->calls, cap * sizeof *a->calls);
            a->cost = xrealloc(a->cost, cap * sizeof *a->cost);
            a->cap = cap;
        }
        a->caller[a->n] = from;
        a->callee[a->n] = to;
        a->calls[a->n] = a->cost[a->n] = 0;
        a->n++;
    }
    uint32_t i = *slot;
    add_sat(&a->calls[i], calls);
    add_sat(&a->cost[i], cost);
    return i;
}

static void note_object(struct callarcs *a, uint32_t frame, uint32_t object)
{
    if (frame >= a->nobject) {
        GROW(a->object, a->object_cap, frame);
        for (size_t i = a->nobject; i <= frame; i++)
            a->object[i] = NO_OBJECT;
        a->nobject = (size_t)frame + 1;
    }
    if (a->object[frame] == NO_OBJECT)
        a->object[frame] = object;
}

void callarcs_add_profile(struct callarcs *a, const struct profile *p,
                          const struct strtab *names, const struct frame_style *style,
                          struct stacks *frames)
{
    uint32_t *frame = xmalloc((p->nnodes ? p->nnodes : 1) * sizeof *frame);
    struct buf text = {0};
    for (size_t i = 0; i < p->nnodes; i++) {
        const struct fn_node *fn = &p->nodes[i];
        text.len = 0;
        frame_append(&text, strtab_str(names, fn->name), strtab_len(names, fn->name),
                     strtab_str(names, fn->object), strtab_len(names, fn->object), style);
        frame[i] = stacks_frame(frames, text.data ? text.data : "", text.len);
        if (strtab_len(names, fn->object) > 0)
            note_object(a, frame[i], fn->object);
    }
    for (size_t i = 0; i < p->nedges; i++) {
        const struct call_edge *e = &p->edges[i];
        callarcs_add(a, frame[e->caller], frame[e->callee], e->calls, e->cost);
    }
    buf_free(&text);
    free(frame);
}

void callarcs_rename(struct callarcs *a, const uint32_t *rename, size_t nframes)
{
    struct callarcs out;
    callarcs_init(&out);
    for (size_t i = 0; i < a->n; i++) {
        uint32_t from = a->caller[i], to = a->callee[i];
        callarcs_add(&out, from < nframes ? rename[from] : from,
                     to < nframes ? rename[to] : to, a->calls[i], a->cost[i]);
    }
    for (size_t f = 0; f < a->nobject && f < nframes; f++)
        if (a->object[f] != NO_OBJECT)
            note_object(&out, rename[f], a->object[f]);
    callarcs_free(a);
    *a = out;
}
