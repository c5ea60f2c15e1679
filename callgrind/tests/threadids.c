/* Threads as the system knows them, for --separate-threads=yes dumps:
 * writes "<label> <kernel thread id>" for each thread to the file named by
 * argv[1], then dumps (CALLGRIND_DUMP_STATS_AT) while two threads still
 * run and one has exited, and once more at termination when only main is
 * left.  Threads: main (unnamed), "early" (names itself, exits before the
 * first dump), "line\nbreak" (names itself with a line break, as
 * prctl(PR_SET_NAME) allows), "unnamed" (never named). */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../callgrind.h"

static FILE* ids;
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t started, release, all_created;
static volatile unsigned long sink;

static void record(const char* label)
{
   pthread_mutex_lock(&ids_lock);
   fprintf(ids, "%s %ld\n", label, (long)syscall(SYS_gettid));
   fflush(ids);
   pthread_mutex_unlock(&ids_lock);
}

static void work(int n)
{
   for (int i = 0; i < n; i++) sink += i;
}

static void* early(void* arg)
{
   (void)arg;
   pthread_setname_np(pthread_self(), "early");
   record("early");
   work(1000);
   /* exiting before the others exist would give its slot to one of them */
   sem_wait(&all_created);
   return NULL;
}

static void* line_break(void* arg)
{
   (void)arg;
   prctl(PR_SET_NAME, "line\nbreak", 0, 0, 0);
   record("line-break");
   work(2000);
   sem_post(&started);
   sem_wait(&release);
   return NULL;
}

static void* unnamed(void* arg)
{
   (void)arg;
   record("unnamed");
   work(3000);
   sem_post(&started);
   sem_wait(&release);
   return NULL;
}

int main(int argc, char** argv)
{
   pthread_t t[3];

   if (argc != 2 || !(ids = fopen(argv[1], "w"))) {
      fprintf(stderr, "usage: threadids IDS-FILE\n");
      return 2;
   }
   sem_init(&started, 0, 0);
   sem_init(&release, 0, 0);
   sem_init(&all_created, 0, 0);
   record("main");
   /* all three are created before any exits: each has its own slot */
   pthread_create(&t[0], NULL, early, NULL);
   pthread_create(&t[1], NULL, line_break, NULL);
   pthread_create(&t[2], NULL, unnamed, NULL);
   sem_post(&all_created);
   pthread_join(t[0], NULL);
   sem_wait(&started);
   sem_wait(&started);
   CALLGRIND_DUMP_STATS_AT("two live, one exited");
   sem_post(&release);
   sem_post(&release);
   pthread_join(t[1], NULL);
   pthread_join(t[2], NULL);
   fclose(ids);
   return 0;
}
