/* DIEs read directly: see dieread.h. The encoding (DWARF 5, sections
 * 7.5): a DIE is an abbreviation code (ULEB128, 0 for a null entry) and
 * then the values of the attributes its abbreviation lists, in order,
 * each in its form's encoding; children follow their parent's
 * attributes and end with a null entry.
 *
 * Split units of a package (DWARF 5, section 7.3.5; before it, the GNU
 * extension of DWARF 4 that rustc and gcc -gdwarf-4 write): a skeleton
 * unit of the object names its split unit by a 64-bit id, which the
 * package's .debug_cu_index maps to the unit's contribution to each
 * .dwo section. The split unit's DIEs are read from those, its
 * addresses from the object's .debug_addr at the skeleton's address
 * base, its DWARF 4 range lists from the object's .debug_ranges at the
 * skeleton's ranges base. */
#include "dieread.h"
#include "aranges.h"
#include "util/util.h"

#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static const char *const section_names[NSECTIONS] = {
    ".debug_info", ".debug_abbrev",      ".debug_str",      ".debug_line_str",
    ".debug_addr", ".debug_str_offsets", ".debug_rnglists", ".debug_ranges",
};

/* A package's sections in the same places (addresses and DWARF 4 range
 * lists are the object's). */
static const char *const package_names[NSECTIONS] = {
    ".debug_info.dwo", ".debug_abbrev.dwo",      ".debug_str.dwo",      NULL,
    NULL,              ".debug_str_offsets.dwo", ".debug_rnglists.dwo", NULL,
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

static bool sleb(struct cursor *c, int64_t *v)
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

static bool host_little_endian(void)
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

static bool skip(struct cursor *c, uint64_t n)
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
static bool read_form(const struct die_unit *u, const struct attr_spec *spec, struct cursor *c,
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
static bool table_entry(const struct section *s, uint64_t base, uint64_t index, unsigned size,
                        uint64_t *v)
{
    uint64_t at;
    if (!s->data || !mul_u64(index, size, &at) || !add_u64(at, base, &at) || at > s->size)
        return false;
    struct cursor c = {s->data + at, s->data + s->size};
    return fixed(&c, size, v);
}

static bool addrx(const struct die_unit *u, uint64_t index, uint64_t *addr)
{
    return u->has_addr_base && table_entry(&u->addr, u->addr_base, index, u->addr_size, addr);
}

static bool is_addrx(uint32_t form)
{
    return form == DW_FORM_addrx || form == DW_FORM_addrx1 || form == DW_FORM_addrx2 ||
           form == DW_FORM_addrx3 || form == DW_FORM_addrx4 || form == DW_FORM_GNU_addr_index;
}

static bool address(const struct die_unit *u, uint32_t form, uint64_t v, uint64_t *addr)
{
    if (form == DW_FORM_addr) {
        *addr = v;
        return true;
    }
    return is_addrx(form) && addrx(u, v, addr);
}

/* A reference as an offset in .debug_info. */
static bool reference(const struct die_unit *u, uint32_t form, uint64_t v, uint64_t *off)
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

static bool string(const struct die_unit *u, uint32_t form, uint64_t v, const char **out)
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

static bool constant(uint32_t form)
{
    return form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 ||
           form == DW_FORM_data8 || form == DW_FORM_udata || form == DW_FORM_implicit_const;
}

/* ---- abbreviation tables --------------------------------------------------------- */

static void table_free(struct abbrev_table *t)
{
    if (!t)
        return;
    free(t->abbrevs);
    free(t->specs);
    free(t->by_code);
    hashmap_free(&t->sparse);
    free(t);
}

/* The table at `offset` of .debug_abbrev, with sizes for unit u's shape. */
static struct abbrev_table *table_read(const struct die_unit *u, uint64_t offset)
{
    const struct section *s = &u->r->sec[SEC_ABBREV];
    if (offset >= s->size)
        return NULL;
    struct cursor c = {s->data + offset, s->data + s->size};
    struct abbrev_table *t = xcalloc(1, sizeof *t);
    hashmap_init(&t->sparse);
    size_t codes_cap = 0;
    bool ok = true;
    for (;;) {
        uint64_t code, tag, name, form;
        ok = uleb(&c, &code);
        if (!ok || code == 0)
            break;
        ok = uleb(&c, &tag) && c.p < c.end && code < NONE && tag < NONE;
        if (!ok)
            break;
        struct abbrev a = {(uint32_t)tag, (uint32_t)t->nspecs, 0, 0, -1, 0, *c.p++ != 0, false};
        for (;;) {
            int64_t implicit = 0;
            ok = uleb(&c, &name) && uleb(&c, &form) &&
                 (form != DW_FORM_implicit_const || sleb(&c, &implicit)) && name < NONE &&
                 form < NONE;
            if (!ok || (name == 0 && form == 0))
                break;
            int size = form_size(u, (uint32_t)form);
            if (name == DW_AT_sibling && !a.has_sibling && a.fixed >= 0) {
                a.sibling_at = a.fixed; /* the size of the values before it */
                a.sibling_form = (uint32_t)form;
            }
            GROW(t->specs, t->specs_cap, t->nspecs);
            t->specs[t->nspecs++] =
                (struct attr_spec){(uint32_t)name, (uint32_t)form, size, implicit};
            a.fixed = a.fixed < 0 || size < 0 || a.fixed > INT32_MAX / 2 ? -1 : a.fixed + size;
            a.has_sibling |= name == DW_AT_sibling;
        }
        if (!ok)
            break;
        a.count = (uint32_t)t->nspecs - a.first;
        bool inserted = true; /* the first of a code counts */
        if (code >= DENSE_CODES && t->by_code) { /* from array to map */
            for (size_t i = 0; i < t->ncodes; i++)
                if (t->by_code[i] != NONE)
                    hashmap_put(&t->sparse, i, 0, t->by_code[i]);
            free(t->by_code);
            t->by_code = NULL;
            t->ncodes = 0;
        }
        if (code < DENSE_CODES && t->sparse.count == 0) {
            while (t->ncodes <= code) {
                GROW(t->by_code, codes_cap, t->ncodes);
                t->by_code[t->ncodes++] = NONE;
            }
            if ((inserted = t->by_code[code] == NONE))
                t->by_code[code] = (uint32_t)t->nabbrevs;
        } else {
            hashmap_upsert(&t->sparse, code, 0, (uint32_t)t->nabbrevs, &inserted);
        }
        if (inserted) {
            GROW(t->abbrevs, t->abbrevs_cap, t->nabbrevs);
            t->abbrevs[t->nabbrevs++] = a;
        }
    }
    if (!ok) {
        table_free(t);
        return NULL;
    }
    return t;
}

static const struct abbrev_table *table_for(struct die_reader *r, const struct die_unit *u,
                                            uint64_t offset)
{
    uint64_t shape = u->addr_size | u->offset_size << 8 | (uint64_t)u->version << 16;
    uint32_t at;
    if (hashmap_get(&r->tables_by_key, offset, shape, &at))
        return r->tables[at];
    struct abbrev_table *t = table_read(u, offset);
    if (!t)
        return NULL;
    GROW(r->tables, r->tables_cap, r->ntables);
    r->tables[r->ntables] = t;
    hashmap_put(&r->tables_by_key, offset, shape, (uint32_t)r->ntables++);
    return t;
}

/* ---- the reader ------------------------------------------------------------------- */

/* The sections of `names` in elf into r->sec; false when the file is not
 * one to read directly (relocatable, but for a package, whose .dwo
 * sections need no relocation; foreign-endian) or lacks the DIEs'
 * sections. */
static bool load_sections(struct die_reader *r, Elf *elf, const char *const *names)
{
    GElf_Ehdr eh;
    size_t shstrndx;
    if (!elf || !gelf_getehdr(elf, &eh) || (eh.e_type == ET_REL && names != package_names) ||
        eh.e_ident[EI_DATA] != (host_little_endian() ? ELFDATA2LSB : ELFDATA2MSB) ||
        elf_getshdrstrndx(elf, &shstrndx) != 0)
        return false;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
            continue;
        for (int i = 0; i < NSECTIONS; i++) {
            if (!names[i] || strcmp(name, names[i]) != 0 || r->sec[i].data)
                continue;
            Elf_Data *d = sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_COMPRESSED)
                              ? NULL : elf_getdata(scn, NULL);
            if (d && d->d_buf)
                r->sec[i] = (struct section){d->d_buf, d->d_size};
        }
    }
    return r->sec[SEC_INFO].data && r->sec[SEC_ABBREV].data;
}

