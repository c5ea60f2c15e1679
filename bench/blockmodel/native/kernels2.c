/* Loops of two basic blocks (a never-taken branch in the middle of the
   body), to see what a per-superblock model misses when a dependency
   chain runs through both blocks.  Build as kernels.c. */
#include <stdint.h>

#define OPQ(x)  __asm__("" : "+r"(x))
#define KER __attribute__((noinline, optimize("no-tree-vectorize")))

volatile int NEVER;        /* 0: the branch is never taken */
volatile uint64_t SIDE;

/* x *= k in both blocks: each block's chain is its own loop-carried chain */
KER uint64_t k_split_self(uint64_t n)
{
   uint64_t x = 1, k = 0x9E3779B97F4A7C15ull;
   int never = NEVER;
   OPQ(k);
   for (uint64_t i = 0; i < n; i++) {
      x *= k; OPQ(x); x *= k; OPQ(x);
      if (__builtin_expect(never, 0)) { SIDE = x; OPQ(x); }
      x *= k; OPQ(x); x *= k; OPQ(x);
   }
   return x;
}

/* y = x*k*k in the first block, x = y*k*k in the second: the chain runs
   x -> y -> x through both blocks, neither block alone has a cycle */
KER uint64_t k_split_cross(uint64_t n)
{
   uint64_t x = 1, y = 0, k = 0x9E3779B97F4A7C15ull;
   int never = NEVER;
   OPQ(k);
   for (uint64_t i = 0; i < n; i++) {
      y = x * k; OPQ(y); y *= k; OPQ(y);
      if (__builtin_expect(never, 0)) { SIDE = y; OPQ(y); }
      x = y * k; OPQ(x); x *= k; OPQ(x);
   }
   return x + y;
}

/* the same multiplies, independent chains in each block */
KER uint64_t k_split_indep(uint64_t n)
{
   uint64_t a = 1, b = 2, c = 3, d = 4, k = 0x9E3779B97F4A7C15ull;
   int never = NEVER;
   OPQ(k);
   for (uint64_t i = 0; i < n; i++) {
      a *= k; b *= k; OPQ(a); OPQ(b);
      if (__builtin_expect(never, 0)) { SIDE = a; OPQ(a); }
      c *= k; d *= k; OPQ(c); OPQ(d);
   }
   return a ^ b ^ c ^ d;
}
