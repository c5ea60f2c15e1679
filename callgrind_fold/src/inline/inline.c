/* --inline: the run's context. inline_new and inline_free; objects noted
 * early for the prefetch thread; the report of what could not be
 * expanded. inline_apply (apply.c) resolves a part's addresses. See
 * inline.h for the whole stage and context.h for the run's state. */
#include "inline.h"
#include "context.h"
#include "demangle.h"
#include "dieread.h"
#include "dwarfimage.h"
#include "indexcache.h"
#include "objects.h"
#include "prefetch.h"
#include "scopes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- setup -------------------------------------------------------------------- */

struct inline_ctx *inline_new(const char *debug_dirs, const char *cache_dir, bool with_lines)
{
    struct inline_ctx *ix = xcalloc(1, sizeof *ix);
    ix->images = dwarf_images_new(cache_dir, with_lines);
    if (cache_dir) {
        size_t n = strlen(cache_dir) + 1;
        ix->cache_dir = xmalloc(n);
        memcpy(ix->cache_dir, cache_dir, n);
    }
    /* ":.debug:DIRS": the object's directory, its .debug subdirectory,
     * then the global directories (by build-id, then by path). Like gdb,
     * libdwfl checks a candidate's build-id, or the debuglink's CRC when
     * the object has no build-id. */
    const char *dirs = debug_dirs ? debug_dirs : "/usr/lib/debug";
    size_t n = strlen(dirs);
    ix->debug_path = xmalloc(sizeof DEBUG_PATH_PREFIX + n);
    memcpy(ix->debug_path, DEBUG_PATH_PREFIX, sizeof DEBUG_PATH_PREFIX - 1);
    memcpy(ix->debug_path + sizeof DEBUG_PATH_PREFIX - 1, dirs, n + 1);
    ix->callbacks.find_elf = dwfl_build_id_find_elf;
    ix->callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    ix->callbacks.section_address = dwfl_offline_section_address;
    ix->callbacks.debuginfo_path = &ix->debug_path;
    ix->prefetch = prefetch_new(cache_dir, global_debug_dirs(ix), with_lines);
    hashmap_init(&ix->noted);
    const char *reader = getenv("CALLGRIND_FOLD_DIE_READER");
    ix->libdw_only = reader && strcmp(reader, "libdw") == 0;
    ix->direct_only = reader && strcmp(reader, "direct") == 0;
    hashmap_init(&ix->object_index);
    hashmap_init(&ix->lost);
    hashmap_init(&ix->frames);
    strtab_init(&ix->chains);
    ix->empty_chain = strtab_intern(&ix->chains, "", 0);
    strtab_init(&ix->sites);
    ix->empty_sites = strtab_intern(&ix->sites, (const char *)&ix->empty_chain,
                                    sizeof ix->empty_chain);
    hashmap_init(&ix->child_index);
    return ix;
}

void inline_finish(struct inline_ctx *ix)
{
    if (!ix || ix->finished)
        return;
    ix->finished = true;
    for (size_t i = 0; i < ix->nobjects; i++)
        save_index(ix, &ix->objects[i]);
    prefetch_free(ix->prefetch);
    ix->prefetch = NULL;
}

void inline_free(struct inline_ctx *ix)
{
    if (!ix)
        return;
    inline_finish(ix);
    for (size_t i = 0; i < ix->nobjects; i++) {
        struct object *o = &ix->objects[i];
        for (size_t c = 0; c < o->ncus; c++)
            free_tree(o->cus[c].index);
        free(o->saved);
        hashmap_free(&o->saved_units);
        free(o->cus);
        free(o->ranges);
        hashmap_free(&o->unit_index);
        die_reader_free(o->reader);
        if (o->own_dbg)
            dwarf_end(o->own_dbg);
        dwarf_image_close(o->image);
        if (o->dwfl)
            dwfl_end(o->dwfl);
    }
    hashmap_free(&ix->noted);
    free(ix->objects);
    hashmap_free(&ix->object_index);
    hashmap_free(&ix->lost);
    hashmap_free(&ix->frames);
    strtab_free(&ix->chains);
    strtab_free(&ix->sites);
    hashmap_free(&ix->child_index);
    free(ix->chain);
    free(ix->pending);
    buf_free(&ix->text);
    buf_free(&ix->frames_buf);
    free(ix->debug_path);
    dwarf_images_free(ix->images);
    free(ix->cache_dir);
    free(ix);
    demangle_unload();
}

/* ---- while reading ------------------------------------------------------------ */

void inline_note_object(struct inline_ctx *ix, uint32_t name, const char *path)
{
    bool inserted;
    hashmap_upsert(&ix->noted, name, 0, 0, &inserted);
    if (inserted && path[0] == '/')
        prefetch_object(ix->prefetch, path);
}

void inline_note_folded(struct inline_ctx *ix)
{
    ix->folded_inputs++;
}

/* ---- the report ---- */

void inline_report(const struct inline_ctx *ix, const struct strtab *names, FILE *out)
{
    for (size_t i = 0; i < ix->nobjects; i++) {
        const struct object *o = &ix->objects[i];
        const char *name = strtab_str(names, o->name);
        if (o->state == OBJ_FAILED && o->lost_addrs)
            fprintf(out, "callgrind_fold: warning: --inline: %s: %s; %" PRIu64
                    " address(es) with %" PRIu64 " self cost left unexpanded\n",
                    *name ? name : "(no object)", o->why, o->lost_addrs, o->lost_cost);
        if (o->split_lost_addrs)
            fprintf(out, "callgrind_fold: warning: --inline: %s: its split DWARF was not "
                    "found (no .dwo file of its units, no %s.dwp); %" PRIu64
                    " address(es) with %" PRIu64 " self cost left unexpanded\n",
                    name, name, o->split_lost_addrs, o->split_lost_cost);
    }
    if (ix->folded_inputs)
        fprintf(out, "callgrind_fold: warning: --inline: %" PRIu64 " input(s) of folded "
                "stacks passed through unexpanded (they hold no instruction addresses)\n",
                ix->folded_inputs);
}
