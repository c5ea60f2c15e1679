/* --inline: inlined-function frames from DWARF (libdw). See inline.h for
 * how the costs enter the call graph, README.md for the user's view.
 *
 * Addresses. Callgrind writes instruction addresses as the object's ELF
 * virtual addresses (it subtracts the load bias it knows from Valgrind's
 * debug info), so the bias to undo is normally 0. It is not assumed: per
 * object, the first address seen in up to 64 functions is checked against
 * the ELF symbol table (the symbol at the address must be the function
 * callgrind named); if most do not match, the bias is taken from the
 * symbols themselves (the most common difference between a function's
 * lowest address and its symbol's value, then checked the same way). An
 * object whose addresses match no bias is not expanded.
 *
 * Lookup. Each object is opened once (libdwfl, which finds separate debug
 * files by build-id and .gnu_debuglink like gdb; compressed DWARF is
 * opened by open_dwarf instead, through dwarfimage.c, its image mostly
 * made on the prefetch thread while the profile is read: prefetch.c).
 * DIEs are read by dieread.c where it can, else by libdw. Its compilation
 * units' address ranges are read once (aranges.c); a unit's functions are
 * indexed the first time an address falls in the unit, and a function's
 * subprogram and inlined-subroutine scopes the first time an address
 * falls in the function, in one walk, flattened into sorted disjoint
 * intervals each naming its innermost scope, so a lookup is one binary
 * search, mostly skipped as addresses come in ascending runs. Each
 * scope's chain and each name are made once. */
#include "inline.h"
#include "aranges.h"
#include "cachedir.h"
#include "debugfile.h"
#include "dieread.h"
#include "dwarfimage.h"
#include "stacks/stacks.h"
#include "util/util.h"
#include "prefetch.h"

#include <dlfcn.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NONE UINT32_MAX
#define MAX_SCOPE_DEPTH 512
#define BIAS_SAMPLES 64

/* ---- records of one part ------------------------------------------------ */

struct self_rec {
    uint32_t node;
    uint64_t addr, cost;
};

struct call_rec {
    uint32_t node, callee;
    uint64_t addr, cost, calls;
};

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
    struct self_rec *selfs;
    size_t nselfs, selfs_cap;
    struct call_rec *calls;
    size_t ncalls, calls_cap;
    struct hashmap call_index;     /* (node << 32 | callee, address) -> call record */
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

/* ---- C++ demangling ---------------------------------------------------------- */

/* Callgrind shows C++ names demangled by Valgrind's copy of libiberty's
 * demangler; libstdc++'s __cxa_demangle is the same code. It is looked up
 * at run time so that callgrind_fold does not depend on libstdc++. */
typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
static void *demangle_lib;
static demangle_fn demangler;
static bool demangler_tried;

static char *demangle(const char *mangled)
{
    if (strncmp(mangled, "_Z", 2) != 0)
        return NULL; /* not mangled: no need to load libstdc++ */
    if (!demangler_tried) {
        demangler_tried = true;
        demangle_lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (demangle_lib) {
            void *sym = dlsym(demangle_lib, "__cxa_demangle");
            memcpy(&demangler, &sym, sizeof demangler);
        }
    }
    if (!demangler)
        return NULL;
    int status = -1;
    char *s = demangler(mangled, NULL, NULL, &status);
    if (status != 0) {
        free(s);
        return NULL;
    }
    return s;
}

static void load_index(struct inline_ctx *ix, struct object *o);
static void save_index(struct inline_ctx *ix, struct object *o);

/* ---- setup -------------------------------------------------------------------- */

#define DEBUG_PATH_PREFIX ":.debug:" /* of libdwfl's search path, see inline_new */

/* The search path's global directories alone (for debugfile.c). */
static const char *global_debug_dirs(const struct inline_ctx *ix)
{
    return ix->debug_path + sizeof DEBUG_PATH_PREFIX - 1;
}

struct inline_ctx *inline_new(const char *debug_dirs, const char *cache_dir)
{
    struct inline_ctx *ix = xcalloc(1, sizeof *ix);
    ix->images = dwarf_images_new(cache_dir);
    if (cache_dir) {
        size_t n = strlen(cache_dir) + 1;
        ix->cache_dir = xmalloc(n);
        memcpy(ix->cache_dir, cache_dir, n);
    }
    /* ":.debug:DIRS": the object's directory, its .debug subdirectory,
     * then the global directories (by build-id, then by path). Like gdb,
     * libdwfl checks a candidate's build-id, or the debuglink's CRC when
     * the object has no build-id. */
    const char *dirs = debug_dirs ? debug_dirs : "/usr/lib/debug";
    size_t n = strlen(dirs);
    ix->debug_path = xmalloc(sizeof DEBUG_PATH_PREFIX + n);
    memcpy(ix->debug_path, DEBUG_PATH_PREFIX, sizeof DEBUG_PATH_PREFIX - 1);
    memcpy(ix->debug_path + sizeof DEBUG_PATH_PREFIX - 1, dirs, n + 1);
    ix->callbacks.find_elf = dwfl_build_id_find_elf;
    ix->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    ix->callbacks.section_address = dwfl_offline_section_address;
    ix->callbacks.debuginfo_path = &ix->debug_path;
    ix->prefetch = prefetch_new(cache_dir, global_debug_dirs(ix));
    hashmap_init(&ix->noted);
    const char *reader = getenv("CALLGRIND_FOLD_DIE_READER");
    ix->libdw_only = reader && strcmp(reader, "libdw") == 0;
    ix->direct_only = reader && strcmp(reader, "direct") == 0;
    hashmap_init(&ix->object_index);
    hashmap_init(&ix->lost);
    hashmap_init(&ix->frames);
    strtab_init(&ix->chains);
    ix->empty_chain = strtab_intern(&ix->chains, "", 0);
    hashmap_init(&ix->call_index);
    hashmap_init(&ix->child_index);
    return ix;
}

static void free_tree(struct scope_tree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nnodes; i++)
        free_tree(t->nodes[i].inner);
    free(t->nodes);
    free(t->entries);
    free(t->flat);
    free(t);
}

void inline_finish(struct inline_ctx *ix)
{
    if (!ix || ix->finished)
        return;
    ix->finished = true;
    for (size_t i = 0; i < ix->nobjects; i++)
        save_index(ix, &ix->objects[i]);
    prefetch_free(ix->prefetch);
    ix->prefetch = NULL;
}

void inline_free(struct inline_ctx *ix)
{
    if (!ix)
        return;
    inline_finish(ix);
    for (size_t i = 0; i < ix->nobjects; i++) {
        struct object *o = &ix->objects[i];
        for (size_t c = 0; c < o->ncus; c++)
            free_tree(o->cus[c].index);
        free(o->saved);
        hashmap_free(&o->saved_units);
        free(o->cus);
        free(o->ranges);
        hashmap_free(&o->unit_index);
        die_reader_free(o->reader);
        if (o->own_dbg)
            dwarf_end(o->own_dbg);
        dwarf_image_close(o->image);
        if (o->dwfl)
            dwfl_end(o->dwfl);
    }
    hashmap_free(&ix->noted);
    free(ix->objects);
    hashmap_free(&ix->object_index);
    hashmap_free(&ix->lost);
    hashmap_free(&ix->frames);
    strtab_free(&ix->chains);
    free(ix->selfs);
    free(ix->calls);
    hashmap_free(&ix->call_index);
    hashmap_free(&ix->child_index);
    free(ix->chain);
    free(ix->pending);
    buf_free(&ix->text);
    buf_free(&ix->frames_buf);
    free(ix->debug_path);
    dwarf_images_free(ix->images);
    free(ix->cache_dir);
    free(ix);
    if (demangle_lib)
        dlclose(demangle_lib);
    demangle_lib = NULL;
    demangler = NULL;
    demangler_tried = false;
}

/* ---- recording ------------------------------------------------------------------ */

void inline_part_begin(struct inline_ctx *ix)
{
    ix->nselfs = ix->ncalls = 0;
    hashmap_clear(&ix->call_index);
    hashmap_clear(&ix->child_index);
}

/* Self costs are only appended (one record per cost line, as a part
 * rarely repeats a (function, address)); inline_apply sums them per
 * (function, chain). */
bool inline_self(struct inline_ctx *ix, uint32_t node, uint64_t addr, uint64_t cost)
{
    if (cost == 0)
        return true;
    if (ix->nselfs > 0) {
        struct self_rec *r = &ix->selfs[ix->nselfs - 1];
        if (r->node == node && r->addr == addr)
            return add_u64(r->cost, cost, &r->cost);
    }
    GROW(ix->selfs, ix->selfs_cap, ix->nselfs);
    ix->selfs[ix->nselfs++] = (struct self_rec){node, addr, cost};
    return true;
}

