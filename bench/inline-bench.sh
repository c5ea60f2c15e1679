#!/bin/sh
# callgrind_fold --inline against the same run without it (issue 8).
#
#   bench/inline-bench.sh [CALLGRIND_FOLD] [VALGRIND] [ROUNDS]
#
# Generates a C program (bench/work/inline/gen.c) with FUNCS functions,
# each inlining three always_inline helpers of straight-line code, so that
# the profile has about 100k distinct instruction addresses; compiles it
# with -O2 -g, profiles it once with callgrind --dump-instr=yes (cached),
# then times callgrind_fold without --inline, with it (cache of inflated
# debug files and unit indexes warm), with --inline-cache=no (cold) and
# with an empty cache directory (first run: cold, and the cache entries
# written) alternately, ROUNDS times each (default 15), and prints the
# median of the per-round ratios
# (with --inline / without; target: at most 3), of wall time and of CPU
# time (user + system).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
FOLD=${1:-$ROOT/callgrind_fold/callgrind_fold}
VALGRIND=${2:-$ROOT/dist/bin/valgrind}
ROUNDS=${3:-15}
FUNCS=${FUNCS:-1200}
CC=${CC:-gcc}
# LINK=-static leaves libc and ld.so (and their separate debug files, if
# installed) out of the profile: only the per-address cost is measured.
LINK=${LINK:-}
W=$HERE/work/inline$LINK
mkdir -p "$W"

if [ ! -s "$W/cg.out" ] || [ "$(cat "$W/funcs" 2>/dev/null)" != "$FUNCS" ]; then
    python3 - "$FUNCS" > "$W/gen.c" <<'EOF'
import sys
n = int(sys.argv[1])
print("static volatile unsigned long sink;")
for i in range(n):
    for h in range(3):
        # Straight-line code, different constants per helper: ~25 distinct
        # instructions each, no loop, so every address is a new cost line.
        body = "".join("    x = x * %du + %du; sink = x;\n" % (2 * (i + k + h) + 3, i * 7 + k)
                       for k in range(8))
        print("static inline __attribute__((always_inline)) unsigned long "
              "h%d_%d(unsigned long x)\n{\n%s    return x;\n}" % (i, h, body))
    print("__attribute__((noinline)) unsigned long f%d(unsigned long x)\n{\n"
          "    x = h%d_0(x);\n    if (x & 1) x = h%d_1(x);\n    else x = h%d_2(x);\n"
          "    return h%d_1(x) + h%d_2(x ^ 1);\n}" % (i, i, i, i, i, i))
print("int main(void)\n{\n    unsigned long x = 1;")
print("    for (int r = 0; r < 4; r++) {")
for i in range(n):
    print("        x = f%d(x);" % i)
print("    }\n    sink = x;\n    return 0;\n}")
EOF
    echo "compiling $FUNCS functions ..." >&2
    "$CC" -O2 -g $LINK -o "$W/gen" "$W/gen.c"
    echo "profiling ..." >&2
    rm -f "$W/cg.out"
    "$VALGRIND" --tool=callgrind --dump-instr=yes --callgrind-out-file="$W/cg.out" \
        "$W/gen" 2>"$W/valgrind.log"
    echo "$FUNCS" > "$W/funcs"
fi

# Distinct (object, address) pairs of cost lines, counted independently.
python3 - "$W/cg.out" <<'EOF' >&2
import re, sys
ids, ob, last, addrs, call, jump = {}, "", 0, set(), False, False
for line in open(sys.argv[1]):
    if line.startswith(("ob=", "cob=")):
        m = re.match(r"c?ob=(?:\((\d+)\))? ?(.*)", line.rstrip("\n"))
        if m.group(1) and m.group(2):
            ids[m.group(1)] = m.group(2)
        if line.startswith("ob="):
            ob = m.group(2) or ids[m.group(1)]
    elif line.startswith("fn="):
        last = 0
    elif line.startswith("calls="):
        call = True
    elif line.startswith(("jump=", "jcnd=")):
        jump = True
    elif line[:1].isdigit() or line[:1] in ("+", "-", "*"):
        t = line.split()[0]
        a = (last if t == "*" else last + int(t[1:], 0) if t[0] == "+"
             else last - int(t[1:], 0) if t[0] == "-" else int(t, 0))
        if not call and not jump:
            last = a
        call = jump = False
        addrs.add((ob, a))
print("profile: %d distinct addresses, %d bytes" % (len(addrs),
      len(open(sys.argv[1], "rb").read())))
EOF

# The runs alternately, ROUNDS times, timed with a monotonic clock (a
# run takes tens of milliseconds: /usr/bin/time's 10 ms steps are too
# coarse) and by the CPU time the kernel counted (user + system). With
# --inline twice: "warm", with the inflated copies of compressed debug
# files and the unit indexes already in a cache directory (every run
# after the first), and "cold", with --inline-cache=no (inflating and
# indexing every time).
python3 - "$ROUNDS" "$W" "$FOLD" <<'EOF'
import resource, shutil, statistics, subprocess, sys, time
rounds, work, fold = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cache = ["--inline-cache=" + work + "/cache"]
fresh = work + "/fresh-cache"

def run(args, name):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open("%s/%s.folded" % (work, name), "wb") as out, \
         open("%s/%s.err" % (work, name), "wb") as err:
        subprocess.run(args + [work + "/cg.out"], stdout=out, stderr=err, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

run([fold, "--inline"] + cache, "inline")  # fills the cache
plain, warm, cold, first = [], [], [], []
for _ in range(rounds):
    plain.append(run([fold], "plain"))
    warm.append(run([fold, "--inline"] + cache, "inline"))
    cold.append(run([fold, "--inline", "--inline-cache=no"], "inline-cold"))
    shutil.rmtree(fresh, ignore_errors=True)
    first.append(run([fold, "--inline", "--inline-cache=" + fresh], "inline-first"))
med = statistics.median
print("median time: without --inline %.4f s, with --inline %.4f s warm, %.4f s cold, "
      "%.4f s first run (%d rounds)"
      % (med(p[0] for p in plain), med(i[0] for i in warm), med(i[0] for i in cold),
         med(i[0] for i in first), rounds))
for label, runs in (("warm", warm), ("cold", cold), ("first-run", first)):
    for what, k in (("wall", 0), ("CPU", 1)):
        r = [i[k] / max(p[k], 1e-6) for p, i in zip(plain, runs)]
        print("ratio with/without --inline, %s cache (%s): median %.2f (min %.2f, max %.2f)%s"
              % (label, what, med(r), min(r), max(r), "; target <= 3" if k == 0 else ""))
EOF
for other in inline-cold inline-first; do
    cmp -s "$W/inline.folded" "$W/$other.folded" ||
        { echo "inline-bench: $other and warm runs differ" >&2; exit 1; }
done
inlined=$(grep -c '\[inlined\]' "$W/inline.folded" || true)
sum_plain=$(awk '{s+=$NF} END {printf "%d", s}' "$W/plain.folded")
sum_inline=$(awk '{s+=$NF} END {printf "%d", s}' "$W/inline.folded")
printf 'stacks: %s without --inline, %s with (%s with inlined frames); sums %s / %s\n' \
    "$(wc -l < "$W/plain.folded")" "$(wc -l < "$W/inline.folded")" "$inlined" \
    "$sum_plain" "$sum_inline"
