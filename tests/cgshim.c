/* What pytest-codspeed's instrument hooks do, for the Python harness
 * tests: tests/codspeed_harness.py loads it with ctypes. */
#include <valgrind/callgrind.h>

int cg_add_obj_skip(const char *path) { return CALLGRIND_ADD_OBJ_SKIP(path); }
void cg_start_benchmark(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void cg_stop_benchmark(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void cg_executed_benchmark(const char *uri) { CALLGRIND_DUMP_STATS_AT(uri); }
