#!/bin/sh
# The cost of --cycle-estimation=yes (issue 25): the same patched callgrind
# without and with it, both with the runner's --cache-sim=yes, on the
# benchmark workloads (bench/workloads: calls_heavy, calls_shallow,
# loops_heavy) and GCC's cc1 compiling one file (bench/workloads/cc1.sh).
# Bounds: time at most 1.05x, peak memory at most 1.1x.
#
#   bench/cycles-bench.sh [PAIRS [WORKLOAD...]]   (default: all four)
#
# Runs the two alternately PAIRS times (default 5) per workload, pinned to
# one CPU when taskset is there, and prints per workload the median of the
# per-pair ratios (with / without) of CPU time (user + system) and wall
# time with their range, and of peak RSS; then the cost table's size in
# the tool and the time to generate it (when llvm-19 is installed).
# PREFIX and BUILD as for make.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
PREFIX=${PREFIX:-$ROOT/dist}
BUILD=${BUILD:-$ROOT/build}
PAIRS=${1:-5}
[ $# -gt 0 ] && shift
W=${BENCH_WORK:-$HERE/work}
VALGRIND=$PREFIX/bin/valgrind
[ -x "$VALGRIND" ] || { echo "cycles-bench: no valgrind in $PREFIX (run make)" >&2; exit 1; }
make -s -C "$HERE" WORK="$W" PREFIX="$PREFIX" "$W/calls_heavy" "$W/calls_shallow" "$W/loops_heavy" >&2
mkdir -p "$W/cycles"
cc1=$("$HERE/workloads/cc1.sh" "$BUILD/valgrind" "$W/cycles")
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c $(($(nproc) - 1))"

python3 - "$VALGRIND" "$PAIRS" "$W/cycles" "$PIN" "$@" <<PY
import statistics, subprocess, sys, time
vg, pairs, work, pin = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
workloads = [("calls_heavy", "$W/calls_heavy"), ("calls_shallow", "$W/calls_shallow"),
             ("loops_heavy", "$W/loops_heavy"), ("cc1", "$cc1")]
workloads = [w for w in workloads if not sys.argv[5:] or w[0] in sys.argv[5:]]

def run(cmd, opts):
    argv = ["/usr/bin/time", "-f", "%U %S %M", "-o", work + "/time"] + pin.split() + \
        [vg, "-q", "--tool=callgrind", "--cache-sim=yes",
         "--callgrind-out-file=%s/cg.out" % work] + opts + cmd.split()
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    u, s, m = open(work + "/time").read().split()[-3:]
    return wall, float(u) + float(s), int(m) / 1024.0

def ratios(off, on, i):
    r = [b[i] / a[i] for a, b in zip(off, on)]
    return "%.3f (%.3f-%.3f)" % (statistics.median(r), min(r), max(r))

print("pairs: %d, both with --cache-sim=yes" % pairs)
print("| workload | CPU s without | CPU ratio (range) | wall ratio (range) | peak RSS MB without | RSS ratio |")
print("|---|--:|--:|--:|--:|--:|")
for name, cmd in workloads:
    off, on = [], []
    for _ in range(pairs):
        off.append(run(cmd, []))
        on.append(run(cmd, ["--cycle-estimation=yes"]))
    print("| %s | %.2f | %s | %s | %.0f | %s |" % (
        name, statistics.median(x[1] for x in off), ratios(off, on, 1),
        ratios(off, on, 0), statistics.median(x[2] for x in off), ratios(off, on, 2)))
    sys.stdout.flush()
PY

table=$BUILD/valgrind/callgrind/cycletab_amd64.h
entries=$(grep -c 'CYC_KEY(' "$table")
obj=$(ls "$BUILD"/valgrind/callgrind/callgrind_amd64_linux-cycles.o 2>/dev/null || true)
echo
echo "cost table: $entries forms; $(stat -c %s "$table") bytes of source"
[ -z "$obj" ] || echo "cycles.o (decoder and table) in the tool: $(size "$obj" | awk 'NR == 2 { print $4 }') bytes"
if command -v llvm-mca-19 >/dev/null 2>&1; then
    start=$(date +%s)
    python3 "$BUILD/valgrind/callgrind/gen-cycle-table.py" -o "$W/cycles/table.h" 2>/dev/null
    echo "generating it (callgrind/gen-cycle-table.py): $(($(date +%s) - start)) s"
fi