bool inline_call(struct inline_ctx *ix, uint32_t node, uint32_t callee, uint64_t addr,
                 uint64_t cost, uint64_t calls)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&ix->call_index, (uint64_t)node << 32 | callee, addr,
                                    (uint32_t)ix->ncalls, &inserted);
    if (inserted) {
        if (ix->ncalls >= UINT32_MAX - 1)
            out_of_memory();
        GROW(ix->calls, ix->calls_cap, ix->ncalls);
        ix->calls[ix->ncalls++] = (struct call_rec){node, callee, addr, 0, 0};
    }
    struct call_rec *r = &ix->calls[*slot];
    if (!add_u64(r->calls, calls, &r->calls))
        r->calls = UINT64_MAX;
    return add_u64(r->cost, cost, &r->cost);
}

void inline_expect_input(struct inline_ctx *ix, uint64_t bytes)
{
    /* A cost line with an address takes at least 5 bytes ("+3 1\n");
     * a bound keeps a huge file from reserving gigabytes up front. */
    uint64_t lines = bytes / 5, most = (uint64_t)1 << 24;
    size_t want = (size_t)(lines < most ? lines : most);
    if (want > ix->selfs_cap) {
        free(ix->selfs); /* records of a part already applied */
        ix->selfs = xmalloc(want * sizeof *ix->selfs);
        ix->selfs_cap = want;
        ix->nselfs = 0;
    }
}

void inline_note_object(struct inline_ctx *ix, uint32_t name, const char *path)
{
    bool inserted;
    hashmap_upsert(&ix->noted, name, 0, 0, &inserted);
    if (inserted && path[0] == '/')
        prefetch_object(ix->prefetch, path);
}

void inline_note_folded(struct inline_ctx *ix)
{
    ix->folded_inputs++;
}

/* ---- opening an object ------------------------------------------------------------ */

static void fail_object(struct object *o, const char *fmt, const char *arg)
{
    o->state = OBJ_FAILED;
    snprintf(o->why, sizeof o->why, fmt, arg ? arg : "");
}

static int by_lo(const void *a, const void *b)
{
    const struct scope_entry *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return (x->hi < y->hi) - (x->hi > y->hi);
}

static int cu_by_lo(const void *a, const void *b)
{
    const struct cu_range *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return (x->cu > y->cu) - (x->cu < y->cu);
}

/* .debug_aranges by libdw, for what aranges_read does not handle, with
 * each range's unit by header offset as aranges_read has it. */
static bool libdw_aranges(Dwarf *dbg, struct arange **out, size_t *count)
{
    Dwarf_Aranges *aranges = NULL;
    size_t n = 0, cap = 0, total = 0;
    if (dwarf_getaranges(dbg, &aranges, &total) != 0)
        return false;
    struct arange *ranges = NULL;
    for (size_t i = 0; i < total; i++) {
        Dwarf_Addr addr;
        Dwarf_Word len;
        Dwarf_Off off;
        Dwarf_Die cudie;
        if (dwarf_getarangeinfo(dwarf_onearange(aranges, i), &addr, &len, &off) != 0 ||
            len == 0 || addr + len < addr || !dwarf_offdie(dbg, off, &cudie))
            continue;
        GROW(ranges, cap, n);
        ranges[n++] = (struct arange){addr, addr + len, off - dwarf_cuoffset(&cudie)};
    }
    *out = ranges;
    *count = n;
    return true;
}

/* The unit headers by libdw, for what units_read does not handle. */
static void libdw_units(Dwarf *dbg, struct unit_header **out, size_t *count)
{
    struct unit_header *units = NULL;
    size_t n = 0, cap = 0;
    Dwarf_CU *cu = NULL, *next;
    Dwarf_Half version;
    uint8_t unit_type;
    Dwarf_Die cudie;
    while (dwarf_get_units(dbg, cu, &next, &version, &unit_type, &cudie, NULL) == 0) {
        cu = next;
        Dwarf_Off die_offset = dwarf_dieoffset(&cudie);
        GROW(units, cap, n);
        units[n++] = (struct unit_header){die_offset - dwarf_cuoffset(&cudie), die_offset,
                                          version, unit_type};
    }
    *out = units;
    *count = n;
}

/* The DIE of the unit at die_offset that holds its scopes: its own, or
 * for a skeleton unit whose split unit (.dwo) was found, the split
 * unit's. False for units of other kinds (type, partial units). */
static bool unit_scopes(Dwarf *dbg, Dwarf_Off die_offset, Dwarf_Die *cudie, Dwarf_Die *scopes)
{
    uint8_t unit_type;
    Dwarf_Die subdie;
    if (!dwarf_offdie(dbg, die_offset, cudie) ||
        dwarf_cu_info(cudie->cu, NULL, &unit_type, NULL, &subdie, NULL, NULL, NULL) != 0)
        return false;
    if (unit_type == DW_UT_skeleton && dwarf_tag(&subdie) == DW_TAG_compile_unit) {
        *scopes = subdie;
        return true;
    }
    *scopes = *cudie;
    return unit_type == DW_UT_compile;
}

static void add_range(struct object *o, uint64_t lo, uint64_t hi, uint32_t cu)
{
    GROW(o->ranges, o->ranges_cap, o->nranges);
    o->ranges[o->nranges++] = (struct cu_range){lo, hi, cu};
}

/* The units .debug_aranges does not describe (clang's, for one) are
 * found by walking every unit header and asking each such unit for its
 * own DW_AT_ranges, which costs several times more per unit; for a
 * distribution's libc even the walk costs milliseconds (it touches each
 * of its 2000 units). So it is done once per object, and only when an
 * address falls outside all the ranges known (or there are no aranges). */
static void walk_units(struct object *o)
{
    size_t nunits = 0;
    struct unit_header *units = NULL;
    o->units_walked = true;
    if (!units_read(o->dbg, &units, &nunits))
        libdw_units(o->dbg, &units, &nunits);
    for (size_t u = 0; u < nunits; u++) {
        uint32_t index = (uint32_t)o->ncus;
        struct cu_info ci = {.offset = units[u].offset, .state = UNIT_READY};
        Dwarf_Die cudie;
        bool any = false;
        if ((units[u].unit_type != DW_UT_compile && units[u].unit_type != DW_UT_skeleton) ||
            hashmap_get(&o->unit_index, units[u].offset, 0, &(uint32_t){0}) ||
            !unit_scopes(o->dbg, units[u].die_offset, &cudie, &ci.die))
            continue;
        ptrdiff_t off = 0;
        Dwarf_Addr base, lo, hi;
        while ((off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0) {
            if (hi > lo) {
                add_range(o, lo, hi, index);
                any = true;
            }
        }
        if (any) {
            GROW(o->cus, o->cus_cap, o->ncus);
            o->cus[o->ncus++] = ci;
        }
    }
    free(units);
    hashmap_free(&o->unit_index);
    qsort(o->ranges, o->nranges, sizeof *o->ranges, cu_by_lo);
}

/* The address ranges of the units with code. Most compilers describe
 * them in .debug_aranges, one small section read at once; a unit's DIE
 * is read only when an address falls in it. Other units: see
 * walk_units. */
static void read_units(struct object *o)
{
    size_t naranges = 0;
    struct arange *aranges = NULL;
    hashmap_init(&o->unit_index);
    if (!aranges_read(o->dbg, &aranges, &naranges) &&
        !libdw_aranges(o->dbg, &aranges, &naranges))
        naranges = 0;
    for (size_t i = 0; i < naranges; i++) {
        bool inserted;
        uint32_t *slot = hashmap_upsert(&o->unit_index, aranges[i].unit_offset, 0,
                                        (uint32_t)o->ncus, &inserted);
        if (inserted) {
            GROW(o->cus, o->cus_cap, o->ncus);
            o->cus[o->ncus++] = (struct cu_info){.offset = aranges[i].unit_offset,
                                                 .state = UNIT_LAZY};
        }
        add_range(o, aranges[i].lo, aranges[i].hi, *slot);
    }
    free(aranges);
    if (naranges == 0)
        walk_units(o);
    else
        qsort(o->ranges, o->nranges, sizeof *o->ranges, cu_by_lo);
}

/* ---- opening objects ----------------------------------------------------------- */

/* Lowest PT_LOAD address, for the debug file's offset from the object. */
static bool first_load(Elf *elf, GElf_Addr *vaddr)
{
    size_t n;
    if (elf_getphdrnum(elf, &n) != 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
            *vaddr = ph.p_vaddr;
            return true;
        }
    }
    return false;
}

