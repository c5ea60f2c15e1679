#!/bin/sh
# Run one callgrind regtest many times in a row from a copy of the build
# tree under a long path, optionally with make -j2 builds of callgrind_fold
# looping beside it, to tell a flaky test from a broken one.  Stops at the
# first failure and keeps its outputs.
#
#   scripts/regtest-repeat.sh TEST [RUNS [LOAD_BUILDS]]
#        (defaults: 200 runs, 2 builds beside it)
#
# TEST is a name in callgrind/tests (harness-inherit-measuring).  Prints
# "TEST: N runs, M failed"; a failure's diffs are printed and its files
# kept in the copy's callgrind/tests.  TREE as for make (build/valgrind).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
TREE=${TREE:-$top/build/valgrind}
test=${1:?usage: regtest-repeat.sh TEST [RUNS [LOAD_BUILDS]]}
runs=${2:-200}
builds=${3:-2}
[ -f "$TREE/callgrind/tests/$test.vgtest" ] || { echo "regtest-repeat: no $TREE/callgrind/tests/$test.vgtest" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/regtest-repeat.XXXXXX")
long=$work/a-deliberately-long-checkout-path/$(printf 'level-%s-of-a-deep-tree/' 1 2 3 4 5 6 7 8 9 10)build
mkdir -p "$long"
cp -a "$TREE" "$long/valgrind" || exit 1
. "$top/scripts/lib.sh"
clean_regtest_outputs "$long/valgrind/callgrind/tests"
echo "regtest-repeat: tree copied to $long/valgrind (${#long} characters)"

i=0
while [ $i -lt "$builds" ]; do
    i=$((i + 1))
    cp -r "$top/callgrind_fold" "$work/load$i"
    (while [ ! -e "$work/stop" ]; do
         make -s -C "$work/load$i" clean >/dev/null 2>&1
         make -s -j2 -C "$work/load$i" >/dev/null 2>&1
     done) &
done
stop_builds() { touch "$work/stop"; wait; }
trap 'stop_builds; exit 130' INT TERM

failed=0
n=0
cd "$long/valgrind" || exit 1
while [ $n -lt "$runs" ]; do
    n=$((n + 1))
    if ! perl tests/vg_regtest "callgrind/tests/$test.vgtest" > "$work/last.out" 2>&1 \
         || ! grep -q ', 0 post failures ==' "$work/last.out" \
         || grep -q '[1-9][0-9]* std\(out\|err\)B\? failure' "$work/last.out"; then
        failed=1
        tail -n 5 "$work/last.out"
        for d in callgrind/tests/"$test".*diff*; do
            [ -f "$d" ] && { echo "== $d"; cat "$d"; }
        done
        echo "regtest-repeat: run $n failed; its files are in $long/valgrind/callgrind/tests"
        break
    fi
done
stop_builds
echo "$test: $n runs, $failed failed"
cd / && [ $failed -eq 0 ] && rm -rf "$work"
exit $failed
