/* --inline, bias.c: the load bias of an object, the difference between
 * the addresses callgrind wrote and the object's ELF virtual addresses.
 *
 * Takes: an object just opened (objects.h) and the first address of some
 * of its functions, by the names callgrind gave them (struct sample).
 * Hands on: o->bias, with which apply.c turns a written address into a
 * DWARF address; or the object failed, when its addresses match no bias. */
#ifndef CF_INLINE_BIAS_H
#define CF_INLINE_BIAS_H

#include <stddef.h>
#include <stdint.h>

struct inline_ctx;
struct object;

#define BIAS_SAMPLES 64

struct sample {
    const char *name;
    size_t len;
    uint64_t addr;
};

/* Finds o->bias from the first addresses of up to BIAS_SAMPLES named
 * functions, or fails the object. */
void find_bias(struct inline_ctx *ix, struct object *o, const struct sample *s, size_t n);

#endif
