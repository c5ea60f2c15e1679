/* Files of the --inline cache directory: named by build-id, written to a
 * temporary name and renamed (readers never see half a file), and never
 * worth an error: a cache that cannot be used only costs time.
 *
 * Takes: a build-id and bytes to keep (dwarfimage.c's images,
 * indexcache.c's unit indexes). Hands on: what an earlier run kept. */
#ifndef CF_CACHEDIR_H
#define CF_CACHEDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "util/util.h"

/* DIR/<build-id in hex><suffix> into `path`; false without a directory
 * or a usable build-id. */
bool cache_path(const char *dir, const void *id, size_t id_len, const char *suffix,
                struct buf *path);

/* Writes `size` bytes as the file `path` in `dir` (created if needed). */
void cache_write(const char *dir, const char *path, const void *data, size_t size);

/* The whole file `path` (malloc'ed, *size bytes), or NULL. */
void *cache_read(const char *path, size_t *size);

#endif
