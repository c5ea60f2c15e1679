/* Writer: the call graph in graphviz DOT (dot.h). */
#include "dot.h"
#include "stacks/callarcs.h"
#include "colors.h"
#include "textout.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LABEL_CHARS 200
#define MAX_TOOLTIP_CHARS 2000

struct node_costs {
    uint64_t *self, *incl;
    size_t n;
};

/* Self and inclusive cost of every frame; with `arcs`, also the arcs
 * between adjacent frames, each stack's count added once per arc. */
static void costs_from_stacks(const struct stacks *s, struct node_costs *nc,
                              struct callarcs *arcs)
{
    nc->n = stacks_count_frames(s);
    nc->self = xcalloc(nc->n, sizeof *nc->self);
    nc->incl = xcalloc(nc->n, sizeof *nc->incl);
    uint32_t *seen = xcalloc(nc->n, sizeof *seen);
    uint32_t *arc_seen = NULL;
    size_t arc_seen_cap = 0;
    for (size_t id = 0; id < stacks_count_ids(s); id++) {
        uint64_t c = stacks_count(s, CHOSEN_COLUMN, (uint32_t)id);
        if (c == 0)
            continue;
        uint32_t stamp = (uint32_t)id + 1;
        size_t nf;
        const uint32_t *f = stacks_path(s, (uint32_t)id, &nf);
        nc->self[f[nf - 1]] += c;
        for (size_t k = 0; k < nf; k++) {
            if (seen[f[k]] != stamp) {
                seen[f[k]] = stamp;
                nc->incl[f[k]] += c;
            }
            if (arcs && k + 1 < nf) {
                uint32_t a = callarcs_add(arcs, f[k], f[k + 1], 0, 0);
                if (a >= arc_seen_cap) {
                    size_t old = arc_seen_cap;
                    GROW(arc_seen, arc_seen_cap, a);
                    memset(arc_seen + old, 0, (arc_seen_cap - old) * sizeof *arc_seen);
                }
                if (arc_seen[a] != stamp) {
                    arc_seen[a] = stamp;
                    arcs->cost[a] += c;
                }
            }
        }
    }
    free(seen);
    free(arc_seen);
}

static const struct node_costs *sort_costs;
static const struct stacks *sort_stacks;

static int by_cost_then_name(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (sort_costs->incl[a] != sort_costs->incl[b])
        return sort_costs->incl[a] > sort_costs->incl[b] ? -1 : 1;
    size_t la, lb;
    const char *ka = stacks_frame_key(sort_stacks, a, &la), *kb = stacks_frame_key(sort_stacks, b, &lb);
    int c = memcmp(ka, kb, la < lb ? la : lb); /* the text, then (kept apart) the raw name */
    return c ? c : (la > lb) - (la < lb);
}

static bool above(uint64_t v, uint64_t total, double percent)
{
    return total > 0 && v > 0 && 100.0 * (double)v >= percent * (double)total;
}

static double percent(uint64_t v, uint64_t total)
{
    return total ? 100.0 * (double)v / (double)total : 0.0;
}

static void put_color(struct textout *o, const char *attr, struct rgb c)
{
    to_printf(o, "%s=\"#%02x%02x%02x\"", attr, c.r, c.g, c.b);
}

