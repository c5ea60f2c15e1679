/* Two runs of this program differ in one function only: grow() does
 * argv[1] times as much work, steady() the same every run (the diff
 * tests of callgrind_fold --diff, tests/test_render.py). */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void steady(void)
{
    for (unsigned long i = 0; i < 200000; i++)
        sink += i;
}

__attribute__((noinline)) static void grow(unsigned long times)
{
    for (unsigned long i = 0; i < 100000 * times; i++)
        sink += i;
}

int main(int argc, char **argv)
{
    unsigned long times = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
    steady();
    grow(times);
    return 0;
}
