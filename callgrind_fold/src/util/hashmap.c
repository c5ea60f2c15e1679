/* Open-addressing hash map from two 64-bit keys to a 32-bit value
 * (util.h, "hashmap.c"). */
#include "util.h"

#include <stdlib.h>
#include <string.h>

void hashmap_init(struct hashmap *m)
{
    memset(m, 0, sizeof *m);
}

void hashmap_free(struct hashmap *m)
{
    free(m->key_a);
    free(m->key_b);
    free(m->value);
    free(m->used);
    hashmap_init(m);
}

void hashmap_clear(struct hashmap *m)
{
    if (m->capacity)
        memset(m->used, 0, m->capacity);
    m->count = 0;
}

static size_t find_slot(const struct hashmap *m, uint64_t a, uint64_t b)
{
    size_t mask = m->capacity - 1;
    size_t i = (size_t)hash_mix(a, b) & mask;
    while (m->used[i] && !(m->key_a[i] == a && m->key_b[i] == b))
        i = (i + 1) & mask;
    return i;
}

static void rehash(struct hashmap *m, size_t capacity)
{
    struct hashmap old = *m;
    m->capacity = capacity;
    m->count = 0;
    m->key_a = xmalloc(capacity * sizeof *m->key_a);
    m->key_b = xmalloc(capacity * sizeof *m->key_b);
    m->value = xmalloc(capacity * sizeof *m->value);
    m->used = xcalloc(capacity, 1);
    for (size_t i = 0; i < old.capacity; i++) {
        if (!old.used[i])
            continue;
        size_t j = find_slot(m, old.key_a[i], old.key_b[i]);
        m->used[j] = 1;
        m->key_a[j] = old.key_a[i];
        m->key_b[j] = old.key_b[i];
        m->value[j] = old.value[i];
        m->count++;
    }
    free(old.key_a);
    free(old.key_b);
    free(old.value);
    free(old.used);
}

bool hashmap_get(const struct hashmap *m, uint64_t a, uint64_t b, uint32_t *value)
{
    if (!m->capacity)
        return false;
    size_t i = find_slot(m, a, b);
    if (!m->used[i])
        return false;
    *value = m->value[i];
    return true;
}

uint32_t *hashmap_upsert(struct hashmap *m, uint64_t a, uint64_t b, uint32_t fresh,
                         bool *inserted)
{
    /* Keep the load factor at or below 1/2 so probe chains stay short. */
    if ((m->count + 1) * 2 > m->capacity)
        rehash(m, m->capacity ? m->capacity * 2 : 64);
    size_t i = find_slot(m, a, b);
    *inserted = !m->used[i];
    if (*inserted) {
        m->used[i] = 1;
        m->key_a[i] = a;
        m->key_b[i] = b;
        m->value[i] = fresh;
        m->count++;
    }
    return &m->value[i];
}

void hashmap_put(struct hashmap *m, uint64_t a, uint64_t b, uint32_t value)
{
    bool inserted;
    *hashmap_upsert(m, a, b, value, &inserted) = value;
}