int dot_write(const struct render_job *job, FILE *out)
{
    const struct render_options *ro = job->ro;
    const struct stacks *s = job->stacks;
    uint64_t total = stacks_col_total(s, CHOSEN_COLUMN);
    const char *unit = render_countname(job);

    /* Arcs with call counts when every input was a callgrind profile;
     * otherwise from adjacent frames of the stacks. */
    bool have_calls = job->arcs && job->calls_known;
    struct callarcs from_stacks;
    callarcs_init(&from_stacks);
    const struct callarcs *arcs = have_calls ? job->arcs : &from_stacks;
    struct node_costs nc;
    costs_from_stacks(s, &nc, have_calls ? NULL : &from_stacks);

    uint32_t *order = xmalloc((nc.n ? nc.n : 1) * sizeof *order);
    int32_t *node_id = xmalloc((nc.n ? nc.n : 1) * sizeof *node_id);
    size_t nnodes = 0;
    for (size_t f = 0; f < nc.n; f++) {
        node_id[f] = -1;
        if (above(nc.incl[f], total, ro->node_thres))
            order[nnodes++] = (uint32_t)f;
    }
    sort_costs = &nc;
    sort_stacks = s;
    qsort(order, nnodes, sizeof *order, by_cost_then_name);
    for (size_t i = 0; i < nnodes; i++)
        node_id[order[i]] = (int32_t)i;

    struct textout o;
    to_init(&o, out);
    to_puts(&o, "digraph callgraph {\n");
    to_puts(&o, "  graph [fontname=\"Helvetica\", fontsize=12, nodesep=0.25, ranksep=0.35, "
                "labelloc=t, label=\"");
    const char *title = ro->title ? ro->title : "Call graph";
    to_dot(&o, title, strlen(title), 0);
    if (ro->subtitle) {
        to_puts(&o, "\\n");
        to_dot(&o, ro->subtitle, strlen(ro->subtitle), 0);
    }
    to_printf(&o, "\\ntotal %" PRIu64 " ", total);
    to_dot(&o, unit, strlen(unit), 0);
    to_printf(&o, "; nodes below %g%% and edges below %g%% left out", ro->node_thres,
              ro->edge_thres);
    if (!have_calls)
        to_puts(&o, "\\ncall counts unknown: graph built from folded stacks");
    to_puts(&o, "\"];\n");
    to_puts(&o, "  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=\"filled,rounded\", "
                "width=0, height=0];\n  edge [fontname=\"Helvetica\", fontsize=9];\n");

    for (size_t i = 0; i < nnodes; i++) {
        uint32_t f = order[i];
        double share = percent(nc.incl[f], total);
        struct rgb c = color_heat(share / 100.0);
        bool dark = c.r * 299 + c.g * 587 + c.b * 114 < 140000;
        to_printf(&o, "  n%zu [label=\"", i);
        size_t len;
        const char *text = stacks_frame_text(s, f, &len);
        to_dot(&o, text, len, MAX_LABEL_CHARS);
        to_printf(&o, "\\ntotal %.2f%% (%" PRIu64 ")\\nself %.2f%% (%" PRIu64 ")\", ", share,
                  nc.incl[f], percent(nc.self[f], total), nc.self[f]);
        const char *raw = stacks_frame_raw(s, f);
        if (raw != text) { /* --frame=short: the raw name on hover (SVG, image maps) */
            to_puts(&o, "tooltip=\"");
            to_dot(&o, raw, strlen(raw), MAX_TOOLTIP_CHARS);
            to_puts(&o, "\", ");
        }
        put_color(&o, "fillcolor", c);
        to_puts(&o, ", ");
        put_color(&o, "color", c);
        to_printf(&o, ", fontcolor=\"%s\"];\n", dark ? "#ffffff" : "#000000");
    }

    for (size_t a = 0; a < arcs->n; a++) {
        uint32_t from = arcs->caller[a], to = arcs->callee[a];
        if (from >= nc.n || to >= nc.n || node_id[from] < 0 || node_id[to] < 0 ||
            !above(arcs->cost[a], total, ro->edge_thres))
            continue;
        double share = percent(arcs->cost[a], total);
        struct rgb c = color_heat(share / 100.0);
        double pen = 1.0 + 4.0 * (share > 100 ? 1.0 : share / 100.0);
        to_printf(&o, "  n%d -> n%d [label=\"%.2f%%\\n(%" PRIu64 ")", node_id[from],
                  node_id[to], share, arcs->cost[a]);
        if (have_calls)
            to_printf(&o, "\\n%" PRIu64 " call%s", arcs->calls[a], arcs->calls[a] == 1 ? "" : "s");
        to_puts(&o, "\", ");
        put_color(&o, "color", c);
        to_puts(&o, ", ");
        put_color(&o, "fontcolor", c);
        to_printf(&o, ", penwidth=%.2f, arrowsize=%.2f];\n", pen, 0.5 + pen / 5);
    }
    to_puts(&o, "}\n");

    free(order);
    free(node_id);
    free(nc.self);
    free(nc.incl);
    callarcs_free(&from_stacks);
    return to_finish(&o);
}
