/* The DIEs of a unit walked, their range lists and names read (dieread.h,
 * the walks' half; the units they are in come from dieread.c).
 *
 * Takes: units (dieform.h) and DIE offsets in them.  Hands on: DIEs with
 * their tag, scope attributes, children and next sibling, range lists
 * and names, to the scope trees (scopes.c), the unit lookup (lookup.c)
 * and the frame names (names.c). */
#include "dieread.h"
#include "dieform.h"
#include "util/util.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* ---- DIEs ----------------------------------------------------------------------------- */

/* Offset past d's attributes, and its DW_AT_sibling (0 if none). */
static bool skip_attrs(const struct die_unit *u, const struct die *d, uint64_t *end,
                       uint64_t *sibling)
{
    const struct abbrev *a = &u->table->abbrevs[d->abbrev];
    *sibling = 0;
    if (a->fixed >= 0 && !a->has_sibling) {
        *end = d->attrs + (uint64_t)a->fixed;
        return *end <= u->end;
    }
    const unsigned char *info = u->r->sec[SEC_INFO].data;
    struct cursor c = {info + d->attrs, info + u->end};
    for (uint32_t i = 0; i < a->count; i++) {
        const struct attr_spec *spec = &u->table->specs[a->first + i];
        uint64_t v;
        uint32_t form;
        if (spec->name != DW_AT_sibling ? !step_over(u, spec, &c)
                                        : !read_form(u, spec, &c, &v, &form) ||
                                              !reference(u, form, v, sibling))
            return false;
    }
    *end = (uint64_t)(c.p - info);
    return true;
}

bool die_scope_attrs(const struct die_unit *u, const struct die *d, struct die_scope *s)
{
    memset(s, 0, sizeof *s);
    if (d->tag == 0)
        return false;
    const struct abbrev *a = &u->table->abbrevs[d->abbrev];
    const unsigned char *info = u->r->sec[SEC_INFO].data;
    struct cursor c = {info + d->attrs, info + u->end};
    bool high_is_size = false;
    for (uint32_t i = 0; i < a->count; i++) {
        const struct attr_spec *spec = &u->table->specs[a->first + i];
        uint64_t v;
        uint32_t form;
        switch (spec->name) {
        case DW_AT_low_pc:
        case DW_AT_high_pc:
        case DW_AT_ranges:
        case DW_AT_abstract_origin:
        case DW_AT_specification:
        case DW_AT_sibling:
        case DW_AT_call_file:
        case DW_AT_call_line:
            if (!read_form(u, spec, &c, &v, &form))
                return false;
            break;
        case DW_AT_name:
        case DW_AT_linkage_name:
        case DW_AT_MIPS_linkage_name:
            s->has_name = true;
            /* fall through */
        default:
            if (!step_over(u, spec, &c))
                return false;
            continue;
        }
        switch (spec->name) {
        case DW_AT_low_pc:
            if (!address(u, form, v, &s->lo))
                return false;
            s->has_low = true;
            break;
        case DW_AT_high_pc:
            /* An address in these forms, else a size (as libdw reads it). */
            if (form == DW_FORM_addr || is_addrx(form)) {
                if (!address(u, form, v, &s->hi))
                    return false;
                high_is_size = false;
            } else if (constant(form)) {
                s->hi = v;
                high_is_size = true;
            } else {
                return false;
            }
            s->has_high = true;
            break;
        case DW_AT_ranges:
            if (form == DW_FORM_rnglistx && u->version >= 5) {
                uint64_t rel;
                if (!u->has_rnglists_base ||
                    !table_entry(&u->rnglists, u->rnglists_base, v, u->offset_size, &rel) ||
                    !add_u64(rel, u->rnglists_base, &s->ranges))
                    return false;
            } else if (form == DW_FORM_sec_offset ||
                       (u->version < 4 && (form == DW_FORM_data4 || form == DW_FORM_data8))) {
                if (!add_u64(v, u->ranges_offset, &s->ranges))
                    return false;
            } else {
                return false;
            }
            s->has_ranges = true;
            break;
        case DW_AT_abstract_origin:
        case DW_AT_specification:
            if (!s->has_origin) {
                if (!reference(u, form, v, &s->origin))
                    return false;
                s->has_origin = true;
            }
            break;
        case DW_AT_call_file:
        case DW_AT_call_line:
            /* where an inlined subroutine was inlined: a constant, else
             * left out (the caller's line is then its first) */
            if (constant(form) && v <= UINT32_MAX)
                *(spec->name == DW_AT_call_file ? &s->call_file : &s->call_line) = (uint32_t)v;
            break;
        default: /* DW_AT_sibling */
            if (!reference(u, form, v, &s->sibling))
                return false;
            break;
        }
    }
    if (s->has_low && s->has_high && high_is_size)
        s->hi += s->lo;
    s->end = (uint64_t)(c.p - info);
    return true;
}

bool die_children(const struct die_unit *u, const struct die *d, uint64_t *first)
{
    uint64_t sibling;
    return d->tag != 0 && skip_attrs(u, d, first, &sibling);
}

