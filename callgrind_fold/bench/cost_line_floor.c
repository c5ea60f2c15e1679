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
 * Both scanners check what the reader's plain path checks (scan.h,
 * plain_cost_line(): tokens, signs and '*' in the subpositions only, no
 * number of 20 digits, no more costs than events) but nothing else: the
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

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))

struct result {
    uint64_t sum, taken, skipped;
};

static uint64_t load64(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* The value of len (1 to 19) digits at p; up to 8 by word operations. */
static uint64_t digits_value(const char *p, unsigned len)
{
    if (len <= 8) { /* the digits to the top bytes, then pairs, fours, eights */
        uint64_t y = (load64(p) ^ 0x3030303030303030u) << (8 * (8 - len));
        y = (y * 10 + (y >> 8)) & 0x00FF00FF00FF00FFu;
        y = (y * 100 + (y >> 16)) & 0x0000FFFF0000FFFFu;
        return (y * 10000 + (y >> 32)) & 0xFFFFFFFFu;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < len; i++)
        v = v * 10 + (unsigned)(p[i] - '0');
    return v;
}

/* Bit i: a run of 20 or more set bits of m starts at i. */
static uint64_t runs_of_20(uint64_t m)
{
    m &= m >> 1;
    m &= m >> 2;
    m &= m >> 4;
    m &= m >> 8;
    return m & m >> 4;
}

static inline AVX2 uint64_t mask_of(__m256i lo, __m256i hi)
{
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
}

/* The five byte classes of the 64 bytes at p. */
struct classes {
    uint64_t digit, blank, newline, star, sign;
};

static inline AVX2 void classify64(const char *p, struct classes *c)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    const __m256i shift = _mm256_set1_epi8((char)(0x80 - '0'));
    const __m256i below = _mm256_set1_epi8((char)(-128 + 10)); /* digits: -128..-119 */
    c->digit = mask_of(_mm256_cmpgt_epi8(below, _mm256_add_epi8(lo, shift)),
                       _mm256_cmpgt_epi8(below, _mm256_add_epi8(hi, shift)));
#define EQUAL(ch) mask_of(_mm256_cmpeq_epi8(lo, _mm256_set1_epi8(ch)), \
                          _mm256_cmpeq_epi8(hi, _mm256_set1_epi8(ch)))
    c->blank = EQUAL(' ');
    c->newline = EQUAL('\n');
    c->star = EQUAL('*');
    c->sign = EQUAL('+') | EQUAL('-');
#undef EQUAL
}

/* The same of the 32 bytes at p (the bits above 31 clear). */
static inline AVX2 void classify32(const char *p, struct classes *c)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    const __m256i shift = _mm256_set1_epi8((char)(0x80 - '0'));
    const __m256i below = _mm256_set1_epi8((char)(-128 + 10));
#define EQUAL(ch) (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(ch)))
    c->digit = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(below, _mm256_add_epi8(v, shift)));
    c->blank = EQUAL(' ');
    c->newline = EQUAL('\n');
    c->star = EQUAL('*');
    c->sign = EQUAL('+') | EQUAL('-');
#undef EQUAL
}

/* The line whose bits are `line` in a block of classes c: its wanted
 * cost into *cost, or 0 if its tokens are not a plain cost line's. */
static inline AVX2 int cost_of_line(const char *p, const struct classes *c, uint64_t starts,
                                    uint64_t line, unsigned npos, unsigned ncolumns,
                                    uint64_t *cost)
{
    uint64_t tokens = starts & line;
    unsigned n = (unsigned)_mm_popcnt_u64(tokens);
    if (n < npos || n > npos + ncolumns)
        return 0;
    uint64_t costs = tokens;
    for (unsigned i = 0; i < npos; i++)
        costs = _blsr_u64(costs);
    if ((c->star | c->sign) & line & ~(_blsi_u64(costs) - 1))
        return 0; /* a sign or '*' in a cost */
    *cost = 0;
    if (costs) {
        unsigned at = (unsigned)_tzcnt_u64(costs);
        *cost = digits_value(p + at, (unsigned)_tzcnt_u64(~(c->digit >> at)));
    }
    return 1;
}

/* What a line's or a block's bytes must not have: the bits of the bytes
 * that no plain cost line has there. */
static inline AVX2 uint64_t bad_bytes(const struct classes *c, uint64_t starts,
                                      uint64_t line_starts)
{
    uint64_t token = ~(c->blank | c->newline), marks = c->star | c->sign;
    return ~(c->digit | c->blank | c->newline | marks) | (marks & ~starts) |
           (c->sign & ~(c->digit >> 1)) | (c->star & (c->digit >> 1)) |
           (line_starts & ~token) | runs_of_20(c->digit);
}

static const char *skip_line(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl + 1 : end;
}

AVX2 static struct result scan_lines(const char *p, const char *end, unsigned npos,
                                     unsigned ncolumns)
{
    struct result r = {0, 0, 0};
    while (end - p >= 72) {
        struct classes c;
        classify32(p, &c);
        uint32_t nl = (uint32_t)c.newline;
        if (nl) {
            unsigned len = (unsigned)_tzcnt_u32(nl);
            uint64_t line = _bzhi_u64(~(uint64_t)0, len);
            uint64_t token = ~(c.blank | c.newline) & line;
            uint64_t starts = token & ~(token << 1);
            uint64_t cost;
            if (!(bad_bytes(&c, starts, 1) & line) &&
                cost_of_line(p, &c, starts, line, npos, ncolumns, &cost)) {
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

AVX2 static struct result scan_blocks(const char *p, const char *end, unsigned npos,
                                      unsigned ncolumns)
{
    struct result r = {0, 0, 0};
    while (end - p >= 72) {
        struct classes c;
        classify64(p, &c);
        uint64_t ends = c.newline & ~((uint64_t)1 << 63); /* whole lines only */
        if (!ends) {
            r.skipped++;
            p = skip_line(p, end);
            continue;
        }
        uint64_t token = ~(c.blank | c.newline);
        uint64_t starts = token & ~(token << 1);
        uint64_t bad = bad_bytes(&c, starts, (ends << 1) | 1);
        uint64_t done = 0;
        for (; ends; ends = _blsr_u64(ends)) {
            uint64_t line = _blsmsk_u64(ends) & ~done, cost;
            done |= line;
            if (!(bad & line) && cost_of_line(p, &c, starts, line, npos, ncolumns, &cost)) {
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
        r.taken += (uint64_t)_mm_popcnt_u64(mask_of(_mm256_cmpeq_epi8(lo, nl),
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
