/* libFuzzer target: any bytes, read as callgrind profile, folded tree or
 * folded stacks.
 * The first byte picks options so that every output path is exercised.
 * Besides crashes and sanitizer reports, it checks that a callgrind part
 * folds to exactly its cost (the library already refuses otherwise), and
 * for inputs of odd size (half of them, whatever their first byte) that
 * the one-event reader's 64-byte blocks (src/read/costblocks.h) read the
 * input as a line at a time does: the same output, or the same error at
 * the same line. */
#define _DEFAULT_SOURCE /* setenv */
#include "pipeline.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct diag d;
    if (size % 2 == 0) {
        fold_input(data, size, &d, NULL);
        return 0;
    }
    struct diag dl;
    char *out = NULL, *out_lines = NULL;
    int rc = fold_input(data, size, &d, &out);
    setenv("CALLGRIND_FOLD_COST_BLOCKS", "0", 1);
    int rc_lines = fold_input(data, size, &dl, &out_lines);
    unsetenv("CALLGRIND_FOLD_COST_BLOCKS");
    if (rc != rc_lines || (rc == 0 && strcmp(out ? out : "", out_lines ? out_lines : "")) ||
        (rc != 0 && (d.line != dl.line || strcmp(d.msg, dl.msg)))) {
        fprintf(stderr, "blocks and lines differ: rc %d/%d, line %llu/%llu: %s / %s\n", rc,
                rc_lines, (unsigned long long)d.line, (unsigned long long)dl.line,
                rc ? d.msg : "", rc_lines ? dl.msg : "");
        abort();
    }
    free(out);
    free(out_lines);
    return 0;
}
