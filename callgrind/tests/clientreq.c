/* Program for the tests of what benchmark harnesses ask of callgrind:
   descriptions (CALLGRIND_ADD_DESC), dumps with worker threads, client
   requests with bad strings, --instr-atstart=inherit across exec.

   clientreq desc | desc-fork | workers | bad | skips N
   clientreq exec-measuring | exec-stopped | exec-skip | child | spawn */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../callgrind.h"

extern char** environ;

static volatile int sink;

__attribute__((noinline)) int work(int n)
{
   int i, s = 0;
   for (i = 0; i < n; i++)
      s += i * 3;
   return s;
}

__attribute__((noinline)) void* worker(void* arg)
{
   (void)arg;
   sink += work(5000);
   return 0;
}

__attribute__((noinline)) void bench_body(void) { sink += work(100); }

/* the child of the exec tests: its profile has child_work only if it
   is measured, and strlen only if libc is not skipped */
__attribute__((noinline)) void child_work(const char* s)
{
   sink += work(300);
   sink += (int)strlen(s);
}

static int run_child(const char* self)
{
   char* argv[] = { (char*)self, (char*)"child", 0 };
   pid_t pid;
   int status;

   fflush(stdout);
   pid = fork();
   if (pid < 0) return 1;
   if (pid == 0) {
      execv(self, argv);
      _exit(127);
   }
   if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 1;
   return WEXITSTATUS(status);
}

int main(int argc, char** argv)
{
   const char* mode = argc > 1 ? argv[1] : "desc";

   if (strcmp(mode, "desc") == 0) {
      CALLGRIND_ADD_DESC("Benchmark pid: 1234");
      CALLGRIND_ADD_DESC("two\nlines");
      bench_body();
      CALLGRIND_DUMP_STATS_AT("clientreq.c::first");
      bench_body();
      CALLGRIND_DUMP_STATS_AT("clientreq.c::second");
   }
   else if (strcmp(mode, "desc-fork") == 0) {
      pid_t pid;
      int status;
      CALLGRIND_ADD_DESC("queued by the parent");
      fflush(stdout);
      pid = fork();
      if (pid < 0) return 1;
      if (pid == 0) {
         bench_body();
         CALLGRIND_DUMP_STATS_AT("clientreq.c::child");
         _exit(0);
      }
      if (waitpid(pid, &status, 0) != pid || status != 0) return 1;
      CALLGRIND_DUMP_STATS_AT("clientreq.c::parent");
   }
   else if (strcmp(mode, "workers") == 0) {
      pthread_t t;
      CALLGRIND_ZERO_STATS;
      CALLGRIND_START_INSTRUMENTATION;
      pthread_create(&t, 0, worker, 0);
      pthread_join(t, 0);
      bench_body();
      CALLGRIND_STOP_INSTRUMENTATION;
      CALLGRIND_ADD_DESC("workers desc");
      CALLGRIND_DUMP_STATS_AT("clientreq.c::workers");
   }
   else if (strcmp(mode, "bad") == 0) {
      /* a string running into an unmapped page, and a huge one */
      long page = sysconf(_SC_PAGESIZE);
      char* two = mmap(0, 2 * page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      char* huge = malloc(100000);
      if (two == MAP_FAILED || !huge) return 1;
      munmap(two + page, page);
      memset(two, 'x', page);
      memset(huge, 'y', 100000 - 1);
      huge[100000 - 1] = 0;
      printf("skip NULL: %d\n", CALLGRIND_ADD_OBJ_SKIP(0));
      printf("skip unmapped: %d\n", CALLGRIND_ADD_OBJ_SKIP((const char*)8));
      printf("skip unterminated: %d\n", CALLGRIND_ADD_OBJ_SKIP(two));
      printf("skip huge: %d\n", CALLGRIND_ADD_OBJ_SKIP(huge));
      CALLGRIND_ADD_DESC((const char*)8);
      CALLGRIND_ADD_DESC(two);
      CALLGRIND_ADD_DESC("still here");
      bench_body();
      CALLGRIND_DUMP_STATS_AT((const char*)8);
      bench_body();
      CALLGRIND_DUMP_STATS_AT(two);
      printf("skip ok: %d\n", CALLGRIND_ADD_OBJ_SKIP("no-such-object.so"));
   }
   else if (strcmp(mode, "skips") == 0 && argc == 3) {
      /* distinct patterns, each added twice */
      int i, n = atoi(argv[2]);
      char buf[64];
      for (i = 0; i < 2 * n; i++) {
         snprintf(buf, sizeof buf, "/no/such/dir/lib%d.so", i % n);
         CALLGRIND_ADD_OBJ_SKIP(buf);
      }
      bench_body();
   }
   else if (strcmp(mode, "spawn") == 0) {
      /* three children in the first part (exec'd after a fork, forked
       * only, posix_spawn'd), none in the second */
      char* child_argv[] = { argv[0], (char*)"child", 0 };
      pid_t pid;
      int status;
      CALLGRIND_START_INSTRUMENTATION;
      if (run_child(argv[0]) != 0) return 1;
      fflush(stdout);
      pid = fork();
      if (pid < 0) return 1;
      if (pid == 0) {
         bench_body();
         _exit(0);
      }
      if (waitpid(pid, &status, 0) != pid || status != 0) return 1;
      if (posix_spawn(&pid, argv[0], 0, 0, child_argv, environ) != 0
          || waitpid(pid, &status, 0) != pid || status != 0) return 1;
      CALLGRIND_DUMP_STATS_AT("clientreq.c::spawned");
      bench_body();
      CALLGRIND_DUMP_STATS_AT("clientreq.c::none");
   }
   else if (strcmp(mode, "exec-measuring") == 0) {
      CALLGRIND_START_INSTRUMENTATION;
      return run_child(argv[0]);
   }
   else if (strcmp(mode, "exec-stopped") == 0) {
      CALLGRIND_START_INSTRUMENTATION;
      bench_body();
      CALLGRIND_STOP_INSTRUMENTATION;
      return run_child(argv[0]);
   }
   else if (strcmp(mode, "exec-skip") == 0) {
      CALLGRIND_ADD_OBJ_SKIP("libc.so*");
      CALLGRIND_START_INSTRUMENTATION;
      return run_child(argv[0]);
   }
   else if (strcmp(mode, "child") == 0) {
      child_work(argv[0]);
   }
   else return 1;
   return 0;
}
