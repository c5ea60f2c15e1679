/* Deep-recursion benchmark workload: recursions thousands of frames
 * deep, direct and mutual, each frame a new call path, so that a
 * --dump-folded row measures calls whose call site leads to a different
 * path every time (the worst case of remembering a call's path). */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x) { return x * 5 + 3; }

__attribute__((noinline)) static unsigned long down(unsigned long x, int d)
{
    return d == 0 ? leaf(x) : down(x + 1, d - 1) + (d & 1);
}

__attribute__((noinline)) static unsigned long odd(unsigned long x, int d);
__attribute__((noinline)) static unsigned long even(unsigned long x, int d)
{
    return d == 0 ? leaf(x) : odd(x ^ 1, d - 1) + 1;
}
__attribute__((noinline)) static unsigned long odd(unsigned long x, int d)
{
    return d == 0 ? leaf(x) : even(x + 2, d - 1) + 2;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 200;
    unsigned long acc = 0;
    for (long i = 0; i < rounds; i++) {
        acc += down(i, 5000);
        acc += even(i, 3000);
    }
    sink = acc;
    printf("deep_recursion: %lu\n", acc & 0xff);
    return 0;
}
