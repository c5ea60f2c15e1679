/* String interning: equal byte strings get the same small integer id.
 * Strings live in one growing byte buffer, so memory is proportional to
 * the number of distinct strings, however often they occur in the input. */
#ifndef CF_STRTAB_H
#define CF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab {
    char *bytes;        /* all strings, each followed by a NUL */
    size_t bytes_len, bytes_cap;
    size_t *offset;     /* id -> start in bytes */
    uint32_t *length;   /* id -> length */
    uint32_t *hash;     /* id -> hash, to rehash and to reject mismatches fast */
    size_t count, entries_cap;
    uint32_t *slots;    /* open addressing: id + 1, 0 = empty */
    size_t slot_cap;
};

void strtab_init(struct strtab *t);
void strtab_free(struct strtab *t);
uint32_t strtab_intern(struct strtab *t, const char *s, size_t len);
/* Pointer is valid until the next intern. NUL-terminated. */
static inline const char *strtab_str(const struct strtab *t, uint32_t id)
{
    return t->bytes + t->offset[id];
}
static inline size_t strtab_len(const struct strtab *t, uint32_t id)
{
    return t->length[id];
}

#endif
