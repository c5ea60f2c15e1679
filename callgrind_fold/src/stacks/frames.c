/* A function as one frame of a folded stack: clone suffixes folded, ";"
 * escaped, "[object]" appended (present.h, "frames.c"). */
#include "present.h"

#include <string.h>

size_t frame_base_length(const char *name, size_t len)
{
    /* Most names have no "'" at all: one memchr() instead of a loop that
     * follows the brackets byte by byte (a folded tree's reader makes a
     * frame of every "fn:" line). */
    if (!memchr(name, '\'', len))
        return len;
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (c == '(' || c == '<' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == '>' || c == ']' || c == '}') && depth > 0)
            depth--;
        else if (c == '\'' && depth == 0 && i > 0 && i + 1 < len)
            return i;
    }
    return len;
}

const char *object_base_name(const char *object, size_t len, size_t *base_len)
{
    const char *base = object;
    for (size_t i = 0; i < len; i++)
        if (object[i] == '/')
            base = object + i + 1;
    *base_len = len - (size_t)(base - object);
    if (*base_len == 0) { /* "/usr/lib/": no base name, the whole one */
        base = object;
        *base_len = len;
    }
    return base;
}

static void append_sanitized(struct buf *out, const char *s, size_t n)
{
    size_t start = out->len;
    buf_append(out, s, n);
    if (!memchr(s, ';', n)) /* the usual case, without a loop per byte */
        return;
    for (size_t i = start; i < out->len; i++)
        if (out->data[i] == ';')
            out->data[i] = ':';
}

void frame_append(struct buf *out, const char *name, size_t name_len,
                  const char *object, size_t object_len,
                  const struct frame_style *style)
{
    size_t n = style->keep_clones ? name_len : frame_base_length(name, name_len);
    append_sanitized(out, name, n);
    if (style->with_object && object_len > 0) {
        size_t base_len;
        const char *base = object_base_name(object, object_len, &base_len);
        buf_append(out, " [", 2);
        append_sanitized(out, base, base_len);
        buf_putc(out, ']');
    }
}
