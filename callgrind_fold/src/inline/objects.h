/* --inline, objects.c: the ELF objects of the profile, opened for their
 * DWARF.
 *
 * Takes: an ob= name (object_of) and its file's path (open_object), with
 * the run's debug directories, compressed-DWARF images and prefetch
 * thread (context.h). Hands on: struct object, with its DWARF (libdw,
 * and the direct reader of dieread.h) and its units' address ranges,
 * sorted, each with its unit's state. The files above fill in the rest:
 * bias.c the load bias, indexcache.c the indexes saved in the cache,
 * lookup.c the units' indexes and the lookups' memory, apply.c the
 * previous address's chain and what could not be expanded. */
#ifndef CF_INLINE_OBJECTS_H
#define CF_INLINE_OBJECTS_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct inline_ctx;
struct scope_tree;
struct die_unit;
struct die_reader;
struct dwarf_image;
struct saved_fn;

struct cu_range {
    uint64_t lo, hi;
    uint32_t cu;
};

enum unit_state { UNIT_LAZY, UNIT_READY, UNIT_NONE };

struct cu_info {
    Dwarf_Off offset;         /* of the unit's header */
    enum unit_state state;    /* LAZY: `die` not read yet; NONE: no scopes */
    Dwarf_Die die;            /* the DIE with the scopes, when READY */
    struct scope_tree *index; /* NULL until an address falls in the unit */
    bool index_saved;         /* the index came from the cache */
    const struct die_unit *plain; /* for the direct reader, once tried */
    bool plain_tried;
    bool split_missing;       /* a skeleton whose split unit was not found */
    /* Its line table (.debug_line, through libdw), read when a writer
     * shows lines and an address first falls in the unit (srclines.c). */
    enum unit_state lines_state; /* LAZY: not read yet; NONE: none */
    Dwarf_Lines *lines;
    size_t nlines;
};

enum obj_state { OBJ_NEW, OBJ_OK, OBJ_FAILED };

struct object {
    uint32_t name;           /* interned ob= name */
    enum obj_state state;
    char why[200];
    Dwfl *dwfl;
    Dwfl_Module *mod;
    Dwarf *dbg;
    /* When the DWARF is compressed, dbg is our own (see open_dwarf). */
    Dwarf *own_dbg;
    struct dwarf_image *image;
    struct die_reader *reader; /* NULL: every DIE through libdw */
    Dwarf_Addr elf_bias, dwarf_bias;
    bool bias_known;
    uint64_t bias;           /* written address - ELF virtual address */
    struct cu_range *ranges;
    size_t nranges, ranges_cap;
    struct cu_info *cus;
    size_t ncus, cus_cap;
    /* Units by header offset, those of .debug_aranges until all units
     * were walked (see read_units); then freed. */
    struct hashmap unit_index;
    bool units_walked;
    /* Unit indexes kept in the cache (see saved_index), and whether this
     * run made others. */
    struct saved_fn *saved;
    size_t nsaved;
    struct hashmap saved_units; /* unit header offset -> its marker in saved */
    bool index_new;
    size_t last_range;       /* ranges index of the previous lookup */
    /* The function tree of the previous lookup and the part [lo, hi) of
     * its unit's index that led to it: addresses come in runs. */
    struct scope_tree *last_fn;
    uint64_t last_fn_lo, last_fn_hi;
    /* The interval of the previous lookup that found a scope, and its
     * chain: most addresses fall in the previous one's. */
    uint64_t run_lo, run_hi;
    uint32_t run_chain;
    uint32_t run_sites;      /* its call sites (srclines.h), NONE when not made */
    /* The line table row of the previous source line lookup:
     * [line_lo, line_hi) is at line_no of file line_file (srclines.c). */
    uint64_t line_lo, line_hi;
    uint32_t line_file, line_no;
    const char *line_path;   /* the path line_file was interned from */
    uint64_t lost_addrs, lost_cost;
    /* Addresses in skeleton units whose split unit was not found. */
    uint64_t split_lost_addrs, split_lost_cost;
};

/* The object named `name` (an ob= name id), created OBJ_NEW; *index is
 * its index in ix->objects. */
struct object *object_of(struct inline_ctx *ix, uint32_t name, uint32_t *index);
/* Opens the object at `path`: its ELF file, its DWARF (in it or in a
 * separate debug file, compressed or not) and its units' address
 * ranges. o->state says how it went. */
void open_object(struct inline_ctx *ix, struct object *o, const char *path);
/* Marks o as unusable, with the reason reported at the end. */
void fail_object(struct object *o, const char *fmt, const char *arg);
/* Reads the address ranges of the units .debug_aranges leaves out. */
void walk_units(struct object *o);
/* The DIE of the unit at die_offset that holds its scopes (a skeleton
 * unit's split unit when found); false for other kinds of units. */
bool unit_scopes(Dwarf *dbg, Dwarf_Off die_offset, Dwarf_Die *cudie, Dwarf_Die *scopes);

#endif
