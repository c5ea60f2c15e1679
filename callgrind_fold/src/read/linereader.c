/* Buffered line reader: lines as views into one reusable buffer
 * (linereader.h). */
#include "linereader.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lr_open_fd(struct linereader *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->cap = 1 << 20;
    r->buf = xmalloc(r->cap);
    r->owns_buf = true;
    r->max_line = LINE_MAX_BYTES;
}

void lr_open_memory(struct linereader *r, const char *data, size_t len)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->buf = (char *)(data ? data : ""); /* never written through in memory mode */
    r->cap = r->end = len;
    r->eof = true;
    r->max_line = LINE_MAX_BYTES;
}

void lr_close(struct linereader *r)
{
    if (r->owns_buf)
        free(r->buf);
    r->buf = NULL;
}

/* Read more bytes after r->end, compacting or growing the buffer first. */
static enum lr_status fill(struct linereader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    if (r->end == r->cap) {
        if (r->cap >= r->max_line + 1)
            return LR_TOO_LONG;
        r->cap *= 2;
        r->buf = xrealloc(r->buf, r->cap);
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
        return LR_LINE;
    }
}

enum lr_status lr_next(struct linereader *r, const char **line, size_t *len)
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
        if (n > 0 && (*line)[n - 1] == '\r')
            n--;
        *len = n;
        r->lineno++;
        return LR_LINE;
    }
}
