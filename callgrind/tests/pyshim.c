/* A ctypes shim for the CPython tests: lets a Python program hide its
   runtime with CALLGRIND_ADD_OBJ_SKIP and measure a region, as benchmark
   harnesses do. */
#include "../callgrind.h"

int shim_add_obj_skip(const char* pattern) { return CALLGRIND_ADD_OBJ_SKIP(pattern); }
void shim_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void shim_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
