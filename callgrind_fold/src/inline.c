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
 * files by build-id and .gnu_debuglink like gdb). Its compilation units'
 * address ranges are read once; a unit's tree of subprogram and
 * inlined-subroutine scopes is built the first time an address falls in
 * it, each level's ranges sorted, so a lookup is a few binary searches.
 * Results are memoized per (object, address). */
#include "inline.h"
#include "frames.h"
#include "hashmap.h"
#include "util.h"

#include <dlfcn.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

struct scope_node {
    Dwarf_Off die;
    uint32_t first, count; /* its children's entries, sorted by lo */
    uint32_t frame;        /* interned "name [inlined]", NONE until needed */
    bool subprogram;
};

struct scope_tree {
    struct scope_node *nodes;
    size_t nnodes, nodes_cap;
    struct scope_entry *entries;
    size_t nentries, entries_cap;
};

struct cu_range {
    uint64_t lo, hi;
    uint32_t cu;
};

struct cu_info {
    Dwarf_Die die;           /* the unit's DIE with the scopes */
    struct scope_tree *tree; /* NULL until an address falls in the unit */
};

enum obj_state { OBJ_NEW, OBJ_OK, OBJ_FAILED };

struct object {
    uint32_t name;           /* interned ob= name */
    enum obj_state state;
    char why[200];
    Dwfl *dwfl;
    Dwfl_Module *mod;
    Dwarf *dbg;
    Dwarf_Addr elf_bias, dwarf_bias;
    bool bias_known;
    uint64_t bias;           /* written address - ELF virtual address */
    struct cu_range *ranges;
    size_t nranges;
    struct cu_info *cus;
    size_t ncus;
    uint64_t lost_addrs, lost_cost;
};

