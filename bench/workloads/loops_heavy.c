/* Loop-heavy benchmark workload: a few functions with long inner loops
 * (matrix multiply, a 2-D stencil, a histogram, a byte scan) and very few
 * calls, so callgrind's per-call work hardly matters and its per-block
 * work dominates.  Same kernels as examples/loops.c, plus more, repeated.
 *
 * Usage: loops_heavy [REPEAT]   (default 4; work grows linearly) */
#include <stdio.h>
#include <stdlib.h>

#define N 160
#define G 192
#define B (1 << 16)

static double a[N][N], b[N][N], c[N][N];
static float grid[2][G][G];
static unsigned char bytes[B];
static unsigned hist[256];

__attribute__((noinline)) static void fill(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (i * 31 + j) % 17;
            b[i][j] = (i + j * 7) % 13;
        }
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++)
            grid[0][i][j] = (float)((i * j) % 11);
    unsigned x = 1;
    for (int i = 0; i < B; i++)
        bytes[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 24);
}

__attribute__((noinline)) static void multiply(void)
{
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++)
            for (int j = 0; j < N; j++)
                c[i][j] += a[i][k] * b[k][j];
}

__attribute__((noinline)) static void stencil(int steps)
{
    for (int s = 0; s < steps; s++) {
        float (*from)[G] = grid[s & 1], (*to)[G] = grid[!(s & 1)];
        for (int i = 1; i < G - 1; i++)
            for (int j = 1; j < G - 1; j++)
                to[i][j] = 0.25f * (from[i - 1][j] + from[i + 1][j] +
                                    from[i][j - 1] + from[i][j + 1]);
    }
}

__attribute__((noinline)) static unsigned long histogram(void)
{
    unsigned long runs = 0;
    for (int i = 0; i < B; i++) {
        hist[bytes[i]]++;
        runs += i > 0 && (bytes[i] ^ bytes[i - 1]) < 16;
    }
    return runs;
}

__attribute__((noinline)) static double checksum(void)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += c[i][j];
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++)
            s += grid[0][i][j];
    for (int i = 0; i < 256; i++)
        s += hist[i];
    return s;
}

int main(int argc, char **argv)
{
    int repeat = argc > 1 ? atoi(argv[1]) : 4;
    unsigned long runs = 0;
    fill();
    for (int r = 0; r < repeat; r++) {
        multiply();
        stencil(20);
        for (int k = 0; k < 10; k++)
            runs += histogram();
    }
    printf("loops_heavy: %.0f %lu\n", checksum(), runs);
    return 0;
}
