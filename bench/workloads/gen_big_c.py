"""Writes a large, self-contained C file to stdout, for profiling the C
compiler (cc1) in bench/fold.sh: many functions of varied shapes (loops,
switches, structs, recursion, floating point, string handling) so that
many different parts of the compiler run.
Usage: python3 gen_big_c.py [NFUNCS]   (default 600)"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 600
out = sys.stdout.write
out("typedef unsigned long size_t;\nint strncmp(const char *, const char *, size_t);\n\n")
out("struct rec { int a; long b; double c; char name[16]; struct rec *next; };\n")
out("static volatile long sink;\n")
out("typedef int v4si __attribute__((vector_size(16)));\n")
out("typedef __builtin_va_list va_list;\n")
out("struct bits { unsigned a : 3, b : 5, c : 11; signed d : 7; };\n")
out("union pun { double d; unsigned long u; unsigned char c[8]; };\n\n")
shapes = []
for i in range(n):
    k = i % 12
    if k == 0:
        out(f"""long f{i}(const int *v, int n)
{{
    long s = {i};
    for (int j = 0; j < n; j++) {{
        if (v[j] % {i % 7 + 2} == 0) s += v[j] * {i % 13 + 1};
        else if (v[j] > {i}) s -= v[j] >> 1;
        else s ^= (long)v[j] << (j & 7);
    }}
    return s;
}}
""")
    elif k == 1:
        cases = "".join(f"    case {c}: r = x * {c + i % 5} + {c * 3}; break;\n" for c in range(12))
        out(f"""long f{i}(int x)
{{
    long r = 0;
    switch ((x + {i}) % 12) {{
{cases}    default: r = -1;
    }}
    return r + (x > 0 ? f{i - 1}(&x, 1) : 0);
}}
""")
    elif k == 2:
        out(f"""double f{i}(const double *a, const double *b, int n)
{{
    double acc = {i}.0;
    for (int j = 0; j < n; j++)
        acc += a[j] * b[j] / (1.0 + (j % {i % 5 + 2}));
    for (int j = n - 1; j > 0; j--)
        acc = acc * 0.5 + a[j - 1] - b[j];
    return acc;
}}
""")
    elif k == 3:
        out(f"""int f{i}(struct rec *r, const char *key)
{{
    int count = 0;
    for (; r; r = r->next) {{
        if (strncmp(r->name, key, sizeof r->name) == 0) {{
            r->a += {i};
            r->b = r->b * 31 + r->a;
            count++;
        }} else if (r->c > {i % 100}.5) {{
            r->c *= 0.{i % 9 + 1};
        }}
    }}
    return count;
}}
""")
    elif k == 4:
        out(f"""unsigned long f{i}(unsigned long n)
{{
    if (n < 2)
        return n + {i};
    return f{i}(n - 1) * {i % 11 + 3} + f{i}(n / 2) - (n & {i % 31});
}}
""")
    elif k == 6:
        out(f"""long f{i}(int n, ...)
{{
    va_list ap;
    long s = 0;
    __builtin_va_start(ap, n);
    for (int j = 0; j < n; j++)
        s += __builtin_va_arg(ap, int) * {i % 9 + 1};
    __builtin_va_end(ap);
    return s;
}}
""")
    elif k == 7:
        out(f"""v4si f{i}(v4si a, v4si b, int n)
{{
    v4si acc = {{ {i}, 1, 2, 3 }};
    for (int j = 0; j < n; j++) {{
        acc += a * b;
        a = __builtin_shuffle(a, (v4si){{ 1, 2, 3, 0 }});
        b ^= acc >> 2;
    }}
    return acc;
}}
""")
    elif k == 8:
        out(f"""unsigned f{i}(struct bits *b, union pun *p, int n)
{{
    unsigned s = 0;
    for (int j = 0; j < n; j++) {{
        b[j].a += j;
        b[j].b ^= b[j].a;
        b[j].c = b[j].c * {i % 7 + 3} + b[j].d;
        p[j].d = p[j].d * 1.5 + b[j].c;
        s += p[j].c[j & 7] + (unsigned)(p[j].u >> {i % 40});
    }}
    return s;
}}
""")
    elif k == 9:
        out(f"""long f{i}(int n)
{{
    static void *labels[] = {{ &&l0, &&l1, &&l2, &&l3 }};
    long s = {i}, vla[n + 1];
    int j = 0;
    for (int m = 0; m <= n; m++) vla[m] = m * {i % 17};
    goto *labels[0];
l0: s += vla[j]; if (++j > n) return s; goto *labels[j & 3];
l1: s ^= vla[j] << 1; if (++j > n) return s; goto *labels[(j + 1) & 3];
l2: s -= vla[j] / 3; if (++j > n) return s; goto *labels[(j * 3) & 3];
l3: s *= 3; if (++j > n) return s; goto l0;
}}
""")
    elif k == 10:
        out(f"""int f{i}(long a, long b, __int128 *wide, long double *ld, _Complex double *z)
{{
    long r;
    int overflow = __builtin_mul_overflow(a, b, &r);
    overflow |= __builtin_add_overflow(r, {i}L, &r);
    *wide = (__int128)a * b + r;
    *ld = (long double)a / (b ? b : 1) + *ld * 0.25L;
    *z = *z * *z + (_Complex double)(r % {i % 50 + 2});
    __atomic_add_fetch(&sink, r, __ATOMIC_SEQ_CST);
    return overflow + __builtin_popcountl((unsigned long)r) + __builtin_clzl((unsigned long)r | 1);
}}
""")
    elif k == 11:
        out(f"""#define KIND{i}(x) _Generic((x), int: 1, long: 2, double: 3, default: 4)
static inline int g{i}(int x) {{ return x * {i % 5 + 2}; }}
int f{i}(const char *s, int n)
{{
    int t = KIND{i}(n) + KIND{i}(1.0) + KIND{i}(s);
    for (int j = 0; j < n && s[j]; j++) {{
        unsigned char c = (unsigned char)s[j];
        t += c < 128 ? g{i}(c) : -(int)c;
        __asm__ volatile ("" : "+r"(t));
    }}
    return t;
}}
""")
    else:
        out(f"""void f{i}(char *dst, const char *src, size_t n)
{{
    size_t j = 0, k = 0;
    while (j < n && src[j]) {{
        char c = src[j++];
        if (c >= 'a' && c <= 'z') dst[k++] = c - 32;
        else if (c == ' ') {{ dst[k++] = '_'; dst[k++] = '{chr(97 + i % 26)}'; }}
        else dst[k++] = c;
    }}
    dst[k] = 0;
    sink += (long)k * {i};
}}
""")
