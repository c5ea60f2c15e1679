/* --inline, names.c: frame names and chains of inlined frames.
 *
 * Takes: a scope of a function's tree (scopes.h) in an opened object
 * (objects.h), named by its DIE through libdw or the direct reader.
 * Hands on: the scope's chain of inlined frames ("NAME [inlined]" from
 * the function down to the scope), interned in ix->chains as the frames'
 * ids in `names`, for apply.c to put into the call graph. */
#ifndef CF_INLINE_NAMES_H
#define CF_INLINE_NAMES_H

#include <stdint.h>

#include "util/util.h"

struct inline_ctx;
struct object;
struct scope_tree;

/* The chain of inlined frames of scope `node` of t, interned in
 * ix->chains. */
uint32_t chain_of(struct inline_ctx *ix, struct object *o, struct scope_tree *t,
                  uint32_t node, struct strtab *names);

#endif
