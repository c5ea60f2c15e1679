/* Name ids as the callgrind.out and folded tree readers keep them: an
 * array index below DENSE_ID_LIMIT (writers number them 1, 2, ...), a
 * hash map above, so that a hostile id costs no memory; NO_NAME where
 * none is defined. */
#ifndef CF_READ_IDS_H
#define CF_READ_IDS_H

#include <stdint.h>

#define NO_NAME UINT32_MAX
#define DENSE_ID_LIMIT ((uint64_t)1 << 22)

#endif
