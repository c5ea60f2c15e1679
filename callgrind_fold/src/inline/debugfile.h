/* Separate debug files found as gdb and libdwfl find them.
 *
 * Takes: an object's ELF file and path, and the debug directories.
 * Hands on: its debug file, opened, to objects.c and prefetch.c (where
 * libdwfl's own search would inflate compressed DWARF). */
#ifndef CF_DEBUGFILE_H
#define CF_DEBUGFILE_H

#include "util/util.h"

#include <gelf.h>

/* The separate debug file of the object at `path` (whose ELF is
 * `main`), searched as libdwfl's dwfl_standard_find_debuginfo does with
 * the path ":.debug:DIRS" (`dirs` colon-separated): by build-id in each
 * DIR, then by debuglink (or NAME.debug) in the object's directory, its
 * .debug/ and each DIR/<object's directory>/. A candidate must have the
 * object's build-id, if it has one, else the debuglink's CRC. Returns an
 * open fd or -1. `scratch` holds the names tried. */
int debug_file_open(const char *dirs, Elf *main, const char *path, struct buf *scratch);

/* Whether `elf` holds .debug_info itself (then no separate file is
 * looked for), and if so whether that section is compressed. */
bool debug_info_in(Elf *elf, bool *compressed);

#endif
