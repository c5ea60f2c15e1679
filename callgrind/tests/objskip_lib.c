/* The "runtime library" of the obj-skip tests: built as libclobjskip.so
   and hidden with --obj-skip (or --fn-skip=skiplib_*). */
#include "../callgrind.h"

static volatile int lib_sink;

__attribute__((noinline)) int skiplib_work(int n)
{
   int i, s = 0;
   for (i = 0; i < n; i++)
      s += i ^ n;
   return s;
}

/* A harness inside the library starts measuring, several of its own
   frames deep, then returns to the program. */
__attribute__((noinline)) static void skiplib_harness(void)
{
   lib_sink += skiplib_work(10);
   CALLGRIND_START_INSTRUMENTATION;
   lib_sink += skiplib_work(50);
}

__attribute__((noinline)) void skiplib_start_then_work(void)
{
   skiplib_harness();
   lib_sink += skiplib_work(20);
}

/* A recursion inside the library that starts measuring at its bottom. */
__attribute__((noinline)) int skiplib_recurse(int depth)
{
   if (depth == 0) {
      CALLGRIND_START_INSTRUMENTATION;
      return skiplib_work(30);
   }
   return skiplib_recurse(depth - 1) + 1;
}

/* The library calls back into the program. */
__attribute__((noinline)) static int skiplib_inner(int (*cb)(int), int n)
{
   return cb(n) + skiplib_work(n);
}

__attribute__((noinline)) int skiplib_call_back(int (*cb)(int), int n)
{
   return skiplib_inner(cb, n);
}
