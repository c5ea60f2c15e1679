/* Inlined code from another file (inline_mix.h) inside two functions. */
#include "inline_mix.h"

static volatile unsigned long sink;

__attribute__((noinline)) static void first(void)
{
    sink += mix(sink);
}

__attribute__((noinline)) static void second(void)
{
    for (int i = 0; i < 3; i++)
        sink += mix(sink + 1);
}

int main(void)
{
    first();
    second();
    return 0;
}
