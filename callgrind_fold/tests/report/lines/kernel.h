/* kernel.h: code inlined into its callers, so lines in a second file */
static inline int square_inline(int x)
{
    return x * x;
}
