/* The inside of dieread.c and diewalk.c (dieread.h): the layout of a
 * reader and its units, and the decoding of attribute values both read.
 *
 * Takes: the bytes of an object's (or a package's) DWARF sections.
 * Hands on: units with their decoded abbreviation tables (dieread.c
 * makes them) and the value of one attribute at a cursor (here, inline:
 * called for every attribute of every DIE walked), to the DIE walks,
 * range lists and names of diewalk.c.  Private to those two files. */
#ifndef CF_INLINE_DIEFORM_H
#define CF_INLINE_DIEFORM_H

#include <dwarf.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dieread.h"
#include "util/util.h"

enum {
    SEC_INFO,
    SEC_ABBREV,
    SEC_STR,
    SEC_LINE_STR,
    SEC_ADDR,
    SEC_STR_OFFSETS,
    SEC_RNGLISTS,
    SEC_RANGES,
    NSECTIONS
};

struct section {
    const unsigned char *data;
    uint64_t size;
};

struct attr_spec {
    uint32_t name, form;
    int32_t size;     /* of its values when the form's size does not vary, else -1 */
    int64_t implicit; /* DW_FORM_implicit_const's value */
};

struct abbrev {
    uint32_t tag;
    uint32_t first, count; /* its specs */
    int32_t fixed;         /* size of all its values when no form varies, else -1 */
    /* Where DW_AT_sibling's value is when every value before it has a
     * fixed size (else -1), and its form: a skip needs only that. */
    int32_t sibling_at;
    uint32_t sibling_form;
    bool children, has_sibling;
};

struct abbrev_table {
    struct abbrev *abbrevs;
    size_t nabbrevs, abbrevs_cap;
    struct attr_spec *specs;
    size_t nspecs, specs_cap;
    /* Code -> abbrev (NONE for none): codes are mostly 1, 2, 3..., so an
     * array; a table with a code beyond DENSE_CODES has a map instead. */
    uint32_t *by_code;
    size_t ncodes;
    struct hashmap sparse;
};

#define DENSE_CODES 65536

struct die_unit {
    struct die_reader *r;     /* the reader of the sections its DIEs are in */
    uint64_t start, die, end; /* header, unit DIE, end of the unit */
    unsigned version, addr_size, offset_size;
    const struct abbrev_table *table;
    uint64_t base;            /* for range lists: the unit's low_pc */
    uint64_t addr_base, str_offsets_base, rnglists_base;
    bool has_addr_base, has_str_offsets_base, has_rnglists_base;
    uint64_t language;
    /* Sections its addresses and range lists are in: r's for a plain
     * unit; for a split unit, the object's .debug_addr and
     * .debug_ranges, the package's .debug_rnglists.dwo. */
    struct section addr, ranges, rnglists;
    uint64_t ranges_offset;   /* added to a DW_AT_ranges offset */
    bool split;               /* a package's split unit */
};

/* What a skeleton unit's DIE says of its split unit. */
struct skeleton {
    bool is_skeleton;
    bool has_dwo_id;
    uint64_t dwo_id;
    uint64_t ranges_base;     /* DW_AT_GNU_ranges_base */
};

struct die_reader {
    Dwarf *dbg;               /* NULL for a package's reader */
    struct section sec[NSECTIONS];
    struct hashmap tables_by_key; /* (abbrev offset, unit shape) -> tables */
    struct abbrev_table **tables;
    size_t ntables, tables_cap;
    struct hashmap units_by_offset; /* header offset -> units, NONE when not plain */
    struct die_unit **units;
    size_t nunits, units_cap;
    struct unit_header *headers;    /* all of them, for references across units */
    size_t nheaders;
    bool headers_read;
    /* The object's package of split units (.dwp), opened when a skeleton
     * unit is first read. */
    char *package_path;
    struct die_reader *package;
    bool package_tried;
    /* A package's reader: its file, and its index of split units
     * (.debug_cu_index): the dwo id's row, each row's offset and size of
     * its contribution to each section, by column. */
    Elf *elf;
    int fd;
    struct hashmap dwo_rows;          /* dwo id -> row (1-based) */
    const unsigned char *index_offsets, *index_sizes; /* row 1 first */
    uint32_t nrows, ncolumns;
    int column_of[9];                 /* DW_SECT_* -> column, -1 when none */
    unsigned index_version;
};


/* ---- reading values -------------------------------------------------------------- */

struct cursor {
    const unsigned char *p, *end;
};