struct inline_ctx {
    char *debug_path;        /* for dwfl_standard_find_debuginfo */
    Dwfl_Callbacks callbacks;
    struct object *objects;
    size_t nobjects, objects_cap;
    struct hashmap object_index;   /* ob= name id -> object */
    struct hashmap memo;           /* (object, address) -> chain */
    struct strtab chains;          /* chain id -> frame ids, as bytes */
    uint32_t empty_chain;
    /* One part. */
    struct self_rec *selfs;
    size_t nselfs, selfs_cap;
    struct call_rec *calls;
    size_t ncalls, calls_cap;
    struct hashmap self_index;     /* (node, address) -> self record */
    struct hashmap call_index;     /* (node << 32 | callee, address) -> call record */
    struct hashmap child_index;    /* (node, frame) -> inlined child node */
    /* Scratch. */
    uint32_t *chain;
    size_t chain_len, chain_cap;
    struct scope_entry *pending;
    size_t npending, pending_cap;
    struct buf text;
    bool mangled_names;            /* callgrind ran with --demangle=no */
    uint64_t folded_inputs;
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
    if (!demangler_tried) {
        demangler_tried = true;
        demangle_lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (demangle_lib) {
            void *sym = dlsym(demangle_lib, "__cxa_demangle");
            memcpy(&demangler, &sym, sizeof demangler);
        }
    }
    if (!demangler || strncmp(mangled, "_Z", 2) != 0)
        return NULL;
    int status = -1;
    char *s = demangler(mangled, NULL, NULL, &status);
    if (status != 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* ---- setup -------------------------------------------------------------------- */

struct inline_ctx *inline_new(const char *debug_dirs)
{
    struct inline_ctx *ix = xcalloc(1, sizeof *ix);
    /* ":.debug:DIRS": the object's directory, its .debug subdirectory,
     * then the global directories (by build-id, then by path). No CRC
     * check, like gdb when the build-id matches. */
    const char *dirs = debug_dirs ? debug_dirs : "/usr/lib/debug";
    size_t n = strlen(dirs);
    ix->debug_path = xmalloc(n + 10);
    memcpy(ix->debug_path, "-:.debug:", 9);
    memcpy(ix->debug_path + 9, dirs, n + 1);
    ix->callbacks.find_elf = dwfl_build_id_find_elf;
    ix->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    ix->callbacks.section_address = dwfl_offline_section_address;
    ix->callbacks.debuginfo_path = &ix->debug_path;
    hashmap_init(&ix->object_index);
    hashmap_init(&ix->memo);
    strtab_init(&ix->chains);
    ix->empty_chain = strtab_intern(&ix->chains, "", 0);
    hashmap_init(&ix->self_index);
    hashmap_init(&ix->call_index);
    hashmap_init(&ix->child_index);
    return ix;
}

static void free_tree(struct scope_tree *t)
{
    if (!t)
        return;
    free(t->nodes);
    free(t->entries);
    free(t);
}

void inline_free(struct inline_ctx *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->nobjects; i++) {
        struct object *o = &ix->objects[i];
        for (size_t c = 0; c < o->ncus; c++)
            free_tree(o->cus[c].tree);
        free(o->cus);
        free(o->ranges);
        if (o->dwfl)
            dwfl_end(o->dwfl);
    }
    free(ix->objects);
    hashmap_free(&ix->object_index);
    hashmap_free(&ix->memo);
    strtab_free(&ix->chains);
    free(ix->selfs);
    free(ix->calls);
    hashmap_free(&ix->self_index);
    hashmap_free(&ix->call_index);
    hashmap_free(&ix->child_index);
    free(ix->chain);
    free(ix->pending);
    buf_free(&ix->text);
    free(ix->debug_path);
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
    hashmap_clear(&ix->self_index);
    hashmap_clear(&ix->call_index);
    hashmap_clear(&ix->child_index);
}

bool inline_self(struct inline_ctx *ix, uint32_t node, uint64_t addr, uint64_t cost)
{
    if (cost == 0)
        return true;
    bool inserted;
    uint32_t *slot = hashmap_upsert(&ix->self_index, node, addr, (uint32_t)ix->nselfs,
                                    &inserted);
    if (inserted) {
        if (ix->nselfs >= UINT32_MAX - 1)
            out_of_memory();
        GROW(ix->selfs, ix->selfs_cap, ix->nselfs);
        ix->selfs[ix->nselfs++] = (struct self_rec){node, addr, 0};
    }
    struct self_rec *r = &ix->selfs[*slot];
    return add_u64(r->cost, cost, &r->cost);
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

static void read_units(struct object *o)
{
    size_t cap_r = 0, cap_c = 0;
    Dwarf_CU *cu = NULL, *next;
    Dwarf_Half version;
    uint8_t unit_type;
    Dwarf_Die cudie, subdie;
    while (dwarf_get_units(o->dbg, cu, &next, &version, &unit_type, &cudie, &subdie) == 0) {
        cu = next;
        Dwarf_Die *scopes = &cudie;
        if (unit_type == DW_UT_skeleton && dwarf_tag(&subdie) == DW_TAG_compile_unit)
            scopes = &subdie; /* split DWARF whose .dwo was found */
        else if (unit_type != DW_UT_compile)
            continue;
        ptrdiff_t off = 0;
        Dwarf_Addr base, lo, hi;
        uint32_t index = (uint32_t)o->ncus;
        bool any = false;
        while ((off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0) {
            if (hi <= lo)
                continue;
            GROW(o->ranges, cap_r, o->nranges);
            o->ranges[o->nranges++] = (struct cu_range){lo, hi, index};
            any = true;
        }
        if (!any)
            continue;
        GROW(o->cus, cap_c, o->ncus);
        o->cus[o->ncus].die = *scopes;
        o->cus[o->ncus].tree = NULL;
        o->ncus++;
    }
    qsort(o->ranges, o->nranges, sizeof *o->ranges, cu_by_lo);
}

static void open_object(struct inline_ctx *ix, struct object *o, const char *path)
{
    o->state = OBJ_OK;
    if (!*path || strcmp(path, "???") == 0 || path[0] != '/') {
        fail_object(o, "%s", *path ? "not a file name" : "no object name");
        return;
    }
    o->dwfl = dwfl_begin(&ix->callbacks);
    if (!o->dwfl) {
        fail_object(o, "libdw: %s", dwfl_errmsg(-1));
        return;
    }
    dwfl_report_begin(o->dwfl);
    const char *base = strrchr(path, '/') + 1;
    o->mod = dwfl_report_offline(o->dwfl, base, path, -1);
    dwfl_report_end(o->dwfl, NULL, NULL);
    if (!o->mod) {
        fail_object(o, "cannot read it: %s", dwfl_errmsg(-1));
        return;
    }
    if (!dwfl_module_getelf(o->mod, &o->elf_bias)) {
        fail_object(o, "cannot read it: %s", dwfl_errmsg(-1));
        return;
    }
    o->dbg = dwfl_module_getdwarf(o->mod, &o->dwarf_bias);
    if (!o->dbg) {
        fail_object(o, "%s", "no DWARF debug info, in it or in a separate debug file");
        return;
    }
    read_units(o);
    if (o->ncus == 0)
        fail_object(o, "%s", "its DWARF describes no code");
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

static int sym_by_addr(const void *a, const void *b)
{
    const struct symbol *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The object's function symbols by address, read once for the bias. */
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
    if (n)
        qsort(syms, n, sizeof *syms, sym_by_addr);
    *count = n;
    return syms;
}

/* Samples whose address (minus bias) lies in a symbol of the same name;
 * aliases at the same address all count. */
static size_t count_matches(struct inline_ctx *ix, const struct symbol *syms, size_t nsyms,
                            const struct sample *s, size_t n, uint64_t bias)
{
    size_t matches = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = s[i].addr - bias;
        size_t lo = 0, hi = nsyms; /* first symbol above a */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (syms[mid].addr <= a)
                lo = mid + 1;
            else
                hi = mid;
        }
        /* Symbols starting at or below a, nearest first, while they can
         * still hold it (a few: aliases and nested symbols). */
        for (size_t j = lo, tries = 0; j > 0 && tries < 16; j--, tries++) {
            const struct symbol *y = &syms[j - 1];
            if (a < y->addr + (y->size ? y->size : 1) &&
                same_name(s[i].name, s[i].len, y->name, ix->mangled_names)) {
                matches++;
                break;
            }
        }
    }
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

static void find_bias(struct inline_ctx *ix, struct object *o, const struct sample *s,
                      size_t n)
{
    o->bias_known = true;
    o->bias = 0;
    if (n == 0)
        return; /* only unnamed functions: trust callgrind's ELF addresses */
    size_t nsyms;
    struct symbol *syms = read_symbols(o, &nsyms);
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

static uint32_t new_scope(struct scope_tree *t, Dwarf_Off die, bool subprogram)
{
    if (t->nnodes >= UINT32_MAX - 1)
        out_of_memory();
    GROW(t->nodes, t->nodes_cap, t->nnodes);
    t->nodes[t->nnodes] = (struct scope_node){die, 0, 0, NONE, subprogram};
    return (uint32_t)t->nnodes++;
}

static void walk_children(struct inline_ctx *ix, struct scope_tree *t, Dwarf_Die *die,
                          int depth);

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

static void visit(struct inline_ctx *ix, struct scope_tree *t, Dwarf_Die *die, int depth)
{
    int tag = dwarf_tag(die);
    if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) {
        /* Lexical blocks, namespaces, ...: look through them. */
        if (dwarf_haschildren(die) > 0)
            walk_children(ix, t, die, depth + 1);
        return;
    }
    /* Ranges first: scopes without code (declarations, abstract
     * instances) hold nothing to find. */
    size_t first = ix->npending;
    ptrdiff_t off = 0;
    Dwarf_Addr base, lo, hi;
    while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
        if (hi <= lo)
            continue;
        GROW(ix->pending, ix->pending_cap, ix->npending);
        ix->pending[ix->npending++] = (struct scope_entry){lo, hi, NONE};
    }
    size_t last = ix->npending;
    if (last == first)
        return;
    uint32_t node = new_scope(t, dwarf_dieoffset(die), tag == DW_TAG_subprogram);
    for (size_t i = first; i < last; i++)
        ix->pending[i].node = node;
    size_t mark = ix->npending;
    if (dwarf_haschildren(die) > 0)
        walk_children(ix, t, die, depth + 1);
    close_scope(ix, t, node, mark);
}

static void walk_children(struct inline_ctx *ix, struct scope_tree *t, Dwarf_Die *die,
                          int depth)
{
    if (depth > MAX_SCOPE_DEPTH)
        return;
    Dwarf_Die child;
    if (dwarf_child(die, &child) != 0)
        return;
    do
        visit(ix, t, &child, depth);
    while (dwarf_siblingof(&child, &child) == 0);
}

static struct scope_tree *build_tree(struct inline_ctx *ix, Dwarf_Die *cudie)
{
    struct scope_tree *t = xcalloc(1, sizeof *t);
    uint32_t root = new_scope(t, dwarf_dieoffset(cudie), true);
    size_t mark = ix->npending;
    walk_children(ix, t, cudie, 0);
    close_scope(ix, t, root, mark);
    return t;
}

/* Child scope of `node` whose ranges hold pc, or NONE. */
static uint32_t child_at(const struct scope_tree *t, uint32_t node, uint64_t pc)
{
    const struct scope_node *n = &t->nodes[node];
    const struct scope_entry *e = t->entries + n->first;
    size_t lo = 0, hi = n->count; /* first entry with e.lo > pc */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Siblings do not overlap in sane DWARF; look back a little anyway. */
    for (size_t i = lo, tries = 0; i > 0 && tries < 8; i--, tries++)
        if (pc < e[i - 1].hi)
            return e[i - 1].node;
    return NONE;
}

static uint32_t frame_name(struct inline_ctx *ix, struct object *o, struct scope_node *sn,
                           struct strtab *names)
{
    if (sn->frame != NONE)
        return sn->frame;
    Dwarf_Die die, *d = dwarf_offdie(o->dbg, sn->die, &die);
    const char *name = NULL;
    char *demangled = NULL;
    if (d) {
        Dwarf_Attribute attr;
        const char *linkage = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_linkage_name, &attr));
        if (!linkage)
            linkage = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_MIPS_linkage_name, &attr));
        if (linkage && ix->mangled_names)
            name = linkage;
        else if (linkage && (demangled = demangle(linkage)))
            name = demangled;
        else
            name = dwarf_diename(d);
    }
    struct buf *b = &ix->text;
    b->len = 0;
    buf_append(b, name ? name : "??", strlen(name ? name : "??"));
    buf_append(b, INLINE_MARK, strlen(INLINE_MARK));
    free(demangled);
    sn->frame = strtab_intern(names, b->data, b->len);
    return sn->frame;
}

