/* The sources of the HTML report's hot lines (-f html, --source-dir):
 * the only code that opens a source file a profile names. Bounded: at
 * most SOURCE_MAX_BYTES of a file are read, a line is cut at
 * SOURCE_MAX_LINE bytes, and whatever goes wrong (not found, not a
 * regular file, binary) is a reason to show, never an error of the run. */
#ifndef CF_WRITE_SOURCE_H
#define CF_WRITE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SOURCE_MAX_BYTES ((size_t)4 << 20)
#define SOURCE_MAX_LINE 1000
/* A NUL byte in this much of the start of a file: a binary, not shown. */
#define SOURCE_BINARY_PROBE 4096

struct source_file {
    char *path;         /* where it was found (NULL: nowhere) */
    char *data;         /* its first bytes, at most SOURCE_MAX_BYTES */
    size_t len;
    size_t *start;      /* line n (from 1) starts at data[start[n - 1]] */
    size_t nlines;      /* whole lines read (a last one without '\n' too,
                           unless the file was cut there) */
    bool cut;           /* longer than SOURCE_MAX_BYTES: only the start read */
    char why[600];      /* no text: why ("" when read) */
};

/* Reads the source `name` (a "fl=" name of the profile): the path as
 * written, then, for each of dirs[0 .. ndirs), DIR/name (a relative
 * name) and DIR/base name. True when its text was read; else f->why
 * says why not (and f->path where it was found, for a binary file). */
bool source_read(struct source_file *f, const char *name, const char *const *dirs,
                 size_t ndirs);
/* Line n's text without its line end, at most SOURCE_MAX_LINE bytes (cut
 * at a character's start; *cut says so); NULL for line 0 and lines past
 * f->nlines. */
const char *source_line(const struct source_file *f, uint64_t n, size_t *len, bool *cut);
void source_free(struct source_file *f);

#endif
