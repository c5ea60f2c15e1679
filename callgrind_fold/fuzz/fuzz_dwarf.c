/* libFuzzer target: the DWARF that --inline reads itself (dieread.c,
 * aranges.c), from bytes a hostile or corrupt debug file could hold.
 *
 * The input is a list of sections in the order of `sections` below, each
 * a 2-byte little-endian length and that many bytes (the last one cut at
 * the end of the input); fuzz/dwarf_seed.py makes seeds in this form from
 * real programs. They are laid out as an in-memory ELF file, opened with
 * libdw like any object, and every unit is walked the way the scope trees
 * walk it: each DIE's scope attributes, range lists and names, children
 * and siblings. Besides crashes and sanitizer reports, a walk must make
 * progress: a next offset is always past the DIE it follows. */
#include "inline/aranges.h"
#include "inline/dieread.h"
#include "util/util.h"

#include <elf.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const sections[] = {
    ".debug_info", ".debug_abbrev", ".debug_str", ".debug_line_str", ".debug_rnglists",
    ".debug_ranges", ".debug_addr", ".debug_str_offsets", ".debug_aranges",
};
enum { NSEC = sizeof sections / sizeof *sections };

/* An ELF64 file of the host's byte order: null section, the DWARF
 * sections, .shstrtab. Returns its size; *out is malloc'ed. */
static size_t make_elf(const uint8_t *data, size_t size, char **out)
{
    const uint8_t *part[NSEC];
    size_t len[NSEC], names = 1, body = 0;
    for (int i = 0; i < NSEC; i++) {
        size_t n = 0;
        if (size >= 2) {
            n = data[0] | (size_t)data[1] << 8;
            data += 2, size -= 2;
        } else {
            size = 0;
        }
        if (n > size)
            n = size;
        part[i] = data, len[i] = n;
        data += n, size -= n;
        names += strlen(sections[i]) + 1;
        body += (n + 7) & ~(size_t)7;
    }
    names += sizeof ".shstrtab";
    size_t shoff = sizeof(Elf64_Ehdr) + body + ((names + 7) & ~(size_t)7);
    size_t total = shoff + (NSEC + 2) * sizeof(Elf64_Shdr);
    char *f = xcalloc(1, total);
    Elf64_Ehdr *eh = (Elf64_Ehdr *)f;
    memcpy(eh->e_ident, ELFMAG, SELFMAG);
    eh->e_ident[EI_CLASS] = ELFCLASS64;
    uint16_t one = 1;
    eh->e_ident[EI_DATA] = *(uint8_t *)&one ? ELFDATA2LSB : ELFDATA2MSB;
    eh->e_ident[EI_VERSION] = EV_CURRENT;
    eh->e_type = ET_EXEC;
    eh->e_machine = EM_X86_64;
    eh->e_version = EV_CURRENT;
    eh->e_ehsize = sizeof(Elf64_Ehdr);
    eh->e_shentsize = sizeof(Elf64_Shdr);
    eh->e_shoff = shoff;
    eh->e_shnum = NSEC + 2;
    eh->e_shstrndx = NSEC + 1;
    Elf64_Shdr *sh = (Elf64_Shdr *)(f + shoff);
    size_t at = sizeof(Elf64_Ehdr), name_at = 1;
    char *strtab = f + sizeof(Elf64_Ehdr) + body;
    for (int i = 0; i < NSEC; i++) {
        Elf64_Shdr *s = &sh[i + 1];
        s->sh_name = (Elf64_Word)name_at;
        strcpy(strtab + name_at, sections[i]);
        name_at += strlen(sections[i]) + 1;
        s->sh_type = SHT_PROGBITS;
        s->sh_offset = at;
        s->sh_size = len[i];
        s->sh_addralign = 1;
        memcpy(f + at, part[i], len[i]);
        at += (len[i] + 7) & ~(size_t)7;
    }
    Elf64_Shdr *s = &sh[NSEC + 1];
    s->sh_name = (Elf64_Word)name_at;
    strcpy(strtab + name_at, ".shstrtab");
    s->sh_type = SHT_STRTAB;
    s->sh_offset = (Elf64_Off)(strtab - f);
    s->sh_size = names;
    s->sh_addralign = 1;
    *out = f;
    return total;
}

static void count_range(void *arg, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) /* die_ranges promises lo < hi */
        abort();
    ++*(size_t *)arg;
}

/* Reads every byte of a name, so that ASan sees a read past the end (a
 * volatile sink: a strlen whose result is unused may be dropped). */
static volatile size_t name_bytes;
static void read_name(const char *s)
{
    if (s)
        name_bytes += strlen(s);
}

/* The DIEs of one unit, depth first, at most `budget` of them. */
static void walk_unit(struct die_reader *r, const struct die_unit *u, size_t budget)
{
    uint64_t stack[64];
    size_t depth = 0;
    stack[depth++] = die_unit_die(u);
    (void)die_unit_language(u);
    while (depth > 0 && budget-- > 0) {
        uint64_t offset = stack[--depth];
        struct die d;
        if (!die_at(u, offset, &d) || d.tag == 0)
            continue;
        struct die_scope s;
        bool have_scope = die_scope_attrs(u, &d, &s);
        size_t ranges = 0;
        if (have_scope && s.has_ranges)
            (void)die_ranges(u, s.ranges, count_range, &ranges);
        struct die_names n = {0};
        uint64_t at = d.offset;
        for (int hops = 0; hops < 8 && die_names_at(r, u, at, &n) && n.has_next; hops++) {
            at = n.next;
            n.has_next = false;
        }
        read_name(n.name);
        read_name(n.linkage);
        uint64_t next;
        if (die_next(u, &d, have_scope ? &s : NULL, &next)) {
            if (next <= d.offset)
                abort(); /* no progress: a scope walk would loop */
            if (depth < sizeof stack / sizeof *stack)
                stack[depth++] = next;
        }
        uint64_t first;
        if (d.has_children && die_children(u, &d, &first)) {
            if (first <= d.offset)
                abort();
            if (depth < sizeof stack / sizeof *stack)
                stack[depth++] = first;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool started;
    if (!started) {
        elf_version(EV_CURRENT);
        started = true;
    }
    char *file;
    size_t file_size = make_elf(data, size, &file);
    Elf *elf = elf_memory(file, file_size);
    Dwarf *dbg = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
    if (dbg) {
        struct arange *ar = NULL;
        size_t nar = 0;
        if (aranges_read(dbg, &ar, &nar))
            for (size_t i = 0; i < nar; i++)
                if (ar[i].lo >= ar[i].hi)
                    abort(); /* promised non-empty */
        free(ar);
        (void)debug_info_size(dbg);
        struct die_reader *r = die_reader_new(dbg);
        struct unit_header *units = NULL;
        size_t nunits = 0;
        if (r && units_read(dbg, &units, &nunits)) {
            for (size_t i = 0; i < nunits && i < 64; i++) {
                const struct die_unit *u = die_unit_at(r, units[i].offset);
                if (u)
                    walk_unit(r, u, 4096);
            }
        }
        free(units);
        die_reader_free(r);
        dwarf_end(dbg);
    }
    if (elf)
        elf_end(elf);
    free(file);
    return 0;
}
