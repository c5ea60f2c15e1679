/* Buffered line reader: hands out lines as (pointer, length) views into one
 * reusable buffer, so reading costs no allocation per line. Works on a file
 * descriptor (pipes, stdin) or on a memory block (a mapped file, fuzzing,
 * tests). */
#ifndef CF_LINEREADER_H
#define CF_LINEREADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

/* Longest accepted line; longer lines are reported, not buffered. */
#define LINE_MAX_BYTES ((size_t)64 << 20)

enum lr_status { LR_LINE = 1, LR_EOF = 0, LR_READ_ERROR = -1, LR_TOO_LONG = -2 };

struct linereader {
    int fd;              /* -1 for a memory block */
    char *buf;
    size_t cap, start, end;
    bool eof;
    bool owns_buf;
    size_t max_line;
    uint64_t lineno;     /* number of the line last returned, 1-based */
    int read_errno;
    char *tail;          /* memory block: its last line when it lacks '\n' */
    size_t whole;        /* buf[start, whole) holds whole lines (see lr_window) */
    size_t release_at;   /* a mapped file: start at which to lr_release() */
    size_t released;     /* a mapped file: bytes given back so far */
};

void lr_open_fd(struct linereader *r, int fd);
void lr_open_memory(struct linereader *r, const char *data, size_t len);
void lr_close(struct linereader *r);

enum lr_status lr_next_slow(struct linereader *r, const char **line, size_t *len);

/* A memory block that is a mapped file (input.c): the pages already read
 * are given back every LR_RELEASE_STEP bytes, so the process's resident
 * memory holds a window of the file, not all of it. */
#define LR_RELEASE_STEP ((size_t)8 << 20)
void lr_release_as_read(struct linereader *r);
void lr_release(struct linereader *r);

/* Next line without its "\n" (and without a trailing "\r").
 * The view is valid until the next call.
 *
 * The byte just after the line, line[len], can always be read and is '\n'
 * or '\r' (for a last line without its newline the reader supplies one):
 * a scanner may stop at the first byte that is not a digit, say, without
 * also comparing against the end of the line. */
static inline enum lr_status lr_next(struct linereader *r, const char **line, size_t *len)
{
    /* The common case inline: a whole line already in the buffer.  Every
     * other case (refilling, the last line, a line too long) goes to
     * lr_next_slow(), which scans again from the line's start. */
    const char *s = r->buf + r->start;
    const char *nl = memchr(s, '\n', r->end - r->start);
    if (nl) {
        size_t n = (size_t)(nl - s);
        if (n <= r->max_line) {
            *line = s;
            r->start += n + 1;
            if (r->start >= r->release_at)
                lr_release(r);
            n -= n > 0 && s[n - 1] == '\r';
            *len = n;
            r->lineno++;
            return LR_LINE;
        }
    }
    return lr_next_slow(r, line, len);
}

/* The buffered bytes that hold whole lines, for a reader's hot loop:
 * [*p, *limit) is empty or ends just after a '\n', so every line starting
 * in it ends with a '\n' in it, and a scanner can run to that '\n' without
 * testing for the end of the buffer (and without a memchr() per line
 * first).  A reader that takes lines from it sets r->lineno as lr_next()
 * would and hands back where it stopped with lr_skip_to(); lr_next()
 * takes the rest (a line too long, the last line without '\n', a refill). */
static inline void lr_window(const struct linereader *r, const char **p, const char **limit)
{
    *p = r->buf + r->start;
    *limit = r->buf + (r->whole > r->start ? r->whole : r->start);
}

static inline void lr_skip_to(struct linereader *r, const char *p)
{
    r->start = (size_t)(p - r->buf);
    if (r->start >= r->release_at)
        lr_release(r);
}

#endif
