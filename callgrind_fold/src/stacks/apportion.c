/* Integer apportionment whose shares sum exactly (apportion.h). */
#include "apportion.h"

uint64_t apportion_prefix(uint64_t total, u128 prefix, u128 sum)
{
    if (sum == 0)
        return 0;
    if (prefix >= sum)
        return total;
    /* total * prefix must fit in 128 bits. Dropping the same low bits of
     * prefix and sum keeps the result monotonic in prefix and keeps the
     * end point exact (prefix == sum was handled above), so shares still
     * sum to total; only the ratio loses precision beyond 2^-63. */
    while (sum >> 64) {
        prefix >>= 1;
        sum >>= 1;
    }
    if (sum == 0)
        return 0;
    /* a 64-bit division where the product fits, as it mostly does: the
     * 128-bit one is a library call many times slower */
    u128 product = (u128)total * prefix;
    if (!(product >> 64))
        return (uint64_t)product / (uint64_t)sum;
    return (uint64_t)(product / sum);
}
