#!/bin/sh
# Tests pass from any checkout path: a clone of this checkout under a
# deliberately long path (over 200 characters, twelve levels deep),
# holding a copy of the built tree, runs
# every callgrind regtest from there (costs that follow the length of the
# checkout's path, like strlen of an argument, must not be in an expected
# output) and project tests from the clone with PREFIX outside it.
. "$(dirname "$0")/lib.sh"

long=$scratch/a-deliberately-long-checkout-path/$(printf 'level-%s-of-a-deep-tree/' 1 2 3 4 5 6 7 8 9 10)callgrind-fold.clone
mkdir -p "$(dirname "$long")"
command -v git > /dev/null 2>&1 || { echo "SKIP: long-path (git is not installed)"; exit 0; }
if ! git clone -q --no-hardlinks "$top" "$long" 2> "$scratch/clone.err"; then
    fail "long-path: cloning the checkout ($(tail -n 1 "$scratch/clone.err"))"
    finish
fi
echo "  info: checkout at $long (${#long} characters)"
mkdir -p "$long/build"
cp -a "$TREE" "$long/build/valgrind" || { fail "long-path: copying the built tree"; finish; }
# the copy has no test outputs of the tree's earlier or running tests
. "$top/scripts/lib.sh"
clean_regtest_outputs "$long/build/valgrind/callgrind/tests"

out=$scratch/regtest.out
(cd "$long/build/valgrind" && perl tests/vg_regtest callgrind) > "$out" 2>&1
ran=$(grep -c '^[a-z0-9_-]*: ' "$out")
failed=$(grep '^\*\*\* .* failed' "$out" | sed 's/^\*\*\* \([^ ]*\) failed.*/\1/' | sort -u | tr '\n' ' ')
check "long-path: every callgrind regtest passes from the long path ($ran run)" [ -z "$failed" ] \
    || echo "  failed: $failed"
# what a failure looked like: the copy is removed with the scratch directory
for t in $failed; do
    for d in "$long/build/valgrind/callgrind/tests/$t".*diff*; do
        [ -f "$d" ] && { echo "  $d:"; head -n 40 "$d" | sed 's/^/    /'; }
    done
done

for t in version folded-invariants; do
    if top=$long PREFIX=$PREFIX BUILD=$BUILD TREE=$long/build/valgrind sh "$long/tests/$t.sh" \
            > "$scratch/$t.out" 2>&1; then
        pass "long-path: tests/$t.sh from the long path, PREFIX outside it"
    else
        grep '^FAIL' "$scratch/$t.out" | head -n 5
        fail "long-path: tests/$t.sh from the long path, PREFIX outside it"
    fi
done
finish
