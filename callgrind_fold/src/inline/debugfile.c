/* Separate debug files: see debugfile.h. */
#include "debugfile.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static const char *path_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The CRC-32 of the whole file open at `fd` (zlib's is the one
 * .gnu_debuglink records), or false if it cannot be read. */
static bool file_crc(int fd, uLong *crc)
{
    unsigned char chunk[1 << 16];
    ssize_t n;
    *crc = crc32(0, Z_NULL, 0);
    while ((n = read(fd, chunk, sizeof chunk)) > 0)
        *crc = crc32(*crc, chunk, (uInt)n);
    return n == 0 && lseek(fd, 0, SEEK_SET) == 0;
}

/* Opens `name` if it is an ELF file with the build-id `id`; when the
 * object has none, if the file's CRC is `*crc` (a debuglink's: a stale
 * debug file from another build would name the wrong functions), or any
 * file when `crc` is NULL. */
static int open_candidate(const char *name, const void *id, ssize_t id_len,
                          const GElf_Word *crc)
{
    int fd = open_regular(name);
    if (fd < 0)
        return -1;
    if (id_len <= 0 && crc) {
        uLong got;
        if (!file_crc(fd, &got) || got != *crc) {
            close(fd);
            return -1;
        }
    } else if (id_len > 0) {
        Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
        const void *got = NULL;
        ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &got) : -1;
        bool same = n == id_len && memcmp(got, id, (size_t)n) == 0;
        if (elf)
            elf_end(elf);
        if (!same) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

int debug_file_open(const char *dirs, Elf *main, const char *path, struct buf *b)
{
    const void *id = NULL;
    ssize_t id_len = dwelf_elf_gnu_build_id(main, &id);
    GElf_Word crc;
    const char *link = dwelf_elf_gnu_debuglink(main, &crc);
    size_t dir_len = (size_t)(path_base(path) - path); /* with the slash */
    int fd = -1;
    for (const char *d = dirs; id_len > 1 && fd < 0 && *d;) {
        size_t n = strcspn(d, ":");
        if (d[0] == '/') {
            static const char hex[] = "0123456789abcdef";
            const unsigned char *bits = id;
            b->len = 0;
            buf_append(b, d, n);
            buf_append(b, "/.build-id/", 11);
            for (ssize_t i = 0; i < id_len; i++) {
                buf_putc(b, hex[bits[i] >> 4]);
                buf_putc(b, hex[bits[i] & 15]);
                if (i == 0)
                    buf_putc(b, '/');
            }
            buf_append(b, ".debug", 6);
            fd = open_candidate(buf_cstr(b), id, id_len, NULL);
        }
        d += n + (d[n] == ':');
    }
    for (int where = 0; fd < 0 && where < 3; where++) {
        for (const char *d = dirs; fd < 0 && (where < 2 ? d == dirs : *d != 0);) {
            size_t n = strcspn(d, ":");
            b->len = 0;
            if (where == 2) {
                if (d[0] != '/') {
                    d += n + (d[n] == ':');
                    continue;
                }
                buf_append(b, d, n);
            }
            buf_append(b, path, dir_len);
            if (where == 1)
                buf_append(b, ".debug/", 7);
            if (link) {
                buf_append(b, link, strlen(link));
            } else {
                buf_append(b, path + dir_len, strlen(path + dir_len));
                buf_append(b, ".debug", 6);
            }
            /* Not the object itself (a debuglink naming its own file). */
            if (strcmp(buf_cstr(b), path) != 0)
                fd = open_candidate(buf_cstr(b), id, id_len, link ? &crc : NULL);
            d += n + (d[n] == ':');
            if (where < 2)
                break;
        }
    }
    return fd;
}

bool debug_info_in(Elf *elf, bool *compressed)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return false;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
            (name = elf_strptr(elf, shstrndx, sh.sh_name)) && strcmp(name, ".debug_info") == 0) {
            *compressed = (sh.sh_flags & SHF_COMPRESSED) != 0;
            return true;
        }
    }
    return false;
}
