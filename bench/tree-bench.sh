#!/bin/sh
# The cost of the folded tree (--dump-folded=yes) on a real program: the
# same patched callgrind without and with it, on GCC's cc1 compiling one
# file (bench/workloads/cc1.sh).  Targets: CPU at most 1.03x, peak
# memory at most 1.20x (bench/results/2026-11-26-vm-tree-cost.md).
#
#   bench/tree-bench.sh [PAIRS] [EXTRA_OPTIONS...]
#
# Runs the two alternately PAIRS times (default 7), pinned to one CPU when
# taskset is there, and prints the medians and the median of the per-pair
# ratios (with / without) of CPU time (user + system) and wall time, with
# their range, the peak RSS of each and the file sizes.  EXTRA_OPTIONS go
# to both runs (e.g. --cache-sim=yes).  PREFIX and BUILD as for make.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
PREFIX=${PREFIX:-$ROOT/dist}
BUILD=${BUILD:-$ROOT/build}
PAIRS=${1:-7}
[ $# -gt 0 ] && shift
W=${BENCH_WORK:-$HERE/work}/tree
VALGRIND=$PREFIX/bin/valgrind
[ -x "$VALGRIND" ] || { echo "tree-bench: no valgrind in $PREFIX (run make)" >&2; exit 1; }
cmd=$("$HERE/workloads/cc1.sh" "$BUILD/valgrind" "$W")
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c $(($(nproc) - 1))"

python3 - "$VALGRIND" "$PAIRS" "$W" "$PIN" "$cmd" "$@" <<'PY'
import os, statistics, subprocess, sys, time
vg, pairs, work, pin, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
extra = sys.argv[6:]

def run(opts):
    argv = ["/usr/bin/time", "-f", "%U %S %M", "-o", work + "/time"] + pin.split() + \
        [vg, "-q", "--tool=callgrind", "--callgrind-out-file=%s/cg.out" % work] + extra + opts + cmd.split()
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    u, s, m = open(work + "/time").read().split()[-3:]
    return wall, float(u) + float(s), int(m) / 1024.0

tree = ["--dump-folded=yes", "--folded-out-file=%s/cg.tree" % work]
off, on = [], []
for _ in range(pairs):
    off.append(run([]))
    on.append(run(tree))
def ratios(i, target=None):
    r = [b[i] / a[i] for a, b in zip(off, on)]
    text = "%.3f (%.3f-%.3f)" % (statistics.median(r), min(r), max(r))
    # a range holding both 1.0 and the target says nothing either way
    if target and min(r) <= 1.0 and max(r) >= target:
        text += " too noisy to conclude"
    return text
med = lambda xs, i: statistics.median(x[i] for x in xs)
out, tr = os.path.getsize(work + "/cg.out"), os.path.getsize(work + "/cg.tree")
print("workload: %s %s" % (cmd, " ".join(extra)))
print("pairs: %d" % pairs)
print("| | without tree | with tree | ratio (range) |")
print("|---|--:|--:|--:|")
print("| CPU s | %.2f | %.2f | %s |" % (med(off, 1), med(on, 1), ratios(1, 1.03)))
print("| wall s | %.2f | %.2f | %s |" % (med(off, 0), med(on, 0), ratios(0)))
print("| peak RSS MB | %.0f | %.0f | %s |" % (med(off, 2), med(on, 2), ratios(2, 1.20)))
print("| file MB | %.2f (callgrind.out) | %.2f (tree) | %.2f |" % (out / 1e6, tr / 1e6, tr / out))
PY
