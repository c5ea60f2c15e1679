/* Functions inlined into others, for --read-inline-info=yes: built with
 * optimisation, square and sum_squares are always inlined into
 * sum_of_sums (sum_squares in turn holding square), and kernel calls a
 * function that is never inlined from inside inlined code. */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) int kernel(int x)
{
   sink = x;
   return x & 7;
}

static inline __attribute__((always_inline)) int square(int x)
{
   return (x * x) & 0xffff;
}

static inline __attribute__((always_inline)) int sum_squares(int n)
{
   int s = 0;
   for (int i = 0; i < n; i++)
      s += square(i) ^ (s >> 3);
   return s + kernel(s);
}

__attribute__((noinline)) int sum_of_sums(int n)
{
   int r = 0;
   for (int k = 0; k < n; k++)
      r += sum_squares(k) & 0xff;
   return r;
}

int main(void)
{
   printf("%d\n", sum_of_sums(200));
   return 0;
}
