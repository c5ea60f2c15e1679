/* Allocation that exits on failure, byte buffers, usage errors
 * (util.h, "util.c"). */
#define _DEFAULT_SOURCE /* sbrk, madvise */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

void out_of_memory(void)
{
    fputs("callgrind_fold: out of memory\n", stderr);
    exit(EXIT_OUTPUT);
}

void heap_prefer_huge_pages(size_t reserve)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (reserve > INT32_MAX / 2 || mallopt(M_MMAP_THRESHOLD, (int)reserve / 2) != 1 ||
        mallopt(M_TOP_PAD, (int)reserve) != 1)
        return;
    void *grow = malloc(huge); /* grows the heap by `reserve` beyond it */
    if (!grow)
        return;
    uintptr_t lo = ((uintptr_t)grow + huge - 1) & ~(huge - 1);
    void *top = sbrk(0);
    uintptr_t hi = top == (void *)-1 ? 0 : (uintptr_t)top & ~(huge - 1);
    /* Only if the block is in the heap below the break, as asked (not
     * under another allocator, such as a sanitizer's). */
    if (hi > lo && hi - lo <= reserve + 2 * huge)
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    free(grow);
#else
    (void)reserve;
#endif
}

void heap_map_large_blocks(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 256 << 10);
#endif
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    if (n) /* s may be NULL when n is 0 */
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory();
    return q;
}

void grow_array(void **items, size_t *capacity, size_t need, size_t item_size)
{
    if (need < *capacity)
        return;
    size_t cap = *capacity ? *capacity : 16;
    while (cap <= need) {
        if (cap > SIZE_MAX / 2 / item_size)
            out_of_memory();
        cap *= 2;
    }
    *items = xrealloc(*items, cap * item_size);
    *capacity = cap;
}

void buf_reserve(struct buf *b, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1) {
            if (cap > SIZE_MAX / 2)
                out_of_memory();
            cap *= 2;
        }
        b->data = xrealloc(b->data, cap);
        b->cap = cap;
    }
}

const char *buf_cstr(struct buf *b)
{
    buf_append(b, "", 0);
    b->data[b->len] = '\0';
    return b->data;
}

void buf_free(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

_Noreturn void usage_error(const char *fmt, const char *arg)
{
    fputs("callgrind_fold: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'callgrind_fold --help' for more information.\n", stderr);
    exit(EXIT_USAGE);
}

int open_regular(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        errno = EINVAL;
        fd = -1;
    }
    return fd;
}
