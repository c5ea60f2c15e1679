/* How fast can a callgrind.out's cost lines be read at all?  Two
 * stripped-down scanners of cost lines alone, for comparing with the
 * reader (issue 28: "1 GB/s"), and a newline count as the floor of
 * touching the bytes:
 *
 *   newlines  AVX2 compare and popcount, 64 bytes at a time
 *   lines     a line at a time: its first 32 bytes classified with AVX2
 *             (digit, blank, '\n', sign, '*'), its shape checked with
 *             mask operations, the wanted column's cost read
 *   blocks    64 bytes at a time: classified once, the shape of every
 *             line in the block checked together, then each line's tokens
 *             counted and its cost read
 *
 * Both scanners check a line with the reader's own functions
 * (src/read/callgrind/costblocks.h: block_odd_bytes(), block_cost(); tokens, signs
 * and '*' in the subpositions only, no number of 20 digits, no more
 * costs than events) but do nothing else: the
 * other lines ("fn=", "calls=", ...) are only skipped, nothing is
 * interned, no function gets its cost.  So their time is a floor for the
 * cost lines, not a reader.  Each prints the sum of the wanted column,
 * which must agree between them (lines they do not take, such as a
 * hexadecimal first subposition or a line of 32 bytes or more for
 * `lines`, count as skipped, so the sums may differ by those).
 *
 * Usage: cost_line_floor FILE NPOS NCOLUMNS [PASSES]
 *   NPOS: subpositions per line ("positions: instr line": 2), NCOLUMNS:
 *   events; the first event's column is summed.  Prints, per scanner, the
 *   best and median time of PASSES passes over the mapped file (warm),
 *   MB/s of the best, and its lines taken and skipped.
 * x86-64 with AVX2, BMI1/2 and POPCNT only (exits 2 elsewhere). */
#define _DEFAULT_SOURCE /* MAP_POPULATE */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


#include "read/callgrind/costblocks.h"

#if COST_BLOCKS

#define AVX2 COST_BLOCKS_TARGET

struct result {
    uint64_t sum, taken, skipped;
};

/* block_classify() (costblocks.h) of the 32 bytes at p: the bits above 31
 * clear.  A line at a time, the usual line ends within them. */
static inline AVX2 void classify32(const char *p, struct block_bits *b)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    const __m256i shift = _mm256_set1_epi8((char)(0x80 - '0'));
    const __m256i below = _mm256_set1_epi8((char)(-128 + 10));
#define EQUAL(ch) (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(ch)))
    b->digit = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(below, _mm256_add_epi8(v, shift)));
    b->blank = EQUAL(' ');
    b->newline = EQUAL('\n');
    b->star = EQUAL('*');
    b->marks = b->star | EQUAL('+') | EQUAL('-');
#undef EQUAL
}

static const char *skip_line(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl + 1 : end;
}

/* The reader's checks (block_odd_bytes(), block_cost()) a line at a
 * time; lines of 32 bytes or more are skipped. */
AVX2 static struct result scan_lines(const char *p, const char *end, unsigned npos,
                                     unsigned ncolumns)
{
    struct result r = {0, 0, 0};
    while (end - p >= COST_BLOCK_READ) {
        struct block_bits b;
        classify32(p, &b);
        uint32_t nl = (uint32_t)b.newline;
        if (nl) {
            unsigned len = (unsigned)_tzcnt_u32(nl);
            uint64_t line = _bzhi_u64(~(uint64_t)0, len);
            uint64_t token = ~(b.blank | b.newline) & line;
            uint64_t starts = token & ~(token << 1);
            uint64_t cost;
            if (!(block_odd_bytes(&b, starts, 1) & line) &&
                block_cost(p, &b, starts, line, npos, 0, npos + ncolumns, &cost)) {
                r.sum += cost;
                r.taken++;
                p += len + 1;
                continue;
            }
        }
        r.skipped++;
        p = skip_line(p, end);
    }
    return r;
}

