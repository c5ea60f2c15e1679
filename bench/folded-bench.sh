#!/bin/sh
# The cost of --dump-folded=yes against the same patched callgrind without
# it (issue 15: at most 3% on a call-heavy program).
#
#   bench/folded-bench.sh [VALGRIND] [PAIRS] [ROUNDS]
#
# Runs bench/work/calls_shallow ROUNDS (default 1000000: tiny functions,
# almost every basic block a call or a return, a dozen frames deep) under
# callgrind without and with --dump-folded=yes, alternately, PAIRS times
# (default 11), pinned to one CPU when taskset is there (the two runs of
# a pair then see the same core), and prints the medians and the median
# of the per-pair ratios (with / without), of wall time and of CPU time
# (user + system), with their quartiles: on a shared machine single
# pairs spread by +-20%, so only a median over many pairs means much.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
VALGRIND=${1:-$ROOT/dist/bin/valgrind}
PAIRS=${2:-11}
ROUNDS=${3:-1000000}
W=${BENCH_WORK:-$HERE/work}

[ -x "$W/calls_shallow" ] || make -s -C "$HERE" WORK="$W" "$W/calls_shallow" >&2
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c $(($(nproc) - 1))"

python3 - "$VALGRIND" "$PAIRS" "$ROUNDS" "$W" "$PIN" <<'EOF'
import resource, statistics, subprocess, sys, time
vg, pairs, rounds, work, pin = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
base = pin.split() + [vg, "--tool=callgrind", "--callgrind-out-file=%s/out/fb.out" % work]
prog = [work + "/calls_shallow", rounds]
subprocess.run(["mkdir", "-p", work + "/out"], check=True)

def run(extra):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(base + extra + prog, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

folded = ["--dump-folded=yes", "--folded-out-file=%s/out/fb.folded" % work]
run([])  # warm-up
off, on = [], []
for _ in range(pairs):
    off.append(run([]))
    on.append(run(folded))
q = lambda xs: statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
for what, k in (("wall", 0), ("CPU", 1)):
    r = [b[k] / a[k] for a, b in zip(off, on)]
    lo, mid, hi = q(r)
    print("--dump-folded=yes / without (%s): medians %.3f s / %.3f s; pair ratio median "
          "%.3f (quartiles %.3f-%.3f)%s"
          % (what, statistics.median(b[k] for b in on), statistics.median(a[k] for a in off),
             statistics.median(r), lo, hi, "; target <= 1.03" if k == 0 else ""))
EOF
