/* Always inlined, even at -O0: its code in the callers is attributed to
 * this header through callgrind's fi=/fe= lines. */
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
    for (int i = 0; i < 200; i++)
        x = x * 31 + (unsigned long)i;
    return x;
}
