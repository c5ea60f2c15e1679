/* Call-heavy example: recursion and many small functions.
 * The work per caller differs on purpose (helper() is expensive only when
 * called from parse()), which is what call-graph flamegraphs get wrong and
 * exact folded stacks get right. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long helper(unsigned long n)
{
    unsigned long acc = 0;
    for (unsigned long i = 0; i < n; i++)
        acc += i * 2654435761u;
    return acc;
}

__attribute__((noinline)) static unsigned long parse(int i) { return helper(2000 + i % 7); }
__attribute__((noinline)) static unsigned long lookup(int i) { return helper(3 + i % 2); }

__attribute__((noinline)) static unsigned long fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static unsigned long work(int rounds)
{
    unsigned long acc = 0;
    for (int i = 0; i < rounds; i++) {
        acc += parse(i);
        acc += lookup(i);
        acc += lookup(i + 1);
    }
    return acc;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    sink = work(rounds);
    sink += fib(18);
    printf("calls: done\n");
    return 0;
}
