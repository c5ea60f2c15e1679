/* Program for the --dump-folded tests: call structures whose exact call
   paths differ from what a call graph suggests.

   folded chain | diamond | recursion | dumps | zero | threads */
#include <pthread.h>
#include <string.h>
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
   else return 1;
   return 0;
}
