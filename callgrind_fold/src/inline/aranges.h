/* .debug_aranges and .debug_info's unit headers read directly: the
 * address ranges of each compilation unit, for finding the unit of an
 * address. libdw's dwarf_getaranges
 * does the same but also builds a per-range index of unit DIEs, which
 * costs several times more (for libc's 4000 ranges, 2 MB and 7 million
 * instructions) than the few units a profile touches need.
 *
 * Takes: a Dwarf's .debug_aranges and .debug_info sections. Hands on:
 * the units' address ranges and headers, to objects.c (and the headers
 * to dieread.c, the size of .debug_info to indexcache.c). */
#ifndef CF_ARANGES_H
#define CF_ARANGES_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arange {
    uint64_t lo, hi;        /* [lo, hi) */
    uint64_t unit_offset;   /* of the unit's header in .debug_info */
};

/* A unit header of .debug_info. */
struct unit_header {
    uint64_t offset;      /* of the header */
    uint64_t die_offset;  /* of the unit's DIE */
    uint16_t version;
    uint8_t unit_type;    /* DW_UT_*; DW_UT_compile for versions before 5 */
};

/* The non-empty ranges of `dbg`'s .debug_aranges into a malloc'ed array.
 * False when there is no such section, or it is compressed, foreign-
 * endian or malformed: then libdw's dwarf_getaranges is the way. */
bool aranges_read(Dwarf *dbg, struct arange **out, size_t *count);

/* Every unit header of `dbg`'s .debug_info, read directly (libdw's
 * dwarf_get_units also makes a Dwarf_CU of each, which for libc's 2000
 * units costs milliseconds). False as for aranges_read. */
bool units_read(Dwarf *dbg, struct unit_header **out, size_t *count);

/* The size of `dbg`'s .debug_info (uncompressed), or 0 when it cannot
 * be read as aranges_read reads sections. */
size_t debug_info_size(Dwarf *dbg);

#endif
