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

/* a[0..n) == b[0..n), for the short strings interned by the million
 * (frames of a few dozen bytes): whole words, the last one overlapping,
 * without the call and set-up of memcmp. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8)
            if (load64(a + i) != load64(b + i))
                return false;
        return load64(a + n - 8) == load64(b + n - 8);
    }
    if (n >= 4)
        return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static void rehash(struct strtab *t)
{
    size_t cap = t->slot_cap ? t->slot_cap * 2 : 1024;
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

uint32_t strtab_intern(struct strtab *t, const char *s, size_t len)
{
    return strtab_intern_hashed(t, s, len, strtab_hash(s, len));
}

uint32_t strtab_intern_hashed(struct strtab *t, const char *s, size_t len, uint32_t h)
{
    if (len > UINT32_MAX - 1 || t->count >= UINT32_MAX - 1)
        out_of_memory();
    if ((t->count + 1) * 2 > t->slot_cap)
        rehash(t);
    size_t mask = t->slot_cap - 1;
    size_t i = h & mask;
    for (uint64_t slot; (slot = t->slots[i]) != 0; i = (i + 1) & mask) {
        if ((uint32_t)(slot >> 32) != h)
            continue;
        uint32_t id = (uint32_t)slot - 1;
        if (t->length[id] == len && same_bytes(t->bytes + t->offset[id], s, len))
            return id;
    }
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
