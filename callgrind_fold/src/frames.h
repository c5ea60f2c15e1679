/* How a function is printed as one frame of a folded stack. */
#ifndef CF_FRAMES_H
#define CF_FRAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct frame_style {
    bool keep_clones;  /* keep "fn'2" and "fn'caller" as callgrind wrote them */
    bool with_object;  /* append " [object-basename]" */
};

/* Length of the function name without callgrind's clone suffix: the
 * recursion mark "'N" and the caller context "'caller'caller2..." both
 * start at the first "'" outside brackets, so that a quote inside a C++
 * template argument such as foo<'a'> is not mistaken for one. */
size_t frame_base_length(const char *name, size_t len);

/* Append the frame for a function: its (possibly folded) name, ";"
 * replaced by ":" so it cannot split the stack, and the object's base
 * name in brackets when asked for and known. */
void frame_append(struct buf *out, const char *name, size_t name_len,
                  const char *object, size_t object_len,
                  const struct frame_style *style);

#endif
