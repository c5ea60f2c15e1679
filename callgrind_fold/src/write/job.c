/* The helpers writers share about a job: default options, --format
 * names, and what the counts are called. */
#include "job.h"

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
                 {"speedscope", FORMAT_SPEEDSCOPE},
                 {"pprof", FORMAT_PPROF},   {"html", FORMAT_HTML},
                 {"md", FORMAT_MD}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *f = names[i].format;
            return true;
        }
    return false;
}

const struct writer_needs *render_needs(enum render_format f)
{
    static const struct writer_needs needs[] = {
        [FORMAT_FOLDED] = {.threads_on_request = true, .notes_estimate = true},
        [FORMAT_SVG] = {.picture = true, .shows_threads = true, .raw_names_shown = true,
                        .diff_in_format = true, .notes_estimate = true},
        [FORMAT_DOT] = {.call_arcs = true, .raw_names_shown = true, .notes_estimate = true},
        [FORMAT_PNG] = {.call_arcs = true, .raw_names_shown = true, .notes_estimate = true},
        [FORMAT_SVG_GRAPH] = {.call_arcs = true, .raw_names_shown = true,
                              .notes_estimate = true},
        [FORMAT_SPEEDSCOPE] = {.shows_threads = true, .raw_names_shown = true,
                               .notes_estimate = true},
        [FORMAT_PPROF] = {.run_columns = true, .sources = true, .lines = true, .notes = true,
                          .shows_threads = true, .raw_names_shown = true,
                          .notes_estimate = true},
        [FORMAT_HTML] = {.part_columns = true, .lines = true, .notes = true, .report = true,
                         .picture = true, .shows_threads = true, .raw_names_shown = true,
                         .diff_in_format = true, .notes_estimate = true},
        /* totals and self costs by line, exact either way: no estimate note */
        [FORMAT_MD] = {.part_columns = true, .lines = true, .diff_lines = true, .notes = true,
                       .report = true,
                       .totals_only = true, .shows_threads = true, .raw_names_shown = true,
                       .diff_in_format = true},
    };
    return &needs[f];
}

const char *event_cycles_estimate(const char *event)
{
    static const char *const what[][2] = {
        {"Ct", "throughput"}, {"Cl", "latency"}, {"Cb", "block model"}};
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
        if (strcmp(event, what[i][0]) == 0)
            return what[i][1];
    return NULL;
}

bool event_counts_centicycles(const char *event)
{
    return event_cycles_estimate(event) != NULL;
}

const char *render_countname(const struct render_job *job)
{
    if (job->ro->countname)
        return job->ro->countname;
    const char *event = job->event;
    if (!event)
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
        /* --cycle-estimation counts hundredths of a cycle */
        {"Ct", "centi-cycles (Ct)"},
        {"Cl", "centi-cycles (Cl)"},
        {"Cb", "centi-cycles (Cb)"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(event, names[i][0]) == 0)
            return names[i][1];
    return event;
}
