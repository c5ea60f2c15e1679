/* Files of the --inline cache directory: see cachedir.h. */
#include "cachedir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ID_BYTES 64

bool cache_path(const char *dir, const void *id, size_t id_len, const char *suffix,
                struct buf *path)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *bits = id;
    if (!dir || id_len == 0 || id_len > MAX_ID_BYTES)
        return false;
    path->len = 0;
    buf_append(path, dir, strlen(dir));
    buf_putc(path, '/');
    for (size_t i = 0; i < id_len; i++) {
        buf_putc(path, hex[bits[i] >> 4]);
        buf_putc(path, hex[bits[i] & 15]);
    }
    buf_append(path, suffix, strlen(suffix));
    return true;
}

/* mkdir -p, private to the user. */
static bool make_dirs(const char *dir)
{
    size_t n = strlen(dir);
    char *path = xmalloc(n + 1);
    memcpy(path, dir, n + 1);
    bool ok = true;
    for (char *p = path + 1; ok; p++) {
        if (*p != '/' && *p != 0)
            continue;
        char c = *p;
        *p = 0;
        ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        *p = c;
        if (c == 0)
            break;
    }
    free(path);
    return ok;
}

void cache_write(const char *dir, const char *path, const void *data, size_t size)
{
    if (!make_dirs(dir))
        return;
    struct buf tmp = {0};
    char pid[32];
    snprintf(pid, sizeof pid, ".tmp%ld", (long)getpid());
    buf_append(&tmp, path, strlen(path));
    buf_append(&tmp, pid, strlen(pid));
    int fd = open(buf_cstr(&tmp), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    bool ok = fd >= 0;
    for (size_t done = 0; ok && done < size;) {
        ssize_t w = write(fd, (const char *)data + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        ok = w > 0;
        done += ok ? (size_t)w : 0;
    }
    if (fd >= 0)
        ok = close(fd) == 0 && ok;
    if (!ok || rename(buf_cstr(&tmp), path) != 0)
        unlink(buf_cstr(&tmp));
    buf_free(&tmp);
}

void *cache_read(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return NULL;
    char *data = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < SIZE_MAX / 2) {
        size_t n = (size_t)st.st_size, got = 0;
        data = xmalloc(n);
        while (got < n) {
            ssize_t r = read(fd, data + got, n - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got != n) {
            free(data);
            data = NULL;
        }
        *size = n;
    }
    close(fd);
    return data;
}