/* Opens the object's DWARF when it is compressed, as dwarfimage.h
 * describes; false leaves it to dwfl_module_getdwarf (uncompressed DWARF
 * needs nothing more). The debug file is looked for as libdwfl does: the
 * object itself if it has .debug_info, else the find_debuginfo callback
 * (build-id, then debuglink, in the debug directories). */
static bool open_dwarf(struct inline_ctx *ix, struct object *o, const char *path)
{
    Elf *main = dwfl_module_getelf(o->mod, &o->elf_bias);
    size_t shstrndx;
    if (!main || elf_getshdrstrndx(main, &shstrndx) != 0)
        return false;
    bool compressed;
    bool in_main = debug_info_in(main, &compressed);
    Elf *elf = main;
    int fd = -1;
    if (!in_main) {
        fd = debug_file_open(global_debug_dirs(ix), main, path, &ix->text);
        if (fd < 0)
            return false;
        elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
        if (!elf) {
            close(fd);
            return false;
        }
    }
    struct dwarf_image *image = prefetch_take(ix->prefetch, path);
    if (!image) {
        image = dwarf_image_open(ix->images, elf);
        if (image)
            prefetch_save(ix->prefetch, ix->images, image);
    }
    GElf_Addr main_load = 0, debug_load = 0;
    bool sync = elf != main && first_load(main, &main_load) && first_load(elf, &debug_load);
    if (elf != main) {
        elf_end(elf);
        close(fd);
    }
    if (!image)
        return false;
    o->image = image;
    o->own_dbg = dwarf_begin_elf(dwarf_image_elf(image), DWARF_C_READ, NULL);
    if (!o->own_dbg)
        return false; /* freed with the object */
    o->dbg = o->own_dbg;
    /* DWARF addresses are the debug file's, which a prelinked object's
     * may not be. */
    o->dwarf_bias = o->elf_bias + (sync ? main_load - debug_load : 0);
    return true;
}

static void open_object(struct inline_ctx *ix, struct object *o, const char *path)
{
    o->state = OBJ_OK;
    if (!*path || strcmp(path, "???") == 0 || path[0] != '/') {
        fail_object(o, "%s", *path ? "not a file name" : "no object name");
        return;
    }
    int fd = open_regular(path); /* libdw would block on a FIFO */
    if (fd < 0) {
        fail_object(o, "cannot read it: %s",
                    errno == EINVAL ? "not a regular file" : strerror(errno));
        return;
    }
    close(fd);
    o->dwfl = dwfl_begin(&ix->callbacks);
    if (!o->dwfl) {
        fail_object(o, "libdw: %s", dwfl_errmsg(-1));
        return;
    }
    dwfl_report_begin(o->dwfl);
    const char *slash = strrchr(path, '/');
    o->mod = dwfl_report_offline(o->dwfl, slash ? slash + 1 : path, path, -1);
    dwfl_report_end(o->dwfl, NULL, NULL);
    if (!o->mod) {
        fail_object(o, "cannot read it: %s", dwfl_errmsg(-1));
        return;
    }
    if (!dwfl_module_getelf(o->mod, &o->elf_bias)) {
        fail_object(o, "cannot read it: %s", dwfl_errmsg(-1));
        return;
    }
    if (!open_dwarf(ix, o, path))
        o->dbg = dwfl_module_getdwarf(o->mod, &o->dwarf_bias);
    if (!o->dbg) {
        fail_object(o, "%s", "no DWARF debug info, in it or in a separate debug file");
        return;
    }
    if (!ix->libdw_only)
        o->reader = die_reader_new(o->dbg);
    read_units(o);
    if (o->ncus == 0)
        fail_object(o, "%s", "its DWARF describes no code");
    else
        load_index(ix, o);
}

static struct object *object_of(struct inline_ctx *ix, uint32_t name, uint32_t *index)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&ix->object_index, name, 0, (uint32_t)ix->nobjects,
                                    &inserted);
    if (inserted) {
        GROW(ix->objects, ix->objects_cap, ix->nobjects);
        struct object *o = &ix->objects[ix->nobjects++];
        memset(o, 0, sizeof *o);
        o->name = name;
        o->state = OBJ_NEW;
    }
    *index = *slot;
    return &ix->objects[*slot];
}

/* ---- the load bias ------------------------------------------------------------------ */

/* "name@VERSION" and "name@@VERSION" (callgrind shows symbol versions). */
static size_t unversioned(const char *s, size_t n)
{
    const char *at = memchr(s, '@', n);
    return at ? (size_t)(at - s) : n;
}

static bool same_name(const char *a, size_t alen, const char *b, bool mangled)
{
    char *d = mangled ? NULL : demangle(b);
    const char *s = d ? d : b;
    size_t n = unversioned(s, strlen(s));
    alen = unversioned(a, alen);
    bool same = n == alen && memcmp(a, s, n) == 0;
    free(d);
    return same;
}

struct sample {
    const char *name;
    size_t len;
    uint64_t addr;
};

struct symbol {
    uint64_t addr, size;  /* ELF virtual address */
    const char *name;     /* in the module's string table */
};

/* The object's function symbols, read once for the bias. */
static struct symbol *read_symbols(struct object *o, size_t *count)
{
    struct symbol *syms = NULL;
    size_t n = 0, cap = 0;
    int nsyms = dwfl_module_getsymtab(o->mod);
    for (int i = 1; i < nsyms; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(o->mod, i, &sym, &addr, NULL, NULL, NULL);
        int type = GELF_ST_TYPE(sym.st_info);
        if (!name || !*name || (type != STT_FUNC && type != STT_GNU_IFUNC) ||
            sym.st_shndx == SHN_UNDEF)
            continue;
        GROW(syms, cap, n);
        syms[n++] = (struct symbol){addr - o->elf_bias, sym.st_size, name};
    }
    *count = n;
    return syms;
}

static int sample_by_addr(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Samples whose address (minus bias) lies in a symbol of the same name;
 * aliases at the same address all count. */
static size_t count_matches(struct inline_ctx *ix, const struct symbol *syms, size_t nsyms,
                            const struct sample *s, size_t n, uint64_t bias)
{
    /* The samples (a few dozen) by address, each symbol's extent looked
     * up among them: cheaper than sorting libc's 12,000 symbols. */
    struct sample *by_addr = xmalloc((n ? n : 1) * sizeof *by_addr);
    bool *matched = xcalloc(n ? n : 1, sizeof *matched);
    for (size_t i = 0; i < n; i++) {
        by_addr[i] = s[i];
        by_addr[i].addr -= bias;
    }
    qsort(by_addr, n, sizeof *by_addr, sample_by_addr);
    for (size_t k = 0; k < nsyms; k++) {
        const struct symbol *y = &syms[k];
        uint64_t end = y->addr + (y->size ? y->size : 1);
        size_t lo = 0, hi = n; /* first sample at or above the symbol */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (by_addr[mid].addr < y->addr)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t i = lo; i < n && by_addr[i].addr < end; i++)
            if (!matched[i])
                matched[i] = same_name(by_addr[i].name, by_addr[i].len, y->name,
                                       ix->mangled_names);
    }
    size_t matches = 0;
    for (size_t i = 0; i < n; i++)
        matches += matched[i];
    free(by_addr);
    free(matched);
    return matches;
}

/* Bias from the symbol table: for each sample function, its lowest
 * address minus its symbol's value; the most common one wins. */
static bool bias_from_symbols(struct inline_ctx *ix, const struct symbol *syms,
                              size_t nsyms, const struct sample *s, size_t n,
                              uint64_t *bias)
{
    struct hashmap by_name, votes;
    hashmap_init(&by_name);
    hashmap_init(&votes);
    for (size_t i = 0; i < nsyms; i++) {
        char *d = ix->mangled_names ? NULL : demangle(syms[i].name);
        const char *shown = d ? d : syms[i].name;
        uint64_t h = hash_bytes(shown, unversioned(shown, strlen(shown)));
        free(d);
        bool inserted;
        hashmap_upsert(&by_name, h, 0, (uint32_t)i, &inserted);
    }
    uint64_t best = 0;
    uint32_t best_votes = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        if (!hashmap_get(&by_name, hash_bytes(s[i].name, unversioned(s[i].name, s[i].len)),
                         0, &v))
            continue;
        uint64_t candidate = s[i].addr - syms[v].addr;
        bool inserted;
        uint32_t *count = hashmap_upsert(&votes, candidate, 0, 0, &inserted);
        if (++*count > best_votes) {
            best_votes = *count;
            best = candidate;
        }
    }
    hashmap_free(&by_name);
    hashmap_free(&votes);
    if (best_votes == 0)
        return false;
    size_t m = count_matches(ix, syms, nsyms, s, n, best);
    *bias = best;
    return m > 0 && 2 * m >= n;
}

