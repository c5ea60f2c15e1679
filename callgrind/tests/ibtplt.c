/* Program for the .plt.sec test: built with -fcf-protection=full and
   -z ibtplt (by build-ibtplt), its calls to shared libraries go through
   .plt.sec stubs, which --skip-plt=yes must hide like .plt ones. */
#include <stdlib.h>
#include <unistd.h>

int ibt_lib_function(int x);

int main(int argc, char** argv)
{
   int r = ibt_lib_function(argc);
   r += atoi(argc > 1 ? argv[1] : "7");
   r += (int)getpid() & 1;
   return r == 12345;
}
