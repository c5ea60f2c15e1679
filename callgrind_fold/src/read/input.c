/* One input (a file, "-" or a memory block): its format told from its
 * first lines, then handed to the reader for it (read.h). */
#include "read.h"
#include "linereader.h"
#include "callgrind/parse.h"
#include "sections.h"
#include "folded.h"
#include "tree.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_blank_line(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return false;
    return true;
}

static int read_lines(struct linereader *r, struct read_target *t, struct diag *d)
{
    bool marked = false; /* "# callgrind format" */
    for (;;) {
        const char *line;
        size_t len;
        enum lr_status st = lr_next(r, &line, &len);
        if (st == LR_EOF) {
            d->line = r->lineno ? r->lineno : 1;
            snprintf(d->msg, sizeof d->msg, "%s",
                     marked ? "no profile data after \"# callgrind format\""
                            : "empty input: neither a callgrind profile nor folded stacks");
            return INPUT_EMPTY;
        }
        if (st != LR_LINE) {
            d->line = r->lineno + 1;
            snprintf(d->msg, sizeof d->msg, "%s",
                     st == LR_TOO_LONG ? "line longer than 64 MiB" : strerror(r->read_errno));
            return -1;
        }
        /* The folded tree says what it is on its first line. */
        if (r->lineno == 1 && starts_with(line, len, TREE_MARKER))
            return read_tree(r, line, len, t, d);
        if (starts_with(line, len, "# callgrind format"))
            marked = true;
        if (len == 0 || line[0] == '#' || is_blank_line(line, len))
            continue;
        /* Folded stacks are lines of "frames count"; anything that can
         * only be callgrind, or follows its marker, is read as callgrind,
         * whose reader then reports what is wrong precisely. */
        if (marked || is_callgrind_line(line, len))
            return read_callgrind(r, line, len, t, d);
        return read_folded(r, line, len, t, d);
    }
}

static void set_name(struct diag *d, const char *name)
{
    snprintf(d->file, sizeof d->file, "%s", name);
    d->line = 0;
    d->msg[0] = '\0';
}

/* A mapped file cut shorter while it is read raises SIGBUS at its first
 * page past the new end.  That is reported as an error, as a read() ending
 * early would have led to one ("truncated file?"), rather than ending the
 * process; what the reader held is not freed on that path (the run stops
 * at the error anyway).  Reading touches the mapping only in the readers'
 * own code and memchr(), never inside malloc(), so jumping out is safe. */
static sigjmp_buf *sigbus_jump;
static struct sigaction sigbus_before;

static void on_sigbus(int sig)
{
    (void)sig;
    siglongjmp(*sigbus_jump, 1);
}

static int read_mapped(struct linereader *r, struct read_target *t, struct diag *d)
{
    sigjmp_buf jump;
    if (sigsetjmp(jump, 1)) {
        sigaction(SIGBUS, &sigbus_before, NULL);
        d->line = r->lineno + 1;
        snprintf(d->msg, sizeof d->msg, "the file was cut shorter while it was read");
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigbus_jump = &jump;
    sigaction(SIGBUS, &sa, &sigbus_before);
    int rc = read_lines(r, t, d);
    sigaction(SIGBUS, &sigbus_before, NULL);
    return rc;
}

int read_path(const char *path, struct read_target *t, struct diag *d)
{
    bool is_stdin = strcmp(path, "-") == 0;
    set_name(d, is_stdin ? "<stdin>" : path);
    t->input_name = d->file;
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(d->msg, sizeof d->msg, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    t->input_bytes = regular ? (uint64_t)st.st_size : 0;
    t->cmd.len = 0;
    t->inputs++;
    /* A regular file is mapped, not read: the readers then scan the page
     * cache in place, with no copy into a buffer and no read() calls.
     * POSIX_MADV_SEQUENTIAL lets the kernel read ahead.  The lines are
     * views into the mapping (linereader.c keeps the guarantee that a line
     * is followed by a readable '\n' or '\r' even when the file lacks its
     * last newline and ends on a page boundary), and the pages read are
     * given back as the reading goes on (lr_release_as_read()): resident
     * memory holds a window of the file, not all of it.  Standard input, pipes,
     * empty files and a failed mmap() keep the buffered read() path.
     * What is read is the file as long as it was when opened (bytes
     * appended later are not); a file cut shorter while it is read is an
     * error (read_mapped()). */
    void *map = MAP_FAILED;
    size_t map_len = 0;
    if (regular && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX) {
        map_len = (size_t)st.st_size;
        map = mmap(NULL, map_len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED)
            (void)posix_madvise(map, map_len, POSIX_MADV_SEQUENTIAL);
    }
    struct linereader r;
    if (map != MAP_FAILED) {
        lr_open_memory(&r, map, map_len);
        lr_release_as_read(&r);
    } else
        lr_open_fd(&r, fd);
    int rc = map != MAP_FAILED ? read_mapped(&r, t, d) : read_lines(&r, t, d);
    lr_close(&r);
    if (map != MAP_FAILED)
        munmap(map, map_len);
    if (!is_stdin)
        close(fd);
    return rc;
}

int read_memory(const char *name, const char *data, size_t len, struct read_target *t,
                struct diag *d)
{
    t->input_bytes = len;
    t->cmd.len = 0;
    t->inputs++;
    set_name(d, name);
    t->input_name = d->file;
    struct linereader r;
    lr_open_memory(&r, data, len);
    int rc = read_lines(&r, t, d);
    lr_close(&r);
    return rc;
}

bool read_path_is_tree(const char *path)
{
    /* only a regular file: a pipe's first bytes read here would be lost */
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return false; /* reading it says why */
    /* as read_lines() tells a tree: its first line starts with the marker */
    char first[sizeof TREE_MARKER - 1];
    size_t got = 0;
    while (got < sizeof first) {
        ssize_t n = read(fd, first + got, sizeof first - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    return got == sizeof first && memcmp(first, TREE_MARKER, sizeof first) == 0;
}
