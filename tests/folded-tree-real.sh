#!/bin/sh
# The folded tree on a real program (issue 15): GCC's cc1 compiling one
# Valgrind source file (bench/workloads/cc1.sh), 2 G instructions, ~0.9 M
# distinct call paths.
#  - the tree is at most 5 times the size of callgrind.out;
#  - every part, thread and event sums to callgrind.out's totals:, and the
#    inclusive cost of each non-recursive function equals
#    callgrind_annotate's, for every event (tests/tree-inclusive.py), with
#    branch simulation and system call times;
#  - callgrind_fold's folded text of the tree sums to the totals too.
. "$(dirname "$0")/lib.sh"
# cc1.sh exits 3 when this machine has no gcc cc1; else it needs $TREE
cmd=$("$top/bench/workloads/cc1.sh" "$TREE" "$scratch" 2>"$scratch/err")
case $? in
    0) ;;
    3) echo "SKIP: cc1 ($(cat "$scratch/err"))"; exit 0 ;;
    *) fail "cc1: preparing the workload in $TREE"; cat "$scratch/err"; finish ;;
esac
"$PREFIX/bin/valgrind" -q --tool=callgrind --branch-sim=yes --collect-systime=nsec \
    --dump-folded=yes --callgrind-out-file="$scratch/cg.out" \
    --folded-out-file="$scratch/cg.tree" $cmd 2> "$scratch/vg.err" || {
    fail "cc1 under callgrind --dump-folded=yes"; cat "$scratch/vg.err"; finish; }
out=$(stat -c %s "$scratch/cg.out") tree=$(stat -c %s "$scratch/cg.tree")
echo "callgrind.out $out bytes, tree $tree bytes, $(grep -c '^[0-9]' "$scratch/cg.tree") paths"
check "cc1: the tree is at most 5x the size of callgrind.out" [ "$tree" -le $((5 * out)) ]
if python3 "$top/tests/tree-inclusive.py" "$PREFIX/bin/callgrind_annotate" \
        "$scratch/cg.tree" "$scratch/cg.out"; then
    pass "cc1: sums and inclusive costs of every event equal callgrind.out's"
else
    fail "cc1: sums and inclusive costs of every event equal callgrind.out's"
fi
for ev in Ir Bcm sysTime; do
    want=$(python3 - "$scratch/cg.out" "$ev" <<'PY'
import sys
ev = None
for line in open(sys.argv[1]):
    if line.startswith("events:"):
        ev = line.split()[1:]
    if line.startswith("totals:"):
        t = line.split()[1:]
        i = ev.index(sys.argv[2])
        print(t[i] if i < len(t) else 0)
PY
)
    got=$("$PREFIX/bin/callgrind_fold" --event=$ev "$scratch/cg.tree" | awk '{ s += $NF } END { printf "%d\n", s }')
    check "cc1: callgrind_fold --event=$ev of the tree sums to the totals ($got, $want)" [ "$got" = "$want" ]
done
finish
