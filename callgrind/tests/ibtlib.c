/* The shared library of the .plt.sec test (ibtplt.c). */
int ibt_lib_function(int x) { return x * 2 + 1; }