/* The function symbols in the object file's own symbol tables (for a
 * stripped library, only .dynsym): read directly, a small part of what
 * read_symbols costs (libdwfl also loads the debug file's .symtab). */
static struct symbol *file_symbols(struct object *o, size_t *count)
{
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(o->mod, &bias);
    struct symbol *syms = NULL;
    size_t n = 0, cap = 0;
    for (Elf_Scn *scn = NULL; elf && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        Elf_Data *data;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
            sh.sh_entsize == 0 || !(data = elf_getdata(scn, NULL)))
            continue;
        size_t nsym = sh.sh_size / sh.sh_entsize;
        for (size_t i = 1; i < nsym; i++) {
            GElf_Sym sym;
            const char *name;
            int type;
            if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
                ((type = GELF_ST_TYPE(sym.st_info)) != STT_FUNC && type != STT_GNU_IFUNC) ||
                !(name = elf_strptr(elf, sh.sh_link, sym.st_name)) || !*name)
                continue;
            GROW(syms, cap, n);
            syms[n++] = (struct symbol){sym.st_value, sym.st_size, name};
        }
    }
    *count = n;
    return syms;
}

static void find_bias(struct inline_ctx *ix, struct object *o, const struct sample *s,
                      size_t n)
{
    o->bias_known = true;
    o->bias = 0;
    if (n == 0)
        return; /* only unnamed functions: trust callgrind's ELF addresses */
    /* Mostly callgrind's addresses are the file's and most samples are
     * in the file's own symbol tables: then that settles it (the full
     * table, a superset, would match as many). */
    size_t nsyms;
    struct symbol *syms = file_symbols(o, &nsyms);
    size_t own = count_matches(ix, syms, nsyms, s, n, 0);
    free(syms);
    if (own > 0 && 2 * own >= n)
        return;
    syms = read_symbols(o, &nsyms);
    size_t m = count_matches(ix, syms, nsyms, s, n, 0);
    uint64_t bias;
    bool found = m > 0 && 2 * m >= n;
    if (!found && bias_from_symbols(ix, syms, nsyms, s, n, &bias)) {
        o->bias = bias;
        found = true;
    }
    free(syms);
    if (found)
        return;
    fail_object(o, "%s", "its addresses do not match its symbol table "
                "(a different build of the file?)");
}

/* ---- scope trees ---------------------------------------------------------------------- */

static uint32_t new_scope(struct scope_tree *t, const Dwarf_Die *name_die, uint32_t parent,
                          bool subprogram)
{
    if (t->nnodes >= UINT32_MAX - 1)
        out_of_memory();
    GROW(t->nodes, t->nodes_cap, t->nnodes);
    t->nodes[t->nnodes] = (struct scope_node){*name_die, parent, 0, 0, NONE, subprogram, NULL, 0};
    return (uint32_t)t->nnodes++;
}

static void walk_children(struct inline_ctx *ix, struct scope_tree *t, Dwarf_Die *die,
                          uint32_t parent, int depth);

/* Children's entries of `node` were pushed to ix->pending from `mark`
 * on: sort them into the tree. */
static void close_scope(struct inline_ctx *ix, struct scope_tree *t, uint32_t node,
                        size_t mark)
{
    size_t n = ix->npending - mark;
    struct scope_entry *e = ix->pending + mark;
    if (n > 16) {
        qsort(e, n, sizeof *e, by_lo);
    } else {
        for (size_t i = 1; i < n; i++) /* most scopes have a few children */
            for (size_t j = i; j > 0 && by_lo(&e[j - 1], &e[j]) > 0; j--) {
                struct scope_entry t = e[j];
                e[j] = e[j - 1];
                e[j - 1] = t;
            }
    }
    if (t->nentries + n >= UINT32_MAX)
        out_of_memory();
    if (n) {
        GROW(t->entries, t->entries_cap, t->nentries + n - 1);
        memcpy(t->entries + t->nentries, ix->pending + mark, n * sizeof *t->entries);
    }
    t->nodes[node].first = (uint32_t)t->nentries;
    t->nodes[node].count = (uint32_t)n;
    t->nentries += n;
    ix->npending = mark;
}

/* The attributes of a scope DIE that the tree needs, read in one pass
 * (dwarf_lowpc and friends each scan the DIE and its abstract origin). */
struct scope_attrs {
    Dwarf_Attribute low, high, origin;
    bool has_low, has_high, has_ranges, has_origin, has_name;
};

static int scope_attr(Dwarf_Attribute *attr, void *arg)
{
    struct scope_attrs *a = arg;
    switch (dwarf_whatattr(attr)) {
    case DW_AT_low_pc:
        a->low = *attr;
        a->has_low = true;
        break;
    case DW_AT_high_pc:
        a->high = *attr;
        a->has_high = true;
        break;
    case DW_AT_ranges:
        a->has_ranges = true;
        break;
    case DW_AT_abstract_origin:
    case DW_AT_specification:
        if (!a->has_origin) {
            a->origin = *attr;
            a->has_origin = true;
        }
        break;
    case DW_AT_name:
    case DW_AT_linkage_name:
    case DW_AT_MIPS_linkage_name:
        a->has_name = true;
        break;
    default:
        break;
    }
    return DWARF_CB_OK;
}

/* Pushes the DIE's address ranges to ix->pending (as dwarf_ranges
 * would find them: low_pc/high_pc, else DW_AT_ranges). */
static void push_ranges(struct inline_ctx *ix, Dwarf_Die *die, const struct scope_attrs *a)
{
    Dwarf_Addr lo, hi;
    if (a->has_low && a->has_high) {
        Dwarf_Attribute high = a->high, low = a->low;
        Dwarf_Word size;
        if (dwarf_formaddr(&low, &lo) != 0)
            return;
        if (dwarf_hasform(&high, DW_FORM_addr) || dwarf_hasform(&high, DW_FORM_addrx) ||
            dwarf_hasform(&high, DW_FORM_GNU_addr_index)) {
            if (dwarf_formaddr(&high, &hi) != 0)
                return;
        } else if (dwarf_formudata(&high, &size) == 0) {
            hi = lo + size;
        } else {
            return;
        }
        if (hi > lo) {
            GROW(ix->pending, ix->pending_cap, ix->npending);
            ix->pending[ix->npending++] = (struct scope_entry){lo, hi, NONE};
        }
        return;
    }
    if (!a->has_ranges)
        return;
    ptrdiff_t off = 0;
    Dwarf_Addr base;
    while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
        if (hi <= lo)
            continue;
        GROW(ix->pending, ix->pending_cap, ix->npending);
        ix->pending[ix->npending++] = (struct scope_entry){lo, hi, NONE};
    }
}

/* DIEs that may hold scopes with code, as dwarf_getscopes sees them
 * (types only in languages whose types have member functions). */
static bool may_hold_scopes(int tag, bool c_unit)
{
    switch (tag) {
    case DW_TAG_lexical_block:
    case DW_TAG_with_stmt:
    case DW_TAG_catch_block:
    case DW_TAG_try_block:
    case DW_TAG_entry_point:
    case DW_TAG_module:
    case DW_TAG_namespace:
        return true;
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
    case DW_TAG_interface_type:
        return !c_unit;
    default:
        return false;
    }
}

static void visit(struct inline_ctx *ix, struct scope_tree *t, Dwarf_Die *die,
                  uint32_t parent, int depth)
{
    int tag = dwarf_tag(die);
    if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) {
        /* Lexical blocks, namespaces, ...: look through them. */
        if (may_hold_scopes(tag, t->c_unit) && dwarf_haschildren(die) > 0)
            walk_children(ix, t, die, parent, depth + 1);
        return;
    }
    /* Ranges first: scopes without code (declarations, abstract
     * instances) hold nothing to find. */
    struct scope_attrs a;
    memset(&a, 0, sizeof a);
    if (dwarf_getattrs(die, scope_attr, &a, 0) != 1)
        return;
    size_t first = ix->npending;
    push_ranges(ix, die, &a);
    size_t last = ix->npending;
    if (last == first)
        return;
    /* The name is looked up lazily from the DIE that has it or from its
     * abstract origin (the same DIE for every inlined copy). */
    Dwarf_Die origin, *name_die = die;
    if (!t->index && !a.has_name && a.has_origin && dwarf_formref_die(&a.origin, &origin))
        name_die = &origin;
    uint32_t node = new_scope(t, name_die, parent, tag == DW_TAG_subprogram);
    for (size_t i = first; i < last; i++)
        ix->pending[i].node = node;
    size_t mark = ix->npending;
    /* An index stops at functions: their scopes are read when an
     * address falls in them. */
    if (!t->index && dwarf_haschildren(die) > 0)
        walk_children(ix, t, die, node, depth + 1);
    close_scope(ix, t, node, mark);
}

