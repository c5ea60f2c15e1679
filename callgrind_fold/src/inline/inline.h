/* inline/: the optional stage between reading and stacking (--inline).
 * Expands each frame into the chain of functions inlined at the cost's
 * instruction address, read from the object's DWARF.
 *
 * Takes: from the pipeline, each part as the reader made it with
 * by_address (struct section_graph, stacks/stacks.h): the cost of every (function,
 * address) and every (function, call-site address, callee), not yet in
 * the call graph.
 * Hands on: inline_apply() resolves the addresses and adds the costs to
 * the part's struct profile, where code inlined into a function X
 * becomes a chain of child nodes X -> "a [inlined]" -> "b [inlined]" that
 * only X calls. The stack builder then treats them as ordinary callees,
 * so exactness and the sum invariant are unchanged.
 *
 * The files, from where an address comes in down to the DWARF readers.
 * Each calls only files listed below it, through a header of that file's
 * name whose opening comment says what the file takes and hands on
 * (inline.c's and apply.c's functions are this header's, the only one
 * other folders use).
 *   inline.c      the run's context, objects noted early, the final
 *                 report; context.h holds the context, which every file
 *                 below works in (types only)
 *   apply.c       inline_apply: objects opened, addresses resolved to
 *                 chains, chains into the call graph
 *   lookup.c      the scope tree of the function at an address: the unit
 *                 by its ranges, its index of functions, the function's
 *                 tree, each made when first needed
 *   bias.c        the load bias, from the ELF symbol tables
 *   names.c       frame names of inlined scopes, interned chains of them
 *   demangle.c    C++ and Rust names demangled as callgrind shows them
 *   rustdemangle.c  Rust's two manglings, legacy and v0
 *   indexcache.c  unit indexes kept in the cache directory
 *   scopes.c      a unit's index of functions, a function's scope tree,
 *                 flattened for lookup
 *   objects.c     opening an object (libdwfl) and its units' ranges
 *   prefetch.c    compressed debug files inflated on a worker thread
 *                 while the profile is read
 *   dwarfimage.c  compressed DWARF inflated into an image of the needed
 *                 sections
 *   cachedir.c    files of the cache directory (those images, the unit
 *                 indexes), by build-id
 *   debugfile.c   separate debug files by build-id and debuglink
 *   dieread.c     the direct DIE reader the trees are built with
 *   aranges.c     .debug_aranges and unit headers read directly
 *
 * Why DIEs are read directly and not only through libdw: walking DIEs
 * through libdw (dwarf_child, dwarf_siblingof, dwarf_getattrs) costs about
 * 1,000 instructions a DIE, and a function's tree visits every parameter,
 * variable and call site in it. dieread.c decodes the DIEs of plain units
 * (DWARF 2 to 5 compile units of the file itself, what gcc and clang write
 * without -gsplit-dwarf) from each unit's abbreviation table, reading the
 * few attributes a scope needs and stepping over the rest by their forms'
 * sizes: about a tenth of libdw's instructions (README.md, "DIEs read
 * directly"; bench/inline-bench.sh times --inline as a whole). It is a
 * fast path, never the only one: whatever it does not handle (split
 * units, supplementary files, an unknown form, bad offsets) goes through
 * libdw, for that unit or function. CALLGRIND_FOLD_DIE_READER=libdw or
 * =direct picks one reader with no fallback, for tests. The other readers
 * of our own (aranges.c, dwarfimage.c) exist for the same reason: each
 * replaced libdw work that the benchmark showed to dominate.
 *
 * Failures never fail the run: an object that cannot be used is left
 * unexpanded and reported once (inline_report). */
#ifndef CF_INLINE_H
#define CF_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stacks/stacks.h"
#include "util/util.h"

struct inline_ctx;

/* The default --inline-cache directory (dwarfimage.c): $XDG_CACHE_HOME/callgrind_fold, else
 * $HOME/.cache/callgrind_fold, else NULL. Malloc'ed. */
char *dwarf_images_default_dir(void);

/* debug_dirs: colon-separated global debug directories searched for
 * separate debug files (by build-id and by debuglink); NULL means
 * /usr/lib/debug. cache_dir: where inflated copies of compressed DWARF
 * are kept (see dwarfimage.h); NULL for none. with_lines: a writer
 * shows lines (-f pprof): inflated copies keep .debug_line too, and
 * inline_apply fills the part's line table from it. */
struct inline_ctx *inline_new(const char *debug_dirs, const char *cache_dir, bool with_lines);
/* Writes what the cache directory should keep and stops the prefetch
 * thread: all that must happen before exit. */
void inline_finish(struct inline_ctx *ix);
/* inline_finish, then frees everything. */
void inline_free(struct inline_ctx *ix);

/* An object's name (an "ob=" or "cob=" line; `name` its interned id):
 * its debug file may be prepared while the rest is read (prefetch.h). */
void inline_note_object(struct inline_ctx *ix, uint32_t name, const char *path);
/* A folded-stacks input was passed through without expansion. */
void inline_note_folded(struct inline_ctx *ix);

/* Adds the part's costs by address (struct section_graph, by_address) to its call
 * graph, resolved into inlined frames. Function and object names are in
 * `names`. Returns 0, or -1 with a message in err when a sum overflows. */
int inline_apply(struct inline_ctx *ix, struct section_graph *pt, struct strtab *names, char *err,
                 size_t errlen);

/* Once per object that could not be used (missing, no DWARF, addresses
 * that match no symbol), one line on `out` with the number of addresses
 * and the self cost left unexpanded; also a line for folded inputs. */
void inline_report(const struct inline_ctx *ix, const struct strtab *names, FILE *out);

#endif
