/* A benchmark harness with a pool of three named threads made before
 * instrumentation starts; each benchmark hands its work to the pool. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include "valgrind/callgrind.h"

#define NPOOL 3
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static void (*job)(int);
static int generation, pending, quit;
static volatile unsigned long sink;

__attribute__((noinline)) static void hash_chunk(int k)
{ unsigned long h = 5381; for (int i = 0; i < 20000 * (k + 1); i++) h = h * 33 + (unsigned)i; sink += h; }
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
__attribute__((noinline)) static void sort_chunk(int k)
{ int n = 4000 * (k + 1); int *v = malloc(n * sizeof *v); for (int i = 0; i < n; i++) v[i] = (i * 7919) % n;
  qsort(v, n, sizeof *v, cmp); sink += v[0]; free(v); }

static void *worker(void *arg)
{
    int k = (int)(long)arg, seen = 0; char name[16];
    snprintf(name, sizeof name, "pool-%d", k); prctl(PR_SET_NAME, name);
    pthread_mutex_lock(&mu);
    for (;;) {
        while (generation == seen && !quit) pthread_cond_wait(&cv, &mu);
        if (quit) break;
        seen = generation; void (*f)(int) = job;
        pthread_mutex_unlock(&mu); f(k); pthread_mutex_lock(&mu);
        if (--pending == 0) pthread_cond_signal(&done_cv);
    }
    pthread_mutex_unlock(&mu); return 0;
}
static void run_on_pool(void (*f)(int))
{
    pthread_mutex_lock(&mu); job = f; pending = NPOOL; generation++;
    pthread_cond_broadcast(&cv);
    while (pending) pthread_cond_wait(&done_cv, &mu);
    pthread_mutex_unlock(&mu);
}
__attribute__((noinline)) static void bench_hash(void) { run_on_pool(hash_chunk); }
__attribute__((noinline)) static void bench_sort(void) { run_on_pool(sort_chunk); }

int main(void)
{
    pthread_t t[NPOOL];
    for (long i = 0; i < NPOOL; i++) pthread_create(&t[i], 0, worker, (void *)i);
    CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION;
    bench_hash();
    CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("bench_hash");
    CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION;
    bench_sort();
    CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT("bench_sort");
    pthread_mutex_lock(&mu); quit = 1; pthread_cond_broadcast(&cv); pthread_mutex_unlock(&mu);
    for (int i = 0; i < NPOOL; i++) pthread_join(t[i], 0);
    return 0;
}