static void walk_children(struct inline_ctx *ix, struct scope_tree *t, Dwarf_Die *die,
                          uint32_t parent, int depth)
{
    if (depth > MAX_SCOPE_DEPTH)
        return;
    Dwarf_Die child;
    if (dwarf_child(die, &child) != 0)
        return;
    do
        visit(ix, t, &child, parent, depth);
    while (dwarf_siblingof(&child, &child) == 0);
}

static void push_flat(struct scope_tree *t, uint64_t lo, uint64_t hi, uint32_t node)
{
    if (node == 0)
        return; /* the unit itself: nothing inlined */
    if (t->nflat > 0) {
        struct scope_entry *prev = &t->flat[t->nflat - 1];
        if (prev->hi == lo && prev->node == node) {
            prev->hi = hi;
            return;
        }
    }
    GROW(t->flat, t->flat_cap, t->nflat);
    t->flat[t->nflat++] = (struct scope_entry){lo, hi, node};
}

/* The part [lo, hi) of `node`'s code into t->flat: where a child scope
 * has code, the child's (recursively), elsewhere the node's. Siblings
 * do not overlap in sane DWARF; if they do, the first one wins. */
static void flatten(struct scope_tree *t, uint32_t node, uint64_t lo, uint64_t hi, int depth)
{
    uint64_t cur = lo;
    const struct scope_node *n = &t->nodes[node];
    for (uint32_t i = 0; i < n->count && depth <= MAX_SCOPE_DEPTH + 1; i++) {
        const struct scope_entry *c = &t->entries[n->first + i];
        if (c->lo >= hi)
            break;
        uint64_t s = c->lo > cur ? c->lo : cur, e = c->hi < hi ? c->hi : hi;
        if (s >= e)
            continue;
        if (s > cur)
            push_flat(t, cur, s, node);
        flatten(t, c->node, s, e, depth + 1);
        cur = e;
    }
    if (cur < hi)
        push_flat(t, cur, hi, node);
}

static void finish_tree(struct inline_ctx *ix, struct scope_tree *t, uint32_t root, size_t mark)
{
    close_scope(ix, t, root, mark);
    flatten(t, root, 0, UINT64_MAX, 0);
    free(t->entries); /* the flat table is all lookups need */
    t->entries = NULL;
    t->nentries = t->entries_cap = 0;
}

/* A unit's index (of the unit's DIE), or a function's tree (of the
 * function's DIE); node 0 stands for the unit either way. */
static struct scope_tree *build_tree(struct inline_ctx *ix, Dwarf_Die *die, bool index,
                                     bool c_unit)
{
    struct scope_tree *t = xcalloc(1, sizeof *t);
    t->index = index;
    t->c_unit = c_unit;
    uint32_t root = new_scope(t, die, NONE, true);
    size_t mark = ix->npending;
    if (index)
        walk_children(ix, t, die, root, 0);
    else
        visit(ix, t, die, root, 0);
    finish_tree(ix, t, root, mark);
    return t;
}

/* ---- the same trees by the direct reader (dieread.h) ------------------------------ */

static void push_range(void *arg, uint64_t lo, uint64_t hi)
{
    struct inline_ctx *ix = arg;
    GROW(ix->pending, ix->pending_cap, ix->npending);
    ix->pending[ix->npending++] = (struct scope_entry){lo, hi, NONE};
}

static bool plain_walk_children(struct inline_ctx *ix, struct scope_tree *t, uint64_t first,
                                uint32_t parent, int depth, uint64_t *end);

/* visit() by the direct reader; *next is the offset of d's next
 * sibling. False when the reader cannot read something: then the tree
 * is built through libdw. */
static bool plain_visit(struct inline_ctx *ix, struct scope_tree *t, const struct die *d,
                        uint32_t parent, int depth, uint64_t *next)
{
    const struct die_unit *u = t->unit;
    if (d->tag != DW_TAG_subprogram && d->tag != DW_TAG_inlined_subroutine) {
        uint64_t first;
        if (may_hold_scopes((int)d->tag, t->c_unit) && d->has_children)
            return die_children(u, d, &first) &&
                   plain_walk_children(ix, t, first, parent, depth + 1, next);
        return die_next(u, d, NULL, next);
    }
    struct die_scope s;
    if (!die_scope_attrs(u, d, &s))
        return false;
    size_t first = ix->npending;
    if (s.has_low && s.has_high) { /* as push_ranges */
        if (s.hi > s.lo)
            push_range(ix, s.lo, s.hi);
    } else if (s.has_ranges && !die_ranges(u, s.ranges, push_range, ix)) {
        return false;
    }
    size_t last = ix->npending;
    if (last == first)
        return die_next(u, d, &s, next);
    uint32_t node = new_scope(t, &(Dwarf_Die){0}, parent, d->tag == DW_TAG_subprogram);
    t->nodes[node].die_offset = !t->index && !s.has_name && s.has_origin ? s.origin : d->offset;
    for (size_t i = first; i < last; i++)
        ix->pending[i].node = node;
    size_t mark = ix->npending;
    if (!t->index && d->has_children) {
        if (!plain_walk_children(ix, t, s.end, node, depth + 1, next))
            return false;
    } else if (!die_next(u, d, &s, next)) {
        return false;
    }
    close_scope(ix, t, node, mark);
    return true;
}

/* walk_children() by the direct reader, from the first child's offset;
 * *end is the offset after the null entry that ends the children. */
static bool plain_walk_children(struct inline_ctx *ix, struct scope_tree *t, uint64_t first,
                                uint32_t parent, int depth, uint64_t *end)
{
    uint64_t off = first, next;
    for (;;) {
        struct die d;
        if (!die_at(t->unit, off, &d))
            return false;
        if (d.tag == 0) {
            *end = d.attrs;
            return true;
        }
        bool ok = depth > MAX_SCOPE_DEPTH ? die_next(t->unit, &d, NULL, &next) /* not looked into */
                                          : plain_visit(ix, t, &d, parent, depth, &next);
        if (!ok || next <= off)
            return false;
        off = next;
    }
}

/* build_tree() by the direct reader: NULL when it cannot read the DIEs. */
static struct scope_tree *plain_tree(struct inline_ctx *ix, const struct die_unit *u,
                                     uint64_t die_offset, bool index, bool c_unit)
{
    struct scope_tree *t = xcalloc(1, sizeof *t);
    t->index = index;
    t->c_unit = c_unit;
    t->unit = u;
    uint32_t root = new_scope(t, &(Dwarf_Die){0}, NONE, true);
    t->nodes[root].die_offset = die_offset;
    size_t mark = ix->npending;
    struct die d;
    uint64_t first, next;
    bool ok = die_at(u, die_offset, &d) && d.tag != 0;
    if (ok && index)
        ok = !d.has_children || (die_children(u, &d, &first) &&
                                 plain_walk_children(ix, t, first, root, 0, &next));
    else if (ok)
        ok = plain_visit(ix, t, &d, root, 0, &next);
    if (!ok) {
        ix->npending = mark;
        free_tree(t);
        return NULL;
    }
    finish_tree(ix, t, root, mark);
    return t;
}

/* Innermost scope whose code holds pc, or 0 (the unit). */
static uint32_t scope_at(struct scope_tree *t, uint64_t pc)
{
    const struct scope_entry *f = t->flat;
    size_t last = t->last;
    if (last < t->nflat && f[last].lo <= pc) {
        /* Addresses come mostly in ascending runs. */
        if (pc < f[last].hi)
            return f[last].node;
        if (last + 1 < t->nflat && f[last + 1].lo <= pc && pc < f[last + 1].hi) {
            t->last = last + 1;
            return f[last + 1].node;
        }
    }
    size_t lo = 0, hi = t->nflat; /* first interval with lo > pc */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || pc >= f[lo - 1].hi)
        return 0;
    t->last = lo - 1;
    return f[lo - 1].node;
}

/* Name attributes along DW_AT_abstract_origin and DW_AT_specification,
 * the first of each kind found (as dwarf_attr_integrate would). */
struct name_attrs {
    const char *linkage, *name;
    Dwarf_Attribute next;
    bool has_next;
};

