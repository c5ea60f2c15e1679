/* Compressed DWARF, opened cheaply for --inline.
 *
 * libdw inflates every compressed .debug_* section of a file when it
 * opens it. For a distribution's separate debug files (libc's holds 3.8
 * MB of zlib data) that costs several times everything else --inline
 * does. dwarf_image_open instead inflates only the sections scope
 * lookups read, into an in-memory ELF file of just those sections, and
 * keeps that file in a cache directory keyed by build-id, so that the
 * next run maps it instead of inflating again.
 *
 * Takes: an ELF file with compressed DWARF (from objects.c or
 * prefetch.c). Hands on: an image of its DWARF sections, which objects.c
 * opens with libdw as the object's DWARF. */
#ifndef CF_DWARFIMAGE_H
#define CF_DWARFIMAGE_H

#include <gelf.h>
#include <stdbool.h>

struct dwarf_images;
struct dwarf_image;

/* cache_dir: where inflated images are kept (created on first use);
 * NULL for no cache. with_lines: the images hold .debug_line too (for
 * source lines, srclines.h; kept in the cache apart from those
 * without, which cost less to make). */
struct dwarf_images *dwarf_images_new(const char *cache_dir, bool with_lines);
void dwarf_images_free(struct dwarf_images *di);

/* The DWARF sections of `elf`, uncompressed, as an ELF file for
 * dwarf_begin_elf; NULL when `elf` has no compressed DWARF or anything
 * unusual (32-bit or foreign-endian ELF, relocatable files, dwz
 * alternate files, old .zdebug sections): libdw's own way handles those. */
struct dwarf_image *dwarf_image_open(struct dwarf_images *di, Elf *elf);
Elf *dwarf_image_elf(const struct dwarf_image *img);
/* An image just made is not written to the cache by dwarf_image_open
 * (megabytes: milliseconds that a reader waiting for the image should
 * not wait); this writes it, once. Safe while another thread reads the
 * image. */
void dwarf_image_save(struct dwarf_images *di, struct dwarf_image *img);
void dwarf_image_close(struct dwarf_image *img);

#endif
