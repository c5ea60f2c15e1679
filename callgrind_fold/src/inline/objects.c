/* --inline: finding and opening an object. Each ELF object named by the
 * profile is opened once, through libdwfl, which finds separate debug
 * files by build-id and .gnu_debuglink like gdb (in the directories of
 * --debug-dir); compressed DWARF is opened by open_dwarf instead, its
 * sections inflated into an image (dwarfimage.c; found by debugfile.c,
 * mostly made on the prefetch thread: prefetch.c). Then the address
 * ranges of its compilation units are read, from .debug_aranges
 * (aranges.c, else libdw) or, for the units it leaves out, from the
 * units themselves. */
#include "objects.h"
#include "aranges.h"
#include "context.h"
#include "debugfile.h"
#include "dieread.h"
#include "dwarfimage.h"
#include "prefetch.h"

#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fail_object(struct object *o, const char *fmt, const char *arg)
{
    o->state = OBJ_FAILED;
    snprintf(o->why, sizeof o->why, fmt, arg ? arg : "");
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
bool unit_scopes(Dwarf *dbg, Dwarf_Off die_offset, Dwarf_Die *cudie, Dwarf_Die *scopes)
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
void walk_units(struct object *o)
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
        memset(&cudie, 0, sizeof cudie);
        bool any = false;
        uint8_t unit_type;
        if ((units[u].unit_type != DW_UT_compile && units[u].unit_type != DW_UT_skeleton) ||
            hashmap_get(&o->unit_index, units[u].offset, 0, &(uint32_t){0}))
            continue;
        if (!unit_scopes(o->dbg, units[u].die_offset, &cudie, &ci.die)) {
            /* A skeleton whose split unit libdw did not find: the
             * direct reader may, in the object's package. */
            if (!cudie.addr ||
                dwarf_cu_info(cudie.cu, NULL, &unit_type, NULL, NULL, NULL, NULL, NULL) != 0 ||
                unit_type != DW_UT_skeleton)
                continue;
            ci.state = UNIT_NONE;
            ci.split_missing = true;
        }
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

/* ---- the object and its debug file ---- */

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

void open_object(struct inline_ctx *ix, struct object *o, const char *path)
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
    if (o->reader)
        die_reader_package(o->reader, path);
    read_units(o);
    if (o->ncus == 0)
        fail_object(o, "%s", "its DWARF describes no code");
}

struct object *object_of(struct inline_ctx *ix, uint32_t name, uint32_t *index)
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