static int name_attr(Dwarf_Attribute *attr, void *arg)
{
    struct name_attrs *a = arg;
    switch (dwarf_whatattr(attr)) {
    case DW_AT_linkage_name:
        if (!a->linkage)
            a->linkage = dwarf_formstring(attr);
        break;
    case DW_AT_MIPS_linkage_name:
        if (!a->linkage)
            a->linkage = dwarf_formstring(attr);
        break;
    case DW_AT_name:
        if (!a->name)
            a->name = dwarf_formstring(attr);
        break;
    case DW_AT_abstract_origin:
    case DW_AT_specification:
        if (!a->has_next) {
            a->next = *attr;
            a->has_next = true;
        }
        break;
    default:
        break;
    }
    return DWARF_CB_OK;
}

/* The frame of an inlined scope named so: the linkage name demangled
 * (as callgrind shows names), else the plain name, and the marker. */
static uint32_t frame_of_names(struct inline_ctx *ix, const char *linkage, const char *plain,
                               struct strtab *names)
{
    const char *name = NULL;
    char *demangled = NULL;
    if (linkage && ix->mangled_names)
        name = linkage;
    else if (linkage && (demangled = demangle(linkage)))
        name = demangled;
    else
        name = plain;
    struct buf *b = &ix->text;
    b->len = 0;
    buf_append(b, name ? name : "??", strlen(name ? name : "??"));
    buf_append(b, INLINE_MARK, strlen(INLINE_MARK));
    free(demangled);
    return strtab_intern(names, b->data, b->len);
}

static uint32_t frame_name(struct inline_ctx *ix, const Dwarf_Die *die, struct strtab *names)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&ix->frames, (uint64_t)(uintptr_t)die->addr, 0, NONE,
                                    &inserted);
    if (!inserted)
        return *slot;
    struct name_attrs a = {NULL, NULL, {0, 0, NULL, NULL}, false};
    Dwarf_Die cur = *die;
    for (int hops = 0; hops < 16; hops++) {
        a.has_next = false;
        if (dwarf_getattrs(&cur, name_attr, &a, 0) != 1 || (a.linkage && a.name) ||
            !a.has_next || !dwarf_formref_die(&a.next, &cur))
            break;
    }
    uint32_t frame = frame_of_names(ix, a.linkage, a.name, names);
    /* The slot is still valid: nothing above touched ix->frames. */
    *slot = frame;
    return frame;
}

/* frame_name() by the direct reader, for the DIE at `offset` (keyed
 * apart from frame_name's DIE addresses by the reader). */
static bool plain_frame_name(struct inline_ctx *ix, struct object *o, const struct die_unit *u,
                             uint64_t offset, struct strtab *names, uint32_t *frame)
{
    if (hashmap_get(&ix->frames, offset, (uintptr_t)o->reader, frame))
        return true;
    struct die_names a = {NULL, NULL, 0, false};
    uint64_t cur = offset;
    for (int hops = 0; hops < 16; hops++) {
        a.has_next = false;
        if (!die_names_at(o->reader, u, cur, &a))
            return false;
        if ((a.linkage && a.name) || !a.has_next)
            break;
        cur = a.next;
    }
    *frame = frame_of_names(ix, a.linkage, a.name, names);
    hashmap_put(&ix->frames, offset, (uintptr_t)o->reader, *frame);
    return true;
}

/* The frame of scope node s of tree t. */
static uint32_t node_frame(struct inline_ctx *ix, struct object *o, struct scope_tree *t,
                           uint32_t s, struct strtab *names)
{
    struct scope_node *n = &t->nodes[s];
    uint32_t frame;
    if (!n->name_die.addr && t->unit &&
        plain_frame_name(ix, o, t->unit, n->die_offset, names, &frame))
        return frame;
    if (ix->direct_only)
        return frame_of_names(ix, NULL, NULL, names);
    if (!n->name_die.addr && !dwarf_offdie(o->dbg, n->die_offset, &n->name_die))
        return frame_of_names(ix, NULL, NULL, names);
    return frame_name(ix, &n->name_die, names);
}

/* The chain of inlined frames of scope `node`, interned. */
static uint32_t chain_of(struct inline_ctx *ix, struct object *o, struct scope_tree *t,
                         uint32_t node, struct strtab *names)
{
    if (t->nodes[node].chain != NONE)
        return t->nodes[node].chain;
    /* Up to the nearest ancestor whose chain is known, or a function of
     * its own (the unit, a nested function): their chain is empty. */
    size_t n = 0;
    uint32_t top = node;
    while (t->nodes[top].chain == NONE && !t->nodes[top].subprogram) {
        GROW(ix->chain, ix->chain_cap, n);
        ix->chain[n++] = top;
        top = t->nodes[top].parent;
    }
    if (t->nodes[top].chain == NONE)
        t->nodes[top].chain = ix->empty_chain;
    uint32_t chain = t->nodes[top].chain;
    /* Then down again, one frame longer at each step. */
    struct buf *frames = &ix->frames_buf;
    while (n > 0) {
        uint32_t s = ix->chain[--n];
        uint32_t frame = node_frame(ix, o, t, s, names);
        frames->len = 0;
        buf_append(frames, strtab_str(&ix->chains, chain), strtab_len(&ix->chains, chain));
        buf_append(frames, (const char *)&frame, sizeof frame);
        chain = strtab_intern(&ix->chains, frames->data, frames->len);
        t->nodes[s].chain = chain;
    }
    return chain;
}

/* C's types hold no functions: their members need not be walked. */
static bool c_language(uint64_t lang)
{
    return lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
           lang == DW_LANG_C11;
}

/* ---- unit indexes kept in the cache ---------------------------------------------- */

/* Indexing a unit walks all its top-level DIEs (for one of libc's units,
 * about 230k instructions), for a result of a few intervals per function.
 * So the indexes are kept in the cache directory too, as
 * <build-id>.index.v2: a magic line, the size of .debug_info (the same
 * build-id with other DWARF, say after dwz, has other DIE offsets: such
 * a file is not used), then records of struct saved_fn: per
 * unit a marker (die 0; lo 1 for a C unit) followed by its index's
 * sorted disjoint intervals, each with its function's DIE offset. Units
 * whose scopes are in a split unit (.dwo) are not kept. A file that does
 * not read as such is ignored and rewritten. */
struct saved_fn {
    uint64_t unit, lo, hi, die;
};

static const char index_magic[8] = "CFIDX1\n";
#define INDEX_SUFFIX ".index.v2"

static bool index_path(struct inline_ctx *ix, struct object *o, struct buf *path)
{
    if (debug_info_size(o->dbg) == 0)
        return false;
    const unsigned char *id = NULL;
    GElf_Addr vaddr;
    int n = ix->cache_dir ? dwfl_module_build_id(o->mod, &id, &vaddr) : 0;
    return n > 0 && cache_path(ix->cache_dir, id, (size_t)n, INDEX_SUFFIX, path);
}

static void load_index(struct inline_ctx *ix, struct object *o)
{
    struct buf path = {0};
    size_t size = 0;
    char *data = index_path(ix, o, &path) ? cache_read(buf_cstr(&path), &size) : NULL;
    buf_free(&path);
    if (!data)
        return;
    const size_t header = sizeof index_magic + sizeof(uint64_t);
    uint64_t info_size = 0;
    size_t n = size > header ? (size - header) / sizeof *o->saved : 0;
    bool ok = n > 0 && n < UINT32_MAX && size == header + n * sizeof *o->saved &&
              memcmp(data, index_magic, sizeof index_magic) == 0;
    if (ok) {
        memcpy(&info_size, data + sizeof index_magic, sizeof info_size);
        ok = info_size == debug_info_size(o->dbg);
    }
    if (ok) {
        o->saved = xmalloc(n * sizeof *o->saved);
        memcpy(o->saved, data + header, n * sizeof *o->saved);
        o->nsaved = n;
    }
    free(data);
    uint64_t prev_hi = 0;
    for (size_t i = 0; ok && i < n; i++) {
        const struct saved_fn *r = &o->saved[i];
        bool inserted = false;
        if (r->die == 0) {
            if (r->hi == 0 && r->lo <= 1)
                hashmap_upsert(&o->saved_units, r->unit, 0, (uint32_t)i, &inserted);
            ok = inserted;
            prev_hi = 0;
        } else {
            ok = i > 0 && r->unit == o->saved[i - 1].unit && r->lo < r->hi && r->lo >= prev_hi;
            prev_hi = r->hi;
        }
    }
    if (!ok) {
        free(o->saved);
        o->saved = NULL;
        o->nsaved = 0;
        hashmap_clear(&o->saved_units); /* the units indexed now replace it */
    }
}

