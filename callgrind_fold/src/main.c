/* callgrind_fold: folded stacks (for flame graphs) from callgrind profiles.
 *
 * This file is the command line: options are parsed here with
 * getopt_long, from one table (the pictures' options included), into a
 * struct run_options; pipeline.c runs the stages (read/, inline/,
 * stacks/, write/; see pipeline.h). */
#include "pipeline.h"
#include "util/util.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VERSION "1.0.0"

/* The one description of the options: the man page's OPTIONS section and
 * README.md's option list are made from --help (tools/options_doc.py,
 * make options-doc), and make check fails when they differ. */
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
    "  --thread=NAME|ID   only the sections of this thread (callgrind\n"
    "                     --separate-threads=yes): the thread's name (its\n"
    "                     \"desc: Thread name:\") or its kernel id (its\n"
    "                     \"thread:\"); repeatable, or comma-separated\n"
    "                     (NAME,ID,...). A value that matches no thread is\n"
    "                     an error\n"
    "  --thread-frames    put every stack under a frame naming its thread:\n"
    "                     its name, else \"thread ID\" (\"NAME (thread ID)\"\n"
    "                     when threads share a name); folded output has none\n"
    "                     by default (every thread summed)\n"
    "  -o, --output=FILE  write to FILE instead of standard output (\"-\")\n"
    "  --frame=fn|fn+obj|short|short-templates\n"
    "                     frame text: the function name (fn); the\n"
    "                     function name followed by \" [object]\", the base\n"
    "                     name of its ELF object, e.g. \"memcpy [libc.so.6]\";\n"
    "                     short: readable names, JIT and Python functions\n"
    "                     with a short location\n"
    "                     (\"JS:*fib /home/u/p/work.js:5:13\" -> \"fib  work.js:5\",\n"
    "                     \"py::f.<locals>.g:/home/u/p/x.py\" -> \"f.g  x.py\"),\n"
    "                     paths relative to the directory all share; C++ and\n"
    "                     Rust names as a person names the function\n"
    "                     (\"std::_Rb_tree::_M_insert_unique\", \"wc::count_words\",\n"
    "                     \"HashMap::rustc_entry\": no return type, template\n"
    "                     or generic arguments, parameters); short-templates:\n"
    "                     C++ names as \"std::vector<...>::push_back(...)\".\n"
    "                     Perf-map frames that read alike become one (a\n"
    "                     function's JIT tiers); other functions that do stay\n"
    "                     two frames in the pictures and pprof.\n"
    "                     Default: short for the pictures (svg, dot, png,\n"
    "                     svg-graph, speedscope, html), with each frame's raw\n"
    "                     name in its tooltip; fn for folded output and\n"
    "                     pprof (--frame=short there: short function\n"
    "                     names, the raw ones as system names)\n"
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
    "                     html (one self-contained page: a table of the parts\n"
    "                     with every event's totals and a flame graph each;\n"
    "                     with --diff OLD NEW, before and after per\n"
    "                     benchmark), md (that table in Markdown, for a CI\n"
    "                     comment),\n"
    "                     speedscope (JSON for speedscope.app), pprof (gzipped\n"
    "                     profile.proto with every event, for go tool pprof),\n"
    "                     dot (call graph\n"
    "                     for graphviz), png or svg-graph (that call graph drawn\n"
    "                     by graphviz: the libgvc library or the dot program)\n"
    "  --title=TEXT       title of the picture; html and md are headed\n"
    "                     by default by what was run (the program of\n"
    "                     \"cmd:\", or the script its interpreter ran)\n"
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
    "                     red where it grew and blue where it shrank\n"
    "  --diff OLD NEW     with -f html or md: the parts of two profiles paired\n"
    "                     by benchmark name (a part's \"desc: Trigger: Client\n"
    "                     Request: NAME\", else \"part N\"; a name repeated in\n"
    "                     one profile is numbered \"NAME (2)\", ...), each\n"
    "                     with its total before and after and the change in\n"
    "                     percent, largest change of the --event first, then\n"
    "                     benchmarks removed and added. md: a second table\n"
    "                     gives the change of every other event\n"
    "  --full-stacks      svg, html: keep every frame. By default a part's\n"
    "                     picture starts where the user's code starts: a\n"
    "                     benchmark at the frame above CodSpeed's\n"
    "                     __codspeed_root_frame__, a whole program at main or\n"
    "                     a thread's start routine, else at the deepest frame\n"
    "                     every stack passes through; the frames below become\n"
    "                     one frame naming the process (from \"cmd:\"). Totals\n"
    "                     stay\n"
    "  --source-dir=DIR   html: where the sources of the hot lines are (each\n"
    "                     part's hottest functions, their self cost by\n"
    "                     line): a file is looked for as the profile names\n"
    "                     it, then under each DIR by that name (a relative\n"
    "                     one) and by its base name; may be given several\n"
    "                     times\n"
    "\n"
    "Threads (callgrind --separate-threads=yes):\n"
    "  The sections of one part, one per thread, in one file or a file per\n"
    "  thread (given in any order), are one benchmark: html and md have one\n"
    "  row for it, the sum of its threads; --diff compares those sums, and\n"
    "  pairs the threads by name, then by order. The pictures put each\n"
    "  thread's stacks under a frame naming it (html: a part of two threads\n"
    "  or more, the one that triggered the dump first; svg, speedscope: when\n"
    "  some part has two); pprof gives each sample the labels thread and\n"
    "  lwpid instead.\n";

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
    OPT_COUNTNAME, OPT_COLORS, OPT_NODE_THRES, OPT_EDGE_THRES, OPT_DIFF, OPT_FULL_STACKS,
    OPT_THREAD, OPT_THREAD_FRAMES, OPT_SOURCE_DIR
};

