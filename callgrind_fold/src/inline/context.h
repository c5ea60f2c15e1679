/* --inline: the run's state, struct inline_ctx, made and freed by
 * inline.c; every file of the folder works in it. Types only, no
 * functions: what a file does with the state is declared in that file's
 * own header.
 *
 * Takes: from inline.c, the run's settings (debug directories, cache
 * directory, which DIE reader). Hands on: to the files below, the objects opened
 * (objects.h), the frames and chains interned so far (names.h), and the
 * scratch buffers they share. */
#ifndef CF_INLINE_CONTEXT_H
#define CF_INLINE_CONTEXT_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h" /* NONE */

struct object;
struct scope_entry;
struct dwarf_images;
struct prefetch;

struct inline_ctx {
    char *debug_path;        /* for dwfl_standard_find_debuginfo */
    Dwfl_Callbacks callbacks;
    struct object *objects;
    size_t nobjects, objects_cap;
    struct hashmap object_index;   /* ob= name id -> object */
    struct hashmap lost;           /* (object, address) of unusable objects, counted once */
    struct hashmap frames;         /* DIE with the name (its address) -> frame */
    struct strtab chains;          /* chain id -> frame ids, as bytes */
    uint32_t empty_chain;
    /* With lines (srclines.h): call sites of chains, and those of the empty chain. */
    struct strtab sites;
    uint32_t empty_sites;
    /* One part. */
    struct hashmap child_index;    /* (node, frame) -> inlined child node */
    /* Scratch. */
    uint32_t *chain;
    size_t chain_len, chain_cap;
    struct scope_entry *pending;
    size_t npending, pending_cap;
    struct buf text, frames_buf;
    bool mangled_names;            /* callgrind ran with --demangle=no */
    struct dwarf_images *images;   /* compressed DWARF (dwarfimage.h) */
    struct prefetch *prefetch;     /* the same, made while the profile is read */
    struct hashmap noted;          /* ob= names given to inline_note_object */
    char *cache_dir;               /* --inline-cache, or NULL */
    uint64_t folded_inputs;
    /* CALLGRIND_FOLD_DIE_READER, for tests: "libdw" reads every DIE
     * through libdw, "direct" only through dieread.h (no fallback: what
     * it cannot read shows as no inlined frames); unset, both. */
    bool libdw_only, direct_only;
    bool finished;                 /* inline_finish was called */
};

#define DEBUG_PATH_PREFIX ":.debug:" /* of libdwfl's search path, see inline_new */

/* The search path's global directories alone (for debugfile.c). */
static inline const char *global_debug_dirs(const struct inline_ctx *ix)
{
    return ix->debug_path + sizeof DEBUG_PATH_PREFIX - 1;
}

#endif
