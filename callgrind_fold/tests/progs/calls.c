/* Known call structure for the golden tests:
 *   main -> phase_a -> shared(1) -> helper -> leaf(50000)   (expensive)
 *                               -> leaf(100)
 *   main -> phase_b -> shared(0) -> leaf(100)                (cheap)
 *                   -> leaf(3000)
 * No recursion, so with deep enough --separate-callers every function has
 * one call path. With an argument, callgrind dumps between the phases. */
#include <stdlib.h>
#include <valgrind/callgrind.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void leaf(int n)
{
    for (int i = 0; i < n; i++)
        sink += (unsigned long)i;
}

__attribute__((noinline)) static void helper(void)
{
    leaf(50000);
}

__attribute__((noinline)) static void shared(int expensive)
{
    leaf(100);
    if (expensive)
        helper();
}

__attribute__((noinline)) static void phase_a(void)
{
    shared(1);
}

__attribute__((noinline)) static void phase_b(void)
{
    shared(0);
    leaf(3000);
}

int main(int argc, char **argv)
{
    (void)argv;
    phase_a();
    if (argc > 1)
        CALLGRIND_DUMP_STATS;
    phase_b();
    return 0;
}
