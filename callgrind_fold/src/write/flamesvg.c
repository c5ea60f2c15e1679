/* Writer: the flame graph SVG, with flamegraph.js and flamegraph.css
 * embedded (flamesvg.h). */
#include "flamesvg.h"
#include "colors.h"
#include "textout.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define FONT_SIZE 12 /* also in flamegraph.css, with FONT_SIZE + 5 */
#define FRAME_HEIGHT 16
#define XPAD 10
#define FONT_WIDTH 0.59
#define MAX_NAME_CHARS (1 << 20) /* longer names are cut in titles */

/* One rectangle to draw: a frame, or the merged narrow children of one. */
struct drawn {
    uint32_t node;        /* tree node; for a merged one, the parent */
    uint32_t merged;      /* 0, or how many frames were merged */
    uint32_t depth;
    uint64_t x;           /* offset in counts from the left */
    uint64_t value;
    uint64_t base;
};

struct layout {
    struct drawn *d;
    size_t n, cap;
    uint32_t max_depth;
};

static void add_drawn(struct layout *l, struct drawn d)
{
    GROW(l->d, l->cap, l->n);
    l->d[l->n++] = d;
    if (d.depth > l->max_depth)
        l->max_depth = d.depth;
}

/* An open frame while walking the tree: where its next child goes, and
 * what its narrow children add up to. */
struct open_frame {
    uint32_t node, depth;
    uint64_t cursor;
    uint64_t merged_value, merged_base;
    uint32_t merged;
};

static void close_frame(struct layout *l, const struct open_frame *o)
{
    if (o->merged && o->merged_value > 0) /* value 0: only in the base profile */
        add_drawn(l, (struct drawn){o->node, o->merged, o->depth + 1, o->cursor,
                                    o->merged_value, o->merged_base});
}

static void lay_out(const struct flame_tree *t, struct layout *l)
{
    struct open_frame *open = NULL;
    size_t cap = 0, nopen = 0;
    GROW(open, cap, 0);
    open[nopen++] = (struct open_frame){0, 0, 0, 0, 0, 0};
    add_drawn(l, (struct drawn){0, 0, 0, 0, t->value[0], t->base ? t->base[0] : 0});
    for (size_t i = 1; i < t->count;) {
        while (open[nopen - 1].depth >= t->depth[i])
            close_frame(l, &open[--nopen]);
        struct open_frame *parent = &open[nopen - 1];
        uint64_t v = t->value[i], b = t->base ? t->base[i] : 0;
        if (t->merged[i]) { /* narrow frames (flame_build collapsed them) */
            parent->merged_value += v;
            parent->merged_base += b;
            parent->merged += t->merged[i];
            i = t->end[i];
            continue;
        }
        uint64_t x = parent->cursor;
        parent->cursor += v;
        add_drawn(l, (struct drawn){(uint32_t)i, 0, t->depth[i], x, v, b});
        GROW(open, cap, nopen);
        open[nopen++] = (struct open_frame){(uint32_t)i, t->depth[i], x, 0, 0, 0};
        i++;
    }
    while (nopen > 0)
        close_frame(l, &open[--nopen]);
    free(open);
}

static struct rgb frame_color(const struct flamesvg_input *in, const struct drawn *d,
                              const char *name, size_t len)
{
    if (in->tree->base)
        return color_diff(d->base, d->value);
    if (d->merged)
        return (struct rgb){200, 200, 200};
    if (in->ro->colors == COLORS_OBJ) {
        const char *obj;
        size_t olen;
        uint32_t frame = in->tree->frame[d->node];
        if (frame_object(name, len, &obj, &olen))
            return color_by_object(obj, olen);
        if (frame != FLAME_ROOT_FRAME && in->objects.object && frame < in->objects.count &&
            in->objects.object[frame] != UINT32_MAX) {
            uint32_t id = in->objects.object[frame];
            return color_by_object(strtab_str(in->objects.names, id),
                                   strtab_len(in->objects.names, id));
        }
        return color_by_object("", 0);
    }
    return color_by_name(name, len);
}

