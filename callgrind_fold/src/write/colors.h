/* Fill colours of the pictures. Every colour is a function of text (a
 * frame or object name) or of numbers only, so the same name gets the
 * same colour in every run and every picture. */
#ifndef CF_COLORS_H
#define CF_COLORS_H

#include <stddef.h>
#include <stdint.h>

struct rgb {
    unsigned r, g, b;
};

/* Flame colours (reds, oranges, yellows) from a hash of the name. */
struct rgb color_by_name(const char *name, size_t len);

/* Where code comes from, told apart by hue: the program (warm), the C and
 * C++ runtime libraries (blue), the dynamic loader and valgrind's own
 * preloaded objects (purple), other libraries (green), unknown (grey).
 * All frames of one object have the same colour. */
enum object_class { OBJ_UNKNOWN, OBJ_PROGRAM, OBJ_SYSTEM, OBJ_RUNTIME, OBJ_LIBRARY };
enum object_class object_classify(const char *object, size_t len);
struct rgb color_by_object(const char *object, size_t len);

/* The object of a frame written as "fn [object]" (--frame=fn+obj): sets
 * *obj and *obj_len and returns 1, or returns 0. */
int frame_object(const char *frame, size_t len, const char **obj, size_t *obj_len);

/* Differential flame graph: red for growth, blue for shrinkage, whiter
 * the smaller the relative change. */
struct rgb color_diff(uint64_t before, uint64_t after);

/* Call graph: cold blue to hot red for a fraction 0..1 of the total. */
struct rgb color_heat(double fraction);

#endif
