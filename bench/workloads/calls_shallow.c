/* Call-heavy benchmark workload without deep recursion: many tiny
 * functions called from a few callers, a dozen frames deep at most, so
 * that the folded output stays small and a --dump-folded row measures
 * the per-call cost of keeping the call path, not the writing. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf_a(unsigned long x) { return x * 3 + 1; }
__attribute__((noinline)) static unsigned long leaf_b(unsigned long x) { return x ^ (x >> 3); }
__attribute__((noinline)) static unsigned long leaf_c(unsigned long x) { return x + 7; }

__attribute__((noinline)) static unsigned long mid_1(unsigned long x) { return leaf_a(x) + leaf_b(x); }
__attribute__((noinline)) static unsigned long mid_2(unsigned long x) { return leaf_b(x) + leaf_c(x); }
__attribute__((noinline)) static unsigned long mid_3(unsigned long x) { return leaf_c(leaf_a(x)); }

__attribute__((noinline)) static unsigned long top_1(unsigned long x) { return mid_1(x) + mid_2(x); }
__attribute__((noinline)) static unsigned long top_2(unsigned long x) { return mid_2(x) + mid_3(x); }

/* a fixed-depth chain: 8 frames */
__attribute__((noinline)) static unsigned long chain(unsigned long x, int d)
{
    return d == 0 ? top_1(x) : chain(x + 1, d - 1) + 1;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 200000;
    unsigned long acc = 0;
    for (long i = 0; i < rounds; i++) {
        acc += top_1(i);
        acc += top_2(i);
        acc += chain(i, 8);
    }
    sink = acc;
    printf("calls_shallow: %lu\n", acc & 0xff);
    return 0;
}
