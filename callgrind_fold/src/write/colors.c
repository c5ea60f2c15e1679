/* Fill colours of the pictures, each a function of text or of a ratio
 * (colors.h). */
#include "colors.h"
#include "util/util.h"

#include <string.h>

static uint32_t fnv1a(const char *s, size_t n, uint32_t seed)
{
    uint32_t h = 2166136261u ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    /* final avalanche, so that similar names get different colours */
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

/* Uniform in [0, 1) from a hash. */
static double unit(uint32_t h)
{
    return (double)(h & 0xFFFFFF) / (double)0x1000000;
}

struct rgb color_by_name(const char *name, size_t len)
{
    uint32_t h = fnv1a(name, len, 0);
    double v1 = unit(h), v2 = unit(h >> 8 ^ h * 31u), v3 = unit(h >> 16 ^ h * 131u);
    return (struct rgb){205 + (unsigned)(50 * v3), (unsigned)(230 * v1),
                        (unsigned)(55 * v2)};
}

static int contains(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, word, k) == 0)
            return 1;
    return 0;
}

enum object_class object_classify(const char *obj, size_t n)
{
    /* base name only */
    for (size_t i = n; i > 0; i--)
        if (obj[i - 1] == '/') {
            obj += i;
            n -= i;
            break;
        }
    if (n == 0 || (n >= 3 && obj[0] == '?' ))
        return OBJ_UNKNOWN;
    static const char *const runtime[] = {"ld-linux", "ld.so", "ld64.so", "vgpreload",
                                          "valgrind", "linux-vdso", "linux-gate", NULL};
    static const char *const system[] = {"libc.", "libc-", "libm.", "libm-", "libpthread",
                                         "libdl.", "libdl-", "librt.", "librt-",
                                         "libstdc++", "libgcc_s", "libc++", "libresolv",
                                         NULL};
    for (const char *const *p = runtime; *p; p++)
        if (starts_with(obj, n, *p))
            return OBJ_RUNTIME;
    for (const char *const *p = system; *p; p++)
        if (starts_with(obj, n, *p))
            return OBJ_SYSTEM;
    if (contains(obj, n, ".so"))
        return OBJ_LIBRARY;
    return OBJ_PROGRAM;
}

struct rgb color_by_object(const char *obj, size_t n)
{
    double v = unit(fnv1a(obj, n, 7));
    switch (object_classify(obj, n)) {
    case OBJ_PROGRAM: /* warm: orange to red */
        return (struct rgb){230 + (unsigned)(25 * v), 90 + (unsigned)(90 * v), 40};
    case OBJ_SYSTEM: /* blue */
        return (struct rgb){70 + (unsigned)(40 * v), 130 + (unsigned)(50 * v), 230};
    case OBJ_RUNTIME: /* purple */
        return (struct rgb){170 + (unsigned)(40 * v), 110, 220};
    case OBJ_LIBRARY: /* green */
        return (struct rgb){80 + (unsigned)(60 * v), 190 + (unsigned)(40 * v), 90};
    case OBJ_UNKNOWN:
    default:
        return (struct rgb){175 + (unsigned)(20 * v), 175 + (unsigned)(20 * v),
                            175 + (unsigned)(20 * v)};
    }
}

int frame_object(const char *frame, size_t len, const char **obj, size_t *obj_len)
{
    if (len < 4 || frame[len - 1] != ']')
        return 0;
    for (size_t i = len - 1; i-- > 1;) {
        if (frame[i] == '[' && frame[i - 1] == ' ') {
            *obj = frame + i + 1;
            *obj_len = len - 2 - i;
            return 1;
        }
        if (frame[i] == ']')
            return 0;
    }
    return 0;
}

/* Square root of x in [0, 1], without libm. */
static double root(double x)
{
    if (x <= 0)
        return 0;
    double r = x < 0.25 ? 0.5 : x;
    for (int i = 0; i < 30; i++)
        r = 0.5 * (r + x / r);
    return r;
}

struct rgb color_diff(uint64_t before, uint64_t after)
{
    if (before == after)
        return (struct rgb){245, 245, 245};
    uint64_t hi = before > after ? before : after;
    uint64_t lo = before > after ? after : before;
    double rel = (double)(hi - lo) / (double)hi; /* 0 < rel <= 1 */
    double strength = root(rel);                 /* small changes stay visible */
    unsigned fade = 235 - (unsigned)(205 * strength);
    if (after > before)
        return (struct rgb){255, fade, fade};
    return (struct rgb){fade, fade, 255};
}

struct rgb color_heat(double f)
{
    if (!(f > 0))
        f = 0;
    if (f > 1)
        f = 1;
    f = root(f); /* spread the small fractions, which are most nodes */
    /* blue, cyan, green, yellow, orange, red */
    static const struct rgb stop[] = {{40, 80, 200},  {30, 170, 200}, {40, 170, 60},
                                      {200, 190, 30}, {235, 120, 20}, {215, 30, 30}};
    size_t nstops = sizeof stop / sizeof stop[0];
    double pos = f * (double)(nstops - 1);
    size_t i = (size_t)pos;
    if (i >= nstops - 1)
        return stop[nstops - 1];
    double t = pos - (double)i;
    const struct rgb *a = &stop[i], *b = &stop[i + 1];
    return (struct rgb){(unsigned)(a->r + t * ((double)b->r - a->r) + 0.5),
                        (unsigned)(a->g + t * ((double)b->g - a->g) + 0.5),
                        (unsigned)(a->b + t * ((double)b->b - a->b) + 0.5)};
}
