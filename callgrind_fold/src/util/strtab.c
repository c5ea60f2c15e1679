/* String interning: equal strings get the same small id (util.h,
 * "strtab.c"). */
#include "util.h"

#include <stdlib.h>
#include <string.h>

void strtab_init(struct strtab *t)
{
    memset(t, 0, sizeof *t);
}

void strtab_free(struct strtab *t)
{
    free(t->bytes);
    free(t->offset);
    free(t->length);
    free(t->slots);
    strtab_init(t);
}

/* The slot table grown to `cap` slots, every entry placed again. */
static void rehash_to(struct strtab *t, size_t cap)
{
    uint64_t *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < t->slot_cap; i++) {
        uint64_t slot = t->slots[i];
        if (!slot)
            continue;
        size_t j = (slot >> 32) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = slot;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_cap = cap;
}

static void rehash(struct strtab *t)
{
    rehash_to(t, t->slot_cap ? t->slot_cap * 2 : 1024);
}

void strtab_reserve(struct strtab *t, size_t more)
{
    size_t want = t->count + more, cap = t->slot_cap ? t->slot_cap : 1024;
    while (want * 2 > cap)
        cap *= 2;
    if (cap > t->slot_cap)
        rehash_to(t, cap);
    if (want > t->entries_cap) {
        t->offset = xrealloc(t->offset, want * sizeof *t->offset);
        t->length = xrealloc(t->length, want * sizeof *t->length);
        t->entries_cap = want;
    }
}

uint32_t strtab_intern(struct strtab *t, const char *s, size_t len)
{
    return strtab_intern_hashed(t, s, len, strtab_hash(s, len));
}

uint32_t strtab_intern_hashed(struct strtab *t, const char *s, size_t len, uint32_t h)
{
    if (len > UINT32_MAX - 1 || t->count >= UINT32_MAX - 1)
        out_of_memory();
    uint32_t found = strtab_find(t, s, len, h);
    if (found != UINT32_MAX)
        return found;
    if ((t->count + 1) * 2 > t->slot_cap)
        rehash(t);
    size_t mask = t->slot_cap - 1;
    size_t i = h & mask;
    while (t->slots[i])
        i = (i + 1) & mask;
    uint32_t id = (uint32_t)t->count;
    if (id >= t->entries_cap) {
        size_t cap = t->entries_cap ? t->entries_cap * 2 : 256;
        t->offset = xrealloc(t->offset, cap * sizeof *t->offset);
        t->length = xrealloc(t->length, cap * sizeof *t->length);
        t->entries_cap = cap;
    }
    /* Entries start 4-byte aligned: the output keeps uint32_t frame ids
     * as strings (see stacks.c). */
    t->bytes_len = (t->bytes_len + 3) & ~(size_t)3;
    if (t->bytes_len + len + 1 > t->bytes_cap) {
        size_t cap = t->bytes_cap ? t->bytes_cap : 4096;
        while (cap < t->bytes_len + len + 1)
            cap *= 2;
        t->bytes = xrealloc(t->bytes, cap);
        t->bytes_cap = cap;
    }
    if (len)
        memcpy(t->bytes + t->bytes_len, s, len);
    t->bytes[t->bytes_len + len] = '\0';
    t->offset[id] = t->bytes_len;
    t->length[id] = (uint32_t)len;
    t->bytes_len += len + 1;
    t->count++;
    t->slots[i] = (uint64_t)h << 32 | (id + 1);
    return id;
}
