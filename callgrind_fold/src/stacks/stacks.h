/* stacks/: from a profile to folded stacks, in five headers, one a job:
 *
 *   columns.h   which event each column of the counts holds (columns.c)
 *   model.h     struct stacks, struct profile, struct section_graph (stacks.c,
 *               profile.c, section_graph.c): what every stage works on
 *   fold.h      a call graph folded into stacks, exact or estimated
 *               (estimate.c, graph.c, apportion.c)
 *   present.h   frame texts, short names and labels, stacks re-rooted at
 *               the user's code (frames.c, shortname.c, symlabel.c,
 *               roots.c)
 *   callarcs.h  the call graph kept for -f dot (callarcs.c)
 *
 * Files of stacks/ include the headers they use.  This one includes all
 * five, for the stages that use the whole folder (read/, inline/, the
 * pipeline).  The folded text itself is written by write/ (foldedtext.h).
 * Depends on util/ only. */
#ifndef CF_STACKS_STACKS_H
#define CF_STACKS_STACKS_H

#include "callarcs.h"
#include "columns.h"
#include "fold.h"
#include "model.h"
#include "present.h"

#endif
