/* Threaded benchmark workload: ROUNDS rounds, each starting two threads
 * that make many small calls and joining them, so that every round's
 * threads take the slots of the previous round's (Valgrind reuses thread
 * slots).  Under --separate-threads=yes each thread is its own section. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x) { return x * 3 + 1; }
__attribute__((noinline)) static unsigned long mid(unsigned long x) { return leaf(x) ^ leaf(x >> 1); }

static void* worker(void* arg)
{
    unsigned long acc = (unsigned long)arg;
    for (long i = 0; i < 300000; i++)
        acc += mid(acc + i);
    sink += acc;
    return NULL;
}

int main(int argc, char** argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 50;
    for (long r = 0; r < rounds; r++) {
        pthread_t a, b;
        pthread_create(&a, NULL, worker, (void*)r);
        pthread_create(&b, NULL, worker, (void*)(r + 1));
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    }
    printf("threads_turns: %lu\n", sink & 0xff);
    return 0;
}
