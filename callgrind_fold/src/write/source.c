/* Source files of the hot lines (source.h): found as callgrind_annotate
 * finds them (the name as written, then under each --source-dir), read
 * to a bound, split into lines. */
#include "source.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The places to look, in order: the name as written; under each DIR
 * the name (when relative) and then the base name. */
struct candidates {
    char **path;
    size_t n, cap;
};

static void add_candidate(struct candidates *c, const char *dir, const char *name)
{
    struct buf b = {0};
    if (dir) {
        buf_append(&b, dir, strlen(dir));
        if (b.len && b.data[b.len - 1] != '/')
            buf_putc(&b, '/');
    }
    buf_append(&b, name, strlen(name));
    const char *p = buf_cstr(&b);
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->path[i], p) == 0) {
            buf_free(&b);
            return;
        }
    GROW(c->path, c->cap, c->n);
    c->path[c->n++] = xstrndup(p, b.len);
    buf_free(&b);
}

static void candidates_of(struct candidates *c, const char *name, const char *const *dirs,
                          size_t ndirs)
{
    const char *slash = strrchr(name, '/');
    const char *base = slash ? slash + 1 : name;
    add_candidate(c, NULL, name);
    for (size_t i = 0; i < ndirs; i++) {
        if (name[0] != '/')
            add_candidate(c, dirs[i], name);
        if (*base)
            add_candidate(c, dirs[i], base);
    }
}

static void candidates_free(struct candidates *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->path[i]);
    free(c->path);
}

/* "not found under ...": the places tried, the first few. */
static void say_not_found(struct source_file *f, const struct candidates *c, size_t ndirs)
{
    size_t at = (size_t)snprintf(f->why, sizeof f->why, "source not found: tried ");
    for (size_t i = 0; i < c->n && at < sizeof f->why; i++) {
        if (i == 4 && c->n > 5) {
            snprintf(f->why + at, sizeof f->why - at, " and %zu more", c->n - i);
            break;
        }
        at += (size_t)snprintf(f->why + at, sizeof f->why - at, "%s%s", i ? ", " : "",
                               c->path[i]);
    }
    at = strlen(f->why);
    if (!ndirs && at < sizeof f->why)
        snprintf(f->why + at, sizeof f->why - at, " (--source-dir=DIR says where to look)");
}

/* Up to SOURCE_MAX_BYTES + 1 bytes of fd (one more tells a longer file). */
static bool read_bounded(int fd, struct source_file *f)
{
    size_t cap = 64 << 10, want = SOURCE_MAX_BYTES + 1;
    f->data = xmalloc(cap);
    while (f->len < want) {
        if (f->len == cap) {
            cap = cap * 2 < want ? cap * 2 : want;
            f->data = xrealloc(f->data, cap);
        }
        ssize_t n = read(fd, f->data + f->len, cap - f->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        if (n == 0)
            break;
        f->len += (size_t)n;
    }
    if (f->len > SOURCE_MAX_BYTES) {
        f->cut = true;
        f->len = SOURCE_MAX_BYTES;
    }
    return true;
}

/* The line starts; a cut file's last, partial line is not one. */
static void split_lines(struct source_file *f)
{
    size_t cap = 0;
    for (size_t at = 0; at < f->len;) {
        const char *nl = memchr(f->data + at, '\n', f->len - at);
        if (!nl && f->cut)
            break;
        GROW(f->start, cap, f->nlines);
        f->start[f->nlines++] = at;
        at = nl ? (size_t)(nl - f->data) + 1 : f->len;
    }
}

bool source_read(struct source_file *f, const char *name, const char *const *dirs,
                 size_t ndirs)
{
    memset(f, 0, sizeof *f);
    if (!*name || strcmp(name, "???") == 0) {
        snprintf(f->why, sizeof f->why,
                 "the profile names no source file (code without debug information)");
        return false;
    }
    struct candidates c = {0};
    candidates_of(&c, name, dirs, ndirs);
    int fd = -1, first_err = 0;
    const char *first_failed = NULL;
    for (size_t i = 0; i < c.n && fd < 0; i++) {
        fd = open_regular(c.path[i]);
        if (fd >= 0) {
            f->path = xstrndup(c.path[i], strlen(c.path[i]));
        } else if (errno != ENOENT && errno != ENOTDIR && !first_failed) {
            first_err = errno;
            first_failed = c.path[i];
        }
    }
    if (fd < 0) {
        if (first_failed)
            snprintf(f->why, sizeof f->why, "source not readable: %s: %s", first_failed,
                     first_err == EINVAL ? "not a regular file" : strerror(first_err));
        else
            say_not_found(f, &c, ndirs);
        candidates_free(&c);
        return false;
    }
    candidates_free(&c);
    bool ok = read_bounded(fd, f);
    int err = errno;
    close(fd);
    if (!ok) {
        snprintf(f->why, sizeof f->why, "source not readable: %s: %s", f->path, strerror(err));
        return false;
    }
    if (memchr(f->data, '\0', f->len < SOURCE_BINARY_PROBE ? f->len : SOURCE_BINARY_PROBE)) {
        snprintf(f->why, sizeof f->why,
                 "%s is a binary file (a NUL byte in its first 4 KB): not shown", f->path);
        return false;
    }
    split_lines(f);
    return true;
}

/* Continuation bytes of UTF-8: 10xxxxxx. */
static bool continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

const char *source_line(const struct source_file *f, uint64_t n, size_t *len, bool *cut)
{
    *len = 0;
    *cut = false;
    if (n == 0 || n > f->nlines)
        return NULL;
    size_t at = f->start[n - 1];
    size_t end = n < f->nlines ? f->start[n] : f->len;
    if (end > at && f->data[end - 1] == '\n')
        end--;
    if (end > at && f->data[end - 1] == '\r')
        end--;
    if (end - at > SOURCE_MAX_LINE) {
        end = at + SOURCE_MAX_LINE;
        while (end > at && continuation(f->data[end])) /* not inside a character */
            end--;
        *cut = true;
    }
    *len = end - at;
    return f->data + at;
}

void source_free(struct source_file *f)
{
    free(f->path);
    free(f->data);
    free(f->start);
    memset(f, 0, sizeof *f);
}
