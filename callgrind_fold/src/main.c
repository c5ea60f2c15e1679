/* callgrind_fold: folded stacks (for flame graphs) from callgrind profiles.
 *
 * This file is the command line and the pipeline, one stage per folder:
 *
 *   read/     inputs (callgrind.out, folded trees, folded text) -> parts
 *   inline/   optional (--inline): each part's costs split by the
 *             functions inlined at their addresses, from DWARF
 *   stacks/   a part's call graph -> folded stacks, exact or estimated
 *   write/    the stacks -> folded text, SVG, DOT/graphviz, speedscope, diff
 *   util/     allocation, buffers, hash map, string interning
 *
 * Options are parsed here with getopt_long, from one table (the pictures'
 * options included); see README.md for the method. */
#include "inline/inline.h"
#include "read/read.h"
#include "stacks/stacks.h"
#include "util/util.h"
#include "write/write.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VERSION "1.0.0"

static const char usage_text[] =
    "Usage: callgrind_fold [OPTION]... [FILE]...\n"
    "Turn callgrind profiles (callgrind.out.*) into folded stacks, one\n"
    "\"root;caller;...;function count\" line per stack, sorted, for flame graph\n"
    "tools. With no FILE, or when FILE is -, read standard input. Several\n"
    "files (one per thread or dump) are summed. Folded trees (written by\n"
    "callgrind --dump-folded=yes; exact stacks of every event and part) and\n"
    "files of folded stacks (--dump-folded=text) are accepted too and merged.\n"
    "\n"
    "Options:\n"
    "  --event=NAME       count this event (default: the first one of the\n"
    "                     \"events:\" line, e.g. Ir); inherited events defined\n"
    "                     by \"event: NAME = ...\" lines work too\n"
    "  --part=N|all       only part N of the profile (numbered by its \"part:\"\n"
    "                     line, else 1, 2, ... in each file); default all,\n"
    "                     summed\n"
    "  -o, --output=FILE  write to FILE instead of standard output\n"
    "  --frame=fn|fn+obj  frame text: the function name (default), or the\n"
    "                     function name followed by \" [object]\", the base\n"
    "                     name of its ELF object, e.g. \"memcpy [libc.so.6]\"\n"
    "  --resolution=N     estimated stacks only: follow a call path while it\n"
    "                     carries at least 1/N of the total (default 100000);\n"
    "                     the cost below a lighter path goes to the other\n"
    "                     paths of the same functions, so no cost is lost.\n"
    "                     0 follows every path, which can take very long\n"
    "  --keep-clones      keep callgrind's clone names: \"fn'2\" (recursion\n"
    "                     level) and \"fn'caller'...\" (--separate-callers\n"
    "                     context); by default frames show only \"fn\"\n"
    "  --inline           split every function's frame by the functions\n"
    "                     inlined into it (DWARF, via libdw), as frames\n"
    "                     \"NAME [inlined]\" below it; needs a profile with\n"
    "                     instruction addresses (callgrind --dump-instr=yes)\n"
    "  --debug-dir=DIR    with --inline: look for separate debug files in DIR\n"
    "                     (by build-id: DIR/.build-id/xx/yyyy.debug, and by\n"
    "                     debuglink: DIR/<object's directory>/NAME) instead of\n"
    "                     /usr/lib/debug; may be given several times\n"
    "  --inline-cache=DIR|no\n"
    "                     with --inline: keep inflated copies of compressed\n"
    "                     DWARF (distributions' debug files) and indexes of\n"
    "                     functions in DIR, by build-id, so later runs skip\n"
    "                     that work; default\n"
    "                     $XDG_CACHE_HOME/callgrind_fold or\n"
    "                     ~/.cache/callgrind_fold; 'no' keeps none\n"
    "  -h, --help         show this help and exit\n"
    "  -V, --version      show the version and exit\n"
    "\n"
    "Exact or estimated stacks:\n"
    "  Callgrind records costs per function and per call, not per call\n"
    "  stack. Where that determines the stacks (every costly function reached\n"
    "  by a single call path, e.g. with --separate-callers=N deep enough to\n"
    "  reach the root) they are exact. Otherwise each function's cost is\n"
    "  split among its call paths in proportion to the inclusive cost of the\n"
    "  calls, and a note on standard error says the stacks are estimated; run\n"
    "  callgrind with --dump-folded=yes for exact ones. Either way the counts\n"
    "  sum exactly to the profile's total for the event.\n"
    "\n"
    "Exit status: 0 success, 1 usage error, 2 unreadable or malformed input\n"
    "(reported as FILE:LINE: message), 3 output error or out of memory.\n";

