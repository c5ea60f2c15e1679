/* --inline, srclines.c: source lines from DWARF, for the writers that
 * show lines (-f pprof).
 *
 * Takes: an opened object (objects.h), a DWARF address of its code, and
 * the scope of a function's tree (scopes.h) that holds the address.
 * Hands on: the address's file and line, from its unit's .debug_line
 * (read through libdw once per unit), and the scope's call sites (where
 * each inlined frame down to it was inlined into the frame above:
 * DW_AT_call_file and DW_AT_call_line), to apply.c, which puts both in
 * the part's line table. */
#ifndef CF_INLINE_SRCLINES_H
#define CF_INLINE_SRCLINES_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

struct inline_ctx;
struct object;
struct scope_tree;

/* The source line of the code at pc: its file (the path interned in
 * `names`) and line, as .debug_line's row at pc gives them (the last row
 * at or below pc, as Valgrind reads the table). False when the unit has
 * no line table, or no row holds pc. */
bool dwarf_line_at(struct object *o, uint64_t pc, struct strtab *names, uint32_t *file,
                 uint32_t *line);

/* One call site of a chain of inlined frames (sites_of): where frame i of
 * the chain was inlined into the frame above it; file NONE when unknown. */
struct inline_site {
    uint32_t file, line;
};

/* The call sites of scope `node` of t, interned in ix->sites (memoized in
 * the node): the id of its chain of inlined frames (names.h), then a
 * struct inline_site per frame of the chain, outermost first. */
uint32_t sites_of(struct inline_ctx *ix, struct object *o, struct scope_tree *t, uint32_t node,
                  struct strtab *names);

/* The chain of inlined frames of `sites`, and the site of its frame i. */
uint32_t sites_chain(const struct inline_ctx *ix, uint32_t sites);
struct inline_site sites_at(const struct inline_ctx *ix, uint32_t sites, size_t i);

#endif
