/* --inline: the function at an address. The unit is found by the
 * object's sorted address ranges (mostly the previous lookup's); its
 * index of functions is taken from the cache (indexcache.c), else built
 * by the direct reader, else through libdw (scopes.c), the first time an
 * address falls in the unit; the function's tree likewise, the first
 * time an address falls in the function. */
#include "lookup.h"
#include "context.h"
#include "dieread.h"
#include "indexcache.h"
#include "objects.h"
#include "scopes.h"

#include <dwarf.h>

/* C's types hold no functions: their members need not be walked. */
static bool c_language(uint64_t lang)
{
    return lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
           lang == DW_LANG_C11;
}

/* A skeleton unit (its scopes in a split unit)? */
static bool skeleton_unit(Dwarf *dbg, Dwarf_Off offset)
{
    Dwarf_Off next;
    size_t header_size;
    Dwarf_Die cudie;
    uint8_t unit_type;
    return dwarf_next_unit(dbg, offset, &next, &header_size, NULL, NULL, NULL, NULL, NULL,
                           NULL) == 0 &&
           dwarf_offdie(dbg, offset + header_size, &cudie) &&
           dwarf_cu_info(cudie.cu, NULL, &unit_type, NULL, NULL, NULL, NULL, NULL) == 0 &&
           unit_type == DW_UT_skeleton;
}

uint32_t unit_at(struct object *o, uint64_t pc)
{
    /* the range holding pc, mostly the previous one */
    const struct cu_range *r = o->ranges;
    size_t i = o->last_range;
    if (i < o->nranges && r[i].lo <= pc && pc < r[i].hi)
        return r[i].cu;
    size_t lo = 0, hi = o->nranges; /* last range starting at or below pc */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t j = lo, tries = 0; j > 0 && tries < 8; j--, tries++)
        if (pc < r[j - 1].hi) {
            o->last_range = j - 1;
            return r[j - 1].cu;
        }
    if (!o->units_walked) {
        walk_units(o); /* perhaps a unit .debug_aranges leaves out */
        return unit_at(o, pc);
    }
    return NONE;
}

/* The scope tree of the function holding pc (a DWARF address), built
 * when first needed; NULL when no function of the object holds it. */
struct scope_tree *function_tree(struct inline_ctx *ix, struct object *o, uint64_t pc,
                                 bool *split_missing)
{
    if (pc - o->last_fn_lo < o->last_fn_hi - o->last_fn_lo)
        return o->last_fn;
    uint32_t cu = unit_at(o, pc);
    if (cu == NONE)
        return NULL;
    struct cu_info *ci = &o->cus[cu];
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
    /* A split unit of a package: its offsets are no libdw DIEs. */
    bool package = ci->plain && die_unit_split(ci->plain);
    if (!ci->index && (ix->direct_only || package))
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
        ci->split_missing = ci->state == UNIT_NONE && skeleton_unit(o->dbg, ci->offset);
    }
    if (!ci->index && ci->state == UNIT_NONE) {
        *split_missing = ci->split_missing;
        return NULL;
    }
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
    if (!f->inner && (ix->direct_only || package))
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
