/* Whether the one-event reader's 64-byte blocks can run (costblocks.h). */
#include "costblocks.h"

bool cost_blocks_available(void)
{
#if COST_BLOCKS
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#else
    return false;
#endif
}
