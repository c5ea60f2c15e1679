#!/bin/sh
# Speed of callgrind_fold against callgrind_annotate --inclusive=yes on the
# same callgrind.out of at least 20 MB, made by profiling cc1 (the C
# compiler proper) with --dump-instr=yes --collect-jumps=yes while it
# compiles a large generated C file (or BENCH_SOURCE, if set).
# Usage: bench/run_bench.sh CALLGRIND_FOLD VALGRIND CALLGRIND_ANNOTATE [WORKDIR]
# Prints PASS:/FAIL: bench/50x-faster-than-callgrind_annotate and
# bench/pprof-within-2x-folded (-f pprof at most twice folded output's time).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fold=$1 valgrind=$2 annotate=$3 work=${4:-$here/work}
mkdir -p "$work"
out=$work/cc1.callgrind.out
if [ ! -s "$out" ]; then
    src=${BENCH_SOURCE:-}
    if [ -z "$src" ]; then
        src=$work/generated.c
        python3 "$here/gen_source.py" "${BENCH_FUNCTIONS:-3000}" > "$src"
    fi
    gcc -E "$src" -o "$work/source.i"
    cc1=$(gcc -print-prog-name=cc1)
    echo "profiling cc1 on $src (takes a few minutes)..."
    "$valgrind" --tool=callgrind --dump-instr=yes --collect-jumps=yes \
        --callgrind-out-file="$out" "$cc1" -quiet -O2 -g "$work/source.i" \
        -o "$work/out.s" 2> "$work/valgrind.log"
fi
size=$(wc -c < "$out")
echo "profile: $out ($size bytes)"
[ "$size" -ge 20000000 ] || echo "warning: profile is smaller than 20 MB; set BENCH_FUNCTIONS or BENCH_SOURCE"
# CPU time (user + system) of each command: unlike wall time it does not
# depend on what else the machine is doing. Both are printed.
python3 - "$fold" "$annotate" "$out" "$work" <<'PY'
import os, resource, subprocess, sys, time
fold, annotate, out, work = sys.argv[1:]
def measure(cmd, dest):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.time()
    with open(dest, "wb") as f:
        subprocess.run(cmd, stdout=f, stderr=subprocess.DEVNULL, check=True)
    wall = time.time() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall
fc, fw = measure([fold, out], os.path.join(work, "out.folded"))
ac, aw = measure([annotate, "--inclusive=yes", out], os.path.join(work, "annotate.txt"))
print("callgrind_fold:                     cpu %.3f s, wall %.3f s" % (fc, fw))
print("callgrind_annotate --inclusive=yes: cpu %.3f s, wall %.3f s" % (ac, aw))
ratio = ac / max(fc, 1e-3)
print("speedup (cpu time): %.1fx" % ratio)
print("%s: bench/50x-faster-than-callgrind_annotate" % ("PASS" if ratio >= 50 else "FAIL"))
# -f pprof (every event, gzipped profile.proto) within twice the time of
# folded output on the same profile.
pc, pw = measure([fold, "-f", "pprof", "-o", os.path.join(work, "out.pb.gz"), out],
                 os.devnull)
print("callgrind_fold -f pprof:            cpu %.3f s, wall %.3f s (%.2fx folded)"
      % (pc, pw, pc / max(fc, 1e-3)))
pprof_ok = pc <= 2 * fc
print("%s: bench/pprof-within-2x-folded" % ("PASS" if pprof_ok else "FAIL"))
sys.exit(0 if ratio >= 50 and pprof_ok else 1)
PY
