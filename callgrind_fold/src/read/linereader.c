/* Buffered line reader: lines as views into one reusable buffer
 * (linereader.h). */
#define _DEFAULT_SOURCE /* madvise(MADV_DONTNEED) */
#include "linereader.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file descriptor's buffer has one byte more than r->cap: room for
 * the '\n' that ends a last line without one (linereader.h). */
void lr_open_fd(struct linereader *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->release_at = SIZE_MAX;
    r->fd = fd;
    r->cap = 1 << 20;
    r->buf = xmalloc(r->cap + 1);
    r->owns_buf = true;
    r->max_line = LINE_MAX_BYTES;
}

/* r->whole: just after the last '\n' of buf[from, end), if there is
 * one; otherwise it stays. */
static void find_whole(struct linereader *r, size_t from)
{
    size_t i = r->end;
    while (i > from && r->buf[i - 1] != '\n')
        i--;
    if (i > from)
        r->whole = i;
}

void lr_open_memory(struct linereader *r, const char *data, size_t len)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->buf = (char *)(data ? data : ""); /* never written through in memory mode */
    r->cap = r->end = len;
    r->eof = true;
    r->max_line = LINE_MAX_BYTES;
    r->release_at = SIZE_MAX;
    find_whole(r, 0);
}

void lr_release_as_read(struct linereader *r)
{
    r->release_at = LR_RELEASE_STEP;
}

/* Gives back the whole pages before the current line.  A private mapping
 * of a file that was never written: the kernel drops the pages from the
 * process (they stay in the page cache) and would read them in again if
 * they were touched, so nothing that still points there is hurt. */
void lr_release(struct linereader *r)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t to = r->start / page * page;
    if (to > r->released) {
        /* buf is the mapping's start, so page aligned */
        (void)madvise(r->buf + r->released, to - r->released, MADV_DONTNEED);
        r->released = to;
    }
    r->release_at = r->start + LR_RELEASE_STEP;
}

void lr_close(struct linereader *r)
{
    if (r->owns_buf)
        free(r->buf);
    free(r->tail);
    r->buf = NULL;
    r->tail = NULL;
}

/* Read more bytes after r->end, compacting or growing the buffer first. */
static enum lr_status fill(struct linereader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->whole = r->whole > r->start ? r->whole - r->start : 0;
        r->start = 0;
    }
    if (r->end == r->cap) {
        if (r->cap >= r->max_line + 1)
            return LR_TOO_LONG;
        r->cap *= 2;
        r->buf = xrealloc(r->buf, r->cap + 1);
    }
    for (;;) {
        ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            r->read_errno = errno;
            return LR_READ_ERROR;
        }
        if (n == 0)
            r->eof = true;
        r->end += (size_t)n;
        find_whole(r, r->end - (size_t)n); /* only the new bytes */
        return LR_LINE;
    }
}

enum lr_status lr_next_slow(struct linereader *r, const char **line, size_t *len)
{
    size_t scanned = 0; /* bytes after start already known to hold no '\n' */
    for (;;) {
        char *from = r->buf + r->start + scanned;
        char *nl = memchr(from, '\n', r->end - r->start - scanned);
        size_t n;
        if (nl) {
            n = (size_t)(nl - (r->buf + r->start));
        } else if (r->eof) {
            n = r->end - r->start;
            if (n == 0)
                return LR_EOF;
        } else {
            scanned = r->end - r->start;
            if (scanned > r->max_line)
                return LR_TOO_LONG;
            enum lr_status st = fill(r);
            if (st != LR_LINE)
                return st;
            continue;
        }
        if (n > r->max_line)
            return LR_TOO_LONG;
        *line = r->buf + r->start;
        r->start += n + (nl ? 1 : 0);
        if (!nl) {
            /* The last line, without its '\n': give it one, so that the
             * byte after every line can be read (linereader.h).  A file
             * descriptor's buffer has a spare byte for it; a memory block
             * (a mapped file may end exactly on a page boundary) is not
             * ours to write, so that line is copied. */
            if (r->owns_buf) {
                r->buf[r->start] = '\n';
            } else {
                free(r->tail);
                r->tail = xmalloc(n + 1);
                memcpy(r->tail, *line, n);
                r->tail[n] = '\n';
                *line = r->tail;
            }
        }
        if (n > 0 && (*line)[n - 1] == '\r')
            n--;
        *len = n;
        r->lineno++;
        return LR_LINE;
    }
}