/* The index of the unit whose marker is saved[at]. */
static struct scope_tree *saved_index(struct object *o, uint32_t at)
{
    struct scope_tree *t = xcalloc(1, sizeof *t);
    const Dwarf_Die none = {0};
    struct hashmap by_die;
    hashmap_init(&by_die);
    t->index = true;
    t->c_unit = o->saved[at].lo != 0;
    new_scope(t, &none, NONE, true); /* node 0: the unit */
    for (size_t i = (size_t)at + 1; i < o->nsaved && o->saved[i].die != 0; i++) {
        bool inserted;
        uint32_t node = *hashmap_upsert(&by_die, o->saved[i].die, 0, (uint32_t)t->nnodes,
                                        &inserted);
        if (inserted) {
            uint32_t k = new_scope(t, &none, 0, true); /* may move t->nodes */
            t->nodes[k].die_offset = o->saved[i].die;
        }
        GROW(t->flat, t->flat_cap, t->nflat);
        t->flat[t->nflat++] = (struct scope_entry){o->saved[i].lo, o->saved[i].hi, node};
    }
    hashmap_free(&by_die);
    return t;
}

/* Writes the object's indexes to the cache if this run made new ones:
 * those read from it as they were, and the new ones. */
static void save_index(struct inline_ctx *ix, struct object *o)
{
    struct buf path = {0}, out = {0};
    if (o->state != OBJ_OK || !o->index_new || !index_path(ix, o, &path)) {
        buf_free(&path);
        return;
    }
    uint64_t info_size = debug_info_size(o->dbg);
    buf_append(&out, index_magic, sizeof index_magic);
    buf_append(&out, (const char *)&info_size, sizeof info_size);
    buf_append(&out, (const char *)o->saved, o->nsaved * sizeof *o->saved);
    for (size_t c = 0; c < o->ncus; c++) {
        struct cu_info *ci = &o->cus[c];
        const struct scope_tree *t = ci->index;
        if (!t || ci->index_saved || (!ci->plain && dwarf_cu_getdwarf(ci->die.cu) != o->dbg))
            continue; /* not this file's DIEs (a split unit's) */
        struct saved_fn marker = {ci->offset, t->c_unit, 0, 0};
        buf_append(&out, (const char *)&marker, sizeof marker);
        for (size_t k = 0; k < t->nflat; k++) {
            const struct scope_node *f = &t->nodes[t->flat[k].node];
            Dwarf_Die die = f->name_die;
            struct saved_fn r = {ci->offset, t->flat[k].lo, t->flat[k].hi,
                                 die.addr ? dwarf_dieoffset(&die) : f->die_offset};
            buf_append(&out, (const char *)&r, sizeof r);
        }
    }
    cache_write(ix->cache_dir, buf_cstr(&path), out.data, out.len);
    buf_free(&path);
    buf_free(&out);
}

/* The scope tree of the function holding pc (a DWARF address), built
 * when first needed; NULL when no function of the object holds it. */
static struct scope_tree *function_tree(struct inline_ctx *ix, struct object *o, uint64_t pc)
{
    if (pc - o->last_fn_lo < o->last_fn_hi - o->last_fn_lo)
        return o->last_fn;
    /* The unit: the range holding pc, mostly the previous one. */
    const struct cu_range *r = o->ranges;
    size_t i = o->last_range;
    if (!(i < o->nranges && r[i].lo <= pc && pc < r[i].hi)) {
        size_t lo = 0, hi = o->nranges; /* last range starting at or below pc */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (r[mid].lo <= pc)
                lo = mid + 1;
            else
                hi = mid;
        }
        i = SIZE_MAX;
        for (size_t j = lo, tries = 0; j > 0 && tries < 8; j--, tries++)
            if (pc < r[j - 1].hi) {
                i = j - 1;
                break;
            }
        if (i == SIZE_MAX && !o->units_walked) {
            walk_units(o); /* perhaps a unit .debug_aranges leaves out */
            return function_tree(ix, o, pc);
        }
        if (i == SIZE_MAX)
            return NULL;
        o->last_range = i;
    }
    struct cu_info *ci = &o->cus[r[i].cu];
    uint32_t saved_at;
    if (!ci->index && hashmap_get(&o->saved_units, ci->offset, 0, &saved_at)) {
        ci->index = saved_index(o, saved_at);
        ci->index_saved = true;
    }
    if (!ci->plain_tried) {
        ci->plain_tried = true;
        ci->plain = o->reader ? die_unit_at(o->reader, ci->offset) : NULL;
    }
    if (!ci->index && ci->plain) {
        ci->index = plain_tree(ix, ci->plain, die_unit_die(ci->plain), true,
                               c_language(die_unit_language(ci->plain)));
        if (ci->index)
            o->index_new = true;
    }
    if (!ci->index && ix->direct_only)
        return NULL;
    if (!ci->index && ci->state == UNIT_LAZY) {
        Dwarf_Die cudie;
        Dwarf_Off next;
        size_t header_size;
        ci->state = dwarf_next_unit(o->dbg, ci->offset, &next, &header_size, NULL, NULL, NULL,
                                    NULL, NULL, NULL) == 0 &&
                            unit_scopes(o->dbg, ci->offset + header_size, &cudie, &ci->die)
                        ? UNIT_READY
                        : UNIT_NONE;
    }
    if (!ci->index && ci->state == UNIT_NONE)
        return NULL;
    if (!ci->index) {
        ci->index = build_tree(ix, &ci->die, true,
                               c_language((uint64_t)dwarf_srclang(&ci->die)));
        o->index_new = true;
    }
    uint32_t fn = scope_at(ci->index, pc);
    if (fn == 0)
        return NULL;
    struct scope_node *f = &ci->index->nodes[fn];
    struct die d;
    if (!f->inner && !f->name_die.addr && ci->plain && die_at(ci->plain, f->die_offset, &d) &&
        d.tag == DW_TAG_subprogram)
        f->inner = plain_tree(ix, ci->plain, f->die_offset, false, ci->index->c_unit);
    if (!f->inner && ix->direct_only)
        return NULL;
    if (!f->inner && !f->name_die.addr &&
        (!dwarf_offdie(o->dbg, f->die_offset, &f->name_die) ||
         dwarf_tag(&f->name_die) != DW_TAG_subprogram))
        return NULL; /* a saved index that is not this object's */
    if (!f->inner)
        f->inner = build_tree(ix, &f->name_die, false, ci->index->c_unit);
    const struct scope_entry *e = &ci->index->flat[ci->index->last]; /* pc's */
    o->last_fn = f->inner;
    o->last_fn_lo = e->lo;
    o->last_fn_hi = e->hi;
    return f->inner;
}

/* Chain of inlined frames at address addr of object oi, interned. */
static uint32_t resolve(struct inline_ctx *ix, uint32_t oi, uint64_t addr,
                        struct strtab *names)
{
    struct object *o = &ix->objects[oi];
    if (o->state != OBJ_OK) {
        bool inserted;
        hashmap_upsert(&ix->lost, oi, addr, 0, &inserted);
        if (inserted)
            o->lost_addrs++;
        return ix->empty_chain;
    }
    uint64_t pc = addr - o->bias + o->elf_bias - o->dwarf_bias;
    if (pc - o->run_lo < o->run_hi - o->run_lo)
        return o->run_chain;
    struct scope_tree *t = function_tree(ix, o, pc);
    uint32_t node = t ? scope_at(t, pc) : 0;
    if (node == 0)
        return ix->empty_chain;
    o->run_chain = chain_of(ix, o, t, node, names);
    o->run_lo = t->flat[t->last].lo; /* scope_at's interval */
    o->run_hi = t->flat[t->last].hi;
    return o->run_chain;
}

/* ---- into the call graph --------------------------------------------------------------- */

/* The node for code of `node` inlined along `chain`, created with its
 * parents as needed; `cost` is added to every call along the way. */
static bool chain_node(struct inline_ctx *ix, struct profile *p, uint32_t node,
                       uint32_t chain, uint64_t cost, uint32_t *out)
{
    size_t n = strtab_len(&ix->chains, chain) / sizeof(uint32_t);
    const char *bytes = strtab_str(&ix->chains, chain);
    uint32_t cur = node;
    for (size_t i = 0; i < n; i++) {
        uint32_t frame;
        memcpy(&frame, bytes + i * sizeof frame, sizeof frame);
        bool inserted;
        uint32_t *slot = hashmap_upsert(&ix->child_index, cur, frame, (uint32_t)p->nnodes,
                                        &inserted);
        uint32_t child = *slot;
        if (inserted) {
            if (p->nnodes >= UINT32_MAX - 1)
                out_of_memory();
            GROW(p->nodes, p->nodes_cap, p->nnodes);
            struct fn_node *fn = &p->nodes[p->nnodes];
            memset(fn, 0, sizeof *fn);
            fn->name = frame;
            fn->object = p->nodes[node].object;
            fn->file = p->nodes[node].file;
            fn->defined = true;
            p->nnodes++;
        }
        if (!profile_add_call(p, cur, child, cost))
            return false;
        cur = child;
    }
    *out = cur;
    return true;
}

