/* Integer apportionment: split an integer total among items in proportion
 * to their weights so that the shares add up to the total exactly.
 *
 * Items are laid end to end on [0, sum); the item covering [before,
 * before + weight) receives floor(total*(before+weight)/sum) -
 * floor(total*before/sum). Every share is within 1 of its exact fraction,
 * a zero weight gets nothing, and the shares of all items sum to total
 * because the last prefix is total*sum/sum. Items can be handed out one
 * at a time, in any number of passes, as long as the order is fixed. */
#ifndef CF_APPORTION_H
#define CF_APPORTION_H

#include <stdint.h>

__extension__ typedef unsigned __int128 u128;

/* floor(total * prefix / sum) for prefix <= sum; 0 when sum is 0. */
uint64_t apportion_prefix(uint64_t total, u128 prefix, u128 sum);

/* Share of the item covering [before, before + weight) of [0, sum). */
static inline uint64_t apportion_share(uint64_t total, u128 before, u128 weight,
                                       u128 sum)
{
    return apportion_prefix(total, before + weight, sum) -
           apportion_prefix(total, before, sum);
}

#endif