static inline bool uleb(struct cursor *c, uint64_t *v)
{
    if (c->p < c->end && *c->p < 0x80) { /* one byte: most codes, forms, names */
        *v = *c->p++;
        return true;
    }
    uint64_t x = 0;
    for (unsigned shift = 0; c->p < c->end; shift += 7) {
        unsigned char b = *c->p++;
        if (shift < 64)
            x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

static inline bool sleb(struct cursor *c, int64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; c->p < c->end;) {
        unsigned char b = *c->p++;
        if (shift < 64)
            x |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) {
            if (shift < 64 && (b & 0x40))
                x |= ~(uint64_t)0 << shift;
            *v = (int64_t)x;
            return true;
        }
    }
    return false;
}

static inline bool host_little_endian(void)
{
    return *(const unsigned char *)&(const uint16_t){1} == 1;
}

/* An n-byte unsigned value (n <= 8) in the host's byte order, which is
 * the file's (die_reader_new checks). */
static inline bool fixed(struct cursor *c, unsigned n, uint64_t *v)
{
    if ((size_t)(c->end - c->p) < n)
        return false;
    uint64_t x = 0;
    if (n == 8) {
        memcpy(&x, c->p, 8);
    } else if (n == 4) {
        uint32_t y;
        memcpy(&y, c->p, 4);
        x = y;
    } else if (n == 2) {
        uint16_t y;
        memcpy(&y, c->p, 2);
        x = y;
    } else {
        bool le = host_little_endian();
        for (unsigned i = 0; i < n; i++)
            x |= (uint64_t)c->p[i] << (8 * (le ? i : n - 1 - i));
    }
    c->p += n;
    *v = x;
    return true;
}

static inline bool skip(struct cursor *c, uint64_t n)
{
    if ((uint64_t)(c->end - c->p) < n)
        return false;
    c->p += n;
    return true;
}

/* The size of a value of `form` in unit u when it does not vary, else -1. */
static inline int form_size(const struct die_unit *u, uint32_t form)
{
    switch (form) {
    case DW_FORM_flag_present:
    case DW_FORM_implicit_const:
        return 0;
    case DW_FORM_data1:
    case DW_FORM_ref1:
    case DW_FORM_flag:
    case DW_FORM_strx1:
    case DW_FORM_addrx1:
        return 1;
    case DW_FORM_data2:
    case DW_FORM_ref2:
    case DW_FORM_strx2:
    case DW_FORM_addrx2:
        return 2;
    case DW_FORM_strx3:
    case DW_FORM_addrx3:
        return 3;
    case DW_FORM_data4:
    case DW_FORM_ref4:
    case DW_FORM_ref_sup4:
    case DW_FORM_strx4:
    case DW_FORM_addrx4:
        return 4;
    case DW_FORM_data8:
    case DW_FORM_ref8:
    case DW_FORM_ref_sig8:
    case DW_FORM_ref_sup8:
        return 8;
    case DW_FORM_data16:
        return 16;
    case DW_FORM_addr:
        return (int)u->addr_size;
    case DW_FORM_ref_addr:
        return (int)(u->version <= 2 ? u->addr_size : u->offset_size);
    case DW_FORM_strp:
    case DW_FORM_line_strp:
    case DW_FORM_sec_offset:
    case DW_FORM_strp_sup:
    case DW_FORM_GNU_ref_alt:
    case DW_FORM_GNU_strp_alt:
        return (int)u->offset_size;
    default:
        return -1;
    }
}

/* Reads one value of `form` at c and moves past it. Numbers (constants,
 * offsets, indexes, references) into *v; for DW_FORM_string, *v is the
 * string's offset in .debug_info; blocks are skipped. *real is the form
 * after DW_FORM_indirect. False for forms not known here. */
static inline bool read_form(const struct die_unit *u, const struct attr_spec *spec, struct cursor *c,
                      uint64_t *v, uint32_t *real)
{
    uint64_t form = spec->form, len;
    for (int hops = 0; form == DW_FORM_indirect; hops++)
        if (hops > 4 || !uleb(c, &form))
            return false;
    *real = (uint32_t)form;
    *v = 0;
    switch (form) {
    case DW_FORM_implicit_const:
        *v = (uint64_t)spec->implicit;
        return true;
    case DW_FORM_flag_present:
        *v = 1;
        return true;
    case DW_FORM_sdata: {
        int64_t s;
        if (!sleb(c, &s))
            return false;
        *v = (uint64_t)s;
        return true;
    }
    case DW_FORM_udata:
    case DW_FORM_ref_udata:
    case DW_FORM_strx:
    case DW_FORM_addrx:
    case DW_FORM_loclistx:
    case DW_FORM_rnglistx:
    case DW_FORM_GNU_addr_index:
    case DW_FORM_GNU_str_index:
        return uleb(c, v);
    case DW_FORM_string: {
        const unsigned char *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
        if (!nul)
            return false;
        *v = (uint64_t)(c->p - u->r->sec[SEC_INFO].data);
        c->p = nul + 1;
        return true;
    }
    case DW_FORM_block1:
        return fixed(c, 1, &len) && skip(c, len);
    case DW_FORM_block2:
        return fixed(c, 2, &len) && skip(c, len);
    case DW_FORM_block4:
        return fixed(c, 4, &len) && skip(c, len);
    case DW_FORM_block:
    case DW_FORM_exprloc:
        return uleb(c, &len) && skip(c, len);
    case DW_FORM_data16:
        return skip(c, 16);
    default: {
        int n = form_size(u, (uint32_t)form);
        return n > 0 && fixed(c, (unsigned)n, v);
    }
    }
}

