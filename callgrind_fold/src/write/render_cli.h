/* Command-line options of the pictures (issue 7), kept apart from
 * main.c's own options: main.c hands every argument it does not know
 * to render_option() first. */
#ifndef CF_RENDER_CLI_H
#define CF_RENDER_CLI_H

#include "job.h"

/* Returns 1 if argv[*i] is one of these options (consuming a separate
 * value argument by advancing *i), else 0. Exits with status 1 on a bad
 * value. */
int render_option(int *i, int argc, char **argv, struct render_options *ro);

/* Checks combinations once all options are read; exits with status 1. */
void render_check_options(const struct render_options *ro);

extern const char render_usage_text[];

#endif
