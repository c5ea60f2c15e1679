/* Which of the readers' fast tiers may run.  Each fast tier (lex.h's
 * in-place scanners, scan.h's bit masks, costblocks.h's AVX2 blocks, the
 * folded tree's treescan.h) only ever takes a line the exact scanners
 * would read the same; CALLGRIND_FOLD_EXACT=1 turns them all off, so that
 * tests can compare both ways.  CALLGRIND_FOLD_COST_BLOCKS=0 turns off
 * the AVX2 blocks alone (callgrind/costblocks.h, read_cost_blocks()). */
#ifndef CF_READ_TIERS_H
#define CF_READ_TIERS_H

#include <stdbool.h>

/* No fast tier: CALLGRIND_FOLD_EXACT=1, or read_force_exact(). */
bool read_exact(void);
/* For tests that fold an input both ways in one process (the fuzz
 * target): 1 exact, 0 fast, -1 as the environment says. */
void read_force_exact(int exact);

#endif
