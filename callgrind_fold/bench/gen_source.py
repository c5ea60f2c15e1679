#!/usr/bin/env python3
"""Write a large, varied C file to stdout: work for cc1 to profile.
Deterministic; the size is set by the number of functions (argv[1])."""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
rnd = random.Random(42)
print("#include <stdio.h>\n#include <string.h>\n#include <math.h>\n#include <stdlib.h>")
print("struct rec { int a; double b; char name[16]; struct rec *next; };")
for i in range(n):
    kind = i % 6
    if kind == 0:
        print("static int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) "
              "{ s += (i * %d) ^ (s >> 3); if (s > %d) s -= x; } return s; }"
              % (i, rnd.randint(3, 99), rnd.randint(1000, 9999)))
    elif kind == 1:
        cases = " ".join("case %d: r += %d * x; break;" % (c, rnd.randint(1, 50))
                         for c in range(rnd.randint(4, 16)))
        print("static int f%d(int x) { int r = %d; switch (x & 15) { %s default: r--; } return r; }"
              % (i, rnd.randint(0, 9), cases))
    elif kind == 2:
        print("static double f%d(double x) { double y = x; for (int k = 0; k < %d; k++) "
              "y = y * 0.5 + sin(y) * %d.0 - sqrt(fabs(y) + 1.0); return y; }"
              % (i, rnd.randint(2, 20), rnd.randint(1, 9)))
    elif kind == 3:
        print("static void f%d(struct rec *r, int n) { for (int k = 0; k < n && r; k++, r = r->next) "
              "{ r->a += k * %d; r->b *= 1.%d; snprintf(r->name, sizeof r->name, \"%%d\", r->a); } }"
              % (i, rnd.randint(1, 9), rnd.randint(1, 9)))
    elif kind == 4:
        print("static int f%d(const char *s) { int h = %d; size_t n = strlen(s); "
              "for (size_t k = 0; k < n; k++) h = h * 31 + s[k]; return h %% %d; }"
              % (i, rnd.randint(1, 999), rnd.randint(7, 9973)))
    else:
        a, b = rnd.randrange(max(i, 1)), rnd.randrange(max(i, 1))
        fa = "f%d(x)" % a if a % 6 in (0, 1) else "x"
        fb = "f%d(x + 1)" % b if b % 6 in (0, 1) else "1"
        print("static int f%d(int x) { int t[8] = {0}; for (int k = 0; k < 8; k++) t[k] = x * k; "
              "return t[x & 7] + %s + %s; }" % (i, fa, fb))
calls = []
for i in range(n):
    kind = i % 6
    call = {0: "f%d(7)", 1: "f%d(3)", 2: "(int)f%d(1.5)", 3: "(f%d(0, 0), 0)",
            4: "f%d(\"abc\")", 5: "f%d(2)"}[kind] % i
    calls.append(call)
print("int main(void) { long s = 0;")
for c in calls:
    print("  s += %s;" % c)
print("  printf(\"%ld\\n\", s); return 0; }")