static const char render_usage_text[] =
    "\n"
    "Pictures (instead of folded stacks):\n"
    "  -f, --format=FMT   folded (default), svg (interactive flame graph),\n"
    "                     speedscope (JSON for speedscope.app), pprof (gzipped\n"
    "                     profile.proto with every event, for go tool pprof),\n"
    "                     dot (call graph\n"
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

static uint64_t parse_part(const char *s)
{
    if (strcmp(s, "all") == 0)
        return ALL_PARTS;
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        usage_error("--part wants a number >= 1 or 'all', not '%s'", s);
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v == 0)
        usage_error("--part wants a number >= 1 or 'all', not '%s'", s);
    return v;
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

/* Every option, in one table. Options without a short form get codes
 * above 255. */
enum {
    OPT_EVENT = 256, OPT_PART, OPT_RESOLUTION, OPT_FRAME, OPT_KEEP_CLONES,
    OPT_INLINE, OPT_DEBUG_DIR, OPT_INLINE_CACHE,
    OPT_TITLE, OPT_SUBTITLE, OPT_WIDTH, OPT_MINWIDTH, OPT_INVERTED,
    OPT_COUNTNAME, OPT_COLORS, OPT_NODE_THRES, OPT_EDGE_THRES, OPT_DIFF
};

static const struct option long_options[] = {
    {"event", required_argument, NULL, OPT_EVENT},
    {"part", required_argument, NULL, OPT_PART},
    {"output", required_argument, NULL, 'o'},
    {"frame", required_argument, NULL, OPT_FRAME},
    {"resolution", required_argument, NULL, OPT_RESOLUTION},
    {"keep-clones", no_argument, NULL, OPT_KEEP_CLONES},
    {"inline", no_argument, NULL, OPT_INLINE},
    {"debug-dir", required_argument, NULL, OPT_DEBUG_DIR},
    {"inline-cache", required_argument, NULL, OPT_INLINE_CACHE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    /* pictures (write/) */
    {"format", required_argument, NULL, 'f'},
    {"title", required_argument, NULL, OPT_TITLE},
    {"subtitle", required_argument, NULL, OPT_SUBTITLE},
    {"width", required_argument, NULL, OPT_WIDTH},
    {"minwidth", required_argument, NULL, OPT_MINWIDTH},
    {"inverted", no_argument, NULL, OPT_INVERTED},
    {"countname", required_argument, NULL, OPT_COUNTNAME},
    {"colors", required_argument, NULL, OPT_COLORS},
    {"node-thres", required_argument, NULL, OPT_NODE_THRES},
    {"edge-thres", required_argument, NULL, OPT_EDGE_THRES},
    {"diff", required_argument, NULL, OPT_DIFF},
    {NULL, 0, NULL, 0}};

/* '-': operands come back in order as code 1, so options and files can
 * be mixed and every option is seen where it stands; ':': a missing value
 * is reported as ':'. */
static const char short_options[] = "-:ho:f:V";

/* getopt_long also takes unique abbreviations (--eve) and grouped short
 * options (-hV); callgrind_fold never did, and its messages name the
 * argument as written. So each option getopt returns is checked against
 * the argument it came from, argv[at]: the whole name, as "-x", "-xVALUE"
 * (value options), "--name" or "--name=VALUE". Returns the option's
 * spelling for messages. */
static const char *spelled(char **argv, int at, int c)
{
    const char *arg = argv[at];
    if (arg[0] == '-' && arg[1] == '-') {
        for (const struct option *o = long_options; o->name; o++) {
            size_t n = strlen(o->name);
            if (o->val == c && strncmp(arg + 2, o->name, n) == 0 &&
                (arg[2 + n] == '\0' || (arg[2 + n] == '=' && o->has_arg != no_argument)))
                return arg;
        }
        usage_error("unknown option '%s'", arg);
    }
    if (arg[0] != '-' || arg[1] != c || (arg[2] != '\0' && c != 'o' && c != 'f'))
        usage_error("unknown option '%s'", arg);
    return arg;
}

/* FILE:LINE: message, with bytes that could upset a terminal shown as '?'. */
static void print_diag(const struct diag *d)
{
    char msg[sizeof d->msg];
    size_t i;
    for (i = 0; d->msg[i]; i++) {
        unsigned char c = (unsigned char)d->msg[i];
        msg[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    msg[i] = '\0';
    if (d->line)
        fprintf(stderr, "%s:%" PRIu64 ": %s\n", d->file, d->line, msg);
    else
        fprintf(stderr, "%s: %s\n", d->file, msg);
}

/* One input: a file, or standard input, which -f pprof reads into
 * memory first (`data`) to read it again for every event. */
static int fold_input(const char *path, const struct buf *data, struct fold_ctx *ctx,
                      struct diag *d)
{
    if (data && strcmp(path, "-") == 0)
        return fold_memory("<stdin>", data->data ? data->data : "", data->len, ctx, d);
    return fold_path(path, ctx, d);
}

static void read_stdin(struct buf *data)
{
    for (;;) {
        buf_reserve(data, 1 << 16);
        size_t n = fread(data->data + data->len, 1, data->cap - data->len, stdin);
        data->len += n;
        if (n == 0)
            break;
    }
}

/* -f pprof: the counts of every event, one column each. The first pass
 * (the --event, as for any format) has filled ctx->out; each other event
 * of the inputs' "events:" lines gets a pass of its own over the same
 * inputs, so its stacks are made exactly as folded output makes them for
 * --event=THAT (exact, or estimated with every sum kept). Returns 0, or
 * EXIT_INPUT after printing what went wrong. */
static int pprof_columns(struct fold_ctx *ctx, const char *const *inputs, size_t ninputs,
                         const struct buf *data, const struct render_options *ro)
{
    const char *selected = ctx->opt.event ? ctx->opt.event : ctx->default_event;
    size_t nseen = ctx->events_seen.count;
    if (nseen == 0) { /* folded stacks only: one count of unknown meaning */
        ctx->columns = xcalloc(1, sizeof *ctx->columns);
        ctx->ncolumns = 1;
        ctx->columns[0].event = ro->countname ? ro->countname
                                : ctx->opt.event ? ctx->opt.event : "samples";
        stacks_take_counts(&ctx->out, &ctx->columns[0].count, &ctx->columns[0].len,
                           &ctx->columns[0].total);
        return 0;
    }
    ctx->columns = xcalloc(nseen + 1, sizeof *ctx->columns);
    ctx->default_column = SIZE_MAX;
    for (uint32_t i = 0; i < nseen; i++) {
        struct event_column *c = &ctx->columns[ctx->ncolumns++];
        c->event = strtab_str(&ctx->events_seen, i);
        if (strcmp(c->event, selected) == 0)
            ctx->default_column = i;
    }
    if (ctx->default_column == SIZE_MAX) { /* an inherited event: a column too */
        ctx->default_column = ctx->ncolumns;
        ctx->columns[ctx->ncolumns++].event = selected;
    }
    const char *event = ctx->opt.event;
    bool keep_notes = ctx->keep_notes;
    int status = 0;
    for (size_t c = 0; c < ctx->ncolumns && status == 0; c++) {
        struct event_column *col = &ctx->columns[c];
        col->long_name = fold_event_long(ctx, col->event, strlen(col->event));
        if (c == ctx->default_column)
            continue;
        uint64_t *saved;
        size_t saved_len;
        uint64_t saved_total;
        stacks_take_counts(&ctx->out, &saved, &saved_len, &saved_total);
        ctx->opt.event = col->event;
        ctx->opt.event_may_miss = true;
        ctx->keep_notes = false;
        for (size_t i = 0; i < ninputs && status == 0; i++) {
            struct diag d;
            int rc = fold_input(inputs[i], data, ctx, &d);
            if (rc != 0 && rc != INPUT_EMPTY) {
                print_diag(&d);
                status = EXIT_INPUT;
            }
        }
        stacks_take_counts(&ctx->out, &col->count, &col->len, &col->total);
        ctx->out.count = saved;
        ctx->out.count_cap = saved_len;
        ctx->out.total = saved_total;
    }
    struct event_column *def = &ctx->columns[ctx->default_column];
    stacks_take_counts(&ctx->out, &def->count, &def->len, &def->total);
    ctx->opt.event = event;
    ctx->opt.event_may_miss = false;
    ctx->keep_notes = keep_notes;
    return status;
}

/* --inline's structures (libdw's, mapped debug images, scope trees) are
 * left to the OS at exit: freeing them cost about 1.5 ms, mostly
 * unmapping (5% of a run). Sanitizer builds free them, so that leak
 * checks stay meaningful. */
#ifndef FREE_AT_EXIT
#if defined(__SANITIZE_ADDRESS__)
#define FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FREE_AT_EXIT 1
#endif
#endif
#endif
#ifndef FREE_AT_EXIT
#define FREE_AT_EXIT 0
#endif

int main(int argc, char **argv)
{
    struct fold_options opt = {.event = NULL, .part = ALL_PARTS,
                               .resolution = DEFAULT_RESOLUTION};
    const char *output = NULL;
    const char **inputs = xmalloc((size_t)argc * sizeof *inputs);
    size_t ninputs = 0;
    struct render_options ro;        /* pictures: -f, --title, --diff, ... */
    render_options_init(&ro);
    bool want_inline = false;        /* --inline */
    static struct buf debug_dirs;    /* --debug-dir values, ':'-separated */
    const char *inline_cache = NULL; /* --inline-cache; NULL: the default */

    opterr = 0;
    for (;;) {
        int at = optind;
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1)
            break;
        if (c == 1) { /* a file, or "-" */
            inputs[ninputs++] = optarg;
            continue;
        }
        if (c == '?')
            usage_error("unknown option '%s'", argv[at]);
        const char *arg = spelled(argv, at, c == ':' ? optopt : c);
        const char *v = optarg;
        if (c == ':')
            usage_error("option '%s' needs a value", arg);
        switch (c) {
        case 'h':
            free(inputs);
            fputs(usage_text, stdout);
            fputs(render_usage_text, stdout);
            return fflush(stdout) == 0 ? 0 : EXIT_OUTPUT;
        case 'V':
            free(inputs);
            puts("callgrind_fold " VERSION);
            return fflush(stdout) == 0 ? 0 : EXIT_OUTPUT;
        case OPT_INLINE:
            want_inline = true;
            break;
        case OPT_DEBUG_DIR:
            if (!*v || strchr(v, ':'))
                usage_error("--debug-dir wants a directory name without ':', not '%s'", v);
            if (debug_dirs.len)
                buf_putc(&debug_dirs, ':');
            buf_append(&debug_dirs, v, strlen(v));
            break;
        case OPT_INLINE_CACHE:
            if (!*v)
                usage_error("%s", "--inline-cache wants a directory or 'no'");
            inline_cache = v;
            break;
        case OPT_KEEP_CLONES:
            opt.style.keep_clones = true;
            break;
        case OPT_EVENT:
            if (!*v)
                usage_error("%s", "--event wants an event name");
            opt.event = v;
            break;
        case OPT_PART:
            opt.part = parse_part(v);
            break;
        case OPT_RESOLUTION: {
            char *end;
            errno = 0;
            unsigned long long r = strtoull(v, &end, 10);
            if (*v < '0' || *v > '9' || *end || errno)
                usage_error("--resolution wants a whole number, not '%s'", v);
            opt.resolution = r;
            break;
        }
        case OPT_FRAME:
            if (strcmp(v, "fn") == 0)
                opt.style.with_object = false;
            else if (strcmp(v, "fn+obj") == 0)
                opt.style.with_object = true;
            else
                usage_error("--frame wants 'fn' or 'fn+obj', not '%s'", v);
            break;
        case 'o':
            if (strncmp(arg, "-o=", 3) == 0) /* "-o=FILE" was always FILE */
                v++;
            if (!*v)
                usage_error("%s", "-o wants a file name");
            output = v;
            break;
        case 'f':
            if (!render_parse_format(v, &ro.format))
                usage_error("--format wants folded, svg, speedscope, pprof, dot, png or "
                            "svg-graph, not '%s'", v);
            break;
        case OPT_TITLE:
            ro.title = text(v, "--title");
            break;
        case OPT_SUBTITLE:
            ro.subtitle = text(v, "--subtitle");
            break;
        case OPT_COUNTNAME:
            ro.countname = text(v, "--countname");
            break;
        case OPT_WIDTH:
            ro.width = number(v, "--width", 100, 1000000);
            break;
        case OPT_MINWIDTH:
            ro.minwidth = number(v, "--minwidth", 0, 1000000);
            break;
        case OPT_NODE_THRES:
            ro.node_thres = number(v, "--node-thres", 0, 100);
            break;
        case OPT_EDGE_THRES:
            ro.edge_thres = number(v, "--edge-thres", 0, 100);
            break;
        case OPT_INVERTED:
            ro.inverted = true;
            break;
        case OPT_COLORS:
            if (strcmp(v, "name") == 0)
                ro.colors = COLORS_NAME;
            else if (strcmp(v, "obj") == 0)
                ro.colors = COLORS_OBJ;
            else
                usage_error("--colors wants 'name' or 'obj', not '%s'", v);
            break;
        case OPT_DIFF:
            ro.diff_base = text(v, "--diff");
            break;
        default:
            usage_error("unknown option '%s'", arg);
        }
    }
    while (optind < argc) /* after "--" */
        inputs[ninputs++] = argv[optind++];
    if (ninputs == 0)
        inputs[ninputs++] = "-";
    if (ro.diff_base && ro.format != FORMAT_FOLDED && ro.format != FORMAT_SVG)
        usage_error("%s", "--diff writes folded lines or, with -f svg, a flame graph; "
                  "not other formats");

    struct fold_ctx ctx;
    fold_init(&ctx, &opt);
    /* -f pprof: every event, sources of frames, the parts' descriptions;
     * standard input is kept to be read once per event. */
    bool pprof = ro.format == FORMAT_PPROF;
    struct buf stdin_data = {0};
    if (pprof) {
        ctx.keep_notes = true;
        ctx.out.keep_sources = true;
        for (size_t i = 0; i < ninputs; i++)
            if (strcmp(inputs[i], "-") == 0) {
                read_stdin(&stdin_data);
                break;
            }
    }
    if (want_inline) {
        heap_prefer_huge_pages((size_t)64 << 20);
        char *default_dir = inline_cache ? NULL : dwarf_images_default_dir();
        const char *cache_dir = !inline_cache                ? default_dir
                                : strcmp(inline_cache, "no") ? inline_cache
                                                             : NULL;
        ctx.inl = inline_new(debug_dirs.len ? buf_cstr(&debug_dirs) : NULL, cache_dir);
        free(default_dir);
    }
    struct callarcs arcs; /* the call graph for -f dot, objects for --colors=obj */
    callarcs_init(&arcs);
    if (ro.format == FORMAT_DOT || ro.format == FORMAT_PNG ||
        ro.format == FORMAT_SVG_GRAPH || ro.colors == COLORS_OBJ)
        ctx.arcs = &arcs;
    struct diag d, first_empty;
    int status = 0;
    size_t empty = 0;
    for (size_t i = 0; i < ninputs && status == 0; i++) {
        int rc = fold_input(inputs[i], pprof ? &stdin_data : NULL, &ctx, &d);
        if (rc == INPUT_EMPTY) {
            if (empty++ == 0)
                first_empty = d;
        } else if (rc != 0) {
            print_diag(&d);
            status = EXIT_INPUT;
        }
    }
    if (status == 0 && empty == ninputs) {
        print_diag(&first_empty);
        status = EXIT_INPUT;
    } else if (status == 0 && empty > 0) {
        fprintf(stderr, "callgrind_fold: warning: skipped %zu empty input(s), "
                "e.g. %s\n", empty, first_empty.file);
    }
    if (status == 0 && opt.part != ALL_PARTS && !ctx.part_matched && ctx.parts_read > 0) {
        fprintf(stderr, "callgrind_fold: no part %" PRIu64 " in the input\n", opt.part);
        status = EXIT_INPUT;
    }
    if (status == 0 && pprof)
        status = pprof_columns(&ctx, inputs, ninputs, &stdin_data, &ro);
    /* --diff BASE: the base profile, read with the same options. */
    struct fold_ctx base;
    fold_init(&base, &opt);
    if (status == 0 && ro.diff_base) {
        if (fold_path(ro.diff_base, &base, &d) != 0) {
            print_diag(&d);
            status = EXIT_INPUT;
        } else if (base.estimated && !ctx.estimated) {
            ctx.estimated = true;
            memcpy(ctx.estimate_reason, base.estimate_reason, sizeof ctx.estimate_reason);
        }
    }
    if (status == 0) {
        /* Opened only now, so a failed run leaves an existing file alone. */
        FILE *out = output ? fopen(output, "w") : stdout;
        if (!out) {
            fprintf(stderr, "callgrind_fold: %s: %s\n", output, strerror(errno));
            status = EXIT_OUTPUT;
        } else {
            struct render_job job = {&ro, &ctx, ro.diff_base ? &base : NULL, inputs[0]};
            int rc = render_write(&job, out);
            if (rc == 0 && (fflush(out) != 0 || ferror(out)))
                rc = -1;
            if (output && fclose(out) != 0 && rc == 0)
                rc = -1;
            if (rc == -2) { /* render_write said what is wrong */
                status = EXIT_OUTPUT;
            } else if (rc) {
                fprintf(stderr, "callgrind_fold: %s: write error: %s\n",
                        output ? output : "<stdout>", strerror(errno));
                status = EXIT_OUTPUT;
            }
        }
        if (status == 0 && ctx.estimated)
            fprintf(stderr,
                    "callgrind_fold: note: stacks are estimated from the call graph "
                    "(%.60s); profile with callgrind --dump-folded=yes for exact "
                    "stacks\n", ctx.estimate_reason);
    }
    if (ctx.inl) {
        if (status == 0)
            inline_report(ctx.inl, &ctx.names, stderr);
        inline_finish(ctx.inl);
#if FREE_AT_EXIT
        inline_free(ctx.inl);
#endif
    }
    buf_free(&debug_dirs);
    buf_free(&stdin_data);
    fold_free(&base);
    callarcs_free(&arcs);
    fold_free(&ctx);
    free(inputs);
    return status;
}
