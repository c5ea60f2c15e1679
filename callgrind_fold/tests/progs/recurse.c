/* Direct recursion (fib), mutual recursion (is_even/is_odd) and a
 * function reached both inside and outside the recursion (work). */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void work(int n)
{
    for (int i = 0; i < n; i++)
        sink += (unsigned long)i;
}

__attribute__((noinline)) static int fib(int n)
{
    work(10);
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int is_odd(int n);

__attribute__((noinline)) static int is_even(int n)
{
    work(5);
    return n == 0 ? 1 : is_odd(n - 1);
}

__attribute__((noinline)) static int is_odd(int n)
{
    return n == 0 ? 0 : is_even(n - 1);
}

int main(void)
{
    int r = fib(14) + is_even(200);
    work(1000);
    sink += (unsigned long)r;
    return 0;
}
