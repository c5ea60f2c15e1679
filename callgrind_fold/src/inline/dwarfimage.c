/* Compressed DWARF, opened cheaply: see dwarfimage.h.
 *
 * Image layout: ELF header, the wanted sections' contents (inflated),
 * their names, section headers. The build-id note is copied too, so that
 * a cached image says which file it came from. A cache entry is written
 * to a temporary name and renamed, so readers never see half a file; an
 * entry that does not open as such an image, or names another build-id,
 * is ignored and rewritten. Any cache failure only costs the inflating. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_POPULATE */
#include "dwarfimage.h"
#include "inline.h"
#include "cachedir.h"
#include "util/util.h"

#include <dlfcn.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

/* Bumped whenever the image's contents change meaning. */
#define IMAGE_VERSION "v1"

typedef void *(*deflate_alloc_fn)(void);

struct dwarf_images {
    char *dir; /* NULL: no cache */
    bool with_lines; /* .debug_line in the images too */
    /* libdeflate, if installed: about 3 times faster than zlib. */
    void *deflate_lib, *decompressor;
    bool deflate_tried;
    int (*deflate_zlib)(void *, const void *, size_t, void *, size_t, size_t *);
    void (*deflate_free)(void *);
};

struct dwarf_image {
    Elf *elf;
    char *mem; /* inflated here (image_alloc); NULL when mapped from the cache */
    size_t mem_size;
    char *save_path; /* its cache entry, until dwarf_image_save writes it */
    int fd;    /* the cache entry's, or -1 */
};

struct dwarf_images *dwarf_images_new(const char *cache_dir, bool with_lines)
{
    struct dwarf_images *di = xcalloc(1, sizeof *di);
    di->with_lines = with_lines;
    if (cache_dir && *cache_dir) {
        size_t n = strlen(cache_dir) + 1;
        di->dir = xmalloc(n);
        memcpy(di->dir, cache_dir, n);
    }
    return di;
}

void dwarf_images_free(struct dwarf_images *di)
{
    if (!di)
        return;
    if (di->decompressor)
        di->deflate_free(di->decompressor);
    if (di->deflate_lib)
        dlclose(di->deflate_lib);
    free(di->dir);
    free(di);
}

char *dwarf_images_default_dir(void)
{
    const char *base = getenv("XDG_CACHE_HOME");
    const char *sub = "/callgrind_fold";
    if (!base || base[0] != '/') { /* relative values are to be ignored */
        base = getenv("HOME");
        sub = "/.cache/callgrind_fold";
        if (!base || !*base)
            return NULL;
    }
    size_t a = strlen(base), b = strlen(sub);
    char *dir = xmalloc(a + b + 1);
    memcpy(dir, base, a);
    memcpy(dir + a, sub, b + 1);
    return dir;
}

/* ---- inflating ---------------------------------------------------------------- */

static bool inflate_zlib(struct dwarf_images *di, const void *in, size_t inlen, void *out,
                         size_t outlen)
{
    if (!di->deflate_tried) {
        di->deflate_tried = true;
        di->deflate_lib = dlopen("libdeflate.so.0", RTLD_LAZY | RTLD_LOCAL);
        if (di->deflate_lib) {
            void *alloc = dlsym(di->deflate_lib, "libdeflate_alloc_decompressor");
            void *zlib = dlsym(di->deflate_lib, "libdeflate_zlib_decompress");
            void *release = dlsym(di->deflate_lib, "libdeflate_free_decompressor");
            deflate_alloc_fn alloc_fn = NULL;
            memcpy(&alloc_fn, &alloc, sizeof alloc_fn);
            memcpy(&di->deflate_zlib, &zlib, sizeof di->deflate_zlib);
            memcpy(&di->deflate_free, &release, sizeof di->deflate_free);
            if (alloc_fn && di->deflate_zlib && di->deflate_free)
                di->decompressor = alloc_fn();
        }
    }
    if (di->decompressor) {
        size_t got = 0;
        return di->deflate_zlib(di->decompressor, in, inlen, out, outlen, &got) == 0 &&
               got == outlen;
    }
    uLongf got = outlen;
    return uncompress(out, &got, in, inlen) == Z_OK && got == outlen;
}

/* Sections that scope trees and names read (libdw needs no others), and
 * the build-id note; with lines, the line table too. */
static bool wanted_section(const char *name, bool with_lines)
{
    if (with_lines && strcmp(name, ".debug_line") == 0)
        return true;
    static const char *const wanted[] = {
        ".debug_info", ".debug_abbrev", ".debug_str", ".debug_line_str",
        ".debug_ranges", ".debug_rnglists", ".debug_aranges", ".debug_addr",
        ".debug_str_offsets", ".debug_types", ".note.gnu.build-id",
    };
    for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++)
        if (strcmp(name, wanted[i]) == 0)
            return true;
    return false;
}

struct image_section {
    Elf_Scn *scn;
    GElf_Shdr shdr;
    const char *name;
    uint64_t size, align; /* uncompressed */
    bool compressed;
};

