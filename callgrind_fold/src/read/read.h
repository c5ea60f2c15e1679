/* read/: the first stage. Inputs in, stacks or a call graph out.
 *
 * Takes: files, standard input ("-") or memory blocks, in any of three
 * formats told apart by their first lines (input.c): callgrind profiles
 * (parse.c, with events.c for "events:"/"event:" and --event), folded
 * trees from the patched callgrind's --dump-folded=yes (tree.c), and
 * folded stacks text (parse.c). Lines come from linereader.c, without an
 * allocation per line.
 * Hands on: into the run's struct fold_ctx (stacks/stacks.h). A callgrind
 * part is read into a struct profile (its call graph) and handed to the
 * stack builder (fold_profile) as the part ends, so only one part's graph
 * is ever held; with --inline its costs go through inline/ first
 * (inline_apply). Folded trees and folded text are exact stacks already and
 * go straight into the stacks. Errors come back as struct diag
 * ("FILE:LINE: message"). */
#ifndef CF_READ_READ_H
#define CF_READ_READ_H

#include <stddef.h>

#include "stacks/stacks.h"

/* input.c: one input: a file, standard input ("-") or a memory block, whose format
 * (callgrind profile, folded tree or folded stacks) is recognised from its
 * first lines. */

/* Each returns 0, or -1 with d filled in (d->file is set by them), or
 * INPUT_EMPTY (also with d filled in) when there is no data at all:
 * callgrind --separate-threads=yes leaves such a file next to the real
 * ones, so the caller may skip it when other inputs have data. */
#define INPUT_EMPTY 1
int fold_path(const char *path, struct fold_ctx *ctx, struct diag *d);
int fold_memory(const char *name, const char *data, size_t len,
                struct fold_ctx *ctx, struct diag *d);

#endif