struct die_reader *die_reader_new(Dwarf *dbg)
{
    struct die_reader *r = xcalloc(1, sizeof *r);
    r->dbg = dbg;
    r->fd = -1;
    if (!load_sections(r, dwarf_getelf(dbg), section_names)) {
        free(r);
        return NULL;
    }
    hashmap_init(&r->tables_by_key);
    hashmap_init(&r->units_by_offset);
    hashmap_init(&r->dwo_rows);
    return r;
}

void die_reader_free(struct die_reader *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ntables; i++)
        table_free(r->tables[i]);
    free(r->tables);
    for (size_t i = 0; i < r->nunits; i++)
        free(r->units[i]);
    free(r->units);
    hashmap_free(&r->tables_by_key);
    hashmap_free(&r->units_by_offset);
    hashmap_free(&r->dwo_rows);
    free(r->headers);
    free(r->package_path);
    die_reader_free(r->package);
    if (r->elf)
        elf_end(r->elf);
    if (r->fd >= 0)
        close(r->fd);
    free(r);
}

void die_reader_package(struct die_reader *r, const char *object_path)
{
    size_t n = strlen(object_path);
    free(r->package_path);
    r->package_path = xmalloc(n + 5);
    memcpy(r->package_path, object_path, n);
    memcpy(r->package_path + n, ".dwp", 5);
}