static void put_percent(struct textout *o, uint64_t part, uint64_t whole)
{
    to_fixed(o, whole ? 100.0 * (double)part / (double)whole : 0.0, 2); /* "%.2f" */
    to_puts(o, "%");
}

static void put_title(struct textout *o, const struct flamesvg_input *in,
                      const struct drawn *d, const char *name, size_t len, uint64_t total)
{
    to_xml(o, name, len, MAX_NAME_CHARS);
    to_puts(o, " (");
    to_u64(o, d->value);
    to_puts(o, " ");
    to_xml(o, in->countname, strlen(in->countname), 0);
    to_puts(o, ", ");
    put_percent(o, d->value, total);
    if (d->merged)
        to_printf(o, ", %" PRIu32 " frame%s narrower than %g px", d->merged,
                  d->merged == 1 ? "" : "s", in->ro->minwidth);
    if (in->tree->base) {
        int64_t delta = (int64_t)(d->value - d->base); /* wraps to the signed change */
        to_printf(o, ", before %" PRIu64 ", %+" PRId64, d->base, delta);
        if (d->base)
            to_printf(o, " (%+.2f%%)", 100.0 * (double)delta / (double)d->base);
    }
    to_puts(o, ")");
}

/* The label: the name, or as much of it as fits followed by "..". */
static void put_label(struct textout *o, const char *name, size_t len, double width)
{
    double room = (width - 3) / (FONT_SIZE * FONT_WIDTH);
    if (room < 3)
        return;
    size_t chars = (size_t)room;
    if (len <= chars || utf8_chars(name, len) <= chars) {
        to_xml(o, name, len, 0);
        return;
    }
    size_t keep = chars - 2, i = 0;
    unsigned cp;
    for (size_t c = 0; c < keep; c++)
        i += utf8_decode(name, len, i, &cp);
    to_xml(o, name, i, 0);
    to_puts(o, "..");
}

static void put_header(struct textout *o, const struct flamesvg_input *in, double height,
                       uint64_t total)
{
    const struct render_options *ro = in->ro;
    double w = ro->width;
    to_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    to_printf(o, "<svg version=\"1.1\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" "
              "onload=\"cfInit(evt)\" xmlns=\"http://www.w3.org/2000/svg\">\n",
              w, height, w, height);
    to_puts(o, "<!-- Flame graph written by callgrind_fold. Click a frame to zoom, "
               "Ctrl-F or \"Search\" to highlight frames. -->\n");
    to_printf(o, "<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
              "<stop stop-color=\"%s\" offset=\"5%%\"/><stop stop-color=\"%s\" "
              "offset=\"95%%\"/></linearGradient></defs>\n",
              "#eeeeee", in->tree->base ? "#e0e0ff" : "#eeeeb0");
    to_puts(o, "<style type=\"text/css\">\n");
    to_puts(o, flamegraph_css);
    to_puts(o, "</style>\n");
    to_puts(o, "<script type=\"text/ecmascript\"><![CDATA[\n");
    to_puts(o, flamegraph_js);
    to_puts(o, "]]></script>\n");
    to_printf(o, "<rect x=\"0\" y=\"0\" width=\"%g\" height=\"%g\" fill=\"url(#background)\"/>\n",
              w, height);
    to_printf(o, "<g id=\"cfconfig\" data-xpad=\"%d\" data-width=\"%g\" data-total=\"%" PRIu64
              "\" data-inverted=\"%d\" data-fontsize=\"%d\"/>\n",
              XPAD, w, total, ro->inverted ? 1 : 0, FONT_SIZE);
    const char *title = ro->title ? ro->title
                        : in->tree->base ? "Differential Flame Graph"
                        : ro->inverted ? "Icicle Graph" : "Flame Graph";
    to_printf(o, "<text id=\"title\" x=\"%g\" y=\"%d\">", w / 2, FONT_SIZE * 2);
    to_xml(o, title, strlen(title), 0);
    to_puts(o, "</text>\n");
    if (ro->subtitle) {
        to_printf(o, "<text id=\"subtitle\" x=\"%g\" y=\"%d\">", w / 2, FONT_SIZE * 4);
        to_xml(o, ro->subtitle, strlen(ro->subtitle), 0);
        to_puts(o, "</text>\n");
    }
    to_printf(o, "<text id=\"details\" x=\"%d\" y=\"%g\"> </text>\n", XPAD, height - 8);
    to_printf(o, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"%d\">Reset Zoom</text>\n",
              XPAD, FONT_SIZE * 2);
    to_printf(o, "<text id=\"search\" x=\"%g\" y=\"%d\">Search</text>\n", w - XPAD - 100,
              FONT_SIZE * 2);
    to_printf(o, "<text id=\"matched\" x=\"%g\" y=\"%g\"> </text>\n", w - XPAD, height - 8);
}