bool die_next(const struct die_unit *u, const struct die *d, const struct die_scope *s,
              uint64_t *next)
{
    if (d->tag == 0) {
        *next = d->attrs;
        return true;
    }
    uint64_t end, sibling;
    const struct abbrev *a = &u->table->abbrevs[d->abbrev];
    if (!s && d->has_children && a->sibling_at >= 0) {
        /* Straight to the sibling, the other values unread. */
        const unsigned char *info = u->r->sec[SEC_INFO].data;
        struct cursor c = {info + d->attrs + (uint64_t)a->sibling_at, info + u->end};
        struct attr_spec spec = {DW_AT_sibling, a->sibling_form, -1, 0};
        uint64_t v;
        uint32_t form;
        if (d->attrs + (uint64_t)a->sibling_at < u->end && read_form(u, &spec, &c, &v, &form) &&
            reference(u, form, v, &sibling) && sibling > d->offset) {
            *next = sibling;
            return true;
        }
    }
    if (s) {
        end = s->end;
        sibling = s->sibling;
    } else if (!skip_attrs(u, d, &end, &sibling)) {
        return false;
    }
    if (!d->has_children) {
        *next = end;
        return true;
    }
    if (sibling) {
        *next = sibling;
        return sibling > d->offset;
    }
    /* Past the children, to the null entry that ends them. */
    uint64_t off = end;
    for (size_t depth = 1;;) {
        struct die c;
        if (!die_at(u, off, &c))
            return false;
        if (c.tag == 0) {
            off = c.attrs;
            if (--depth == 0)
                break;
            continue;
        }
        if (!skip_attrs(u, &c, &end, &sibling))
            return false;
        if (c.has_children && sibling > c.offset) {
            off = sibling;
        } else {
            depth += c.has_children;
            off = end;
        }
    }
    *next = off;
    return true;
}

/* ---- range lists ------------------------------------------------------------------ */

bool die_ranges(const struct die_unit *u, uint64_t offset, die_range_fn *fn, void *arg)
{
    const struct section *s = u->version >= 5 ? &u->rnglists : &u->ranges;
    if (!s->data || offset >= s->size)
        return false;
    struct cursor c = {s->data + offset, s->data + s->size};
    uint64_t base = u->base;
    unsigned size = u->addr_size;
    if (u->version < 5) {
        /* .debug_ranges: (begin, end) pairs from the base address; a
         * begin of all ones selects a new base; (0, 0) ends. */
        uint64_t all_ones = size == 8 ? UINT64_MAX : UINT32_MAX;
        for (;;) {
            uint64_t lo, hi;
            if (!fixed(&c, size, &lo) || !fixed(&c, size, &hi))
                return false;
            if (lo == 0 && hi == 0)
                return true;
            if (lo == all_ones) {
                base = hi;
                continue;
            }
            if (base + lo < base + hi)
                fn(arg, base + lo, base + hi);
        }
    }
    for (;;) {
        uint64_t a, b, lo, hi;
        if (c.p >= c.end)
            return false;
        switch (*c.p++) {
        case DW_RLE_end_of_list:
            return true;
        case DW_RLE_base_addressx:
            if (!uleb(&c, &a) || !addrx(u, a, &base))
                return false;
            continue;
        case DW_RLE_base_address:
            if (!fixed(&c, size, &base))
                return false;
            continue;
        case DW_RLE_startx_endx:
            if (!uleb(&c, &a) || !uleb(&c, &b) || !addrx(u, a, &lo) || !addrx(u, b, &hi))
                return false;
            break;
        case DW_RLE_startx_length:
            if (!uleb(&c, &a) || !uleb(&c, &b) || !addrx(u, a, &lo))
                return false;
            hi = lo + b;
            break;
        case DW_RLE_offset_pair:
            if (!uleb(&c, &a) || !uleb(&c, &b))
                return false;
            lo = base + a;
            hi = base + b;
            break;
        case DW_RLE_start_end:
            if (!fixed(&c, size, &lo) || !fixed(&c, size, &hi))
                return false;
            break;
        case DW_RLE_start_length:
            if (!fixed(&c, size, &lo) || !uleb(&c, &b))
                return false;
            hi = lo + b;
            break;
        default:
            return false;
        }
        if (lo < hi)
            fn(arg, lo, hi);
    }
}

/* ---- names --------------------------------------------------------------------------- */

bool die_names_at(struct die_reader *r, const struct die_unit *u, uint64_t offset,
                  struct die_names *n)
{
    if (!u || offset < u->die || offset >= u->end)
        u = die_unit_holding(r, offset);
    struct die d;
    if (!u || !die_at(u, offset, &d) || d.tag == 0)
        return false;
    const struct abbrev *a = &u->table->abbrevs[d.abbrev];
    const unsigned char *info = u->r->sec[SEC_INFO].data;
    struct cursor c = {info + d.attrs, info + u->end};
    for (uint32_t i = 0; i < a->count; i++) {
        const struct attr_spec *spec = &u->table->specs[a->first + i];
        uint64_t v;
        uint32_t form;
        switch (spec->name) {
        case DW_AT_linkage_name:
        case DW_AT_MIPS_linkage_name:
        case DW_AT_name:
        case DW_AT_abstract_origin:
        case DW_AT_specification:
            if (!read_form(u, spec, &c, &v, &form))
                return false;
            break;
        default:
            if (!step_over(u, spec, &c))
                return false;
            continue;
        }
        switch (spec->name) {
        case DW_AT_linkage_name:
        case DW_AT_MIPS_linkage_name:
            if (!n->linkage && !string(u, form, v, &n->linkage))
                return false;
            break;
        case DW_AT_name:
            if (!n->name && !string(u, form, v, &n->name))
                return false;
            break;
        case DW_AT_abstract_origin:
        case DW_AT_specification:
            if (!n->has_next) {
                if (!reference(u, form, v, &n->next))
                    return false;
                n->has_next = true;
            }
            break;
        }
    }
    return true;
}