/* Chain of inlined frames at address addr of object o, interned. */
static uint32_t resolve(struct inline_ctx *ix, uint32_t oi, uint64_t addr,
                        struct strtab *names)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&ix->memo, oi, addr, ix->empty_chain, &inserted);
    if (!inserted)
        return *slot;
    struct object *o = &ix->objects[oi];
    if (o->state != OBJ_OK) {
        o->lost_addrs++;
        return ix->empty_chain;
    }
    uint64_t pc = addr - o->bias + o->elf_bias - o->dwarf_bias;
    /* The unit: last range starting at or below pc. */
    size_t lo = 0, hi = o->nranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->ranges[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t cu = NONE;
    for (size_t i = lo, tries = 0; i > 0 && tries < 8; i--, tries++)
        if (pc < o->ranges[i - 1].hi) {
            cu = o->ranges[i - 1].cu;
            break;
        }
    if (cu == NONE)
        return ix->empty_chain;
    struct cu_info *ci = &o->cus[cu];
    if (!ci->tree)
        ci->tree = build_tree(ix, &ci->die);
    struct scope_tree *t = ci->tree;
    ix->chain_len = 0;
    for (uint32_t node = 0;;) {
        uint32_t child = child_at(t, node, pc);
        if (child == NONE)
            break;
        if (t->nodes[child].subprogram) {
            ix->chain_len = 0; /* a function of its own (nested function) */
        } else {
            GROW(ix->chain, ix->chain_cap, ix->chain_len);
            ix->chain[ix->chain_len++] = frame_name(ix, o, &t->nodes[child], names);
        }
        node = child;
    }
    uint32_t id = ix->chain_len == 0
                      ? ix->empty_chain
                      : strtab_intern(&ix->chains, (const char *)ix->chain,
                                      ix->chain_len * sizeof *ix->chain);
    *slot = id; /* nothing above touched the memo: the slot is still valid */
    return id;
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

static uint32_t object_index_of(struct inline_ctx *ix, struct profile *p, uint32_t node,
                                struct strtab *names)
{
    uint32_t oi;
    struct object *o = object_of(ix, p->nodes[node].object, &oi);
    if (o->state == OBJ_NEW)
        open_object(ix, o, strtab_str(names, o->name));
    return oi;
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
            obj[i] = object_index_of(ix, p, (uint32_t)i, names);

    /* Biases of the objects met for the first time. */
    struct sample *samples = xmalloc(BIAS_SAMPLES * sizeof *samples);
    for (size_t oi = 0; oi < ix->nobjects; oi++) {
        struct object *o = &ix->objects[oi];
        if (o->state != OBJ_OK || o->bias_known)
            continue;
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

    /* Self costs summed per (function, chain) first: many addresses
     * share a chain, and the graph needs one node per chain. The records
     * are rewritten in place: addr becomes the chain. */
    int rc = 0;
    struct hashmap by_chain;
    hashmap_init(&by_chain);
    size_t nsum = 0;
    for (size_t i = 0; i < ix->nselfs && rc == 0; i++) {
        struct self_rec r = ix->selfs[i];
        uint32_t chain = resolve(ix, obj[r.node], r.addr, names);
        struct object *o = &ix->objects[obj[r.node]];
        if (o->state != OBJ_OK && !add_u64(o->lost_cost, r.cost, &o->lost_cost))
            o->lost_cost = UINT64_MAX;
        bool inserted;
        uint32_t *slot = hashmap_upsert(&by_chain, r.node, chain, (uint32_t)nsum, &inserted);
        if (inserted)
            ix->selfs[nsum++] = (struct self_rec){r.node, chain, r.cost};
        else if (!add_u64(ix->selfs[*slot].cost, r.cost, &ix->selfs[*slot].cost))
            rc = -1;
    }
    hashmap_free(&by_chain);
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
