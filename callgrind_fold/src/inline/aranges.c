/* .debug_aranges read directly: see aranges.h. The format (DWARF 2 to 5,
 * section 6.1.2): sets of a header (unit_length, version 2, the unit's
 * .debug_info offset, address size, segment selector size) and then,
 * from the next multiple of twice the address size counted from the
 * set's start, (address, length) pairs ending with (0, 0). */
#include "aranges.h"
#include "util/util.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    const unsigned char *p, *end;
};

static bool take(struct reader *r, size_t n, uint64_t *v)
{
    if ((size_t)(r->end - r->p) < n)
        return false;
    if (n == 8) {
        memcpy(v, r->p, 8);
    } else if (n == 4) {
        uint32_t x;
        memcpy(&x, r->p, 4);
        *v = x;
    } else if (n == 2) {
        uint16_t x;
        memcpy(&x, r->p, 2);
        *v = x;
    } else {
        *v = *r->p;
    }
    r->p += n;
    return true;
}

static Elf_Data *section_data(Dwarf *dbg, const char *wanted)
{
    Elf *elf = dwarf_getelf(dbg);
    GElf_Ehdr eh;
    size_t shstrndx;
    const unsigned char host_data = 1 == *(const unsigned char *)&(const uint16_t){1}
                                        ? ELFDATA2LSB : ELFDATA2MSB;
    if (!elf || !gelf_getehdr(elf, &eh) || eh.e_ident[EI_DATA] != host_data ||
        elf_getshdrstrndx(elf, &shstrndx) != 0)
        return NULL;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
            strcmp(name, wanted) != 0)
            continue;
        if (sh.sh_type == SHT_NOBITS || (sh.sh_flags & SHF_COMPRESSED))
            return NULL;
        Elf_Data *d = elf_getdata(scn, NULL);
        return d && d->d_buf ? d : NULL;
    }
    return NULL;
}

size_t debug_info_size(Dwarf *dbg)
{
    Elf_Data *d = section_data(dbg, ".debug_info");
    return d ? d->d_size : 0;
}

/* The section as a reader, or false (see section_data). */
static bool section_reader(Dwarf *dbg, const char *name, struct reader *r)
{
    Elf_Data *d = section_data(dbg, name);
    if (!d)
        return false;
    r->p = d->d_buf;
    r->end = r->p + d->d_size;
    return true;
}

/* The initial length of a set or unit at r: its contents into `in`
 * (r moves past them), the offset size (4, or 8 for 64-bit DWARF). */
static bool take_length(struct reader *r, struct reader *in, size_t *offset_size)
{
    uint64_t length;
    *offset_size = 4;
    if (!take(r, 4, &length))
        return false;
    if (length == 0xffffffff) {
        *offset_size = 8;
        if (!take(r, 8, &length))
            return false;
    } else if (length >= 0xfffffff0) {
        return false; /* reserved */
    }
    if (length > (uint64_t)(r->end - r->p))
        return false;
    in->p = r->p;
    in->end = r->p + length;
    r->p = in->end;
    return true;
}

bool aranges_read(Dwarf *dbg, struct arange **out, size_t *count)
{
    struct reader r;
    if (!section_reader(dbg, ".debug_aranges", &r))
        return false;
    struct arange *ranges = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    while (ok && r.p < r.end) {
        const unsigned char *set_start = r.p;
        uint64_t version, unit, addr_size, seg_size;
        size_t offset_size;
        struct reader set;
        ok = take_length(&r, &set, &offset_size) && take(&set, 2, &version) &&
             version == 2 && take(&set, offset_size, &unit) && take(&set, 1, &addr_size) &&
             take(&set, 1, &seg_size) && (addr_size == 4 || addr_size == 8) && seg_size == 0;
        if (!ok)
            break;
        size_t header = (size_t)(set.p - set_start), tuple = 2 * (size_t)addr_size;
        size_t skip = (tuple - header % tuple) % tuple;
        if ((size_t)(set.end - set.p) < skip) {
            ok = false;
            break;
        }
        set.p += skip;
        for (;;) {
            uint64_t lo, len;
            if (!take(&set, addr_size, &lo) || !take(&set, addr_size, &len)) {
                ok = false;
                break;
            }
            if (lo == 0 && len == 0)
                break;
            if (len == 0 || lo + len < lo)
                continue;
            GROW(ranges, cap, n);
            ranges[n++] = (struct arange){lo, lo + len, unit};
        }
    }
    if (!ok) {
        free(ranges);
        return false;
    }
    *out = ranges;
    *count = n;
    return true;
}

/* A unit header (DWARF 5, section 7.5.1; versions 2 to 4 lack the unit
 * type and put the address size after the abbreviation offset):
 * unit_length, version, [unit_type, address_size,] debug_abbrev_offset,
 * [address_size,] then by unit type a unit id (skeleton and split units)
 * or a type signature and offset (type units). */
bool units_read(Dwarf *dbg, struct unit_header **out, size_t *count)
{
    struct reader r;
    if (!section_reader(dbg, ".debug_info", &r))
        return false;
    const unsigned char *base = r.p;
    struct unit_header *units = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    while (ok && r.p < r.end) {
        uint64_t offset = (uint64_t)(r.p - base), version, unit_type = DW_UT_compile;
        size_t offset_size;
        struct reader unit;
        ok = take_length(&r, &unit, &offset_size) && take(&unit, 2, &version) &&
             version >= 2 && version <= 5;
        if (!ok)
            break;
        size_t header = offset_size == 8 ? 12 : 4; /* unit_length */
        header += 2 + offset_size + 1;              /* version, abbrev offset, address size */
        if (version == 5) {
            ok = take(&unit, 1, &unit_type);
            header += 1;
            if (unit_type == DW_UT_skeleton || unit_type == DW_UT_split_compile)
                header += 8;
            else if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
                header += 8 + offset_size;
        }
        if (!ok || header > (size_t)(unit.end - base) - offset) {
            ok = false;
            break;
        }
        GROW(units, cap, n);
        units[n++] = (struct unit_header){offset, offset + header, (uint16_t)version,
                                          (uint8_t)unit_type};
    }
    if (!ok) {
        free(units);
        return false;
    }
    *out = units;
    *count = n;
    return true;
}
