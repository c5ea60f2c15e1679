/* --inline, lookup.c: the function at an address.
 *
 * Takes: an opened object (objects.h) and a DWARF address. Hands on: the
 * scope tree of the function that holds it (scopes.h), for scope_at and
 * the chains (names.h). On the way it finds the unit by its address
 * ranges (walking the units .debug_aranges leaves out when needed), and
 * the unit's index of functions: saved in the cache (indexcache.h), else
 * built by the direct reader, else through libdw. */
#ifndef CF_INLINE_LOOKUP_H
#define CF_INLINE_LOOKUP_H

#include <stdbool.h>
#include <stdint.h>

struct inline_ctx;
struct object;
struct scope_tree;

/* The scope tree of the function holding pc (a DWARF address), built
 * when first needed; NULL when no function of the object holds it, with
 * *split_missing set when pc is in a skeleton unit whose split unit
 * (a .dwo file, or in the object's .dwp package) was not found. */
/* The unit holding pc (a DWARF address): its index in o->cus, or NONE. */
uint32_t unit_at(struct object *o, uint64_t pc);

struct scope_tree *function_tree(struct inline_ctx *ix, struct object *o, uint64_t pc,
                                 bool *split_missing);

#endif
