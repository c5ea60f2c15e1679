/* The readers' fast tiers on or off (tiers.h): takes the environment
 * (or a test's choice), hands on whether the tiers may run. */
#include "tiers.h"

#include <stdlib.h>
#include <string.h>

static int forced_exact = -1;

void read_force_exact(int exact)
{
    forced_exact = exact;
}

/* Set and not "0": on. */
static bool switch_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

bool read_exact(void)
{
    return forced_exact >= 0 ? forced_exact != 0 : switch_on("CALLGRIND_FOLD_EXACT");
}
