/* --inline test: hot_loop calls two levels of always-inlined helpers.
 * Per call of helper_a: its own loop runs A_ITERS times, helper_b's loop
 * B_ITERS = 3 * A_ITERS times with the same body, so helper_b's self cost
 * is about three times helper_a's. helper_a also calls a real function
 * (tally), whose frame must appear below "helper_a [inlined]". */
#define A_ITERS 100
#define B_ITERS 300

static volatile unsigned long sink;

__attribute__((noinline)) void tally(unsigned long x)
{
    sink += x;
}

static inline __attribute__((always_inline)) unsigned long helper_b(unsigned long x)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < B_ITERS; i++) {
        s += x ^ i;
        sink = s;
    }
    return s;
}

static inline __attribute__((always_inline)) unsigned long helper_a(unsigned long x)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < A_ITERS; i++) {
        s += x ^ i;
        sink = s;
    }
    tally(s);
    return s + helper_b(x + 1);
}

__attribute__((noinline)) unsigned long hot_loop(unsigned long n)
{
    unsigned long t = 0;
    for (unsigned long i = 0; i < n; i++)
        t += helper_a(i);
    return t;
}

int main(void)
{
    sink = hot_loop(2000);
    return 0;
}
