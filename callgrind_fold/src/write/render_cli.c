#include "render_cli.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char render_usage_text[] =
    "\n"
    "Pictures (instead of folded stacks):\n"
    "  -f, --format=FMT   folded (default), svg (interactive flame graph),\n"
    "                     speedscope (JSON for speedscope.app), dot (call graph\n"
    "                     for graphviz), png or svg-graph (that call graph drawn\n"
    "                     by graphviz: the libgvc library or the dot program)\n"
    "  --title=TEXT       title of the picture\n"
    "  --subtitle=TEXT    second line under the title (svg, dot)\n"
    "  --width=PX         width of the flame graph (default 1200)\n"
    "  --minwidth=PX      frames narrower than this are merged into one\n"
    "                     \"(merged)\" frame per parent, drawn after its other\n"
    "                     children, so widths still add up (default 0.1)\n"
    "  --inverted         icicle graph: roots at the top\n"
    "  --countname=TEXT   what the counts are (default from the event, e.g.\n"
    "                     \"instructions\" for Ir; \"samples\" for folded input)\n"
    "  --colors=name|obj  flame colours from the frame name (default), or by\n"
    "                     object: the program warm, libc and C++ runtime blue,\n"
    "                     loader and valgrind preloads purple, other libraries\n"
    "                     green (needs --frame=fn+obj or a callgrind.out input)\n"
    "  --node-thres=PCT   dot: leave out functions below PCT% of the total\n"
    "                     (default 0.5)\n"
    "  --edge-thres=PCT   dot: leave out calls below PCT% (default 0.1)\n"
    "  --diff=BASE        compare with the profile BASE (callgrind.out or\n"
    "                     folded): \"stack before after\" lines, or with -f svg\n"
    "                     a flame graph sized by FILE (the new profile),\n"
    "                     red where it grew and blue where it shrank\n";

/* "--name=value", "--name value" (and "-fX", "-f X" for the short one). */
static const char *value_of(const char *name, int *i, int argc, char **argv)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (name[1] != '-' && strncmp(arg, name, n) == 0 && arg[n] != '\0')
        return arg + n; /* -fsvg */
    return option_value(arg, name, i, argc, argv);
}

static double number(const char *v, const char *option, double min, double max)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (!*v || *end || errno || !(d >= min && d <= max)) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s wants a number from %g to %g, not '%%s'", option, min,
                 max);
        usage_error(msg, v);
    }
    return d;
}

static const char *text(const char *v, const char *option)
{
    if (!*v)
        usage_error("%s wants a non-empty text", option);
    return v;
}

int render_option(int *i, int argc, char **argv, struct render_options *ro)
{
    const char *arg = argv[*i], *v;
    if (strcmp(arg, "--inverted") == 0) {
        ro->inverted = true;
    } else if ((v = value_of("--format", i, argc, argv)) || (v = value_of("-f", i, argc, argv))) {
        if (!render_parse_format(v, &ro->format))
            usage_error("--format wants folded, svg, speedscope, dot, png or svg-graph, not '%s'", v);
    } else if ((v = value_of("--title", i, argc, argv))) {
        ro->title = text(v, "--title");
    } else if ((v = value_of("--subtitle", i, argc, argv))) {
        ro->subtitle = text(v, "--subtitle");
    } else if ((v = value_of("--countname", i, argc, argv))) {
        ro->countname = text(v, "--countname");
    } else if ((v = value_of("--width", i, argc, argv))) {
        ro->width = number(v, "--width", 100, 1000000);
    } else if ((v = value_of("--minwidth", i, argc, argv))) {
        ro->minwidth = number(v, "--minwidth", 0, 1000000);
    } else if ((v = value_of("--node-thres", i, argc, argv))) {
        ro->node_thres = number(v, "--node-thres", 0, 100);
    } else if ((v = value_of("--edge-thres", i, argc, argv))) {
        ro->edge_thres = number(v, "--edge-thres", 0, 100);
    } else if ((v = value_of("--colors", i, argc, argv))) {
        if (strcmp(v, "name") == 0)
            ro->colors = COLORS_NAME;
        else if (strcmp(v, "obj") == 0)
            ro->colors = COLORS_OBJ;
        else
            usage_error("--colors wants 'name' or 'obj', not '%s'", v);
    } else if ((v = value_of("--diff", i, argc, argv))) {
        ro->diff_base = text(v, "--diff");
    } else {
        return 0;
    }
    return 1;
}

void render_check_options(const struct render_options *ro)
{
    if (ro->diff_base && ro->format != FORMAT_FOLDED && ro->format != FORMAT_SVG)
        usage_error("%s", "--diff writes folded lines or, with -f svg, a flame graph; "
                  "not other formats");
}
