#!/bin/sh
# Coverage of --cycle-estimation's table on real programs (issue 25): at
# most 0.1% of executed instructions may fall back to the flat cycle, on
# GCC's cc1 compiling a file (bench/workloads/cc1.sh), CPython 3.13
# (scripts/cpython.sh) running json, and node running a JIT-heavy
# benchmark (bench/workloads/jswork.js).  Each runs with the runner's
# --cache-sim=yes and -v, whose report gives the counts and the most
# frequent forms without costs; each profile's Ct and Cl totals must be
# there, with Ct (throughput) below Cl (latency).
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind

# coverage NAME COMMAND...
coverage() {
    prog=$1; shift
    # in $scratch: node leaves its V8 logs (isolate-*.log) in the cwd
    if ! (cd "$scratch" && "$vg" -v --tool=callgrind --cycle-estimation=yes --cache-sim=yes \
            --log-file="$scratch/$prog.log" --callgrind-out-file="$scratch/$prog.out" \
            "$@") > "$scratch/$prog.stdout" 2>&1; then
        tail -n 20 "$scratch/$prog.log"; fail "cycle-coverage: $prog runs under callgrind"; return
    fi
    cycle_coverage_checks "cycle-coverage: $prog" "$scratch/$prog.log" "$scratch/$prog.out"
}

# cc1.sh exits 3 when this machine has no gcc cc1; else it needs $TREE
cmd=$("$top/bench/workloads/cc1.sh" "$TREE" "$scratch" 2>"$scratch/err")
case $? in
    0) coverage cc1 $cmd ;;
    3) echo "SKIP: cycle-coverage: cc1 ($(cat "$scratch/err"))" ;;
    *) cat "$scratch/err"; fail "cycle-coverage: cc1: preparing the workload in $TREE" ;;
esac

# 3.13 only: which instruction forms run depends on the compiler that built
# the interpreter more than on its version, and a run takes about 20 s.
if py=$(BUILD=$BUILD sh "$top/scripts/cpython.sh" 3.13 2> "$scratch/cpython.err"); then
    coverage cpython "$py" -c '
import json
data = [{"id": i, "name": "row%d" % i, "tags": ["a", "b"], "score": i * 0.5} for i in range(20000)]
text = json.dumps(data)
assert json.loads(text) == data'
else
    echo "SKIP: cycle-coverage: CPython 3.13 ($(tail -n 1 "$scratch/cpython.err"))"
fi

if command -v node >/dev/null 2>&1; then
    coverage node "$(command -v node)" --perf-basic-prof "$top/bench/workloads/jswork.js" 1
else
    echo "SKIP: cycle-coverage: node (node is not installed)"
fi
finish
