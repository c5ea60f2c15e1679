/* Program for the obj-skip tests: uses libclobjskip.so, which starts
   instrumentation from inside itself and calls back into the program.
   With the library skipped, none of its functions may appear; its costs
   go to the nearest caller in the program.

   objskip [runtime|recurse]: with "runtime", the library is first used
   unskipped, a dump is taken, and then it is hidden with
   CALLGRIND_ADD_OBJ_SKIP: functions seen before the request must be
   hidden too.  With "recurse", instrumentation starts at the bottom of a
   recursion inside the library instead. */
#include <string.h>
#include "../callgrind.h"

extern void skiplib_start_then_work(void);
extern int skiplib_call_back(int (*cb)(int), int n);
extern int skiplib_recurse(int depth);

static volatile int sink;

__attribute__((noinline)) int leaf(int n)
{
   int i, s = 0;
   for (i = 0; i < n; i++)
      s += i;
   return s;
}

__attribute__((noinline)) int callback(int n) { return leaf(n); }

__attribute__((noinline)) void uses_lib(void)
{
   sink += skiplib_call_back(callback, 100);
}

__attribute__((noinline)) void measured(void) { sink += leaf(1000); }

int main(int argc, char** argv)
{
   if (argc > 1 && strcmp(argv[1], "runtime") == 0) {
      uses_lib();                 /* library functions seen, not skipped */
      CALLGRIND_DUMP_STATS;
      CALLGRIND_ADD_OBJ_SKIP("libclobjskip.so");
   }
   if (argc > 1 && strcmp(argv[1], "recurse") == 0)
      sink += skiplib_recurse(20);
   else
      skiplib_start_then_work();  /* starts instrumentation inside the library */
   uses_lib();                    /* the library calls back into the program */
   measured();
   return 0;
}
