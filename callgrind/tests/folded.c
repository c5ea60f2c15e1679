/* Program for the --dump-folded tests: call structures whose exact call
   paths differ from what a call graph suggests.

   folded chain | diamond | recursion | dumps | zero | threads | loop
   folded harness | fork | signal
   folded control CALLGRIND_CONTROL DUMPFILE LOGFILE */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../callgrind.h"

static volatile int sink;

__attribute__((noinline)) int helper(int n)
{
   int i, s = 0;
   for (i = 0; i < n; i++)
      s += i * 7;
   return s;
}

/* chain: main > chain_a > chain_b > chain_c */
__attribute__((noinline)) void chain_c(void) { sink += helper(300); }
__attribute__((noinline)) void chain_b(void) { chain_c(); }
__attribute__((noinline)) void chain_a(void) { chain_b(); }

/* diamond: shared() calls the expensive helper only for left() */
__attribute__((noinline)) void shared(int expensive)
{
   sink += expensive ? helper(1000) : 1;
}
__attribute__((noinline)) void left(void) { shared(1); }
__attribute__((noinline)) void right(void) { shared(0); }

__attribute__((noinline)) int recurse(int depth)
{
   return depth == 0 ? helper(50) : recurse(depth - 1) + 1;
}

__attribute__((noinline)) void phase_one(void) { sink += helper(100); }
__attribute__((noinline)) void phase_two(void) { sink += helper(200); }

__attribute__((noinline)) void* thread_a(void* arg) { (void)arg; sink += helper(400); return 0; }
__attribute__((noinline)) void* thread_b(void* arg) { (void)arg; chain_a(); return 0; }

/* control: on failure, what callgrind_control said */
static int control_failed(const char* why, const char* log)
{
   char line[256];
   FILE* f = fopen(log, "r");
   fprintf(stderr, "callgrind_control: %s\n", why);
   while (f && fgets(line, sizeof line, f)) fputs(line, stderr);
   if (f) fclose(f);
   return 0;
}

/* control: run callgrind_control to dump this process (its output to
   <log>), and work until it is done: the dump is written while the program
   is stopped, and before callgrind_control gets its answer.  At most a
   minute.  The work here varies with timing; main's and that of the
   phases before and after does not. */
__attribute__((noinline)) int wait_for_dump(const char* control,
                                            const char* file,
                                            const char* log)
{
   char pid[16];
   time_t start = time(0);
   int status;
   pid_t child;

   snprintf(pid, sizeof pid, "%d", (int)getpid());
   fflush(stdout);
   child = fork();
   if (child < 0) return 0;
   if (child == 0) {
      if (!freopen(log, "w", stdout) || dup2(1, 2) < 0) _exit(126);
      execlp("perl", "perl", control, "-d", pid, (char*)0);
      _exit(127);
   }
   while (waitpid(child, &status, WNOHANG) != child) {
      if (time(0) - start > 60) {
         kill(child, SIGKILL);
         waitpid(child, &status, 0);
         return control_failed("no answer in a minute", log);
      }
      sink += helper(1000);
   }
   if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      return control_failed("failed", log);
   if (access(file, F_OK) != 0)
      return control_failed("no dump file", log);
   return 1;
}

/* signal: a handler run deep in a call path, calling functions of its
   own and dumping in the middle; the interrupted path and its callers
   get the handler's costs, as they would those of a call. */
__attribute__((noinline)) void on_signal(int sig)
{
   (void)sig;
   phase_one();
   CALLGRIND_DUMP_STATS;
   left();
}
__attribute__((noinline)) void interrupted(void)
{
   sink += helper(20);
   raise(SIGUSR1);
   sink += helper(30);
}

/* A benchmark as harnesses run one: zero, start, the body in a root
   frame, stop, a dump named after the benchmark. */
__attribute__((noinline)) void bench_root(int which)
{
   if (which == 0) chain_a();
   else if (which == 1) { left(); right(); }
   else sink += recurse(3);
}

static void run_bench(int which, const char* name)
{
   CALLGRIND_ZERO_STATS;
   CALLGRIND_START_INSTRUMENTATION;
   bench_root(which);
   CALLGRIND_STOP_INSTRUMENTATION;
   CALLGRIND_DUMP_STATS_AT(name);
}

int main(int argc, char** argv)
{
   const char* mode = argc > 1 ? argv[1] : "chain";

   if (strcmp(mode, "chain") == 0) chain_a();
   else if (strcmp(mode, "diamond") == 0) {
      left();
      right();
      right();
   }
   else if (strcmp(mode, "recursion") == 0) sink += recurse(4);
   else if (strcmp(mode, "dumps") == 0) {
      phase_one();
      CALLGRIND_DUMP_STATS;
      phase_two();
      CALLGRIND_DUMP_STATS;
      chain_a();
   }
   else if (strcmp(mode, "zero") == 0) {
      phase_one();
      CALLGRIND_ZERO_STATS;
      phase_two();
   }
   else if (strcmp(mode, "threads") == 0) {
      pthread_t a, b;
      pthread_create(&a, 0, thread_a, 0);
      pthread_join(a, 0);
      pthread_create(&b, 0, thread_b, 0);
      pthread_join(b, 0);
   }
   else if (strcmp(mode, "loop") == 0) {
      int i;
      for (i = 0; i < 2000; i++) {
         phase_one();
         chain_a();
      }
   }
   else if (strcmp(mode, "harness") == 0) {
      run_bench(0, "folded.c::chain");
      run_bench(1, "folded.c::diamond");
      phase_one();   /* not measured */
      run_bench(2, "folded.c::recursion");
   }
   else if (strcmp(mode, "fork") == 0) {
      /* both processes inherit the costs of left() */
      pid_t child;
      int status;
      left();
      fflush(stdout);
      child = fork();
      if (child < 0) return 1;
      if (child == 0) {
         chain_a();
         CALLGRIND_DUMP_STATS;
         phase_one();
         exit(0);
      }
      if (waitpid(child, &status, 0) != child || status != 0) return 1;
      phase_two();
   }
   else if (strcmp(mode, "control") == 0 && argc == 5) {
      phase_one();
      if (!wait_for_dump(argv[2], argv[3], argv[4])) return 1;
      phase_two();
   }
   else if (strcmp(mode, "signal") == 0) {
      signal(SIGUSR1, on_signal);
      phase_two();
      interrupted();
      chain_a();
   }
   else return 1;
   return 0;
}
