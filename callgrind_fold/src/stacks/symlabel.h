/* stacks/, symlabel.c: C++ operator names, shared by the labels of C++
 * and Rust names (symlabel.c) and --frame=short-templates (shortname.c).
 *
 * Takes: a demangled name and a position in it. Hands on: the operator
 * that starts there, if one does. */
#ifndef CF_STACKS_SYMLABEL_H
#define CF_STACKS_SYMLABEL_H

#include <stddef.h>
#include <stdint.h>


#include "util/util.h"

#define NO_OPERATOR SIZE_MAX

/* When the keyword "operator" (not part of a longer name) starts at *i:
 * appends it and its operator's token (longest first, new and delete
 * included) to out (when not NULL), moves *i past them and returns the
 * token's length, 0 for a conversion ("operator bool"); else returns
 * NO_OPERATOR. */
size_t cxx_operator_take(const char *s, size_t n, size_t *i, struct buf *out);

#endif
