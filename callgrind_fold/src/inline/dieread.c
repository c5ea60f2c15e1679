/* DIEs read directly (dieread.h), this half: the abbreviation tables
 * (and die_at, a DIE's code looked up in them), the reader and its
 * units, plain or split; the DIE walks, range lists and names are
 * diewalk.c's, which calls this file and never the other way round; the
 * layout and value decoding both use are dieform.h's.
 *
 * Takes: an object's Dwarf and its package (.dwp).  Hands on: units,
 * each with its header's fields, bases and decoded abbreviation table,
 * to diewalk.c and to the callers of die_unit_at.
 *
 * The encoding (DWARF 5, sections
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
#include "dieform.h"
#include "aranges.h"
#include "util/util.h"

#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


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

/* A DIE's code looked up in its unit's table (die_at, dieread.h): the
 * one step of a walk that is about abbreviations, kept here so that
 * this file needs nothing of diewalk.c. */
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
const struct die_unit *die_unit_holding(struct die_reader *r, uint64_t offset)
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

