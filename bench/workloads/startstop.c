/* Benchmark workload: a harness measuring many iterations, starting and
   stopping instrumentation around each one from inside its call stack. */
#include <stdlib.h>
#include <valgrind/callgrind.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long step(unsigned long n)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++)
        s += i * 2654435761u;
    return s;
}

__attribute__((noinline)) static void iteration(void)
{
    for (int i = 0; i < 20; i++)
        sink += step(200 + i);
}

__attribute__((noinline)) static void harness(int rounds)
{
    for (int i = 0; i < rounds; i++) {
        CALLGRIND_START_INSTRUMENTATION;
        iteration();
        CALLGRIND_STOP_INSTRUMENTATION;
    }
}

int main(int argc, char **argv)
{
    harness(argc > 1 ? atoi(argv[1]) : 1000);
    return 0;
}
