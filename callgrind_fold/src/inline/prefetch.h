/* Compressed debug files inflated on a second thread while the profile
 * is still being read.
 *
 * Inflating a distribution's debug file is the biggest cost of a first
 * --inline run (libc's .debug_info is megabytes), and it needs
 * nothing from the profile but the object's name, which callgrind writes
 * near the start ("ob="). So the reader hands each object name to
 * prefetch_object as it appears; one worker thread finds the object's
 * debug file and makes its image (dwarfimage.h, with its own
 * decompressor and the same cache directory) while parsing goes on; the
 * main thread takes the images when it opens the objects.
 *
 * Only the worker touches its queue entries until they are done, and it
 * shares nothing else: the main thread may open other objects meanwhile.
 *
 * Takes: object names as the reader sees them (inline_note_object).
 * Hands on: their images (dwarfimage.h) to objects.c, and to apply.c
 * which objects are ready to be opened without waiting. */
#ifndef CF_PREFETCH_H
#define CF_PREFETCH_H

#include "dwarfimage.h"

#include <stdbool.h>

struct prefetch;

/* cache_dir and with_lines as for dwarf_images_new; debug_dirs as for
 * debug_file_open. */
struct prefetch *prefetch_new(const char *cache_dir, const char *debug_dirs, bool with_lines);
/* Waits for the worker, closes the images nobody took. */
void prefetch_free(struct prefetch *pf);

/* Queues the object at `path` (an absolute file name; each path once). */
void prefetch_object(struct prefetch *pf, const char *path);

/* Whether the object at `path` may be opened now without waiting: the
 * worker is done with it, or never had it, or had not started it (then
 * it never will: the caller makes the image itself). */
bool prefetch_claim(struct prefetch *pf, const char *path);

/* Writes the image's cache entry (dwarf_image_save) on the worker when
 * it has nothing else to do, or before it stops; the image must stay
 * open until prefetch_free. Without a worker, writes it now. */
void prefetch_save(struct prefetch *pf, struct dwarf_images *di, struct dwarf_image *img);

/* The image made for `path`, waiting for it if needed; the caller owns
 * it (and must keep it open until prefetch_free: see prefetch_save). NULL when the path was not queued, or its DWARF is not compressed,
 * or anything failed (the caller then does its own work). */
struct dwarf_image *prefetch_take(struct prefetch *pf, const char *path);

#endif
