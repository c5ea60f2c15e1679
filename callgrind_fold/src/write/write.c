/* render_write: the writer for the chosen format (see write.h). */
#include "write.h"
#include "diff.h"
#include "dot.h"
#include "flamesvg.h"
#include "flametree.h"
#include "foldedtext.h"
#include "gvrender.h"
#include "pprof.h"
#include "report.h"
#include "speedscope.h"
#include "stacks/callarcs.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static int write_svg(const struct render_job *job, const uint64_t *base_count, FILE *out)
{
    struct flame_tree tree;
    flame_build(&tree, job->stacks, base_count,
                flamesvg_scale(job->ro, stacks_col_total(job->stacks, CHOSEN_COLUMN)), job->ro->minwidth);
    struct flamesvg_input in = {
        .ro = job->ro,
        .tree = &tree,
        .stacks = job->stacks,
        .countname = render_countname(job),
    };
    if (job->arcs) {
        in.objects.object = job->arcs->object;
        in.objects.count = job->arcs->nobject;
        in.objects.names = job->names;
    }
    int rc = flamesvg_write(&in, out);
    flame_free(&tree);
    return rc;
}

static int write_graph_image(const struct render_job *job, const char *format, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        out_of_memory();
    int rc = dot_write(job, mem);
    if (fclose(mem) != 0 || rc != 0) {
        free(text);
        out_of_memory();
    }
    char err[512];
    rc = gv_render(text, len, format, out, err, sizeof err);
    if (rc == -2)
        fprintf(stderr, "callgrind_fold: %s\n", err);
    free(text);
    return rc;
}

int render_write(const struct render_job *job, FILE *out)
{
    bool report = job->report || job->report_diff;
    uint64_t *base_count = job->base && !report ? diff_align(job->stacks, job->base) : NULL;
    int rc;
    switch (job->ro->format) {
    case FORMAT_SVG:
        rc = write_svg(job, base_count, out);
        break;
    case FORMAT_DOT:
        rc = dot_write(job, out);
        break;
    case FORMAT_PNG:
        rc = write_graph_image(job, "png", out);
        break;
    case FORMAT_SVG_GRAPH:
        rc = write_graph_image(job, "svg", out);
        break;
    case FORMAT_SPEEDSCOPE:
        rc = speedscope_write(job, out);
        break;
    case FORMAT_PPROF:
        rc = pprof_write(job, out);
        break;
    case FORMAT_HTML:
    case FORMAT_MD: {
        bool html = job->ro->format == FORMAT_HTML;
        if (job->report_diff)
            rc = html ? html_write_diff(out, job->ro, job->report_diff)
                      : md_write_diff(out, job->report_diff);
        else
            rc = html ? html_write_report(out, job->ro, job->report)
                      : md_write_report(out, job->report);
        break;
    }
    case FORMAT_FOLDED:
    default:
        rc = base_count ? diff_write_folded(job->stacks, base_count, out)
                        : stacks_write(job->stacks, out);
        break;
    }
    free(base_count);
    return rc;
}
