#!/bin/sh
# The cost of naming JIT code from the perf map (--perf-map, default yes):
# the same patched callgrind with --perf-map=yes and --perf-map=no on a
# JavaScript workload, `node --perf-basic-prof --predictable
# bench/workloads/jswork.js`.  V8 writes /tmp/perf-<pid>.map (about 4000
# entries) while it runs; with yes callgrind reads it as JIT code first
# runs and names that code by it, with no every block of JIT code is a
# function named by its address.  --predictable (CodSpeed's runner passes
# it too) makes V8's work the same in every run: without it the
# instructions counted vary by several percent.  The target: within 3% of
# the CPU time without the map.
#
#   bench/perfmap-bench.sh [ROUNDS] [EXTRA_OPTIONS...]
#
# Runs the two alternately ROUNDS times (default 5; the order swaps every
# round), pinned to one CPU when taskset is there, and prints the medians
# and the median of the per-round ratios (yes / no) of CPU time (user +
# system, /usr/bin/time) and wall time, with their range, the peak RSS,
# the number of lines of the perf map, how callgrind named the JIT code
# and the instructions counted.  EXTRA_OPTIONS go to both runs (e.g.
# --dump-folded=yes, or CodSpeed's --instr-atstart=no ...).  Environment:
# PREFIX, BENCH_WORK, JSWORK_SCALE (default 2: about 15 s per run here).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
PREFIX=${PREFIX:-$ROOT/dist}
ROUNDS=${1:-5}
[ $# -gt 0 ] && shift
W=${BENCH_WORK:-$HERE/work}/perfmap
SCALE=${JSWORK_SCALE:-2}
VALGRIND=$PREFIX/bin/valgrind
[ -x "$VALGRIND" ] || { echo "perfmap-bench: no valgrind in $PREFIX (run make)" >&2; exit 1; }
command -v node > /dev/null 2>&1 || { echo "perfmap-bench: node is not installed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "perfmap-bench: /usr/bin/time is not installed (apt-get install time)" >&2; exit 1; }
mkdir -p "$W"
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c $(($(nproc) - 1))"

python3 - "$VALGRIND" "$ROUNDS" "$W" "$PIN" "$HERE/workloads/jswork.js" "$SCALE" "$@" <<'PY'
import glob, os, re, statistics, subprocess, sys, time
vg, rounds, work, pin, script, scale = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
extra = sys.argv[7:]
cmd = ["node", "--perf-basic-prof", "--predictable", script, scale]
info = {}

def run(mode):
    for f in glob.glob(work + "/cg.*.out") + glob.glob(work + "/isolate-*-v8.log"):
        os.unlink(f)
    argv = ["/usr/bin/time", "-f", "%U %S %M", "-o", work + "/time"] + pin.split() + \
        [vg, "-q", "--tool=callgrind", "--compress-strings=no", "--callgrind-out-file=%s/cg.%%p.out" % work,
         "--perf-map=" + mode] + extra + cmd
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=work)
    wall = time.perf_counter() - start
    u, s, m = open(work + "/time").read().split()[-3:]
    outs = glob.glob(work + "/cg.*.out")
    pid = re.search(r"cg\.(\d+)\.out$", outs[0]).group(1) if outs else None
    pmap = "/tmp/perf-%s.map" % pid
    if mode not in info and outs:
        # how the JIT code was named, the size of the map (first run of each mode)
        fns, ob = set(), None
        for line in open(outs[0], errors="replace"):
            if line.startswith("ob="):
                ob = line[3:].strip()
            elif line.startswith("fn="):
                fns.add((ob, re.sub(r"'\d+$", "", line[3:].strip())))
        lines = sum(1 for _ in open(pmap, errors="replace")) if os.path.exists(pmap) else 0
        info[mode] = (lines, sum(1 for o, _ in fns if o == pmap), sum(1 for o, f in fns if o == "???" and f.startswith("0x")))
    ir = 0
    for line in open(outs[0], errors="replace") if outs else ():
        if line.startswith("totals:"):
            ir = int(line.split()[1])
    if pid and os.path.exists(pmap):
        os.unlink(pmap)  # V8 writes one per run
    return wall, float(u) + float(s), int(m) / 1024.0, ir

yes, no = [], []
for r in range(rounds):
    for mode in (("yes", "no") if r % 2 == 0 else ("no", "yes")):
        res = run(mode)
        (yes if mode == "yes" else no).append(res)
        print("round %d --perf-map=%s: CPU %.2f s, wall %.2f s" % (r + 1, mode, res[1], res[0]), file=sys.stderr)

def ratios(i):
    r = [b[i] / a[i] for a, b in zip(no, yes)]
    return "%.3f (%.3f-%.3f)" % (statistics.median(r), min(r), max(r))
med = lambda xs, i: statistics.median(x[i] for x in xs)
print("workload: %s %s" % (" ".join(cmd), " ".join(extra)))
print("rounds: %d; perf map: %d lines" % (rounds, info.get("yes", (0,))[0]))
print("| | --perf-map=no | --perf-map=yes | ratio yes/no (range) |")
print("|---|--:|--:|--:|")
print("| CPU s | %.2f | %.2f | %s |" % (med(no, 1), med(yes, 1), ratios(1)))
print("| wall s | %.2f | %.2f | %s |" % (med(no, 0), med(yes, 0), ratios(0)))
print("| peak RSS MB | %.0f | %.0f | %s |" % (med(no, 2), med(yes, 2), ratios(2)))
if "yes" in info and "no" in info:
    print("| functions named from the map | %d | %d | |" % (info["no"][1], info["yes"][1]))
    print("| functions named 0x... (object ???) | %d | %d | |" % (info["no"][2], info["yes"][2]))
print("| Ir | %d | %d | %s |" % (med(no, 3), med(yes, 3), ratios(3)))
PY
