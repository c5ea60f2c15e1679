/* Program for the mid-stack start tests: instrumentation is switched on
   (CALLGRIND_START_INSTRUMENTATION) while the program is several frames
   deep, in various ways.  In every mode, the measured work() must show
   under its real caller only.

   midstack wrappers | cycles N | thread | longjmp | signal | thunk | deep N */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "../callgrind.h"

static volatile int sink;

__attribute__((noinline)) int leaf(int n)
{
   int i, s = 0;
   for (i = 0; i < n; i++)
      s += i * 3;
   return s;
}

__attribute__((noinline)) void work(void) { sink += leaf(500); }

/* START three frames deep, as a benchmark harness does */
__attribute__((noinline)) void wrapper_inner(void) { CALLGRIND_START_INSTRUMENTATION; sink++; }
__attribute__((noinline)) void wrapper_middle(void) { wrapper_inner(); sink++; }
__attribute__((noinline)) void wrapper_outer(void) { wrapper_middle(); sink++; }

__attribute__((noinline)) void run_benchmark(void)
{
   wrapper_outer();
   work();
}

/* a harness measuring many iterations */
__attribute__((noinline)) void run_cycles(int n)
{
   int i;
   for (i = 0; i < n; i++) {
      CALLGRIND_START_INSTRUMENTATION;
      work();
      CALLGRIND_STOP_INSTRUMENTATION;
   }
}

__attribute__((noinline)) void* worker(void* arg)
{
   (void)arg;
   wrapper_outer();
   work();
   return 0;
}

__attribute__((noinline)) void run_thread(void)
{
   pthread_t t;
   pthread_create(&t, 0, worker, 0);
   pthread_join(t, 0);
}

static jmp_buf jump_back;
__attribute__((noinline)) void jumper(void)
{
   CALLGRIND_START_INSTRUMENTATION;
   longjmp(jump_back, 1);
}
__attribute__((noinline)) void jumper_outer(void) { jumper(); sink++; }

__attribute__((noinline)) void run_longjmp(void)
{
   if (setjmp(jump_back) == 0)
      jumper_outer();
   work();
}

__attribute__((noinline)) void handler(int sig) { sink += leaf(sig); }

__attribute__((noinline)) void run_signal(void)
{
   signal(SIGUSR1, handler);
   wrapper_outer();
   raise(SIGUSR1);
   work();
}

/* An anonymous executable page between the caller and the code that
   starts instrumentation, like a JIT trampoline: it keeps a frame pointer
   chain, calls the function in rdi and returns. */
__attribute__((noinline)) void run_thunk(void)
{
   static const unsigned char code[] = {
      0x55,                   /* push %rbp        */
      0x48, 0x89, 0xe5,       /* mov  %rsp,%rbp   */
      0xff, 0xd7,             /* call *%rdi       */
      0x5d,                   /* pop  %rbp        */
      0xc3                    /* ret              */
   };
   void (*thunk)(void (*)(void));
   void* page = mmap(0, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (page == MAP_FAILED)
      abort();
   memcpy(page, code, sizeof code);
   thunk = (void (*)(void (*)(void)))page;
   thunk(wrapper_inner);
   work();
}

/* START at the bottom of a deep recursion: tens of thousands of frames */
__attribute__((noinline)) int deep(int n)
{
   if (n == 0) {
      CALLGRIND_START_INSTRUMENTATION;
      return 1;
   }
   return deep(n - 1) + 1;
}

__attribute__((noinline)) void run_deep(int n)
{
   sink += deep(n);
   work();
}

int main(int argc, char** argv)
{
   const char* mode = argc > 1 ? argv[1] : "wrappers";

   if (strcmp(mode, "wrappers") == 0) run_benchmark();
   else if (strcmp(mode, "cycles") == 0) run_cycles(argc > 2 ? atoi(argv[2]) : 1000);
   else if (strcmp(mode, "thread") == 0) run_thread();
   else if (strcmp(mode, "longjmp") == 0) run_longjmp();
   else if (strcmp(mode, "signal") == 0) run_signal();
   else if (strcmp(mode, "thunk") == 0) run_thunk();
   else if (strcmp(mode, "deep") == 0) run_deep(argc > 2 ? atoi(argv[2]) : 50000);
   else return 1;
   return 0;
}
