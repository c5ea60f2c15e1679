#include "render.h"
#include "diff.h"
#include "dot.h"
#include "flamesvg.h"
#include "flametree.h"
#include "gvrender.h"
#include "callarcs.h"
#include "speedscope.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void render_options_init(struct render_options *ro)
{
    memset(ro, 0, sizeof *ro);
    ro->format = FORMAT_FOLDED;
    ro->width = RENDER_DEFAULT_WIDTH;
    ro->minwidth = RENDER_DEFAULT_MINWIDTH;
    ro->colors = COLORS_NAME;
    ro->node_thres = RENDER_DEFAULT_NODE_THRES;
    ro->edge_thres = RENDER_DEFAULT_EDGE_THRES;
}

bool render_parse_format(const char *s, enum render_format *f)
{
    static const struct {
        const char *name;
        enum render_format format;
    } names[] = {{"folded", FORMAT_FOLDED}, {"svg", FORMAT_SVG},
                 {"flamegraph", FORMAT_SVG}, {"dot", FORMAT_DOT},
                 {"png", FORMAT_PNG},       {"svg-graph", FORMAT_SVG_GRAPH},
                 {"speedscope", FORMAT_SPEEDSCOPE}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *f = names[i].format;
            return true;
        }
    return false;
}

const char *render_countname(const struct render_job *job)
{
    if (job->ro->countname)
        return job->ro->countname;
    const struct fold_ctx *ctx = job->ctx;
    const char *event = ctx->opt.event ? ctx->opt.event : ctx->default_event;
    if (ctx->parts_read == 0 || !event)
        return "samples"; /* folded stacks only: counts of unknown meaning */
    static const char *const names[][2] = {
        {"Ir", "instructions"},
        {"Dr", "data reads"},
        {"Dw", "data writes"},
        {"I1mr", "I1 read misses"},
        {"D1mr", "D1 read misses"},
        {"D1mw", "D1 write misses"},
        {"ILmr", "LL instruction read misses"},
        {"DLmr", "LL data read misses"},
        {"DLmw", "LL data write misses"},
        {"I2mr", "L2 instruction read misses"},
        {"D2mr", "L2 data read misses"},
        {"D2mw", "L2 data write misses"},
        {"Bc", "conditional branches"},
        {"Bcm", "mispredicted conditional branches"},
        {"Bi", "indirect branches"},
        {"Bim", "mispredicted indirect branches"},
        {"Ge", "global bus events"},
        {"sysCount", "system calls"},
        {"sysTime", "system call time"},
        {"sysCpuTime", "system call CPU time"},
        {"AcCost1", "L1 access cost"},
        {"AcCost2", "L2 access cost"},
        {"SpLoss1", "L1 spatial loss"},
        {"SpLoss2", "L2 spatial loss"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(event, names[i][0]) == 0)
            return names[i][1];
    return event;
}

static int write_svg(const struct render_job *job, const uint64_t *base_count, FILE *out)
{
    struct flame_tree tree;
    flame_build(&tree, &job->ctx->out, base_count,
                flamesvg_scale(job->ro, job->ctx->out.total), job->ro->minwidth);
    struct flamesvg_input in = {
        .ro = job->ro,
        .tree = &tree,
        .stacks = &job->ctx->out,
        .countname = render_countname(job),
    };
    if (job->ctx->arcs) {
        in.objects.object = job->ctx->arcs->object;
        in.objects.count = job->ctx->arcs->nobject;
        in.objects.names = &job->ctx->names;
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
    uint64_t *base_count = job->base ? diff_align(job->ctx, job->base) : NULL;
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
    case FORMAT_FOLDED:
    default:
        rc = base_count ? diff_write_folded(&job->ctx->out, base_count, out)
                        : stacks_write(&job->ctx->out, out);
        break;
    }
    free(base_count);
    return rc;
}
