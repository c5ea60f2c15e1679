/* Runs every kernel of one set (kernels.h) once with a small n: for
   dumping the IR of their loops under valgrind (see ../ir_deps.py). */
#include <stdint.h>
#include <stdio.h>

#include "kernels.h"

#ifndef N
#define N 8192
#endif

#define K(x) s += k_##x(N);
int main(void)
{
   uint64_t s = 0;
   init_data();
   KERNELS
   printf("%llu\n", (unsigned long long)s);
   return 0;
}
