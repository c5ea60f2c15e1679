/* Buffered line reader: hands out lines as (pointer, length) views into one
 * reusable buffer, so reading costs no allocation per line. Works on a file
 * descriptor (files, pipes, stdin) or on a memory block (fuzzing, tests). */
#ifndef CF_LINEREADER_H
#define CF_LINEREADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

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
};

void lr_open_fd(struct linereader *r, int fd);
void lr_open_memory(struct linereader *r, const char *data, size_t len);
void lr_close(struct linereader *r);
/* Next line without its "\n" (and without a trailing "\r").
 * The view is valid until the next call. */
enum lr_status lr_next(struct linereader *r, const char **line, size_t *len);

#endif
