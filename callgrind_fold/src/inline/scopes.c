/* --inline: scope trees. A function's subprogram and inlined-subroutine
 * scopes (the DIEs with code) are read in one walk and flattened into
 * sorted disjoint intervals each naming its innermost scope, so a lookup
 * is one binary search, mostly skipped as addresses come in ascending
 * runs. A unit's index of its functions is the same kind of tree,
 * stopped at the functions. When each is built (the first time an
 * address falls in the function or the unit) is lookup.c's business.
 *
 * Each tree is built by the direct DIE reader (dieread.c, the plain_*
 * functions) where it can, else through libdw (visit, walk_children):
 * see inline.h for why there are two. */
#include "scopes.h"
#include "context.h"
#include "dieread.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCOPE_DEPTH 512

void free_tree(struct scope_tree *t)
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

static int by_lo(const void *a, const void *b)
{
    const struct scope_entry *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return (x->hi < y->hi) - (x->hi > y->hi);
}

uint32_t new_scope(struct scope_tree *t, const Dwarf_Die *name_die, uint32_t parent,
                   bool subprogram)
{
    if (t->nnodes >= UINT32_MAX - 1)
        out_of_memory();
    GROW(t->nodes, t->nodes_cap, t->nnodes);
    t->nodes[t->nnodes] = (struct scope_node){.name_die = *name_die,
                                              .parent = parent,
                                              .chain = NONE,
                                              .subprogram = subprogram,
                                              .sites = NONE};
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
    Dwarf_Word call_file, call_line;
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
    case DW_AT_call_file:
        if (dwarf_formudata(attr, &a->call_file) != 0)
            a->call_file = 0;
        break;
    case DW_AT_call_line:
        if (dwarf_formudata(attr, &a->call_line) != 0)
            a->call_line = 0;
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
    if (a.call_file <= UINT32_MAX && a.call_line <= UINT32_MAX) {
        t->nodes[node].call_file = (uint32_t)a.call_file;
        t->nodes[node].call_line = (uint32_t)a.call_line;
    }
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
struct scope_tree *build_tree(struct inline_ctx *ix, Dwarf_Die *die, bool index, bool c_unit)
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
    t->nodes[node].call_file = s.call_file;
    t->nodes[node].call_line = s.call_line;
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
struct scope_tree *plain_tree(struct inline_ctx *ix, const struct die_unit *u,
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
uint32_t scope_at(struct scope_tree *t, uint64_t pc)
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