/* The same 64 bytes at a time, as the reader's cost_run_blocks(), but
 * every other line only skipped. */
AVX2 static struct result scan_blocks(const char *p, const char *end, unsigned npos,
                                      unsigned ncolumns)
{
    struct result r = {0, 0, 0};
    while (end - p >= COST_BLOCK_READ) {
        struct block_bits b;
        block_classify(p, &b);
        uint64_t ends = b.newline; /* of the block's whole lines */
        if (!ends) {
            r.skipped++;
            p = skip_line(p, end);
            continue;
        }
        uint64_t token = ~(b.blank | b.newline);
        uint64_t starts = token & ~(token << 1);
        uint64_t odd = block_odd_bytes(&b, starts, (ends << 1) | 1);
        uint64_t done = 0;
        for (; ends; ends = _blsr_u64(ends)) {
            uint64_t line = _blsmsk_u64(ends) & ~done, cost;
            done |= line;
            if (!(odd & line) &&
                block_cost(p, &b, starts & line, line, npos, 0, npos + ncolumns, &cost)) {
                r.sum += cost;
                r.taken++;
            } else {
                r.skipped++;
            }
        }
        p += _mm_popcnt_u64(done);
    }
    return r;
}

AVX2 static struct result count_newlines(const char *p, const char *end, unsigned npos,
                                         unsigned ncolumns)
{
    (void)npos;
    (void)ncolumns;
    struct result r = {0, 0, 0};
    const __m256i nl = _mm256_set1_epi8('\n');
    for (; end - p >= 64; p += 64) {
        __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
        __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
        r.taken += (uint64_t)_mm_popcnt_u64(block_mask(_mm256_cmpeq_epi8(lo, nl),
                                                       _mm256_cmpeq_epi8(hi, nl)));
    }
    return r;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: cost_line_floor FILE NPOS NCOLUMNS [PASSES]\n");
        return 2;
    }
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi") ||
        !__builtin_cpu_supports("bmi2") || !__builtin_cpu_supports("popcnt")) {
        fprintf(stderr, "cost_line_floor: needs AVX2, BMI1, BMI2 and POPCNT\n");
        return 2;
    }
    unsigned npos = (unsigned)atoi(argv[2]), ncolumns = (unsigned)atoi(argv[3]);
    int passes = argc > 4 ? atoi(argv[4]) : 21;
    if (npos < 1 || npos > 8 || ncolumns < 1 || ncolumns > 40 || passes < 1 || passes > 1000) {
        fprintf(stderr, "cost_line_floor: NPOS 1-8, NCOLUMNS 1-40, PASSES 1-1000\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 1) {
        perror(argv[1]);
        return 2;
    }
    size_t size = (size_t)st.st_size;
    const char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    static const struct {
        const char *name;
        struct result (*scan)(const char *, const char *, unsigned, unsigned);
    } scanners[] = {{"newlines", count_newlines}, {"lines", scan_lines}, {"blocks", scan_blocks}};
    printf("scanner\tbest_ms\tmedian_ms\tMB_per_s\ttaken\tskipped\tsum\n");
    for (size_t k = 0; k < sizeof scanners / sizeof *scanners; k++) {
        double *ms = malloc((size_t)passes * sizeof *ms);
        struct result r = {0, 0, 0};
        for (int i = 0; i < passes; i++) {
            double t0 = now_ms();
            r = scanners[k].scan(map, map + size, npos, ncolumns);
            ms[i] = now_ms() - t0;
        }
        qsort(ms, (size_t)passes, sizeof *ms, by_value);
        printf("%s\t%.2f\t%.2f\t%.0f\t%llu\t%llu\t%llu\n", scanners[k].name, ms[0],
               ms[passes / 2], (double)size / 1e3 / ms[0], (unsigned long long)r.taken,
               (unsigned long long)r.skipped, (unsigned long long)r.sum);
        free(ms);
    }
    return 0;
}

#else
int main(void)
{
    fprintf(stderr, "cost_line_floor: x86-64 only\n");
    return 2;
}
#endif
