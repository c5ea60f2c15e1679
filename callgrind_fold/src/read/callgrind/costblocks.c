/* Whether the one-event reader's 64-byte blocks run (costblocks.h). */
#include "costblocks.h"
#include "read/tiers.h"

#include <stdlib.h>
#include <string.h>

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

bool read_cost_blocks(void)
{
    const char *blocks = getenv("CALLGRIND_FOLD_COST_BLOCKS");
    return cost_blocks_available() && !read_exact() && !(blocks && strcmp(blocks, "0") == 0);
}
