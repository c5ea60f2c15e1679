/* DIEs of .debug_info read directly, for --inline's scope walks. Going
 * through libdw (dwarf_child, dwarf_siblingof, dwarf_getattrs with a
 * callback) decodes every attribute of every DIE through a generic
 * path; the walks only need the tag and a few attributes of subprograms
 * and inlined subroutines, and to step over everything else, which a
 * decoded abbreviation table does far more cheaply.
 *
 * Plain units are read: DWARF 2 to 5 compile units of the file itself,
 * host-endian, uncompressed sections, not a relocatable file; and the
 * split units of skeleton units when they are in the object's package
 * (<object>.dwp, as rustc -C split-debuginfo=packed and dwp write it),
 * which libdw before 0.191 does not read. Split units in .dwo files of
 * their own are left to libdw. Anything else (a form or range-list entry
 * it does not know, an attribute it cannot resolve, an offset out of
 * bounds) makes the call return false, and the caller does the same work
 * through libdw, which handles every case. So this module is a fast path,
 * never the only one.
 *
 * Two files: dieread.c (abbreviation tables, the reader, its units) and
 * diewalk.c (DIEs, range lists, names), sharing dieform.h.
 *
 * Takes: an object's Dwarf (its sections, as aranges.c reads them).
 * Hands on: DIEs, their scope attributes, range lists and names, to the
 * scope trees (scopes.c), the unit lookup (lookup.c) and the frame names
 * (names.c). */
#ifndef CF_DIEREAD_H
#define CF_DIEREAD_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

struct die_reader; /* one per Dwarf */
struct die_unit;   /* one per unit, owned by its reader */

/* A reader of dbg's sections, or NULL when they cannot be read directly. */
struct die_reader *die_reader_new(Dwarf *dbg);
void die_reader_free(struct die_reader *r);
/* Where the object's package of split units is looked for:
 * object_path + ".dwp" (opened when a skeleton unit is first read). */
void die_reader_package(struct die_reader *r, const char *object_path);

/* The unit whose header is at `offset` (read once): a plain unit, or
 * for a skeleton unit its split unit from the package; NULL otherwise. */
const struct die_unit *die_unit_at(struct die_reader *r, uint64_t offset);
/* The offset of the unit's own DIE. */
uint64_t die_unit_die(const struct die_unit *u);
/* The unit's DW_AT_language (0 when it has none). */
uint64_t die_unit_language(const struct die_unit *u);
/* The reader whose sections the unit's DIEs are in (the package's for a
 * split unit): DIE offsets are offsets there, not in the object's
 * .debug_info, so libdw cannot be asked about them. */
struct die_reader *die_unit_reader(const struct die_unit *u);
bool die_unit_split(const struct die_unit *u);

/* One DIE, or a null entry (tag 0) that ends a list of siblings. */
struct die {
    uint64_t offset;
    uint64_t attrs;    /* offset of its attributes (after the code) */
    unsigned tag;
    bool has_children;
    uint32_t abbrev;   /* index in the unit's abbreviation table */
};

bool die_at(const struct die_unit *u, uint64_t offset, struct die *d);

/* The attributes of a subprogram or inlined subroutine that a scope
 * tree needs. */
struct die_scope {
    uint64_t lo, hi;       /* low_pc, high_pc (an address; a size added) */
    uint64_t ranges;       /* DW_AT_ranges: offset of the list */
    uint64_t origin;       /* DW_AT_abstract_origin or _specification */
    uint64_t end;          /* offset past the attributes */
    uint64_t sibling;      /* DW_AT_sibling, or 0 */
    uint32_t call_file, call_line; /* an inlined subroutine's call site, 0: none */
    bool has_low, has_high, has_ranges, has_origin, has_name;
};

bool die_scope_attrs(const struct die_unit *u, const struct die *d, struct die_scope *s);

/* The offset after d and all of its children: its next sibling's. `s`
 * may be d's die_scope_attrs (saving a second pass), or NULL. */
bool die_next(const struct die_unit *u, const struct die *d, const struct die_scope *s,
              uint64_t *next);

/* The offset of d's first child (or of the null entry when it has none). */
bool die_children(const struct die_unit *u, const struct die *d, uint64_t *first);

/* Calls fn for each [lo, hi) with lo < hi of the range list at `offset`
 * (.debug_rnglists for DWARF 5 units, .debug_ranges before). False, with
 * some ranges perhaps given already, when the list cannot be read. */
typedef void die_range_fn(void *arg, uint64_t lo, uint64_t hi);
bool die_ranges(const struct die_unit *u, uint64_t offset, die_range_fn *fn, void *arg);

/* Names of the DIE at `offset` (in `u`, or any plain unit of r, u's
 * reader or the object's): the
 * first DW_AT_name, the first DW_AT_linkage_name or
 * DW_AT_MIPS_linkage_name, and where its DW_AT_abstract_origin or
 * DW_AT_specification leads (has_next). Name fields already set are
 * kept, so that a chain of calls gathers the first of each. */
struct die_names {
    const char *name, *linkage;
    uint64_t next;
    bool has_next;
};

bool die_names_at(struct die_reader *r, const struct die_unit *u, uint64_t offset,
                  struct die_names *n);

#endif
