/* A kernel for the hot lines' golden page: its text must show on the
 * page exactly, tags and all: </script><!-- & "quotes" 'q' */
#include "kernel.h"

	/* a tab before this comment */
long sum_squares(const int *v, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (long)v[i] * v[i];
    return s;
}

int main(void)
{
    int v[100];
    for (int i = 0; i < 100; i++)
        v[i] = i;
    return (int)(sum_squares(v, 100) & 1) + square_inline(2);
}
