/* --inline: the frames of inlined scopes. A scope's name is looked up
 * along DW_AT_abstract_origin and DW_AT_specification (the same DIE for
 * every inlined copy, so each name is made once), the linkage name
 * demangled as callgrind shows names, and " [inlined]" appended. A
 * scope's chain (the inlined frames from its function down to it) is
 * interned once and shared by every address in the scope. */
#include "names.h"
#include "context.h"
#include "demangle.h"
#include "dieread.h"
#include "inline.h"
#include "objects.h"
#include "scopes.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* Name attributes along DW_AT_abstract_origin and DW_AT_specification,
 * the first of each kind found (as dwarf_attr_integrate would). */
struct name_attrs {
    const char *linkage, *name;
    Dwarf_Attribute next;
    bool has_next;
};

static int name_attr(Dwarf_Attribute *attr, void *arg)
{
    struct name_attrs *a = arg;
    switch (dwarf_whatattr(attr)) {
    case DW_AT_linkage_name:
        if (!a->linkage)
            a->linkage = dwarf_formstring(attr);
        break;
    case DW_AT_MIPS_linkage_name:
        if (!a->linkage)
            a->linkage = dwarf_formstring(attr);
        break;
    case DW_AT_name:
        if (!a->name)
            a->name = dwarf_formstring(attr);
        break;
    case DW_AT_abstract_origin:
    case DW_AT_specification:
        if (!a->has_next) {
            a->next = *attr;
            a->has_next = true;
        }
        break;
    default:
        break;
    }
    return DWARF_CB_OK;
}

/* The frame of an inlined scope named so: the linkage name demangled
 * (as callgrind shows names), else the plain name, and the marker. */
static uint32_t frame_of_names(struct inline_ctx *ix, const char *linkage, const char *plain,
                               struct strtab *names)
{
    const char *name = NULL;
    char *demangled = NULL;
    if (linkage && ix->mangled_names)
        name = linkage;
    else if (linkage && (demangled = demangle(linkage)))
        name = demangled;
    else
        name = plain;
    struct buf *b = &ix->text;
    b->len = 0;
    buf_append(b, name ? name : "??", strlen(name ? name : "??"));
    buf_append(b, INLINE_MARK, strlen(INLINE_MARK));
    free(demangled);
    return strtab_intern(names, b->data, b->len);
}

static uint32_t frame_name(struct inline_ctx *ix, const Dwarf_Die *die, struct strtab *names)
{
    bool inserted;
    uint32_t *slot = hashmap_upsert(&ix->frames, (uint64_t)(uintptr_t)die->addr, 0, NONE,
                                    &inserted);
    if (!inserted)
        return *slot;
    struct name_attrs a = {NULL, NULL, {0, 0, NULL, NULL}, false};
    Dwarf_Die cur = *die;
    for (int hops = 0; hops < 16; hops++) {
        a.has_next = false;
        if (dwarf_getattrs(&cur, name_attr, &a, 0) != 1 || (a.linkage && a.name) ||
            !a.has_next || !dwarf_formref_die(&a.next, &cur))
            break;
    }
    uint32_t frame = frame_of_names(ix, a.linkage, a.name, names);
    /* The slot is still valid: nothing above touched ix->frames. */
    *slot = frame;
    return frame;
}

/* frame_name() by the direct reader, for the DIE at `offset` of u's
 * reader (the object's, or its package's): keyed apart from frame_name's
 * DIE addresses and from other readers' offsets by the reader. */
static bool plain_frame_name(struct inline_ctx *ix, const struct die_unit *u, uint64_t offset,
                             struct strtab *names, uint32_t *frame)
{
    struct die_reader *r = die_unit_reader(u);
    if (hashmap_get(&ix->frames, offset, (uintptr_t)r, frame))
        return true;
    struct die_names a = {NULL, NULL, 0, false};
    uint64_t cur = offset;
    for (int hops = 0; hops < 16; hops++) {
        a.has_next = false;
        if (!die_names_at(r, u, cur, &a))
            return false;
        if ((a.linkage && a.name) || !a.has_next)
            break;
        cur = a.next;
    }
    *frame = frame_of_names(ix, a.linkage, a.name, names);
    hashmap_put(&ix->frames, offset, (uintptr_t)r, *frame);
    return true;
}

/* The frame of scope node s of tree t. */
static uint32_t node_frame(struct inline_ctx *ix, struct object *o, struct scope_tree *t,
                           uint32_t s, struct strtab *names)
{
    struct scope_node *n = &t->nodes[s];
    uint32_t frame;
    if (!n->name_die.addr && t->unit &&
        plain_frame_name(ix, t->unit, n->die_offset, names, &frame))
        return frame;
    /* (a package's offsets are no libdw DIEs) */
    if (ix->direct_only || (t->unit && die_unit_split(t->unit)))
        return frame_of_names(ix, NULL, NULL, names);
    if (!n->name_die.addr && !dwarf_offdie(o->dbg, n->die_offset, &n->name_die))
        return frame_of_names(ix, NULL, NULL, names);
    return frame_name(ix, &n->name_die, names);
}

/* The chain of inlined frames of scope `node`, interned. */
uint32_t chain_of(struct inline_ctx *ix, struct object *o, struct scope_tree *t,
                  uint32_t node, struct strtab *names)
{
    if (t->nodes[node].chain != NONE)
        return t->nodes[node].chain;
    /* Up to the nearest ancestor whose chain is known, or a function of
     * its own (the unit, a nested function): their chain is empty. */
    size_t n = 0;
    uint32_t top = node;
    while (t->nodes[top].chain == NONE && !t->nodes[top].subprogram) {
        GROW(ix->chain, ix->chain_cap, n);
        ix->chain[n++] = top;
        top = t->nodes[top].parent;
    }
    if (t->nodes[top].chain == NONE)
        t->nodes[top].chain = ix->empty_chain;
    uint32_t chain = t->nodes[top].chain;
    /* Then down again, one frame longer at each step. */
    struct buf *frames = &ix->frames_buf;
    while (n > 0) {
        uint32_t s = ix->chain[--n];
        uint32_t frame = node_frame(ix, o, t, s, names);
        frames->len = 0;
        buf_append(frames, strtab_str(&ix->chains, chain), strtab_len(&ix->chains, chain));
        buf_append(frames, (const char *)&frame, sizeof frame);
        chain = strtab_intern(&ix->chains, frames->data, frames->len);
        t->nodes[s].chain = chain;
    }
    return chain;
}
