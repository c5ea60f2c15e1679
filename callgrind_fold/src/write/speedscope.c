/* Writer: speedscope JSON, one sampled profile (speedscope.h). */
#include "speedscope.h"
#include "foldedtext.h"
#include "textout.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NO_INDEX UINT32_MAX

int speedscope_write(const struct render_job *job, FILE *out)
{
    const struct stacks *s = job->stacks;
    const char *name = job->ro->title ? job->ro->title : job->name;
    size_t n;
    uint32_t *order = stacks_sorted(s, NULL, &n);

    /* Frames in order of first use. */
    size_t nframes = stacks_count_frames(s);
    uint32_t *index = xmalloc((nframes ? nframes : 1) * sizeof *index);
    for (size_t f = 0; f < nframes; f++)
        index[f] = NO_INDEX;
    uint32_t *used = xmalloc((nframes ? nframes : 1) * sizeof *used);
    uint32_t nused = 0;
    for (size_t i = 0; i < n; i++) {
        size_t nf;
        const uint32_t *f = stacks_path(s, order[i], &nf);
        for (size_t k = 0; k < nf; k++)
            if (index[f[k]] == NO_INDEX) {
                index[f[k]] = nused;
                used[nused++] = f[k];
            }
    }

    struct textout o;
    to_init(&o, out);
    to_puts(&o, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
    to_puts(&o, "\"exporter\":\"callgrind_fold\",\n\"name\":\"");
    to_json(&o, name, strlen(name));
    to_puts(&o, "\",\n\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[");
    for (uint32_t i = 0; i < nused; i++) {
        to_puts(&o, i ? ",\n{\"name\":\"" : "\n{\"name\":\"");
        size_t len;
        const char *text = stacks_frame_text(s, used[i], &len);
        to_json(&o, text, len);
        /* --frame=short: the raw name where speedscope shows a frame's
         * file, under its name on hover and in the details. */
        const char *raw = stacks_frame_raw(s, used[i]);
        if (raw != text) {
            to_puts(&o, "\",\"file\":\"");
            to_json(&o, raw, strlen(raw));
        }
        to_puts(&o, "\"}");
    }
    to_puts(&o, "]},\n\"profiles\":[{\"type\":\"sampled\",\"name\":\"");
    to_json(&o, name, strlen(name));
    const char *unit = render_countname(job);
    to_puts(&o, " (");
    to_json(&o, unit, strlen(unit));
    to_printf(&o, ")\",\"unit\":\"none\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n"
              "\"samples\":[", stacks_col_total(s, CHOSEN_COLUMN));
    for (size_t i = 0; i < n; i++) {
        size_t nf;
        const uint32_t *f = stacks_path(s, order[i], &nf);
        to_puts(&o, i ? ",\n[" : "\n[");
        for (size_t k = 0; k < nf; k++)
            to_printf(&o, k ? ",%" PRIu32 : "%" PRIu32, index[f[k]]);
        to_puts(&o, "]");
    }
    to_puts(&o, "],\n\"weights\":[");
    for (size_t i = 0; i < n; i++)
        to_printf(&o, i ? ",%" PRIu64 : "%" PRIu64, stacks_count(s, CHOSEN_COLUMN, order[i]));
    to_puts(&o, "]}]}\n");

    free(index);
    free(used);
    free(order);
    return to_finish(&o);
}
