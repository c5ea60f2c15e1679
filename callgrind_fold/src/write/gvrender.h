/* Renders DOT text to an image with graphviz: through the libgvc library
 * when callgrind_fold was built with it (HAVE_GVC), else (or when the
 * library fails, or CALLGRIND_FOLD_NO_GVC is set, for testing) by running
 * `dot` from PATH. */
#ifndef CF_GVRENDER_H
#define CF_GVRENDER_H

#include <stddef.h>
#include <stdio.h>

/* format: a graphviz output format ("png", "svg"). Returns 0, -1 on a
 * write error, or -2 with a message in err (graphviz missing or failed). */
int gv_render(const char *dot, size_t len, const char *format, FILE *out, char *err,
              size_t errlen);

#endif
