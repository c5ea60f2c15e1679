/* Times the kernels of one set (kernels.h): R rounds, each round runs
   every kernel once (order rotated per round so drift hits all alike),
   n iterations sized for about 20 ms.  Prints one line per (round,
   kernel): round kernel iterations ns ns_per_iter.  Usage: bench [rounds] */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>

#include "kernels.h"

#define K(x) { #x, k_##x },
static struct { const char* name; uint64_t (*f)(uint64_t); } ks[] = { KERNELS };
#define NK (int)(sizeof ks / sizeof ks[0])

static double now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return t.tv_sec * 1e9 + t.tv_nsec;
}

volatile uint64_t sink;

int main(int argc, char** argv)
{
   int rounds = argc > 1 ? atoi(argv[1]) : 15;
   uint64_t n[NK];
   init_data();
   for (int k = 0; k < NK; k++) {          /* size: ~20 ms per run */
      uint64_t m = 1 << 16;
      double t;
      for (;;) {
         double t0 = now();
         sink = ks[k].f(m);
         t = now() - t0;
         if (t > 2e6) break;
         m *= 2;
      }
      n[k] = (uint64_t)(m * (20e6 / t));
      n[k] = (n[k] + 4095) & ~(uint64_t)4095;
   }
   for (int r = 0; r < rounds; r++)
      for (int j = 0; j < NK; j++) {
         int k = (j + r) % NK;
         double t0 = now();
         sink = ks[k].f(n[k]);
         double t = now() - t0;
         printf("%d %s %llu %.0f %.5f\n", r, ks[k].name, (unsigned long long)n[k], t, t / n[k]);
         fflush(stdout);
      }
   return 0;
}