/* The wanted sections of `elf`, or NULL when there is no compressed
 * DWARF or something unusual. */
static struct image_section *image_sections(Elf *elf, bool with_lines, size_t *count,
                                            size_t *names_len)
{
    GElf_Ehdr eh;
    size_t shstrndx;
    const unsigned char host_data = 1 == *(const unsigned char *)&(const uint16_t){1}
                                        ? ELFDATA2LSB : ELFDATA2MSB;
    if (!gelf_getehdr(elf, &eh) || gelf_getclass(elf) != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != host_data || eh.e_type == ET_REL ||
        elf_getshdrstrndx(elf, &shstrndx) != 0)
        return NULL;
    struct image_section *secs = NULL;
    size_t n = 0, cap = 0;
    *names_len = 1 + strlen(".shstrtab") + 1;
    bool any_compressed = false, usable = true, has_info = false;
    for (Elf_Scn *scn = NULL; usable && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name))) {
            usable = false;
            break;
        }
        if (strncmp(name, ".zdebug", 7) == 0 || strcmp(name, ".gnu_debugaltlink") == 0 ||
            strcmp(name, ".debug_sup") == 0) {
            usable = false; /* libdwfl's path handles these */
            break;
        }
        bool compressed = (sh.sh_flags & SHF_COMPRESSED) != 0;
        if (compressed && strncmp(name, ".debug_", 7) == 0)
            any_compressed = true; /* libdw would inflate it */
        if (!wanted_section(name, with_lines) || sh.sh_type == SHT_NOBITS)
            continue;
        struct image_section is = {scn, sh, name, sh.sh_size, sh.sh_addralign, compressed};
        if (compressed) {
            GElf_Chdr ch;
            if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB) {
                usable = false;
                break;
            }
            is.size = ch.ch_size;
            is.align = ch.ch_addralign;
        }
        has_info |= strcmp(name, ".debug_info") == 0;
        GROW(secs, cap, n);
        secs[n++] = is;
        *names_len += strlen(name) + 1;
    }
    if (!usable || !any_compressed || !has_info || n + 2 >= SHN_LORESERVE) {
        free(secs);
        return NULL;
    }
    *count = n;
    return secs;
}

/* Memory for an image, zeroed. Mapped with its pages populated at once:
 * megabytes of fresh pages cost a fault each when first touched (a few
 * microseconds on a VM), and calloc would first memset them all. */
