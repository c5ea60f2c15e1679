/* A benchmark harness whose benchmarks hand their work to a thread pool,
 * as harnesses do with rayon, tokio or Node Workers: three named threads
 * (pool-0 .. pool-2) are made before instrumentation starts; each
 * benchmark (bench_hash, bench_sort) posts one job to the pool, waits for
 * it, and ends with CALLGRIND_DUMP_STATS_AT(name).  Under
 * --separate-threads=yes each benchmark's part holds a section for the
 * main thread and one for each pool thread. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <valgrind/callgrind.h>

#define POOL_SIZE 3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_posted = PTHREAD_COND_INITIALIZER;
static pthread_cond_t job_done = PTHREAD_COND_INITIALIZER;
static void (*job)(int);
static int generation, pending, quit;
static volatile unsigned long sink;

/* thread k hashes (k + 1) * 20000 numbers */
__attribute__((noinline)) static void hash_chunk(int k)
{
    unsigned long h = 5381;
    for (int i = 0; i < 20000 * (k + 1); i++)
        h = h * 33 + (unsigned)i;
    sink += h;
}

static int by_value(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* thread k sorts (k + 1) * 4000 numbers */
__attribute__((noinline)) static void sort_chunk(int k)
{
    int n = 4000 * (k + 1);
    int *v = malloc(n * sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = (i * 7919) % n;
    qsort(v, n, sizeof *v, by_value);
    sink += v[0];
    free(v);
}

static void *pool_thread(void *arg)
{
    int k = (int)(long)arg, seen = 0;
    char name[16];

    snprintf(name, sizeof name, "pool-%d", k);
    prctl(PR_SET_NAME, name);
    pthread_mutex_lock(&lock);
    for (;;) {
        while (generation == seen && !quit)
            pthread_cond_wait(&job_posted, &lock);
        if (quit)
            break;
        seen = generation;
        void (*run)(int) = job;
        pthread_mutex_unlock(&lock);
        run(k);
        pthread_mutex_lock(&lock);
        if (--pending == 0)
            pthread_cond_signal(&job_done);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* every pool thread runs f once; returns when all have */
static void run_on_pool(void (*f)(int))
{
    pthread_mutex_lock(&lock);
    job = f;
    pending = POOL_SIZE;
    generation++;
    pthread_cond_broadcast(&job_posted);
    while (pending)
        pthread_cond_wait(&job_done, &lock);
    pthread_mutex_unlock(&lock);
}

__attribute__((noinline)) static void bench_hash(void) { run_on_pool(hash_chunk); }
__attribute__((noinline)) static void bench_sort(void) { run_on_pool(sort_chunk); }

static void measure(void (*bench)(void), const char *name)
{
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
    bench();
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT(name);
}

int main(void)
{
    pthread_t pool[POOL_SIZE];

    for (long k = 0; k < POOL_SIZE; k++)
        pthread_create(&pool[k], NULL, pool_thread, (void *)k);
    measure(bench_hash, "bench_hash");
    measure(bench_sort, "bench_sort");

    pthread_mutex_lock(&lock);
    quit = 1;
    pthread_cond_broadcast(&job_posted);
    pthread_mutex_unlock(&lock);
    for (int k = 0; k < POOL_SIZE; k++)
        pthread_join(pool[k], NULL);
    printf("pool: %lu\n", sink & 0xff);
    return 0;
}
