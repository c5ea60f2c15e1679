/* Code without a symbol (present.h, "addrname.c"): callgrind names it by
 * its address relative to its object, "0x000000000001ab70", with a mark
 * after it for code outside .text (" [PLT]", " [Data]", " [BSS]",
 * " [GOT]").  Such a name says nothing to a reader, so code of a known
 * object is named as perf names it, by the object's base name and the
 * offset: "ld-linux-x86-64.so.2+0x1ab70", "libc.so.6+0x26040 [PLT]". */
#include "present.h"

#include <string.h>

static const char *const section_marks[] = {" [PLT]", " [Data]", " [BSS]", " [GOT]"};

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The end of the hex digits after a leading "0x", or 0 when there are
 * none. */
static size_t hex_end(const char *name, size_t len)
{
    if (len < 3 || name[0] != '0' || name[1] != 'x')
        return 0;
    size_t i = 2;
    while (i < len && hex_value(name[i]) >= 0)
        i++;
    return i > 2 ? i : 0;
}

/* The first digit that is no leading zero (the last digit if all are). */
static size_t first_significant(const char *name, size_t end)
{
    size_t i = 2;
    while (i + 1 < end && name[i] == '0')
        i++;
    return i;
}

/* The length of the address name `name` starts with: "0x", hex digits of
 * a value below 2^64, a section mark; 0 when it starts with none. */
static size_t addr_name_length(const char *name, size_t len)
{
    size_t end = hex_end(name, len);
    /* callgrind writes at most 16 digits: more is no offset of ours */
    if (end == 0 || end - first_significant(name, end) > 16)
        return 0;
    for (size_t k = 0; k < sizeof section_marks / sizeof *section_marks; k++) {
        size_t n = strlen(section_marks[k]);
        if (len - end >= n && memcmp(name + end, section_marks[k], n) == 0)
            return end + n;
    }
    return end;
}

/* Code of this object is code of a file: not callgrind's "???" (no
 * object), not a perf map ("perf-<pid>.map", or a map of --perf-map=FILE),
 * whose code keeps the names the map gives it. */
static bool file_object(const char *object, size_t len)
{
    if (len == 0 || (len == 3 && memcmp(object, "???", 3) == 0))
        return false;
    return !(len >= 4 && memcmp(object + len - 4, ".map", 4) == 0);
}

/* Whether the clone suffix is still found after the base name: not with
 * a quote in it (read as the suffix's start) or a bracket left open (the
 * suffix then read as inside it), as frame_base_length() reads names. */
static bool base_keeps_suffix(struct buf *out, const char *base, size_t base_len)
{
    size_t start = out->len;
    buf_append(out, base, base_len);
    buf_append(out, "'x", 2);
    bool keeps = frame_base_length(out->data + start, base_len + 2) == base_len;
    out->len = start;
    return keeps;
}

bool addr_name_by_object(struct buf *out, const char *name, size_t len, const char *object,
                         size_t object_len)
{
    size_t addr_len = addr_name_length(name, len);
    /* after the address nothing but a clone suffix ("'2", "'caller") */
    if (addr_len == 0 || frame_base_length(name, len) != addr_len ||
        !file_object(object, object_len))
        return false;
    size_t base_len;
    const char *base = object_base_name(object, object_len, &base_len);
    size_t start = out->len;
    bool rewrite = !base_keeps_suffix(out, base, base_len);
    buf_append(out, base, base_len);
    for (size_t i = start; rewrite && i < out->len; i++)
        if (out->data[i] && strchr("'()<>[]{}", out->data[i]))
            out->data[i] = '_';
    buf_append(out, "+0x", 3);
    size_t i, end = hex_end(name, len);
    for (i = first_significant(name, end); i < end; i++)
        buf_putc(out, "0123456789abcdef"[hex_value(name[i])]);
    buf_append(out, name + i, len - i); /* the section mark and the clone suffix */
    return true;
}

bool addr_name_unknown(const char *text, size_t len)
{
    size_t end = hex_end(text, len);
    return end > 0 && (end == len || text[end] == ' ' || text[end] == '\'');
}

bool addr_name_no_symbol(const char *name, size_t len)
{
    if (len >= 2 && name[0] == '0' && name[1] == 'x')
        return true;
    const char *plus = NULL;
    for (size_t i = 1; i < len; i++)
        if (name[i] == '+')
            plus = name + i;
    if (!plus)
        return false;
    size_t rest = len - (size_t)(plus + 1 - name);
    return rest > 0 && addr_name_length(plus + 1, rest) == rest;
}