double flamesvg_scale(const struct render_options *ro, uint64_t total)
{
    return total ? (ro->width - 2 * XPAD) / (double)total : 0;
}

int flamesvg_write(const struct flamesvg_input *in, FILE *out)
{
    const struct flame_tree *t = in->tree;
    const struct render_options *ro = in->ro;
    uint64_t total = t->value[0];
    double scale = flamesvg_scale(ro, total);

    struct layout l = {0};
    lay_out(t, &l);

    double top = FONT_SIZE * (ro->subtitle ? 5 : 3);
    double bottom = FONT_SIZE * 2 + 10;
    double height = top + (l.max_depth + 1) * FRAME_HEIGHT + bottom;

    struct textout o;
    to_init(&o, out);
    put_header(&o, in, height, total);
    to_puts(&o, "<g id=\"frames\">\n");
    for (size_t i = 0; i < l.n; i++) {
        const struct drawn *d = &l.d[i];
        const char *name;
        size_t len;
        uint32_t frame = t->frame[d->node];
        if (d->merged)
            name = "(merged)", len = 8;
        else if (frame == FLAME_ROOT_FRAME)
            name = "all", len = 3;
        else
            name = stacks_frame_text(in->stacks, frame, &len);
        double x = XPAD + (double)d->x * scale, w = (double)d->value * scale;
        double y = ro->inverted ? top + d->depth * FRAME_HEIGHT
                                : height - bottom - (d->depth + 1.0) * FRAME_HEIGHT;
        struct rgb c = frame_color(in, d, name, len);
        /* What printf would write with the formats in the comments, a
         * piece at a time (textout.h: to_fixed, to_g). */
        /* --frame=short: the title has the raw name, data-l the label's
         * (for the script, which relabels frames when zooming). */
        const char *raw = name;
        size_t raw_len = len;
        if (!d->merged && frame != FLAME_ROOT_FRAME) {
            raw = stacks_frame_raw(in->stacks, frame);
            raw_len = strlen(raw);
        }
        to_puts(&o, "<g class=\"f\" data-n=\"");
        to_u64(&o, d->value);
        if (raw != name) {
            to_puts(&o, "\" data-l=\"");
            to_xml(&o, name, len, MAX_NAME_CHARS);
        }
        to_puts(&o, "\"><title>");
        put_title(&o, in, d, raw, raw_len, total);
        to_puts(&o, "</title><rect x=\"");
        to_fixed(&o, x, 3); /* "%.3f" */
        to_puts(&o, "\" y=\"");
        to_g(&o, y); /* "%g" */
        to_puts(&o, "\" width=\"");
        to_fixed(&o, w, 3);
        to_puts(&o, "\" height=\"");
        to_u64(&o, FRAME_HEIGHT - 1);
        to_puts(&o, "\" fill=\"rgb(");
        to_u64(&o, c.r);
        to_puts(&o, ",");
        to_u64(&o, c.g);
        to_puts(&o, ",");
        to_u64(&o, c.b);
        to_puts(&o, ")\" rx=\"2\" ry=\"2\"/><text x=\"");
        to_fixed(&o, x + 3, 3);
        to_puts(&o, "\" y=\"");
        to_g(&o, y + 10.5);
        to_puts(&o, "\">");
        put_label(&o, name, len, w);
        to_puts(&o, "</text></g>\n");
    }
    to_puts(&o, "</g>\n</svg>\n");
    free(l.d);
    return to_finish(&o);
}
