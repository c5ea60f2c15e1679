/* util/: the ground floor every stage stands on. Allocation that exits on
 * failure, checked arithmetic, a growable byte buffer and the exit codes
 * (util.c), one hash map type for every lookup (hashmap.c), and string
 * interning (strtab.c): names become small integer ids that the other
 * stages pass around. Depends on nothing else in the program. */
#ifndef CF_UTIL_UTIL_H
#define CF_UTIL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- util.c ---- */
/* Small allocation and arithmetic helpers shared by every module. */

/* Exit codes, documented in README.md and --help. */
enum {
    EXIT_USAGE = 1,   /* bad command line */
    EXIT_INPUT = 2,   /* unreadable, malformed or inconsistent input */
    EXIT_OUTPUT = 3   /* cannot write output or out of memory */
};

/* A bad command line: "callgrind_fold: " + fmt (with one %s for arg),
 * a hint at --help, exit with EXIT_USAGE. */
_Noreturn void usage_error(const char *fmt, const char *arg);

/* Allocation failure is not recoverable for a command line tool:
 * these print a message and exit with EXIT_OUTPUT. */
_Noreturn void out_of_memory(void);
void *xmalloc(size_t n);
/* The n bytes at s as a NUL-terminated string of its own. */
char *xstrndup(const char *s, size_t n);
/* For runs that allocate tens of megabytes in small pieces (--inline:
 * libdw's structures and ours), where page faults can cost more than the
 * work: reserve `reserve` bytes of heap ahead and
 * ask for transparent huge pages on it, so that it faults in 2 MB at a
 * time. Best effort, glibc only; large blocks then come from that heap
 * too. */
void heap_prefer_huge_pages(size_t reserve);
/* Blocks from 256 KiB up mapped of their own (glibc): grown by moving
 * pages, not by copying, and zeroed by the kernel, not by calloc. */
void heap_map_large_blocks(void);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow *items (of item_size bytes) so that index `need` fits. */
void grow_array(void **items, size_t *capacity, size_t need, size_t item_size);

#define GROW(arr, cap, need)                                        \
    do {                                                            \
        if ((need) >= (cap)) /* the call only when it must grow */ \
            grow_array((void **)&(arr), &(cap), (need), sizeof *(arr)); \
    } while (0)

/* The readers' hot loops, compiled twice: for x86-64-v3 (BMI1/2's
 * shifts and bit scans without flag moves, POPCNT; every x86-64 CPU
 * since about 2013) and for the baseline the program is built for; the
 * dynamic loader picks one (an ifunc, by CPUID). Their bit-mask line
 * scanning (read/callgrind/scan.h) needs fewer instructions in the v3 build. GCC on
 * glibc only; clang and other systems get the baseline build alone. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__GLIBC__) && !defined(CF_NO_CPU_CLONES)
#define HOT_LOOP_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define HOT_LOOP_CLONES
#endif

/* "None" for a 32-bit id or index (ids count from 0). */
#define NONE UINT32_MAX

/* Room for the decimal digits of any uint64_t. */
#define U64_DIGITS 20

/* The decimal digits of v, at least min_digits of them (zeros in front),
 * written backwards so that they end just before `end`; returns where
 * they start. Output writes a number per line or per frame: no printf. */
static inline char *u64_digits(char *end, uint64_t v, unsigned min_digits)
{
    /* Two digits a division: half the divisions of one at a time. */
    static const char pairs[201] = "0001020304050607080910111213141516171819"
                                   "2021222324252627282930313233343536373839"
                                   "4041424344454647484950515253545556575859"
                                   "6061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";
    char *p = end;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * r, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    while ((unsigned)(end - p) < min_digits)
        *--p = '0';
    return p;
}

/* Whether the len bytes at s begin with the C string prefix. */
static inline bool starts_with(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

/* Overflow-checked uint64 arithmetic: return false on overflow. */
static inline bool add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}
static inline bool mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

/* A growable byte buffer (not NUL-terminated unless asked). */
struct buf {
    char *data;
    size_t len;
    size_t cap;
};
/* Makes room for n more bytes and a NUL. */
void buf_reserve(struct buf *b, size_t n);

/* Inline: output appends tens of thousands of short pieces. */
static inline void buf_append(struct buf *b, const char *s, size_t n)
{
    if (n >= b->cap - b->len) /* also when cap == 0 */
        buf_reserve(b, n);
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
}

static inline void buf_putc(struct buf *b, char c)
{
    if (b->cap - b->len < 2)
        buf_reserve(b, 1);
    b->data[b->len++] = c;
}
const char *buf_cstr(struct buf *b); /* NUL-terminates, returns data */
void buf_free(struct buf *b);

/* Opens `path` read-only if it is a regular file, else -1 with errno
 * set (EINVAL for a FIFO, device or directory: a path named by a profile
 * must neither block the run nor be read as an object). */
int open_regular(const char *path);

/* ---- hashmap.c ---- */
/* Open-addressing hash map from a pair of 64-bit keys to a 32-bit value.
 * One map type serves every lookup in the program: compressed-name ids,
 * function identities (object, file, name) and call edges (caller, callee). */

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

