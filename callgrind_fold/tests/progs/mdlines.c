/* Two versions of one function (tests/md_lines_tests.py): built with and
 * without -DV2, compute() does the same first loop and, in V2 only, a
 * second one; steady() is the same in both. The md diff of the two runs
 * must list compute()'s lines, the second loop's first. The markers name
 * the lines the test looks for. */
static volatile unsigned long sink;

__attribute__((noinline)) static void steady(void)
{
    for (unsigned long i = 0; i < 20000; i++)
        sink += i;
}

__attribute__((noinline)) static unsigned long compute(unsigned long n)
{ /* compute-begin */
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++)
        s += i * 3;
#ifdef V2
    for (unsigned long i = 0; i < n; i++) /* v2 */
        s ^= (i * 7 + (i >> 3)) ^ (s << 1) ^ (s >> 5); /* v2 */
#endif
    return s;
} /* compute-end */

int main(void)
{
    steady();
    sink = compute(50000);
    return 0;
}
