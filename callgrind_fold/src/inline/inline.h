/* --inline: expand each frame into the chain of functions inlined at the
 * cost's instruction address, read from the object's DWARF with libdw.
 *
 * The reader records, per part, the cost of every (function, address)
 * and every (function, call-site address, callee) instead of adding it
 * to the call graph; at the end of the part inline_apply() resolves the
 * addresses and adds the costs to the graph, where code inlined into a
 * function X becomes a chain of child nodes X -> "a [inlined]" ->
 * "b [inlined]" that only X calls. The stack builder then treats them as
 * ordinary callees, so exactness and the sum invariant are unchanged. */
#ifndef CF_INLINE_H
#define CF_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stacks/stacks.h"
#include "util/util.h"

/* Appended to the name of every inlined frame. */
#define INLINE_MARK " [inlined]"

struct inline_ctx;

/* The default --inline-cache directory (dwarfimage.c): $XDG_CACHE_HOME/callgrind_fold, else
 * $HOME/.cache/callgrind_fold, else NULL. Malloc'ed. */
char *dwarf_images_default_dir(void);

/* debug_dirs: colon-separated global debug directories searched for
 * separate debug files (by build-id and by debuglink); NULL means
 * /usr/lib/debug. cache_dir: where inflated copies of compressed DWARF
 * are kept (see dwarfimage.h); NULL for none. */
struct inline_ctx *inline_new(const char *debug_dirs, const char *cache_dir);
/* Writes what the cache directory should keep and stops the prefetch
 * thread: all that must happen before exit. */
void inline_finish(struct inline_ctx *ix);
/* inline_finish, then frees everything. */
void inline_free(struct inline_ctx *ix);

/* Start of a part: forget the previous part's records. */
void inline_part_begin(struct inline_ctx *ix);
/* Both return false when a sum overflows 64 bits. */
bool inline_self(struct inline_ctx *ix, uint32_t node, uint64_t addr, uint64_t cost);
bool inline_call(struct inline_ctx *ix, uint32_t node, uint32_t callee, uint64_t addr,
                 uint64_t cost, uint64_t calls);
/* The size of the next input file: room for its cost lines is made at
 * once instead of by doubling (copying megabytes). */
void inline_expect_input(struct inline_ctx *ix, uint64_t bytes);
/* An object's name (an "ob=" or "cob=" line; `name` its interned id):
 * its debug file may be prepared while the rest is read (prefetch.h). */
void inline_note_object(struct inline_ctx *ix, uint32_t name, const char *path);
/* A folded-stacks input was passed through without expansion. */
void inline_note_folded(struct inline_ctx *ix);

/* Add the part's costs to the graph: resolved into inlined frames when
 * `expand`, else as they are (a part that --part leaves out still needs
 * its sum checked). Function and object names are in `names`. Returns 0,
 * or -1 with a message in err when a sum overflows. */
int inline_apply(struct inline_ctx *ix, struct profile *p, struct strtab *names,
                 bool expand, char *err, size_t errlen);

/* Once per object that could not be used (missing, no DWARF, addresses
 * that match no symbol), one line on `out` with the number of addresses
 * and the self cost left unexpanded; also a line for folded inputs. */
void inline_report(const struct inline_ctx *ix, const struct strtab *names, FILE *out);

#endif
