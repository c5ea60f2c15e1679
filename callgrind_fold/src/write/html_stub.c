/* PLACEHOLDER for -f html until write/html.c (issue 29, the page) is
 * merged: weak definitions, so that html.c's real ones replace them at
 * link time; the merge deletes this file. Nothing tests -f html here. */
#include "report.h"

#include <stdio.h>

__attribute__((weak)) int html_write_report(FILE *out, const struct render_options *ro,
                                            const struct report *r)
{
    (void)out, (void)ro, (void)r;
    fprintf(stderr, "callgrind_fold: -f html is not built in this version\n");
    return -2;
}

__attribute__((weak)) int html_write_diff(FILE *out, const struct render_options *ro,
                                          const struct report_diff *d)
{
    (void)out, (void)ro, (void)d;
    fprintf(stderr, "callgrind_fold: -f html is not built in this version\n");
    return -2;
}
