/* --inline: source lines from DWARF (srclines.h). An address's line is
 * looked up in its unit's line table, which libdw reads and keeps once
 * per unit; the row found is remembered with the addresses it covers,
 * as addresses come in runs. A scope's call sites are read from the
 * scope tree (scopes.c keeps each inlined subroutine's DW_AT_call_file
 * and DW_AT_call_line) and named from its unit's file table. */
#include "srclines.h"
#include "context.h"
#include "dieread.h"
#include "lookup.h"
#include "names.h"
#include "objects.h"
#include "scopes.h"

#include <dwarf.h>
#include <string.h>

/* The unit's line table, read once; false when it has none. */
static bool unit_lines(struct object *o, struct cu_info *ci)
{
    if (ci->lines_state == UNIT_LAZY) {
        Dwarf_Off next;
        size_t header_size;
        Dwarf_Die cudie;
        ci->lines_state = UNIT_NONE;
        if (dwarf_next_unit(o->dbg, ci->offset, &next, &header_size, NULL, NULL, NULL, NULL,
                            NULL, NULL) == 0 &&
            dwarf_offdie(o->dbg, ci->offset + header_size, &cudie) &&
            dwarf_getsrclines(&cudie, &ci->lines, &ci->nlines) == 0 && ci->nlines > 0)
            ci->lines_state = UNIT_READY;
    }
    return ci->lines_state == UNIT_READY;
}

static uint64_t row_addr(Dwarf_Lines *lines, size_t i)
{
    Dwarf_Addr a = 0;
    Dwarf_Line *row = dwarf_onesrcline(lines, i);
    return row && dwarf_lineaddr(row, &a) == 0 ? a : 0;
}

bool dwarf_line_at(struct object *o, uint64_t pc, struct strtab *names, uint32_t *file,
                 uint32_t *line)
{
    if (pc - o->line_lo >= o->line_hi - o->line_lo) {
        o->line_lo = o->line_hi = 0;
        uint32_t cu = unit_at(o, pc);
        if (cu == NONE || !unit_lines(o, &o->cus[cu]))
            return false;
        const struct cu_info *ci = &o->cus[cu];
        /* libdw's rows are sorted by address, the rows of a sequence in
         * their order: the last row at or below pc is the one that
         * covers it (rows at one address before it cover nothing) */
        size_t lo = 0, hi = ci->nlines;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (row_addr(ci->lines, mid) <= pc)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == 0)
            return false;
        Dwarf_Line *row = dwarf_onesrcline(ci->lines, lo - 1);
        bool end = true;
        int no = 0;
        const char *path = row ? dwarf_linesrc(row, NULL, NULL) : NULL;
        if (!row || dwarf_lineendsequence(row, &end) != 0 || end || !path ||
            dwarf_lineno(row, &no) != 0)
            return false; /* past a sequence's end: no code of the unit */
        uint64_t row_lo = row_addr(ci->lines, lo - 1);
        o->line_hi = lo < ci->nlines ? row_addr(ci->lines, lo) : row_lo + 1;
        if (o->line_hi <= row_lo)
            o->line_hi = row_lo + 1; /* pc is this row's: remembered alone */
        o->line_lo = row_lo;
        if (path != o->line_path) /* mostly the previous row's file */
            o->line_file = strtab_intern(names, path, strlen(path));
        o->line_path = path;
        o->line_no = no > 0 ? (uint32_t)no : 0;
    }
    *file = o->line_file;
    *line = o->line_no;
    return true;
}

/* The name of file `index` of the file table of t's unit, or NONE. */
static uint32_t call_file_name(struct object *o, struct scope_tree *t, uint32_t index,
                               struct strtab *names)
{
    Dwarf_Die cudie;
    const Dwarf_Die *root = &t->nodes[0].name_die;
    if (root->addr) {
        if (!dwarf_diecu((Dwarf_Die *)root, &cudie, NULL, NULL))
            return NONE;
    } else if (!t->unit || die_unit_split(t->unit) ||
               !dwarf_offdie(o->dbg, die_unit_die(t->unit), &cudie)) {
        return NONE; /* a package's split unit: its offsets are no libdw DIEs */
    }
    Dwarf_Files *files;
    size_t nfiles;
    const char *path;
    if (dwarf_getsrcfiles(&cudie, &files, &nfiles) != 0 || index >= nfiles ||
        !(path = dwarf_filesrc(files, index, NULL, NULL)) || strcmp(path, "???") == 0)
        return NONE;
    return strtab_intern(names, path, strlen(path));
}

uint32_t sites_of(struct inline_ctx *ix, struct object *o, struct scope_tree *t, uint32_t node,
                  struct strtab *names)
{
    if (t->nodes[node].sites != NONE)
        return t->nodes[node].sites;
    uint32_t chain = chain_of(ix, o, t, node, names);
    size_t n = strtab_len(&ix->chains, chain) / sizeof(uint32_t);
    struct buf *b = &ix->frames_buf;
    b->len = 0;
    buf_append(b, (const char *)&chain, sizeof chain);
    const struct inline_site unknown = {NONE, 0};
    for (size_t k = 0; k < n; k++)
        buf_append(b, (const char *)&unknown, sizeof unknown);
    /* the chain's frames are the inlined scopes from the function down
     * to the node: filled from the node up */
    size_t i = n;
    for (uint32_t s = node; i > 0 && !t->nodes[s].subprogram; s = t->nodes[s].parent) {
        const struct scope_node *sn = &t->nodes[s];
        struct inline_site site = unknown;
        if (sn->call_line)
            site.file = call_file_name(o, t, sn->call_file, names);
        if (site.file != NONE)
            site.line = sn->call_line;
        i--;
        memcpy(b->data + sizeof chain + i * sizeof site, &site, sizeof site);
    }
    uint32_t sites = strtab_intern(&ix->sites, b->data, b->len);
    t->nodes[node].sites = sites;
    return sites;
}

uint32_t sites_chain(const struct inline_ctx *ix, uint32_t sites)
{
    uint32_t chain;
    memcpy(&chain, strtab_str(&ix->sites, sites), sizeof chain);
    return chain;
}

struct inline_site sites_at(const struct inline_ctx *ix, uint32_t sites, size_t i)
{
    struct inline_site site;
    memcpy(&site, strtab_str(&ix->sites, sites) + sizeof(uint32_t) + i * sizeof site,
           sizeof site);
    return site;
}
