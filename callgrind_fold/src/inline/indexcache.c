/* --inline: unit indexes kept in the cache directory (--inline-cache),
 * next to the inflated debug images of dwarfimage.c, by build-id. */
#include "indexcache.h"
#include "aranges.h"
#include "cachedir.h"
#include "context.h"
#include "dieread.h"
#include "objects.h"
#include "scopes.h"

#include <stdlib.h>
#include <string.h>

/* Indexing a unit walks all its top-level DIEs (for one of libc's units,
 * about 230k instructions), for a result of a few intervals per function.
 * So the indexes are kept in the cache directory too, as
 * <build-id>.index.v2: a magic line, the size of .debug_info (the same
 * build-id with other DWARF, say after dwz, has other DIE offsets: such
 * a file is not used), then records of struct saved_fn: per
 * unit a marker (die 0; lo 1 for a C unit) followed by its index's
 * sorted disjoint intervals, each with its function's DIE offset. Units
 * whose scopes are in a split unit (.dwo) are not kept. A file that does
 * not read as such is ignored and rewritten. */
struct saved_fn {
    uint64_t unit, lo, hi, die;
};

static const char index_magic[8] = "CFIDX1\n";
#define INDEX_SUFFIX ".index.v2"

static bool index_path(struct inline_ctx *ix, struct object *o, struct buf *path)
{
    if (debug_info_size(o->dbg) == 0)
        return false;
    const unsigned char *id = NULL;
    GElf_Addr vaddr;
    int n = ix->cache_dir ? dwfl_module_build_id(o->mod, &id, &vaddr) : 0;
    return n > 0 && cache_path(ix->cache_dir, id, (size_t)n, INDEX_SUFFIX, path);
}

void load_index(struct inline_ctx *ix, struct object *o)
{
    struct buf path = {0};
    size_t size = 0;
    char *data = index_path(ix, o, &path) ? cache_read(buf_cstr(&path), &size) : NULL;
    buf_free(&path);
    if (!data)
        return;
    const size_t header = sizeof index_magic + sizeof(uint64_t);
    uint64_t info_size = 0;
    size_t n = size > header ? (size - header) / sizeof *o->saved : 0;
    bool ok = n > 0 && n < UINT32_MAX && size == header + n * sizeof *o->saved &&
              memcmp(data, index_magic, sizeof index_magic) == 0;
    if (ok) {
        memcpy(&info_size, data + sizeof index_magic, sizeof info_size);
        ok = info_size == debug_info_size(o->dbg);
    }
    if (ok) {
        o->saved = xmalloc(n * sizeof *o->saved);
        memcpy(o->saved, data + header, n * sizeof *o->saved);
        o->nsaved = n;
    }
    free(data);
    uint64_t prev_hi = 0;
    for (size_t i = 0; ok && i < n; i++) {
        const struct saved_fn *r = &o->saved[i];
        bool inserted = false;
        if (r->die == 0) {
            if (r->hi == 0 && r->lo <= 1)
                hashmap_upsert(&o->saved_units, r->unit, 0, (uint32_t)i, &inserted);
            ok = inserted;
            prev_hi = 0;
        } else {
            ok = i > 0 && r->unit == o->saved[i - 1].unit && r->lo < r->hi && r->lo >= prev_hi;
            prev_hi = r->hi;
        }
    }
    if (!ok) {
        free(o->saved);
        o->saved = NULL;
        o->nsaved = 0;
        hashmap_clear(&o->saved_units); /* the units indexed now replace it */
    }
}

/* The index of the unit whose marker is saved[at]. */
struct scope_tree *saved_index(struct object *o, uint32_t at)
{
    struct scope_tree *t = xcalloc(1, sizeof *t);
    const Dwarf_Die none = {0};
    struct hashmap by_die;
    hashmap_init(&by_die);
    t->index = true;
    t->c_unit = o->saved[at].lo != 0;
    new_scope(t, &none, NONE, true); /* node 0: the unit */
    for (size_t i = (size_t)at + 1; i < o->nsaved && o->saved[i].die != 0; i++) {
        bool inserted;
        uint32_t node = *hashmap_upsert(&by_die, o->saved[i].die, 0, (uint32_t)t->nnodes,
                                        &inserted);
        if (inserted) {
            uint32_t k = new_scope(t, &none, 0, true); /* may move t->nodes */
            t->nodes[k].die_offset = o->saved[i].die;
        }
        GROW(t->flat, t->flat_cap, t->nflat);
        t->flat[t->nflat++] = (struct scope_entry){o->saved[i].lo, o->saved[i].hi, node};
    }
    hashmap_free(&by_die);
    return t;
}

/* Writes the object's indexes to the cache if this run made new ones:
 * those read from it as they were, and the new ones. */
void save_index(struct inline_ctx *ix, struct object *o)
{
    struct buf path = {0}, out = {0};
    if (o->state != OBJ_OK || !o->index_new || !index_path(ix, o, &path)) {
        buf_free(&path);
        return;
    }
    uint64_t info_size = debug_info_size(o->dbg);
    buf_append(&out, index_magic, sizeof index_magic);
    buf_append(&out, (const char *)&info_size, sizeof info_size);
    buf_append(&out, (const char *)o->saved, o->nsaved * sizeof *o->saved);
    for (size_t c = 0; c < o->ncus; c++) {
        struct cu_info *ci = &o->cus[c];
        const struct scope_tree *t = ci->index;
        if (!t || ci->index_saved || (!ci->plain && dwarf_cu_getdwarf(ci->die.cu) != o->dbg) ||
            (ci->plain && die_unit_split(ci->plain)))
            continue; /* not this file's DIEs (a split unit's, in a .dwo or package) */
        struct saved_fn marker = {ci->offset, t->c_unit, 0, 0};
        buf_append(&out, (const char *)&marker, sizeof marker);
        for (size_t k = 0; k < t->nflat; k++) {
            const struct scope_node *f = &t->nodes[t->flat[k].node];
            Dwarf_Die die = f->name_die;
            struct saved_fn r = {ci->offset, t->flat[k].lo, t->flat[k].hi,
                                 die.addr ? dwarf_dieoffset(&die) : f->die_offset};
            buf_append(&out, (const char *)&r, sizeof r);
        }
    }
    cache_write(ix->cache_dir, buf_cstr(&path), out.data, out.len);
    buf_free(&path);
    buf_free(&out);
}
