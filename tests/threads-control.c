/* For tests/threads-control.sh: two threads started one after another in
 * one Valgrind slot ("worker-a" runs work_a, "worker-b" work_b), then the
 * program writes "<label> <kernel thread id>" of each to the file argv[1]
 * and waits until the file argv[2] exists (the test dumps meanwhile with
 * callgrind_control -d). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile unsigned long sink;
static long tids[3];

__attribute__((noinline)) static void work_a(void)
{ for (int i = 0; i < 1000; i++) sink += i; }
__attribute__((noinline)) static void work_b(void)
{ for (int i = 0; i < 2000; i++) sink += i; }

static void *ta(void *arg)
{
    prctl(PR_SET_NAME, "worker-a");
    tids[1] = syscall(SYS_gettid);
    work_a();
    return arg;
}

static void *tb(void *arg)
{
    prctl(PR_SET_NAME, "worker-b");
    tids[2] = syscall(SYS_gettid);
    work_b();
    return arg;
}

int main(int argc, char **argv)
{
    pthread_t t;
    struct stat st;
    FILE *ids;

    if (argc != 3) {
        fprintf(stderr, "usage: threads-control IDS-FILE GO-FILE\n");
        return 2;
    }
    tids[0] = syscall(SYS_gettid);
    pthread_create(&t, NULL, ta, NULL);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, tb, NULL);
    pthread_join(t, NULL);
    if (!(ids = fopen(argv[1], "w")))
        return 2;
    fprintf(ids, "main %ld\nworker-a %ld\nworker-b %ld\n", tids[0], tids[1], tids[2]);
    fclose(ids);
    while (stat(argv[2], &st) != 0)
        usleep(20000);
    return 0;
}
