/* speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one "sampled" profile whose samples are the folded stacks (indices into
 * the shared frame list, root first) weighted by their counts. */
#ifndef CF_SPEEDSCOPE_H
#define CF_SPEEDSCOPE_H

#include <stdio.h>

#include "job.h"

int speedscope_write(const struct render_job *job, FILE *out);

#endif
