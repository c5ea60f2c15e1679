/* --inline test: a shared library whose exported function inlines two
 * helpers; lib_helper_y does about four times lib_helper_x's work. */
static volatile unsigned long lib_sink;

static inline __attribute__((always_inline)) unsigned long lib_helper_y(unsigned long x)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < 400; i++) {
        s += x ^ i;
        lib_sink = s;
    }
    return s;
}

static inline __attribute__((always_inline)) unsigned long lib_helper_x(unsigned long x)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < 100; i++) {
        s += x ^ i;
        lib_sink = s;
    }
    return s + lib_helper_y(x);
}

__attribute__((noinline)) unsigned long lib_work(unsigned long n)
{
    unsigned long t = 0;
    for (unsigned long i = 0; i < n; i++)
        t += lib_helper_x(i);
    return t;
}