/* Opens the objects of this part not opened yet (obj[i]: function i's
 * object, lowest[i] its lowest address), and finds their biases. With
 * `ready_only`, only those whose debug file the prefetch thread is done
 * with (or never had): the others can wait while these are used. */
static void open_objects(struct inline_ctx *ix, struct profile *p, struct strtab *names,
                         const uint32_t *obj, const uint64_t *lowest, size_t n0,
                         bool ready_only)
{
    struct sample *samples = xmalloc(BIAS_SAMPLES * sizeof *samples);
    for (size_t oi = 0; oi < ix->nobjects; oi++) {
        struct object *o = &ix->objects[oi];
        const char *path = strtab_str(names, o->name);
        if (o->state != OBJ_NEW || (ready_only && !prefetch_claim(ix->prefetch, path)))
            continue;
        size_t used = 0;
        for (size_t i = 0; i < n0 && !used; i++)
            used = obj[i] == oi;
        if (!used)
            continue;
        open_object(ix, o, path);
        if (o->state != OBJ_OK)
            continue;
        /* The bias, from the first address of up to BIAS_SAMPLES
         * functions with symbols. */
        size_t ns = 0;
        for (size_t i = 0; i < n0 && ns < BIAS_SAMPLES; i++) {
            if (obj[i] != oi)
                continue;
            const char *name = strtab_str(names, p->nodes[i].name);
            size_t len = frame_base_length(name, strtab_len(names, p->nodes[i].name));
            if (len == 0 || strncmp(name, "0x", 2) == 0 || name[0] == '(')
                continue; /* no symbol: "0x0000000000401000", "(below main)" */
            samples[ns++] = (struct sample){name, len, lowest[i]};
        }
        find_bias(ix, o, samples, ns);
    }
    free(samples);
}

int inline_apply(struct inline_ctx *ix, struct profile *p, struct strtab *names,
                 bool expand, char *err, size_t errlen)
{
    if (!expand) {
        bool ok = true;
        for (size_t i = 0; i < ix->nselfs && ok; i++)
            ok = profile_add_self(p, ix->selfs[i].node, ix->selfs[i].cost);
        for (size_t i = 0; i < ix->ncalls && ok; i++) {
            ok = profile_add_call(p, ix->calls[i].node, ix->calls[i].callee,
                                  ix->calls[i].cost);
            profile_add_call_count(p, ix->calls[i].node, ix->calls[i].callee,
                                   ix->calls[i].calls);
        }
        if (!ok)
            snprintf(err, errlen, "cost sum overflows 64 bits");
        return ok ? 0 : -1;
    }
    size_t n0 = p->nnodes;
    /* Names as callgrind wrote them: mangled with --demangle=no. */
    for (size_t i = 0; i < n0 && !ix->mangled_names; i++)
        if (strncmp(strtab_str(names, p->nodes[i].name), "_Z", 2) == 0)
            ix->mangled_names = true;

    /* Objects used in this part, and the lowest address of each function. */
    uint64_t *lowest = xmalloc((n0 ? n0 : 1) * sizeof *lowest);
    uint32_t *obj = xmalloc((n0 ? n0 : 1) * sizeof *obj);
    for (size_t i = 0; i < n0; i++) {
        lowest[i] = UINT64_MAX;
        obj[i] = NONE;
    }
    for (size_t i = 0; i < ix->nselfs; i++)
        if (ix->selfs[i].addr < lowest[ix->selfs[i].node])
            lowest[ix->selfs[i].node] = ix->selfs[i].addr;
    for (size_t i = 0; i < ix->ncalls; i++)
        if (ix->calls[i].addr < lowest[ix->calls[i].node])
            lowest[ix->calls[i].node] = ix->calls[i].addr;
    for (size_t i = 0; i < n0; i++)
        if (lowest[i] != UINT64_MAX)
            object_of(ix, p->nodes[i].object, &obj[i]);

    /* The chain of each self cost: first in the objects ready, while the
     * prefetch thread may still be inflating others' debug files, then
     * in the rest. */
    uint32_t *chains = xmalloc((ix->nselfs ? ix->nselfs : 1) * sizeof *chains);
    for (int pass = 0; pass < 2; pass++) {
        open_objects(ix, p, names, obj, lowest, n0, pass == 0);
        for (size_t i = 0; i < ix->nselfs; i++) {
            const struct self_rec *r = &ix->selfs[i];
            if (pass == 1 && chains[i] != NONE)
                continue;
            chains[i] = ix->objects[obj[r->node]].state == OBJ_NEW
                            ? NONE /* the second pass's */
                            : resolve(ix, obj[r->node], r->addr, names);
        }
    }

    /* Self costs summed per (function, chain) first: many addresses
     * share a chain, and the graph needs one node per chain. The records
     * are rewritten in place: addr becomes the chain. */
    int rc = 0;
    struct hashmap by_chain;
    hashmap_init(&by_chain);
    size_t nsum = 0;
    uint32_t prev_node = NONE, prev_chain = NONE, prev_slot = 0;
    for (size_t i = 0; i < ix->nselfs && rc == 0; i++) {
        struct self_rec r = ix->selfs[i];
        uint32_t chain = chains[i];
        struct object *o = &ix->objects[obj[r.node]];
        if (o->state != OBJ_OK && !add_u64(o->lost_cost, r.cost, &o->lost_cost))
            o->lost_cost = UINT64_MAX;
        /* Neighbouring records mostly share function and chain. */
        if (r.node != prev_node || chain != prev_chain) {
            bool inserted;
            uint32_t *slot = hashmap_upsert(&by_chain, r.node, chain, (uint32_t)nsum,
                                            &inserted);
            if (inserted)
                ix->selfs[nsum++] = (struct self_rec){r.node, chain, 0};
            prev_node = r.node;
            prev_chain = chain;
            prev_slot = *slot;
        }
        if (!add_u64(ix->selfs[prev_slot].cost, r.cost, &ix->selfs[prev_slot].cost))
            rc = -1;
    }
    hashmap_free(&by_chain);
    free(chains);
    ix->nselfs = nsum;
    for (size_t i = 0; i < ix->nselfs && rc == 0; i++) {
        const struct self_rec *r = &ix->selfs[i];
        uint32_t target = r->node, chain = (uint32_t)r->addr;
        if (chain != ix->empty_chain && !chain_node(ix, p, r->node, chain, r->cost, &target))
            rc = -1;
        if (rc == 0 && !profile_add_self(p, target, r->cost))
            rc = -1;
    }
    for (size_t i = 0; i < ix->ncalls && rc == 0; i++) {
        const struct call_rec *r = &ix->calls[i];
        uint32_t chain = resolve(ix, obj[r->node], r->addr, names);
        uint32_t target = r->node;
        if (chain != ix->empty_chain && !chain_node(ix, p, r->node, chain, r->cost, &target))
            rc = -1;
        if (rc == 0 && !profile_add_call(p, target, r->callee, r->cost))
            rc = -1;
        if (rc == 0)
            profile_add_call_count(p, target, r->callee, r->calls);
    }
    if (rc)
        snprintf(err, errlen, "cost sum overflows 64 bits");
    free(lowest);
    free(obj);
    return rc;
}

void inline_report(const struct inline_ctx *ix, const struct strtab *names, FILE *out)
{
    for (size_t i = 0; i < ix->nobjects; i++) {
        const struct object *o = &ix->objects[i];
        if (o->state != OBJ_FAILED || o->lost_addrs == 0)
            continue;
        const char *name = strtab_str(names, o->name);
        fprintf(out, "callgrind_fold: warning: --inline: %s: %s; %" PRIu64
                " address(es) with %" PRIu64 " self cost left unexpanded\n",
                *name ? name : "(no object)", o->why, o->lost_addrs, o->lost_cost);
    }
    if (ix->folded_inputs)
        fprintf(out, "callgrind_fold: warning: --inline: %" PRIu64 " input(s) of folded "
                "stacks passed through unexpanded (they hold no instruction addresses)\n",
                ix->folded_inputs);
}
