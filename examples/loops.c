/* Loop-heavy example: a few functions with long inner loops. */
#include <stdio.h>
#include <stdlib.h>

#define N 256

static double a[N][N], b[N][N], c[N][N];

__attribute__((noinline)) static void fill(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (i * 31 + j) % 17;
            b[i][j] = (i + j * 7) % 13;
        }
}

__attribute__((noinline)) static void multiply(int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                c[i][j] += a[i][k] * b[k][j];
}

__attribute__((noinline)) static double checksum(void)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += c[i][j];
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    if (n < 1 || n > N)
        n = 64;
    fill();
    multiply(n);
    printf("loops: %.0f\n", checksum());
    return 0;
}
