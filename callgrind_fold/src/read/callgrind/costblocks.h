/* The one-event reader's 64-byte blocks (costrun.c, cost_run_blocks()):
 * the bytes of 64 at a time classified with AVX2 into bit masks, and the
 * bits of the bytes no plain cost line has.
 *
 * Why: four lines in five of a callgrind.out are short cost lines of
 * which one number is wanted.  Checked a line at a time (scan.h), such a
 * line's bytes are classified 16 at a time and its shape checked on its
 * own; here a block of about four lines is classified at once and the
 * shape of all its lines checked with a dozen mask operations, leaving
 * per line only its tokens to count and its cost to read
 * (bench/cost_line_floor.c times both ways).
 *
 * x86-64 only, and only on CPUs with AVX2, BMI1, BMI2 (its shifts) and
 * POPCNT (cost_blocks_available()): the functions below are compiled for
 * them whatever the build's target, and must not run elsewhere. */
#ifndef CF_READ_COSTBLOCKS_H
#define CF_READ_COSTBLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether this build and this CPU run the blocks. */
bool cost_blocks_available(void);
/* Whether this read uses them: this build and CPU can, no fast tier is
 * off (tiers.h), and CALLGRIND_FOLD_COST_BLOCKS is not "0". */
bool read_cost_blocks(void);

#if defined(__x86_64__) && defined(__GNUC__)
#define COST_BLOCKS 1
#include <immintrin.h>

#include "scan.h" /* plain_decimal() */
#include "read/swar.h" /* aligned digits */
#include "util/util.h" /* load64() */

#define COST_BLOCKS_TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))

/* How many bytes a block reads from its start: the 64 it classifies,
 * and 8 from a cost's first byte (a word, block_decimal() below),
 * which may be byte 62. */
#define COST_BLOCK_READ 72

/* One bit per byte of a block. */
struct block_bits {
    uint64_t digit, blank, newline;
    uint64_t marks; /* '+', '-' and '*': a subposition's first byte */
    uint64_t star;
};

static inline COST_BLOCKS_TARGET uint64_t block_mask(__m256i lo, __m256i hi)
{
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
}

static inline COST_BLOCKS_TARGET void block_classify(const char *p, struct block_bits *b)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    /* a digit: c - '0' + 0x80, a signed byte, is -128 to -119 */
    const __m256i shift = _mm256_set1_epi8((char)(0x80 - '0'));
    const __m256i below = _mm256_set1_epi8((char)(-128 + 10));
    b->digit = block_mask(_mm256_cmpgt_epi8(below, _mm256_add_epi8(lo, shift)),
                          _mm256_cmpgt_epi8(below, _mm256_add_epi8(hi, shift)));
#define BYTES_ARE(c) \
    block_mask(_mm256_cmpeq_epi8(lo, _mm256_set1_epi8(c)), _mm256_cmpeq_epi8(hi, _mm256_set1_epi8(c)))
    b->blank = BYTES_ARE(' ');
    b->newline = BYTES_ARE('\n');
    b->star = BYTES_ARE('*');
    b->marks = b->star | BYTES_ARE('+') | BYTES_ARE('-');
#undef BYTES_ARE
}

/* The bytes of a block no plain cost line (scan.h, plain_cost_line())
 * has, each in the line that has it: a byte that is not a digit, blank,
 * '\n', sign or '*' (hexadecimal, tabs, '\r', every other kind of line);
 * a sign or '*' not at a token's start, a sign not before a digit, a '*'
 * before one; a line that is empty or starts with a blank; the start of a
 * run of 20 digits or more (which may not fit in 64 bits).  starts: the
 * tokens' first bytes; line_starts: the lines' first bytes. */
static inline COST_BLOCKS_TARGET uint64_t block_odd_bytes(const struct block_bits *b,
                                                          uint64_t starts, uint64_t line_starts)
{
    uint64_t token = ~(b->blank | b->newline), sign = b->marks & ~b->star;
    uint64_t odd = ~(b->digit | b->blank | b->newline | b->marks) | (b->marks & ~starts) |
                   (sign & ~(b->digit >> 1)) | (b->star & (b->digit >> 1)) |
                   (line_starts & ~token);
    uint64_t run = b->digit; /* bit i: a run of 2, 4, 8, 16, 20 digits starts at i */
    run &= run >> 1;
    run &= run >> 2;
    run &= run >> 4;
    run &= run >> 8;
    run &= run >> 4;
    return odd | run;
}

/* The value of len (1 to 19) decimal digits at p, which has 8 bytes:
 * up to 8 digits by word operations (swar.h's aligned digits). */
static inline COST_BLOCKS_TARGET uint64_t block_decimal(const char *p, unsigned len)
{
    if (len <= 8)
        return aligned_value((load64(p) ^ ASCII_ZEROS) << (8 * (8 - len)));
    return plain_decimal(p, len);
}

/* Whether the line of bits `line` (its tokens' first bytes `tokens`) of
 * the block at p, which has no odd byte (block_odd_bytes()), is a plain
 * cost line: npos subpositions, the signs and '*' among them, then at
 * most max_tokens - npos costs.  If so, *cost is its cost in `column` (0
 * if it has fewer costs), as plain_cost_line() and plain_cost_at() read
 * it. */
static inline COST_BLOCKS_TARGET bool block_cost(const char *p, const struct block_bits *b,
                                                 uint64_t tokens, uint64_t line, size_t npos,
                                                 size_t column, size_t max_tokens,
                                                 uint64_t *cost)
{
    size_t n = (size_t)_mm_popcnt_u64(tokens);
    if (n < npos || n > max_tokens)
        return false;
    uint64_t costs = tokens;
    for (size_t i = 0; i < npos; i++)
        costs = _blsr_u64(costs);
    /* the signs and '*' before the first cost (none if there is none:
     * then costs & -costs is 0, and 0 - 1 all ones) */
    if (b->marks & line & ~(_blsi_u64(costs) - 1))
        return false;
    for (size_t i = 0; i < column && costs; i++)
        costs = _blsr_u64(costs);
    *cost = 0;
    if (costs) {
        unsigned at = (unsigned)_tzcnt_u64(costs);
        *cost = block_decimal(p + at, (unsigned)_tzcnt_u64(~(b->digit >> at)));
    }
    return true;
}

/* The value of subposition `index` of a line block_cost() took (its
 * tokens' first bytes `tokens`), as plain_subposition_at() reads it: "*"
 * is last, "+N" and "-N" relative to it (wrapping), "N" absolute.  No
 * "0x": its 'x' is an odd byte, and such a line is not taken. */
static inline COST_BLOCKS_TARGET uint64_t block_subposition(const char *p,
                                                            const struct block_bits *b,
                                                            uint64_t tokens, size_t index,
                                                            uint64_t last)
{
    for (size_t i = 0; i < index; i++)
        tokens = _blsr_u64(tokens);
    unsigned at = (unsigned)_tzcnt_u64(tokens);
    char c = p[at];
    if (c == '*')
        return last;
    unsigned from = at + (c == '+' || c == '-');
    unsigned len = (unsigned)_tzcnt_u64(~(b->digit >> from));
    /* most lines are a digit or two from the last: no word arithmetic */
    uint64_t v = len == 1 ? (uint64_t)(p[from] - '0') : block_decimal(p + from, len);
    return c == '+' ? last + v : c == '-' ? last - v : v;
}

#else
#define COST_BLOCKS 0
#endif

#endif
