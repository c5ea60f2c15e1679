/* libFuzzer target: any bytes, read as callgrind profile, folded tree or
 * folded stacks.
 * The first byte picks options so that every output path is exercised.
 * Besides crashes and sanitizer reports, it checks that a callgrind part
 * folds to exactly its cost (the library already refuses otherwise), and
 * that the readers' fast tiers read every input as the exact scanners
 * alone do (src/read/tiers.h, CALLGRIND_FOLD_EXACT): the same output, or
 * the same error at the same line.  Inputs of odd size (half of them,
 * whatever their first byte) are also read without the one-event
 * reader's 64-byte blocks (src/read/callgrind/costblocks.h), so that the tier
 * below them is checked on CPUs that have them. */
#define _DEFAULT_SOURCE /* setenv */
#include "pipeline.h"
#include "read/tiers.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input folded with the first byte's options: returns the reader's
 * status, *d its error, *out (when not NULL) the output text. */
static int fold_input(const uint8_t *data, size_t size, struct diag *d, char **out)
{
    uint8_t knobs = size ? data[0] : 0;
    struct run_options opt = {
        .event = (knobs & 8) ? "Dr" : NULL,
        .part = (knobs & 16) ? 2 : ALL_PARTS,
        .resolution = (knobs & 32) ? 0 : DEFAULT_RESOLUTION,
        .style = {.keep_clones = knobs & 1, .with_object = knobs & 2},
    };
    render_options_init(&opt.render);
    /* parts kept apart: re-rooted and summed (svg), or kept (md) */
    if (knobs & 64)
        opt.render.format = (knobs & 4) ? FORMAT_MD : FORMAT_SVG;
    struct run run;
    run_init(&run, &opt);
    static FILE *null_sink;
    if (!null_sink)
        null_sink = fopen("/dev/null", "w");
    size_t len;
    FILE *sink = out ? open_memstream(out, &len) : null_sink;
    int rc = run_read_memory(&run, "fuzz", (const char *)data, size, d);
    if (rc == 0 && sink)
        stacks_write(&run.out, sink);
    if (out && sink)
        fclose(sink);
    run_free(&run);
    return rc;
}

/* The input folded as `how` reads it, against the exact scanners' *d,
 * rc and out: abort() if they differ. */
static void same_as_exact(const uint8_t *data, size_t size, const char *how, int rc,
                          const struct diag *d, const char *out)
{
    struct diag dx;
    char *out_x = NULL;
    read_force_exact(1);
    int rc_x = fold_input(data, size, &dx, &out_x);
    read_force_exact(-1);
    if (rc != rc_x || (rc == 0 && strcmp(out ? out : "", out_x ? out_x : "")) ||
        (rc != 0 && (d->line != dx.line || strcmp(d->msg, dx.msg)))) {
        fprintf(stderr, "%s and exact differ: rc %d/%d, line %llu/%llu: %s / %s\n", how, rc,
                rc_x, (unsigned long long)d->line, (unsigned long long)dx.line,
                rc ? d->msg : "", rc_x ? dx.msg : "");
        abort();
    }
    free(out_x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct diag d;
    char *out = NULL;
    int rc = fold_input(data, size, &d, &out);
    same_as_exact(data, size, "fast", rc, &d, out);
    free(out);
    if (size % 2 == 0)
        return 0;
    out = NULL;
    setenv("CALLGRIND_FOLD_COST_BLOCKS", "0", 1);
    rc = fold_input(data, size, &d, &out);
    unsetenv("CALLGRIND_FOLD_COST_BLOCKS");
    same_as_exact(data, size, "lines", rc, &d, out);
    free(out);
    return 0;
}
