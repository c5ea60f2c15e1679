/* --inline, indexcache.c: units' indexes of functions kept in the cache
 * directory (--inline-cache), by build-id.
 *
 * Takes: an object just opened (objects.h), whose saved indexes are read
 * (load_index), and at the end of the run the indexes built for its
 * units (save_index). Hands on: the index of a unit that was saved
 * (saved_index), a tree like scopes.h's, to the address lookup
 * (lookup.h). */
#ifndef CF_INLINE_INDEXCACHE_H
#define CF_INLINE_INDEXCACHE_H

#include <stdint.h>

struct inline_ctx;
struct object;
struct scope_tree;

/* Reads the object's saved indexes, if the cache has them for its
 * build-id and DWARF. */
void load_index(struct inline_ctx *ix, struct object *o);
/* Writes the object's indexes to the cache if this run made new ones. */
void save_index(struct inline_ctx *ix, struct object *o);
/* The index of the unit whose marker is o->saved[at]. */
struct scope_tree *saved_index(struct object *o, uint32_t at);

#endif
