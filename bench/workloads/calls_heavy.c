/* Call-heavy benchmark workload: deep recursion, many tiny functions,
 * calls through function pointers, callbacks from libc (qsort/bsearch)
 * back into the program, and malloc/free from a recursive tree builder.
 * Nearly every basic block is a call or a return, which is where a
 * per-block cost in callgrind would show.
 *
 * Usage: calls_heavy [SCALE]   (default 10; work grows linearly) */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

#define NOINLINE __attribute__((noinline))

NOINLINE static unsigned long fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE static int is_odd(unsigned n);
NOINLINE static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
NOINLINE static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

NOINLINE static unsigned long ackermann(unsigned long m, unsigned long n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

/* "Virtual" dispatch over a table of tiny functions. */
NOINLINE static unsigned long op_add(unsigned long a, unsigned long b) { return a + b; }
NOINLINE static unsigned long op_xor(unsigned long a, unsigned long b) { return a ^ b; }
NOINLINE static unsigned long op_mul(unsigned long a, unsigned long b) { return a * (b | 1); }
NOINLINE static unsigned long op_rot(unsigned long a, unsigned long b) { return (a << (b & 7)) | (a >> (64 - (b & 7) - 1)); }
NOINLINE static unsigned long op_sub(unsigned long a, unsigned long b) { return a - b; }
static unsigned long (*const ops[])(unsigned long, unsigned long) = {
    op_add, op_xor, op_mul, op_rot, op_sub,
};

NOINLINE static unsigned long dispatch(int n)
{
    unsigned long acc = 1;
    for (int i = 0; i < n; i++)
        acc = ops[(acc + i) % 5](acc, i);
    return acc;
}

/* A binary search tree built and walked recursively. */
struct node { struct node *l, *r; unsigned key; };

NOINLINE static struct node *insert(struct node *t, unsigned key)
{
    if (!t) {
        t = malloc(sizeof *t);
        t->l = t->r = NULL;
        t->key = key;
    } else if (key < t->key)
        t->l = insert(t->l, key);
    else
        t->r = insert(t->r, key);
    return t;
}

NOINLINE static unsigned long sum(const struct node *t)
{
    return t ? t->key + sum(t->l) + sum(t->r) : 0;
}

NOINLINE static void release(struct node *t)
{
    if (t) {
        release(t->l);
        release(t->r);
        free(t);
    }
}

NOINLINE static unsigned long tree(int n)
{
    struct node *t = NULL;
    unsigned x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        t = insert(t, x >> 8);
    }
    unsigned long s = sum(t);
    release(t);
    return s;
}

/* libc calling back into the program. */
NOINLINE static int cmp(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

NOINLINE static unsigned long sorting(int n)
{
    unsigned *v = malloc(n * sizeof *v), x = 777;
    unsigned long found = 0;
    for (int i = 0; i < n; i++)
        v[i] = x = x * 1664525u + 1013904223u;
    qsort(v, n, sizeof *v, cmp);
    for (int i = 0; i < n; i++)
        found += bsearch(&v[(i * 7) % n], v, n, sizeof *v, cmp) != NULL;
    free(v);
    return found;
}

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 10;
    unsigned long acc = 0;
    for (int r = 0; r < scale; r++) {
        acc += fib(22);
        acc += is_even(20000 + r);
        acc += ackermann(2, 300);
        acc += dispatch(100000);
        acc += tree(20000);
        acc += sorting(20000);
    }
    sink = acc;
    printf("calls_heavy: %lu\n", acc % 1000003);
    return 0;
}
