/* --inline, scopes.c: scope trees, and the scope at an address in one.
 *
 * Takes: a unit's or a function's DIE, read through libdw (build_tree)
 * or the direct reader (plain_tree, dieread.h). Hands on: the tree
 * flattened into sorted disjoint intervals, each naming its innermost
 * scope (scope_at): a unit's index of its functions for the address
 * lookup (lookup.h) and the cache (indexcache.h), a function's tree for
 * the chains of inlined frames (names.h). */
#ifndef CF_INLINE_SCOPES_H
#define CF_INLINE_SCOPES_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct inline_ctx;
struct die_unit;

struct scope_entry {
    uint64_t lo, hi;   /* [lo, hi) in DWARF addresses */
    uint32_t node;
};

/* A subprogram or inlined-subroutine scope with code. */
struct scope_node {
    /* Where its name is looked up (integrating); in a unit's index, the
     * function's own DIE. */
    Dwarf_Die name_die;
    uint32_t parent;
    uint32_t first, count; /* its children's entries, sorted by lo */
    uint32_t chain;        /* interned chain of inlined frames, NONE until needed */
    bool subprogram;
    struct scope_tree *inner; /* in a unit's index: the function's tree, once needed */
    /* In a tree the direct reader built, or an index from the cache: the
     * offset of the DIE name_die would be (name_die is not set). */
    Dwarf_Off die_offset;
    /* An inlined subroutine's DW_AT_call_file (an index in its unit's
     * file table) and DW_AT_call_line: where in its parent it was
     * inlined; 0 when not given. */
    uint32_t call_file, call_line;
    uint32_t sites;        /* interned call sites down to it (srclines.h), NONE until needed */
};

/* The scopes of one function, or a unit's index of its functions (their
 * outermost scopes only). While it is built, entries hold each node's
 * children; then the tree is flattened into `flat`: sorted, disjoint
 * intervals, each with the innermost scope that holds it. */
struct scope_tree {
    bool index;            /* a unit's index */
    bool c_unit;           /* of a C unit (see may_hold_scopes) */
    struct scope_node *nodes;
    size_t nnodes, nodes_cap;
    struct scope_entry *entries;
    size_t nentries, entries_cap;
    struct scope_entry *flat;
    size_t nflat, flat_cap;
    size_t last;           /* flat index of the previous lookup */
    const struct die_unit *unit; /* built by the direct reader (dieread.h) */
};

uint32_t new_scope(struct scope_tree *t, const Dwarf_Die *name_die, uint32_t parent,
                   bool subprogram);
void free_tree(struct scope_tree *t);
/* A unit's index (of the unit's DIE), or a function's tree (of the
 * function's DIE), through libdw; node 0 stands for the unit either way. */
struct scope_tree *build_tree(struct inline_ctx *ix, Dwarf_Die *die, bool index, bool c_unit);
/* build_tree() by the direct reader, of the DIE at die_offset in u: NULL
 * when it cannot read the DIEs. */
struct scope_tree *plain_tree(struct inline_ctx *ix, const struct die_unit *u,
                              uint64_t die_offset, bool index, bool c_unit);
/* Innermost scope whose code holds pc, or 0 (the unit); t->last is then
 * the index of its interval in t->flat. */
uint32_t scope_at(struct scope_tree *t, uint64_t pc);

#endif