static const struct option long_options[] = {
    {"event", required_argument, NULL, OPT_EVENT},
    {"part", required_argument, NULL, OPT_PART},
    {"thread", required_argument, NULL, OPT_THREAD},
    {"thread-frames", no_argument, NULL, OPT_THREAD_FRAMES},
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
    {"full-stacks", no_argument, NULL, OPT_FULL_STACKS},
    {"source-dir", required_argument, NULL, OPT_SOURCE_DIR},
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

/* Whether a format shows short frame names (--frame=short) by default:
 * the pictures do, with the raw names in their tooltips; folded text
 * stays as callgrind names the functions (scripts and goldens read it)
 * and pprof too (its users' tools shorten names themselves, and find the
 * raw name there). A new format must choose. */
static bool shows_short_names(enum render_format f)
{
    switch (f) {
    case FORMAT_SVG:
    case FORMAT_DOT:
    case FORMAT_PNG:
    case FORMAT_SVG_GRAPH:
    case FORMAT_SPEEDSCOPE:
    case FORMAT_HTML:
        return true;
    case FORMAT_FOLDED:
    case FORMAT_PPROF:
    case FORMAT_MD: /* names of benchmarks, not of frames */
        return false;
    }
    return false;
}

/* --thread's values: "a,b" is a and b. */
struct thread_values {
    char **v;
    size_t n, cap;
};

static void add_threads(struct thread_values *t, const char *arg)
{
    for (const char *p = arg;;) {
        size_t n = strcspn(p, ",");
        if (n == 0)
            usage_error("--thread wants thread names or ids, not '%s'", arg);
        GROW(t->v, t->cap, t->n);
        char *v = xmalloc(n + 1);
        memcpy(v, p, n);
        v[n] = '\0';
        t->v[t->n++] = v;
        if (!p[n])
            break;
        p += n + 1;
    }
}

/* --source-dir's values, in order (pointing into argv). */
struct dir_values {
    const char **v;
    size_t n, cap;
};

/* Options and operands into *opt and inputs[]. Returns -1 to go on, or
 * the exit status after --help or --version. */
static int parse_args(int argc, char **argv, struct run_options *opt, struct buf *debug_dirs,
                      struct thread_values *threads, struct dir_values *source_dirs,
                      const char **inputs, size_t *ninputs)
{
    *opt = (struct run_options){.part = ALL_PARTS, .resolution = DEFAULT_RESOLUTION};
    render_options_init(&opt->render);
    bool frame_given = false;
    opterr = 0;
    for (;;) {
        int at = optind;
        int c = getopt_long(argc, argv, short_options, long_options, NULL);
        if (c == -1)
            break;
        if (c == 1) { /* a file, or "-" */
            inputs[(*ninputs)++] = optarg;
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
            fputs(usage_text, stdout);
            fputs(render_usage_text, stdout);
            return fflush(stdout) == 0 ? 0 : EXIT_OUTPUT;
        case 'V':
            puts("callgrind_fold " VERSION);
            return fflush(stdout) == 0 ? 0 : EXIT_OUTPUT;
        case OPT_INLINE:
            opt->inline_frames = true;
            break;
        case OPT_DEBUG_DIR:
            if (!*v || strchr(v, ':'))
                usage_error("--debug-dir wants a directory name without ':', not '%s'", v);
            if (debug_dirs->len)
                buf_putc(debug_dirs, ':');
            buf_append(debug_dirs, v, strlen(v));
            break;
        case OPT_INLINE_CACHE:
            if (!*v)
                usage_error("%s", "--inline-cache wants a directory or 'no'");
            opt->inline_cache = v;
            break;
        case OPT_KEEP_CLONES:
            opt->style.keep_clones = true;
            break;
        case OPT_EVENT:
            if (!*v)
                usage_error("%s", "--event wants an event name");
            opt->event = v;
            break;
        case OPT_PART:
            opt->part = parse_part(v);
            break;
        case OPT_THREAD:
            add_threads(threads, v);
            break;
        case OPT_THREAD_FRAMES:
            opt->thread_frames = true;
            break;
        case OPT_RESOLUTION: {
            char *end;
            errno = 0;
            unsigned long long r = strtoull(v, &end, 10);
            if (*v < '0' || *v > '9' || *end || errno)
                usage_error("--resolution wants a whole number, not '%s'", v);
            opt->resolution = r;
            break;
        }
        case OPT_FRAME:
            frame_given = true;
            opt->style.with_object = strcmp(v, "fn+obj") == 0;
            opt->style.short_templates = strcmp(v, "short-templates") == 0;
            opt->style.short_names = opt->style.short_templates || strcmp(v, "short") == 0;
            if (!opt->style.with_object && !opt->style.short_names && strcmp(v, "fn") != 0)
                usage_error("--frame wants 'fn', 'fn+obj', 'short' or 'short-templates', "
                            "not '%s'", v);
            break;
        case 'o':
            if (strncmp(arg, "-o=", 3) == 0) /* "-o=FILE" was always FILE */
                v++;
            if (!*v)
                usage_error("%s", "-o wants a file name");
            opt->output = strcmp(v, "-") ? v : NULL; /* "-": standard output, as for inputs */
            break;
        case 'f':
            if (!render_parse_format(v, &opt->render.format))
                usage_error("--format wants folded, svg, html, md, speedscope, pprof, dot, "
                            "png or svg-graph, not '%s'", v);
            break;
        case OPT_TITLE:
            opt->render.title = text(v, "--title");
            break;
        case OPT_SUBTITLE:
            opt->render.subtitle = text(v, "--subtitle");
            break;
        case OPT_COUNTNAME:
            opt->render.countname = text(v, "--countname");
            break;
        case OPT_WIDTH:
            opt->render.width = number(v, "--width", 100, 1000000);
            break;
        case OPT_MINWIDTH:
            opt->render.minwidth = number(v, "--minwidth", 0, 1000000);
            break;
        case OPT_NODE_THRES:
            opt->render.node_thres = number(v, "--node-thres", 0, 100);
            break;
        case OPT_EDGE_THRES:
            opt->render.edge_thres = number(v, "--edge-thres", 0, 100);
            break;
        case OPT_INVERTED:
            opt->render.inverted = true;
            break;
        case OPT_COLORS:
            if (strcmp(v, "name") == 0)
                opt->render.colors = COLORS_NAME;
            else if (strcmp(v, "obj") == 0)
                opt->render.colors = COLORS_OBJ;
            else
                usage_error("--colors wants 'name' or 'obj', not '%s'", v);
            break;
        case OPT_FULL_STACKS:
            opt->render.full_stacks = true;
            break;
        case OPT_DIFF:
            opt->diff_base = text(v, "--diff");
            break;
        case OPT_SOURCE_DIR:
            GROW(source_dirs->v, source_dirs->cap, source_dirs->n);
            source_dirs->v[source_dirs->n++] = text(v, "--source-dir");
            break;
        default:
            usage_error("unknown option '%s'", arg);
        }
    }
    while (optind < argc) /* after "--" */
        inputs[(*ninputs)++] = argv[optind++];
    if (*ninputs == 0)
        inputs[(*ninputs)++] = "-";
    enum render_format f = opt->render.format;
    bool report = f == FORMAT_HTML || f == FORMAT_MD;
    if (opt->diff_base && f != FORMAT_FOLDED && f != FORMAT_SVG && !report)
        usage_error("%s", "--diff writes folded lines or, with -f svg, a flame graph, or "
                          "with -f html|md the parts paired by benchmark; not other "
                          "formats");
    if (opt->diff_base && report && *ninputs != 1)
        usage_error("%s", "--diff OLD NEW with -f html|md compares two profiles: "
                          "give one NEW file after OLD");
    /* Pictures show short names unless --frame says otherwise (their
     * tooltips show the raw ones). */
    if (!frame_given && shows_short_names(f))
        opt->style.short_names = true;
    if (debug_dirs->len)
        opt->debug_dirs = buf_cstr(debug_dirs);
    opt->threads = (const char *const *)threads->v;
    opt->nthreads = threads->n;
    opt->render.source_dirs = source_dirs->v;
    opt->render.nsource_dirs = source_dirs->n;
    return -1;
}

int main(int argc, char **argv)
{
    struct run_options opt;
    struct buf debug_dirs = {0}; /* --debug-dir values, ':'-separated */
    struct thread_values threads = {0};
    struct dir_values source_dirs = {0};
    heap_map_large_blocks();
    const char **inputs = xmalloc((size_t)argc * sizeof *inputs);
    size_t ninputs = 0;
    int status = parse_args(argc, argv, &opt, &debug_dirs, &threads, &source_dirs, inputs,
                            &ninputs);
    if (status < 0)
        status = pipeline_run(&opt, inputs, ninputs);
    buf_free(&debug_dirs);
    for (size_t i = 0; i < threads.n; i++)
        free(threads.v[i]);
    free(threads.v);
    free(source_dirs.v);
    free(inputs);
    return status;
}
