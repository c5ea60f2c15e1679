/* The inline/ folder's own interface (other folders use inline.h): the
 * structures its files share, one struct inline_ctx per run holding one
 * struct object per ELF object, each with its units and their scope
 * trees, and the functions one file of the folder provides to another,
 * grouped by the file that defines them. */
#ifndef CF_INLINE_INTERNAL_H
#define CF_INLINE_INTERNAL_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dieread.h"
#include "inline.h"
#include "stacks/stacks.h"
#include "util/util.h"

#define NONE UINT32_MAX
#define MAX_SCOPE_DEPTH 512
#define BIAS_SAMPLES 64

/* ---- DWARF scope trees ----------------------------------------------------- */

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
    uint64_t lost_addrs, lost_cost;
};

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

/* ---- objects.c: finding and opening objects and their DWARF ---- */

/* The object named `name` (an ob= name id), created OBJ_NEW; *index is
 * its index in ix->objects. */
struct object *object_of(struct inline_ctx *ix, uint32_t name, uint32_t *index);
/* Opens the object at `path`: its ELF file, its DWARF (in it or in a
 * separate debug file, compressed or not), its units' address ranges and
 * the saved unit indexes. o->state says how it went. */
void open_object(struct inline_ctx *ix, struct object *o, const char *path);
/* Marks o as unusable, with the reason reported at the end. */
void fail_object(struct object *o, const char *fmt, const char *arg);
/* Reads the address ranges of the units .debug_aranges leaves out. */
void walk_units(struct object *o);
/* The DIE of the unit at die_offset that holds its scopes (a skeleton
 * unit's split unit when found); false for other kinds of units. */
bool unit_scopes(Dwarf *dbg, Dwarf_Off die_offset, Dwarf_Die *cudie, Dwarf_Die *scopes);

/* ---- bias.c: the load bias ---- */

struct sample {
    const char *name;
    size_t len;
    uint64_t addr;
};

/* Finds o->bias from the first addresses of up to BIAS_SAMPLES named
 * functions, or fails the object. */
void find_bias(struct inline_ctx *ix, struct object *o, const struct sample *s, size_t n);

/* ---- scopes.c: scope trees, and the tree of the function at an address ---- */

uint32_t new_scope(struct scope_tree *t, const Dwarf_Die *name_die, uint32_t parent,
                   bool subprogram);
void free_tree(struct scope_tree *t);
/* Innermost scope whose code holds pc, or 0 (the unit); t->last is then
 * the index of its interval in t->flat. */
uint32_t scope_at(struct scope_tree *t, uint64_t pc);
/* The scope tree of the function holding pc (a DWARF address), built
 * when first needed; NULL when no function of the object holds it. */
struct scope_tree *function_tree(struct inline_ctx *ix, struct object *o, uint64_t pc);

/* ---- names.c: frame names and chains of inlined frames ---- */

/* A C++ name demangled (malloc'ed), or NULL when it is not mangled or
 * no demangler is at hand. */
char *demangle(const char *mangled);
/* Unloads the demangler (inline_free). */
void demangle_unload(void);
/* The chain of inlined frames of scope `node` of t, interned in
 * ix->chains. */
uint32_t chain_of(struct inline_ctx *ix, struct object *o, struct scope_tree *t,
                  uint32_t node, struct strtab *names);

/* ---- indexcache.c: unit indexes kept in the cache directory ---- */

void load_index(struct inline_ctx *ix, struct object *o);
void save_index(struct inline_ctx *ix, struct object *o);
/* The index of the unit whose marker is o->saved[at]. */
struct scope_tree *saved_index(struct object *o, uint32_t at);

#endif