/* A 4-byte value of a package's index. */
static uint32_t u32_at(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* The package's .debug_cu_index (DWARF 5, section 7.3.5.3; version 2 is
 * the GNU extension's, the same but for its section ids): a header, a
 * hash table of dwo ids and their rows, then a table of section ids and
 * the rows' contribution offsets, then their sizes. */
static bool read_cu_index(struct die_reader *p, const struct section *ix)
{
    if (ix->size < 16)
        return false;
    const unsigned char *d = ix->data;
    uint32_t v4 = u32_at(d);
    uint16_t v2;
    memcpy(&v2, d, 2);
    unsigned version = v4 == 2 ? 2 : v2 == 5 ? 5 : 0;
    uint32_t ncols = u32_at(d + 4), nrows = u32_at(d + 8), nslots = u32_at(d + 12);
    if (!version || ncols == 0 || ncols > 8 || nrows > nslots || nslots > (1u << 24))
        return false;
    /* header, slots (8 + 4 bytes), the ids row, offsets and sizes */
    uint64_t need = 16 + (uint64_t)nslots * 12 + 4 * (uint64_t)ncols * (1 + 2 * (uint64_t)nrows);
    if (need > ix->size)
        return false;
    const unsigned char *ids = d + 16 + (uint64_t)nslots * 12;
    for (int k = 0; k < 9; k++)
        p->column_of[k] = -1;
    for (uint32_t c = 0; c < ncols; c++) {
        uint32_t id = u32_at(ids + 4 * c);
        if (id == 0 || id > 8 || p->column_of[id] >= 0)
            return false;
        p->column_of[id] = (int)c;
    }
    for (uint32_t k = 0; k < nslots; k++) {
        uint64_t id;
        memcpy(&id, d + 16 + 8 * (uint64_t)k, 8);
        uint32_t row = u32_at(d + 16 + 8 * (uint64_t)nslots + 4 * (uint64_t)k);
        if (row > nrows)
            return false;
        if (row)
            hashmap_put(&p->dwo_rows, id, 0, row);
    }
    p->index_version = version;
    p->ncolumns = ncols;
    p->nrows = nrows;
    p->index_offsets = ids + 4 * (uint64_t)ncols;
    p->index_sizes = p->index_offsets + 4 * (uint64_t)ncols * nrows;
    return true;
}

/* The object's package, opened once: <object>.dwp, where gdb and rustc
 * put it. NULL when there is none or it cannot be read directly. */
static struct die_reader *package_of(struct die_reader *r)
{
    if (r->package_tried)
        return r->package;
    r->package_tried = true;
    if (!r->package_path)
        return NULL;
    int fd = open(r->package_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct die_reader *p = xcalloc(1, sizeof *p);
    p->fd = fd;
    hashmap_init(&p->tables_by_key);
    hashmap_init(&p->units_by_offset);
    hashmap_init(&p->dwo_rows);
    p->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    struct section index = {NULL, 0};
    size_t shstrndx;
    bool ok = p->elf && elf_kind(p->elf) == ELF_K_ELF &&
              load_sections(p, p->elf, package_names) &&
              elf_getshdrstrndx(p->elf, &shstrndx) == 0;
    for (Elf_Scn *scn = NULL; ok && (scn = elf_nextscn(p->elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        Elf_Data *d;
        if (gelf_getshdr(scn, &sh) && (name = elf_strptr(p->elf, shstrndx, sh.sh_name)) &&
            strcmp(name, ".debug_cu_index") == 0 && sh.sh_type != SHT_NOBITS &&
            !(sh.sh_flags & SHF_COMPRESSED) && (d = elf_getdata(scn, NULL)) && d->d_buf)
            index = (struct section){d->d_buf, d->d_size};
    }
    if (!ok || !index.data || !read_cu_index(p, &index)) {
        die_reader_free(p);
        return NULL;
    }
    r->package = p;
    return p;
}

/* The contribution of package row `row` to section DW_SECT_* `id`:
 * false when the package has no such column, or it lies outside sec. */
static bool contribution(const struct die_reader *p, uint32_t row, unsigned id,
                         const struct section *sec, uint64_t *off, uint64_t *size)
{
    if (id > 8 || p->column_of[id] < 0 || row == 0 || row > p->nrows)
        return false;
    uint64_t at = 4 * ((uint64_t)(row - 1) * p->ncolumns + (uint64_t)p->column_of[id]);
    *off = u32_at(p->index_offsets + at);
    *size = u32_at(p->index_sizes + at);
    return sec->data && *off <= sec->size && *size <= sec->size - *off;
}

/* The attributes of the unit's DIE that reading its other DIEs needs;
 * a skeleton's attributes into sk (for a split unit, sk is NULL). */
static bool read_unit_die(struct die_unit *u, struct skeleton *sk)
{
    struct die d;
    if (!die_at(u, u->die, &d) ||
        (d.tag != DW_TAG_compile_unit && !(sk && d.tag == DW_TAG_skeleton_unit)))
        return false;
    const struct abbrev *a = &u->table->abbrevs[d.abbrev];
    const struct section *info = &u->r->sec[SEC_INFO];
    struct cursor c = {info->data + d.attrs, info->data + u->end};
    uint64_t low = 0, entry = 0;
    uint32_t low_form = 0, entry_form = 0;
    for (uint32_t i = 0; i < a->count; i++) {
        const struct attr_spec *spec = &u->table->specs[a->first + i];
        uint64_t v;
        uint32_t form;
        if (!read_form(u, spec, &c, &v, &form))
            return false;
        switch (spec->name) {
        case DW_AT_low_pc:
            low = v;
            low_form = form;
            break;
        case DW_AT_entry_pc:
            entry = v;
            entry_form = form;
            break;
        case DW_AT_language:
            if (constant(form) || form == DW_FORM_sdata)
                u->language = v;
            break;
        case DW_AT_addr_base:
        case DW_AT_GNU_addr_base:
            u->addr_base = v;
            u->has_addr_base = form == DW_FORM_sec_offset;
            if (spec->name == DW_AT_GNU_addr_base && sk)
                sk->is_skeleton = true;
            break;
        case DW_AT_str_offsets_base:
            u->str_offsets_base = v;
            u->has_str_offsets_base = form == DW_FORM_sec_offset;
            break;
        case DW_AT_rnglists_base:
            u->rnglists_base = v;
            u->has_rnglists_base = form == DW_FORM_sec_offset;
            break;
        case DW_AT_GNU_dwo_id:
            if (!sk)
                break; /* a split unit's own: checked by split_unit */
            sk->dwo_id = v;
            sk->has_dwo_id = form == DW_FORM_data8;
            sk->is_skeleton = true;
            break;
        case DW_AT_GNU_ranges_base:
            if (sk) {
                sk->ranges_base = v;
                sk->is_skeleton = true;
            }
            break;
        case DW_AT_dwo_name:
        case DW_AT_GNU_dwo_name:
            if (sk)
                sk->is_skeleton = true;
            break;
        default:
            break;
        }
    }
    /* The base address of range lists, as libdw takes it: low_pc, else
     * entry_pc, else 0 (for a split unit, the skeleton's). */
    if (low_form && !address(u, low_form, low, &u->base) &&
        !(entry_form && address(u, entry_form, entry, &u->base)))
        return false;
    if (!low_form && entry_form && !address(u, entry_form, entry, &u->base))
        return false;
    return true;
}

/* The header of the unit at `offset` of r's .debug_info, up to its DIE;
 * *unit_type and *dwo_id (DWARF 5 skeleton and split units) set. */
static bool unit_header(struct die_reader *r, struct die_unit *u, uint64_t offset, uint64_t limit,
                        uint64_t *unit_type, uint64_t *abbrev_offset, uint64_t *dwo_id)
{
    const struct section *info = &r->sec[SEC_INFO];
    if (offset >= limit || limit > info->size)
        return false;
    struct cursor c = {info->data + offset, info->data + limit};
    u->r = r;
    u->start = offset;
    uint64_t length, version, addr_size;
    *unit_type = DW_UT_compile;
    *dwo_id = 0;
    u->offset_size = 4;
    bool ok = fixed(&c, 4, &length);
    if (ok && length == 0xffffffff) {
        u->offset_size = 8;
        ok = fixed(&c, 8, &length);
    } else if (ok && length >= 0xfffffff0) {
        ok = false;
    }
    ok = ok && length <= (uint64_t)(c.end - c.p);
    if (ok) {
        c.end = c.p + length;
        u->end = (uint64_t)(c.end - info->data);
        ok = fixed(&c, 2, &version) && version >= 2 && version <= 5;
    }
    if (ok && version == 5) {
        ok = fixed(&c, 1, unit_type) && fixed(&c, 1, &addr_size) &&
             fixed(&c, u->offset_size, abbrev_offset);
        if (ok && (*unit_type == DW_UT_skeleton || *unit_type == DW_UT_split_compile))
            ok = fixed(&c, 8, dwo_id);
    } else if (ok) {
        ok = fixed(&c, u->offset_size, abbrev_offset) && fixed(&c, 1, &addr_size);
    }
    ok = ok && (addr_size == 4 || addr_size == 8);
    if (!ok)
        return false;
    u->version = (unsigned)version;
    u->addr_size = (unsigned)addr_size;
    u->die = (uint64_t)(c.p - info->data);
    u->addr = r->sec[SEC_ADDR];
    u->ranges = r->sec[SEC_RANGES];
    u->rnglists = r->sec[SEC_RNGLISTS];
    return true;
}

/* The split unit of skeleton `sk` (unit s of r) in r's package, or NULL. */
static struct die_unit *split_unit(struct die_reader *r, const struct die_unit *s,
                                   const struct skeleton *sk)
{
    struct die_reader *p = package_of(r);
    uint32_t row;
    uint64_t info_off, info_size, abbrev_off, abbrev_size, off, size;
    if (!p || !sk->has_dwo_id || !hashmap_get(&p->dwo_rows, sk->dwo_id, 0, &row) ||
        !contribution(p, row, DW_SECT_INFO, &p->sec[SEC_INFO], &info_off, &info_size) ||
        !contribution(p, row, DW_SECT_ABBREV, &p->sec[SEC_ABBREV], &abbrev_off, &abbrev_size))
        return NULL;
    struct die_unit *u = xcalloc(1, sizeof *u);
    uint64_t unit_type, abbrev_offset, dwo_id;
    bool ok = unit_header(p, u, info_off, info_off + info_size, &unit_type, &abbrev_offset,
                          &dwo_id) &&
              u->version == s->version && abbrev_offset < abbrev_size &&
              (u->version < 5 || (unit_type == DW_UT_split_compile && dwo_id == sk->dwo_id));
    if (ok) {
        u->split = true;
        /* addresses: the object's, at the skeleton's base */
        u->addr = s->addr;
        u->addr_base = s->addr_base;
        u->has_addr_base = s->has_addr_base;
        u->base = s->base;
        u->ranges = s->ranges;
        u->ranges_offset = sk->ranges_base;
        /* strings: the unit's offsets (past their header in DWARF 5) */
        if (contribution(p, row, DW_SECT_STR_OFFSETS, &p->sec[SEC_STR_OFFSETS], &off, &size)) {
            uint64_t header = u->version >= 5 ? 2 * (uint64_t)u->offset_size : 0;
            u->str_offsets_base = off + header;
            u->has_str_offsets_base = header <= size;
        }
        /* DWARF 5 range lists: the unit's, past their header */
        if (u->version >= 5 &&
            contribution(p, row, DW_SECT_RNGLISTS, &p->sec[SEC_RNGLISTS], &off, &size)) {
            uint64_t header = u->offset_size == 4 ? 12 : 20;
            u->rnglists = (struct section){p->sec[SEC_RNGLISTS].data, off + size};
            u->ranges_offset = off;
            u->rnglists_base = off + header;
            u->has_rnglists_base = header <= size;
        }
        u->table = table_for(p, u, abbrev_off + abbrev_offset);
        ok = u->table && read_unit_die(u, NULL);
    }
    /* a DWARF 4 split unit names its id in its DIE */
    if (ok && u->version < 5) {
        struct die d;
        ok = die_at(u, u->die, &d) && d.tag == DW_TAG_compile_unit;
        if (ok) {
            const struct abbrev *a = &u->table->abbrevs[d.abbrev];
            const unsigned char *info = p->sec[SEC_INFO].data;
            struct cursor c = {info + d.attrs, info + u->end};
            bool same = false;
            for (uint32_t i = 0; ok && i < a->count; i++) {
                const struct attr_spec *spec = &u->table->specs[a->first + i];
                uint64_t v;
                uint32_t form;
                ok = read_form(u, spec, &c, &v, &form);
                same = same || (spec->name == DW_AT_GNU_dwo_id && v == sk->dwo_id);
            }
            ok = ok && same;
        }
    }
    if (!ok) {
        free(u);
        return NULL;
    }
    return u;
}

static struct die_unit *unit_read(struct die_reader *r, uint64_t offset)
{
    struct die_unit *u = xcalloc(1, sizeof *u);
    uint64_t unit_type, abbrev_offset, dwo_id;
    struct skeleton sk = {false, false, 0, 0};
    bool ok = unit_header(r, u, offset, r->sec[SEC_INFO].size, &unit_type, &abbrev_offset,
                          &dwo_id) &&
              (unit_type == DW_UT_compile || unit_type == DW_UT_skeleton);
    if (ok && unit_type == DW_UT_skeleton) {
        sk.is_skeleton = sk.has_dwo_id = true;
        sk.dwo_id = dwo_id;
    }
    if (ok) {
        u->table = table_for(r, u, abbrev_offset);
        ok = u->table && read_unit_die(u, &sk);
    }
    if (ok && sk.is_skeleton) { /* its scopes are in the split unit */
        struct die_unit *split = split_unit(r, u, &sk);
        free(u);
        return split;
    }
    if (!ok) {
        free(u);
        return NULL;
    }
    return u;
}

const struct die_unit *die_unit_at(struct die_reader *r, uint64_t offset)
{
    uint32_t at;
    if (hashmap_get(&r->units_by_offset, offset, 0, &at))
        return at == NONE ? NULL : r->units[at];
    struct die_unit *u = unit_read(r, offset);
    if (!u) {
        hashmap_put(&r->units_by_offset, offset, 0, NONE);
        return NULL;
    }
    GROW(r->units, r->units_cap, r->nunits);
    r->units[r->nunits] = u;
    hashmap_put(&r->units_by_offset, offset, 0, (uint32_t)r->nunits++);
    return u;
}

uint64_t die_unit_die(const struct die_unit *u)
{
    return u->die;
}

uint64_t die_unit_language(const struct die_unit *u)
{
    return u->language;
}

struct die_reader *die_unit_reader(const struct die_unit *u)
{
    return u->r;
}

bool die_unit_split(const struct die_unit *u)
{
    return u->split;
}

/* The plain unit holding the DIE at `offset`. */
static const struct die_unit *unit_holding(struct die_reader *r, uint64_t offset)
{
    if (!r->headers_read) {
        r->headers_read = true;
        if (!r->dbg || !units_read(r->dbg, &r->headers, &r->nheaders))
            r->nheaders = 0;
    }
    size_t lo = 0, hi = r->nheaders; /* last header at or before offset */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->headers[mid].offset <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct die_unit *u = die_unit_at(r, r->headers[lo - 1].offset);
    return u && offset >= u->die && offset < u->end ? u : NULL;
}

/* ---- DIEs ----------------------------------------------------------------------------- */

bool die_at(const struct die_unit *u, uint64_t offset, struct die *d)
{
    if (offset < u->die || offset >= u->end)
        return false;
    const unsigned char *info = u->r->sec[SEC_INFO].data;
    struct cursor c = {info + offset, info + u->end};
    uint64_t code;
    if (!uleb(&c, &code))
        return false;
    d->offset = offset;
    d->attrs = (uint64_t)(c.p - info);
    if (code == 0) {
        d->tag = 0;
        d->has_children = false;
        d->abbrev = NONE;
        return true;
    }
    const struct abbrev_table *t = u->table;
    uint32_t at = NONE;
    if (t->sparse.count == 0) {
        if (code < t->ncodes)
            at = t->by_code[code];
    } else if (!hashmap_get(&t->sparse, code, 0, &at)) {
        at = NONE;
    }
    if (at == NONE)
        return false;
    d->abbrev = at;
    d->tag = t->abbrevs[at].tag;
    d->has_children = t->abbrevs[at].children;
    return true;
}

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
        u = unit_holding(r, offset);
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
