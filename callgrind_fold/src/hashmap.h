/* Open-addressing hash map from a pair of 64-bit keys to a 32-bit value.
 * One map type serves every lookup in the program: compressed-name ids,
 * function identities (object, file, name) and call edges (caller, callee). */
#ifndef CF_HASHMAP_H
#define CF_HASHMAP_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

struct hashmap {
    uint64_t *key_a;
    uint64_t *key_b;
    uint32_t *value;
    uint8_t *used;
    size_t capacity; /* power of two, or 0 */
    size_t count;
};

void hashmap_init(struct hashmap *m);
void hashmap_free(struct hashmap *m);
void hashmap_clear(struct hashmap *m);
/* Returns true and sets *value when the key exists. */
bool hashmap_get(const struct hashmap *m, uint64_t a, uint64_t b, uint32_t *value);
/* Inserts or overwrites. */
void hashmap_put(struct hashmap *m, uint64_t a, uint64_t b, uint32_t value);
/* Returns a pointer to the value slot, inserting `fresh` if absent;
 * *inserted tells which happened. The pointer is valid until the next put. */
uint32_t *hashmap_upsert(struct hashmap *m, uint64_t a, uint64_t b, uint32_t fresh,
                         bool *inserted);

uint64_t hash_bytes(const void *data, size_t len);
uint64_t hash_mix(uint64_t a, uint64_t b);

#endif
