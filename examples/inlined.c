/* Optimised code with inlined helpers (built -O2): callgrind charges
 * the helpers' cost to update(), and `callgrind_fold --inline` shows them
 * again as frames "mix [inlined]" and "rotate [inlined]" below it. */
#include <stdio.h>
#include <stdlib.h>

static inline unsigned rotate(unsigned x, unsigned r)
{
    return (x << r) | (x >> (32 - r));
}

static inline unsigned mix(unsigned h, unsigned v)
{
    for (unsigned r = 1; r < 9; r++)
        h = rotate(h ^ v, r) * 0x9e3779b1u;
    return h;
}

__attribute__((noinline)) static unsigned update(unsigned h, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        h = mix(h, i) + (h >> 7);
    return h;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 20000, h = 1;
    for (int round = 0; round < 4; round++)
        h = update(h, n);
    printf("%08x\n", h);
    return 0;
}
