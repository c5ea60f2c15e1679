/* What a report is headed with (report.h): the user's --title, else what
 * was run, read from the profile's "cmd:" line, else the input's name.
 *
 * callgrind writes "cmd:" as the program's path and its arguments joined
 * by spaces, unquoted, so words are split at spaces. What a reader knows
 * the run by is not the interpreter but the script it ran: for
 * "node --flags benches/bench.mjs" or "python3 -m pytest bench_x.py"
 * (CodSpeed's and other harnesses) the heading is the script; for any
 * other program, its base name and arguments. The whole command stays on
 * the page in small print, so the heading may be shortened. */
#include "report.h"
#include "stacks/present.h"
#include "textout.h"

#include <stdbool.h>
#include <string.h>

struct word {
    const char *s;
    size_t n;
};

/* The next space-separated word at *p, advancing *p past it. */
static bool next_word(const char **p, struct word *w)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return false;
    w->s = s;
    w->n = strcspn(s, " \t");
    *p = s + w->n;
    return true;
}

/* The last component of a path ("/usr/bin/node" -> "node"). */
static struct word base_name(struct word w)
{
    struct word base;
    base.s = object_base_name(w.s, w.n, &base.n);
    return base;
}

static bool word_is(struct word w, const char *text)
{
    return w.n == strlen(text) && memcmp(w.s, text, w.n) == 0;
}

/* Programs whose first script argument is what the user measured:
 * interpreters (with a version suffix too: "python3.11", "node18") and
 * test runners that take the benchmark files as arguments. */
static bool runs_scripts(struct word program)
{
    static const char *const versioned[] = {"node", "python", "pypy", "ruby", "perl", "php"};
    static const char *const exact[] = {"nodejs", "bun", "deno", "tsx", "ts-node",
                                        "pytest", "py.test"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (word_is(program, exact[i]))
            return true;
    for (size_t i = 0; i < sizeof versioned / sizeof *versioned; i++) {
        size_t k = strlen(versioned[i]);
        if (program.n < k || memcmp(program.s, versioned[i], k) != 0)
            continue;
        if (strspn(program.s + k, "0123456789.") >= program.n - k)
            return true;
    }
    return false;
}

/* Options whose value is a separate word and may itself be a script file
 * (a module node preloads), so it is not taken for the benchmark. */
static bool takes_file_value(struct word option)
{
    static const char *const opts[] = {"-r", "--require", "--import", "--loader",
                                       "--experimental-loader"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (word_is(option, opts[i]))
            return true;
    return false;
}

/* A script by its extension; a pytest node id ("bench_x.py::test_a")
 * is its file's. */
static bool is_script(struct word w)
{
    static const char *const exts[] = {".py", ".pyw", ".js", ".mjs", ".cjs", ".ts", ".mts",
                                       ".cts", ".jsx", ".tsx", ".rb", ".pl", ".php"};
    const char *sep = memchr(w.s, ':', w.n);
    size_t n = sep && sep + 1 < w.s + w.n && sep[1] == ':' ? (size_t)(sep - w.s) : w.n;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
        size_t k = strlen(exts[i]);
        if (n > k && memcmp(w.s + n - k, exts[i], k) == 0)
            return true;
    }
    return false;
}

/* The first script among the arguments at p that is no option's value. */
static bool find_script(const char *p, struct word *script)
{
    struct word w;
    bool skip_value = false;
    while (next_word(&p, &w)) {
        bool option = w.s[0] == '-' && w.n > 1 && !word_is(w, "--");
        if (!option && !skip_value && is_script(w)) {
            *script = w;
            return true;
        }
        skip_value = option && takes_file_value(w);
    }
    return false;
}

/* A script as the heading names it: relative as the user typed it
 * ("benches/bench.mjs", the prefix of the harness's benchmark names),
 * without "./"; an absolute path by its base name. */
static struct word script_name(struct word w)
{
    if (w.s[0] == '/')
        return base_name(w);
    while (w.n > 2 && w.s[0] == '.' && w.s[1] == '/') {
        w.s += 2;
        w.n -= 2;
    }
    return w;
}

/* Cuts out's text at `max` characters, at a word's end when one ends in
 * its second half, and marks the cut with an ellipsis. */
static void shorten(struct buf *out, size_t max)
{
    const char *s = buf_cstr(out);
    size_t n = out->len, i = 0, chars = 0, space = 0;
    while (i < n && chars + 1 < max) { /* one character kept for the ellipsis */
        unsigned cp;
        size_t len = utf8_decode(s, n, i, &cp);
        if (cp == ' ' && chars >= max / 2)
            space = i;
        i += len;
        chars++;
    }
    if (i >= n || utf8_chars(s, n) <= max)
        return;
    out->len = space ? space : i;
    buf_append(out, space ? " \u2026" : "\u2026", strlen(space ? " \u2026" : "\u2026"));
}

void report_ran(struct buf *out, const char *cmd)
{
    out->len = 0;
    struct word program;
    const char *rest = cmd ? cmd : "";
    if (!next_word(&rest, &program))
        return;
    program = base_name(program);
    struct word script;
    if (runs_scripts(program) && find_script(rest, &script)) {
        script = script_name(script);
        buf_append(out, script.s, script.n);
    } else {
        buf_append(out, program.s, program.n);
        for (struct word w; next_word(&rest, &w);) {
            buf_putc(out, ' ');
            buf_append(out, w.s, w.n);
        }
    }
    shorten(out, REPORT_HEADING_MAX_CHARS);
}

/* The heading without --title: what ran, else the input's base name. */
static void what_was_run(struct buf *out, const struct report *r)
{
    report_ran(out, r->cmd);
    if (out->len)
        return;
    if (r->input) {
        struct word input = base_name((struct word){r->input, strlen(r->input)});
        buf_append(out, input.s, input.n);
        return;
    }
    buf_append(out, "callgrind_fold report", strlen("callgrind_fold report"));
}

void report_heading(struct buf *out, const struct report *r)
{
    out->len = 0;
    if (r->title)
        buf_append(out, r->title, strlen(r->title));
    else
        what_was_run(out, r);
}

void report_diff_heading(struct buf *out, const struct report_diff *d)
{
    out->len = 0;
    if (d->new->title) {
        buf_append(out, d->new->title, strlen(d->new->title));
        return;
    }
    struct buf old = {0};
    what_was_run(&old, d->old);
    what_was_run(out, d->new);
    /* the same program before and after is the usual case: named once */
    if (old.len != out->len || memcmp(buf_cstr(&old), buf_cstr(out), old.len) != 0) {
        struct buf new = *out;
        *out = old;
        buf_append(out, " \u2192 ", strlen(" \u2192 "));
        buf_append(out, buf_cstr(&new), new.len);
        buf_free(&new);
    } else {
        buf_free(&old);
    }
}
