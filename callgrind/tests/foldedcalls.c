/* Program for the folded-lookups test: tiny functions called over and
   over, the same ones on several paths, a path with three callees in
   turn, a recursion: every call's path has to be found, quickly. */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) int leaf_a(int x) { return x * 3 + 1; }
__attribute__((noinline)) int leaf_b(int x) { return x ^ (x >> 3); }
__attribute__((noinline)) int leaf_c(int x) { return x + 7; }
__attribute__((noinline)) int mid_1(int x) { return leaf_a(x) + leaf_b(x); }
__attribute__((noinline)) int mid_2(int x) { return leaf_b(x) + leaf_c(x); }
__attribute__((noinline)) int mid_3(int x) { return leaf_c(leaf_a(x)); }
__attribute__((noinline)) int top_1(int x) { return mid_1(x) + mid_2(x); }
__attribute__((noinline)) int top_2(int x) { return mid_2(x) + mid_3(x); }
__attribute__((noinline)) int deep(int x, int d)
{
   return d == 0 ? top_1(x) : deep(x + 1, d - 1) + 1;
}

int main(void)
{
   int i;
   for (i = 0; i < 20000; i++)
      sink += top_1(i) + top_2(i) + deep(i, 8);
   return 0;
}