static inline uint64_t hash_mix(uint64_t a, uint64_t b)
{
    /* splitmix64-style finaliser over both halves: cheap and well spread. */
    uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 29;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 32;
    return h;
}

/* Unaligned little loads (memcpy: compiled to one instruction). */
static inline uint64_t load64(const void *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline uint64_t load32(const void *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

/* hash_bytes() in its pieces, for a caller that grows a string at its
 * end and hashes every prefix (a stack on a walk down a call tree): the
 * hash of the whole words (hash_word from HASH_START) carried along, the
 * ending (hash_ending) taken from the prefix's last bytes. */
#define HASH_START 0xcbf29ce484222325ULL

/* How many leading 8-byte words of a string of len bytes hash_word takes:
 * all but the last 1 to 8 bytes. */
static inline size_t hash_whole_words(size_t len)
{
    return len ? (len - 1) / 8 : 0;
}

static inline uint64_t hash_word(uint64_t h, uint64_t word)
{
    h = (h ^ word) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

/* The hash of the len bytes at p, h being the hash of its whole words. */
static inline uint64_t hash_ending(uint64_t h, const unsigned char *p, size_t len)
{
    size_t n = len - 8 * hash_whole_words(len); /* the last 1 to 8 bytes, or 0 */
    const unsigned char *q = p + len - n;
    uint64_t last;
    if (len >= 8)
        last = load64(p + len - 8);
    else if (n >= 4)
        last = load32(q) | load32(q + n - 4) << 32;
    else if (n > 0)
        last = (uint64_t)q[0] | (uint64_t)q[n / 2] << 8 | (uint64_t)q[n - 1] << 16;
    else
        last = 0;
    return hash_mix(h ^ last, len);
}

/* Inline: called once per frame of every stack read. */
static inline uint64_t hash_bytes(const void *data, size_t len)
{
    /* Every string and stack is hashed once on its way into a table: 16
     * million frames for a million folded lines. So: whole 8-byte words,
     * and the last 1 to 8 bytes in one or two loads that may overlap
     * bytes already hashed (as wyhash does), never a loop over bytes; the
     * length goes in last, as those loads do not tell it (and so that a
     * prefix's words hash alike in any longer string). Only the tables
     * use these values: nothing is ordered or stored by them. */
    const unsigned char *p = data;
    uint64_t h = HASH_START;
    for (size_t i = 0, words = hash_whole_words(len); i < words; i++)
        h = hash_word(h, load64(p + 8 * i));
    return hash_ending(h, p, len);
}

/* ---- strtab.c ---- */
/* String interning: equal byte strings get the same small integer id.
 * Strings live in one growing byte buffer, so memory is proportional to
 * the number of distinct strings, however often they occur in the input. */

struct strtab {
    char *bytes;        /* all strings, each followed by a NUL */
    size_t bytes_len, bytes_cap;
    size_t *offset;     /* id -> start in bytes */
    uint32_t *length;   /* id -> length */
    size_t count, entries_cap;
    /* Open addressing: the string's 32-bit hash << 32 | (id + 1), 0 =
     * empty. The hash in the slot rejects a mismatch, and lets the table
     * grow, without a look at the entry: in a table of a million stacks
     * each such look is a cache miss. */
    uint64_t *slots;
    size_t slot_cap;
};

void strtab_init(struct strtab *t);
void strtab_free(struct strtab *t);
uint32_t strtab_intern(struct strtab *t, const char *s, size_t len);
/* Room for `more` strings beyond those in t, made at once rather than
 * by doubling as they come (each doubling places every entry again). */
void strtab_reserve(struct strtab *t, size_t more);
/* strtab_intern in two steps, for a caller with other work to do between
 * them: the string's hash, whose slot can be fetched from memory early
 * (strtab_prefetch), and the interning with that hash. In a table too big
 * for the caches, that hides the one miss each new string costs. */
static inline uint32_t strtab_hash(const char *s, size_t len)
{
    return (uint32_t)hash_bytes(s, len);
}
static inline void strtab_prefetch(const struct strtab *t, uint32_t hash)
{
    if (t->slot_cap)
        __builtin_prefetch(&t->slots[hash & (t->slot_cap - 1)]);
}
uint32_t strtab_intern_hashed(struct strtab *t, const char *s, size_t len, uint32_t hash);

/* a[0..n) == b[0..n), for the short strings interned by the million
 * (frames of a few dozen bytes): whole words, the last one overlapping,
 * without the call and set-up of memcmp. */
static inline bool strtab_same_bytes(const char *a, const char *b, size_t n)
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

/* The id of s, whose strtab_hash is `hash`, or UINT32_MAX if it is not
 * interned. Inline: the look-up of every frame of every stack read. */
static inline uint32_t strtab_find(const struct strtab *t, const char *s, size_t len,
                                   uint32_t hash)
{
    if (!t->slot_cap)
        return UINT32_MAX;
    size_t mask = t->slot_cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        uint64_t slot = t->slots[i];
        if (!slot)
            return UINT32_MAX;
        uint32_t id = (uint32_t)slot - 1;
        if ((uint32_t)(slot >> 32) == hash && t->length[id] == len &&
            strtab_same_bytes(t->bytes + t->offset[id], s, len))
            return id;
    }
}
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
