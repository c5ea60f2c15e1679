/* libFuzzer target: any bytes, read as callgrind profile, folded tree or
 * folded stacks.
 * The first byte picks options so that every output path is exercised.
 * Besides crashes and sanitizer reports, it checks that a callgrind part
 * folds to exactly its cost (the library already refuses otherwise). */
#include "pipeline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
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
    struct diag d;
    if (run_read_memory(&run, "fuzz", (const char *)data, size, &d) == 0 && sink)
        stacks_write(&run.out, sink);
    run_free(&run);
    return 0;
}