static char *image_alloc(size_t n)
{
#ifdef MAP_POPULATE
    int populate = MAP_POPULATE;
#else
    int populate = 0;
#endif
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void image_release(char *mem, size_t n)
{
    if (mem)
        munmap(mem, n);
}

/* The in-memory ELF file of `elf`'s wanted sections (image_alloc'ed), or NULL. */
static char *build_image(struct dwarf_images *di, Elf *elf, size_t *size)
{
    GElf_Ehdr eh;
    size_t n, names_len;
    struct image_section *secs = image_sections(elf, di->with_lines, &n, &names_len);
    if (!secs || !gelf_getehdr(elf, &eh)) {
        free(secs);
        return NULL;
    }
    bool usable = true;
    size_t off = sizeof(Elf64_Ehdr);
    for (size_t i = 0; i < n; i++) {
        uint64_t align = secs[i].align ? secs[i].align : 1;
        if (align > 4096 || (align & (align - 1)))
            align = 8;
        off = (off + align - 1) & ~(size_t)(align - 1);
        secs[i].shdr.sh_offset = off;
        if (secs[i].size > SIZE_MAX / 2 - off)
            usable = false;
        else
            off += secs[i].size;
    }
    size_t names_off = off;
    off = (names_off + names_len + 7) & ~(size_t)7;
    size_t sh_off = off;
    size_t total = sh_off + (n + 2) * sizeof(Elf64_Shdr);
    char *image = usable ? image_alloc(total) : NULL;
    if (!image) {
        free(secs);
        return NULL;
    }
    Elf64_Ehdr *h = (Elf64_Ehdr *)image;
    memcpy(h->e_ident, eh.e_ident, EI_NIDENT);
    h->e_type = eh.e_type;
    h->e_machine = eh.e_machine;
    h->e_version = EV_CURRENT;
    h->e_ehsize = sizeof(Elf64_Ehdr);
    h->e_shentsize = sizeof(Elf64_Shdr);
    h->e_shoff = sh_off;
    h->e_shnum = (Elf64_Half)(n + 2);
    h->e_shstrndx = (Elf64_Half)(n + 1);
    char *names = image + names_off;
    size_t name_at = 1;
    Elf64_Shdr *sh = (Elf64_Shdr *)(image + sh_off);
    for (size_t i = 0; i < n && usable; i++) {
        const struct image_section *is = &secs[i];
        Elf_Data *raw = elf_rawdata(is->scn, NULL);
        char *dst = image + is->shdr.sh_offset;
        if (!raw || (raw->d_size && !raw->d_buf)) {
            usable = false;
        } else if (is->compressed) {
            size_t hdr = sizeof(Elf64_Chdr);
            usable = raw->d_size >= hdr &&
                     inflate_zlib(di, (const char *)raw->d_buf + hdr, raw->d_size - hdr, dst,
                                  is->size);
        } else if (raw->d_size == is->size) {
            memcpy(dst, raw->d_buf, is->size);
        } else {
            usable = false;
        }
        size_t len = strlen(is->name) + 1;
        memcpy(names + name_at, is->name, len);
        sh[i + 1] = (Elf64_Shdr){
            .sh_name = (Elf64_Word)name_at,
            .sh_type = is->shdr.sh_type,
            .sh_flags = is->shdr.sh_flags & ~(GElf_Xword)SHF_COMPRESSED,
            .sh_offset = is->shdr.sh_offset,
            .sh_size = is->size,
            .sh_addralign = is->align,
            .sh_entsize = is->shdr.sh_entsize,
        };
        name_at += len;
    }
    memcpy(names + name_at, ".shstrtab", sizeof ".shstrtab");
    sh[n + 1] = (Elf64_Shdr){.sh_name = (Elf64_Word)name_at, .sh_type = SHT_STRTAB,
                             .sh_offset = names_off, .sh_size = names_len, .sh_addralign = 1};
    free(secs);
    if (!usable) {
        image_release(image, total);
        return NULL;
    }
    *size = total;
    return image;
}

/* ---- the cache ------------------------------------------------------------------ */

static bool same_id(Elf *elf, const void *id, size_t id_len)
{
    const void *got = NULL;
    ssize_t n = dwelf_elf_gnu_build_id(elf, &got);
    return n > 0 && (size_t)n == id_len && memcmp(got, id, id_len) == 0;
}

/* A cached image of the file with this build-id, or NULL. (Mapped by
 * libelf: page by page as read, which for the few units a profile
 * touches is less than mapping the whole file at once.) */
static struct dwarf_image *load_entry(const char *path, const void *id, size_t id_len)
{
    int fd = open_regular(path);
    if (fd < 0)
        return NULL;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t shstrndx;
    /* Ours: this build-id, a .debug_info, nothing compressed. */
    bool ok = elf && elf_kind(elf) == ELF_K_ELF && same_id(elf, id, id_len) &&
              elf_getshdrstrndx(elf, &shstrndx) == 0;
    bool has_info = false;
    for (Elf_Scn *scn = NULL; ok && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        ok = gelf_getshdr(scn, &sh) && !(sh.sh_flags & SHF_COMPRESSED) &&
             (name = elf_strptr(elf, shstrndx, sh.sh_name));
        has_info |= ok && sh.sh_type == SHT_PROGBITS && strcmp(name, ".debug_info") == 0;
    }
    ok = ok && has_info;
    if (!ok) {
        if (elf)
            elf_end(elf);
        close(fd);
        return NULL;
    }
    struct dwarf_image *img = xcalloc(1, sizeof *img);
    img->elf = elf;
    img->fd = fd;
    return img;
}

/* ---- opening ---------------------------------------------------------------------- */

struct dwarf_image *dwarf_image_open(struct dwarf_images *di, Elf *elf)
{
    const void *id = NULL;
    ssize_t id_len = dwelf_elf_gnu_build_id(elf, &id);
    struct buf path = {0};
    bool cached = id_len > 0 &&
                  cache_path(di->dir, id, (size_t)id_len,
                             di->with_lines ? "." IMAGE_VERSION "-lines" : "." IMAGE_VERSION,
                             &path);
    struct dwarf_image *img = cached ? load_entry(buf_cstr(&path), id, (size_t)id_len) : NULL;
    if (!img) {
        size_t size = 0;
        char *mem = build_image(di, elf, &size);
        Elf *mem_elf = mem ? elf_memory(mem, size) : NULL;
        if (mem_elf) {
            img = xcalloc(1, sizeof *img);
            img->elf = mem_elf;
            img->mem = mem;
            img->mem_size = size;
            img->fd = -1;
            if (cached) {
                img->save_path = xmalloc(path.len + 1);
                memcpy(img->save_path, buf_cstr(&path), path.len + 1);
            }
        } else {
            image_release(mem, size);
        }
    }
    buf_free(&path);
    return img;
}

Elf *dwarf_image_elf(const struct dwarf_image *img)
{
    return img->elf;
}

void dwarf_image_save(struct dwarf_images *di, struct dwarf_image *img)
{
    if (!img || !img->save_path)
        return;
    cache_write(di->dir, img->save_path, img->mem, img->mem_size);
    free(img->save_path);
    img->save_path = NULL;
}

void dwarf_image_close(struct dwarf_image *img)
{
    if (!img)
        return;
    elf_end(img->elf);
    image_release(img->mem, img->mem_size);
    free(img->save_path);
    if (img->fd >= 0)
        close(img->fd);
    free(img);
}
