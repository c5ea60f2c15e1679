#!/bin/sh
# The cost of the folded tree (--dump-folded=yes): the same patched
# callgrind without and with it, paired, on the rows of its targets
# (bench/results/2026-11-26-vm-tree-cost.md):
#
#   cc1          GCC's cc1 compiling one file (bench/workloads/cc1.sh),
#                default options: CPU <= 1.03x, peak memory <= 1.20x
#   cc1-runner   the same under the CodSpeed runner's command line (cache
#                simulation, system call times, cycle estimation: 14
#                events): CPU <= 1.02x, memory <= 1.20x, every event kept
#   cc1-runner-Ir  the same with --folded-event=Ir: memory <= 1.10x
#   shallow      bench/workloads/calls_shallow.c: CPU <= 1.02x
#   deep         bench/workloads/deep_recursion.c: CPU <= 1.05x
#   cc1-inline   the inlined frames (--read-inline-info=yes, as in
#                cc1-runner): the tree without them (--folded-inline=no)
#                against the tree with them: CPU <= 1.05x, memory <=
#                1.15x, the tree's file <= 2x.  Debian's cc1 comes without
#                debug info: only libc's code (libc6-dbg) has inlined frames
#   fold-inline  the same on a program with debug info that inlines
#                heavily: callgrind_fold (-O2 -g) drawing 20,000 lines of
#                folded stacks (workloads/gen_folded.py) as a flame graph
#
#   bench/tree-bench.sh [PAIRS] [ROW...]      (default: 7 pairs, every row)
#
# Each pair runs without and with the tree, in alternating order, pinned
# to one CPU when taskset is there (cc1-runner and cc1-runner-Ir share
# their runs without the tree).  Prints per row the medians, the median of
# the per-pair ratios (with / without) and their range, and says "too
# noisy" when a range holds both 1.0 and the target.  PREFIX and BUILD as
# for make.
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
mkdir -p "$W"
cc1=$("$HERE/workloads/cc1.sh" "$BUILD/valgrind" "$W")
make -s -C "$HERE" WORK="$W" PREFIX="$PREFIX" "$W/calls_shallow" "$W/deep_recursion" >&2
[ -s "$W/stacks.folded" ] || python3 "$HERE/workloads/gen_folded.py" 20000 > "$W/stacks.folded"
fold="$ROOT/callgrind_fold/callgrind_fold -f svg -o $W/stacks.svg $W/stacks.folded"
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c $(($(nproc) - 1))"

python3 - "$VALGRIND" "$PAIRS" "$W" "$PIN" "$cc1" "$fold" "$@" <<'PY'
import os, statistics, subprocess, sys, time
vg, pairs, work, pin, cc1, fold = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
wanted = sys.argv[7:]

runner = ("--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 "
          "--collect-systime=nsec --cycle-estimation=yes --read-inline-info=yes "
          "--compress-strings=no --combine-dumps=yes --dump-line=no").split()
tree = ["--dump-folded=yes", "--folded-out-file=%s/cg.tree" % work]
no_inline = tree + ["--folded-inline=no"]
# name, command, options of every run, the variants with the tree:
# (row name, options, CPU target, memory target[, tree file target])
rows = [
    ("cc1", cc1, [], [("cc1", tree, 1.03, 1.20)]),
    ("cc1-runner", cc1, runner,
     [("cc1-runner", tree, 1.02, 1.20),
      ("cc1-runner-Ir", tree + ["--folded-event=Ir"], None, 1.10)]),
    ("shallow", work + "/calls_shallow 1000000", [], [("shallow", tree, 1.02, None)]),
    ("deep", work + "/deep_recursion 2000", [], [("deep", tree, 1.05, None)]),
    ("cc1-inline", cc1, runner + no_inline,
     [("cc1-inline", ["--folded-inline=yes"], 1.05, 1.15, 2.0)]),
    ("fold-inline", fold, runner + no_inline,
     [("fold-inline", ["--folded-inline=yes"], 1.05, 1.15, 2.0)]),
]

def run(cmd, opts):
    argv = ["/usr/bin/time", "-f", "%U %S %M", "-o", work + "/time"] + pin.split() + \
        [vg, "-q", "--tool=callgrind", "--callgrind-out-file=%s/cg.out" % work] + opts + cmd.split()
    treefile = work + "/cg.tree"
    if os.path.exists(treefile): os.unlink(treefile)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    u, s, m = open(work + "/time").read().split()[-3:]
    size = os.path.getsize(treefile) / 1e6 if os.path.exists(treefile) else 0.0
    return float(u) + float(s), int(m) / 1024.0, size

def ratio(off, on, i, target):
    r = [b[i] / a[i] for a, b in zip(off, on)]
    text = "%.3f (%.3f-%.3f)" % (statistics.median(r), min(r), max(r))
    if target:
        med = statistics.median(r)
        if min(r) <= 1.0 and max(r) >= target:
            verdict = "too noisy to conclude"
        else:
            verdict = "met" if med <= target else "not met"
        text += " | %.2f, %s" % (target, verdict)
    else:
        text += " | -"
    return text

print("pairs: %d, valgrind: %s" % (pairs, vg))
print()
print("| row | CPU s without / with | CPU ratio (range) | target | peak MB without / with | memory ratio (range) | target | tree MB without / with | ratio | target |")
print("|---|--:|--:|--|--:|--:|--|--:|--:|--|")
for name, cmd, common, variants in rows:
    variants = [v for v in variants if not wanted or v[0] in wanted]
    if not variants:
        continue
    off, on = [], [[] for _ in variants]
    for p in range(pairs):
        order = [None] + list(range(len(variants)))
        if p % 2: order.reverse()
        for v in order:
            if v is None: off.append(run(cmd, common))
            else: on[v].append(run(cmd, common + variants[v][1]))
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    for v, runs in zip(variants, on):
        vname, _, cpu_t, mem_t = v[:4]
        size_t = v[4] if len(v) > 4 else None
        sizes = "- | - | -"
        if med(off, 2) > 0:
            sizes = "%.2f / %.2f | %s" % (med(off, 2), med(runs, 2), ratio(off, runs, 2, size_t))
        print("| %s | %.2f / %.2f | %s | %.0f / %.0f | %s | %s |" % (
            vname, med(off, 0), med(runs, 0), ratio(off, runs, 0, cpu_t),
            med(off, 1), med(runs, 1), ratio(off, runs, 1, mem_t), sizes))
    sys.stdout.flush()
PY
