#!/bin/sh
# `make demo` (scripts/demo.sh, with the build already installed): its
# outputs exist, folded files sum to their callgrind.out's totals, and the
# --inline demo shows the optimised example's inlined helpers as frames,
# the thread-pool demo's report a row per benchmark.
. "$(dirname "$0")/lib.sh"
out=$top/demo
# The demo writes a flame graph of each run and the inflated debug files
# into the user's cache: here the test's own.
demo() { XDG_CACHE_HOME=$scratch/cache sh "$top/scripts/demo.sh" "$PREFIX" > "$scratch/demo.log" 2>&1; }
check "demo runs" demo || cat "$scratch/demo.log"

total() { # the "totals:"/"summary:" line of a callgrind.out
    sed -n 's/^\(totals\|summary\): *\([0-9]*\).*/\2/p' "$1" | tail -n 1
}
sum() { awk '{ s += $NF } END { printf "%d", s }' "$1"; }

for prog in calls loops; do # (lib.sh's check uses $name)
    check "$prog: exact folded sums to the totals" \
        [ "$(sum "$out/$prog.folded")" = "$(total "$out/$prog.callgrind.out")" ]
    check "$prog: estimated folded sums to the totals" \
        [ "$(sum "$out/$prog.estimated.folded")" = "$(total "$out/$prog.callgrind.out")" ]
    check "$prog: flame graph" grep -q "<svg" "$out/$prog.svg"
    check "$prog: report page" grep -q 'id="cf-main"' "$out/$prog.html"
done
check "inlined: folded sums to the totals" \
    [ "$(sum "$out/inlined.folded")" = "$(total "$out/inlined.callgrind.out")" ]
check "inlined: helpers as frames below update" \
    grep -q ";main;update;mix \[inlined\];rotate \[inlined\] [0-9]" "$out/inlined.folded"
check "inlined: flame graph names the inlined frames" \
    grep -q "mix \[inlined\]" "$out/inlined.svg"
check "pool: report page" grep -q 'id="cf-main"' "$out/pool.html"
check "pool: one markdown row per benchmark" \
    [ "$(grep -c '^| bench' "$out/pool.md")" = 2 ]
finish