/* Moves past a value of no interest: by its size when it is fixed. */
static inline bool step_over(const struct die_unit *u, const struct attr_spec *spec,
                             struct cursor *c)
{
    if (spec->size >= 0) {
        if ((size_t)(c->end - c->p) < (size_t)spec->size)
            return false;
        c->p += spec->size;
        return true;
    }
    uint64_t v;
    uint32_t form;
    return read_form(u, spec, c, &v, &form);
}

/* An entry of a table of offsets or addresses (.debug_addr and the like). */
static inline bool table_entry(const struct section *s, uint64_t base, uint64_t index, unsigned size,
                        uint64_t *v)
{
    uint64_t at;
    if (!s->data || !mul_u64(index, size, &at) || !add_u64(at, base, &at) || at > s->size)
        return false;
    struct cursor c = {s->data + at, s->data + s->size};
    return fixed(&c, size, v);
}

static inline bool addrx(const struct die_unit *u, uint64_t index, uint64_t *addr)
{
    return u->has_addr_base && table_entry(&u->addr, u->addr_base, index, u->addr_size, addr);
}

static inline bool is_addrx(uint32_t form)
{
    return form == DW_FORM_addrx || form == DW_FORM_addrx1 || form == DW_FORM_addrx2 ||
           form == DW_FORM_addrx3 || form == DW_FORM_addrx4 || form == DW_FORM_GNU_addr_index;
}

static inline bool address(const struct die_unit *u, uint32_t form, uint64_t v, uint64_t *addr)
{
    if (form == DW_FORM_addr) {
        *addr = v;
        return true;
    }
    return is_addrx(form) && addrx(u, v, addr);
}

/* A reference as an offset in .debug_info. */
static inline bool reference(const struct die_unit *u, uint32_t form, uint64_t v, uint64_t *off)
{
    switch (form) {
    case DW_FORM_ref1:
    case DW_FORM_ref2:
    case DW_FORM_ref4:
    case DW_FORM_ref8:
    case DW_FORM_ref_udata:
        return add_u64(u->start, v, off) && *off < u->end;
    case DW_FORM_ref_addr:
        *off = v;
        return v < u->r->sec[SEC_INFO].size;
    default:
        return false; /* another file's (supplementary, dwz), or a type signature */
    }
}

static inline bool string(const struct die_unit *u, uint32_t form, uint64_t v, const char **out)
{
    const struct die_reader *r = u->r;
    const struct section *s = &r->sec[SEC_STR];
    switch (form) {
    case DW_FORM_string:
        *out = (const char *)r->sec[SEC_INFO].data + v; /* read_form found its end */
        return true;
    case DW_FORM_line_strp:
        s = &r->sec[SEC_LINE_STR];
        break;
    case DW_FORM_strp:
        break;
    case DW_FORM_strx:
    case DW_FORM_strx1:
    case DW_FORM_strx2:
    case DW_FORM_strx3:
    case DW_FORM_strx4:
    case DW_FORM_GNU_str_index:
        if (!u->has_str_offsets_base ||
            !table_entry(&r->sec[SEC_STR_OFFSETS], u->str_offsets_base, v, u->offset_size, &v))
            return false;
        break;
    default:
        return false;
    }
    if (!s->data || v >= s->size || !memchr(s->data + v, 0, (size_t)(s->size - v)))
        return false;
    *out = (const char *)s->data + v;
    return true;
}

static inline bool constant(uint32_t form)
{
    return form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 ||
           form == DW_FORM_data8 || form == DW_FORM_udata || form == DW_FORM_implicit_const;
}

/* The plain unit of r holding the DIE at `offset` (dieread.c), or NULL. */
const struct die_unit *die_unit_holding(struct die_reader *r, uint64_t offset);

#endif
