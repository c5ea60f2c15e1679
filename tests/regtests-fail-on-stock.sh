#!/bin/sh
# Our vgtests guard fixes: each of them (every callgrind/tests/*.vgtest the
# series adds to upstream's) must fail when run with the stock (unpatched)
# callgrind, the same test programs and expected outputs.
. "$(dirname "$0")/lib.sh"
[ -x "$STOCK_PREFIX/bin/valgrind" ] || { fail "stock build missing (make stock)"; finish; }
ours=$(git -C "$TREE" diff --name-only --diff-filter=A upstream HEAD -- 'callgrind/tests/*.vgtest')
[ -n "$ours" ] || { fail "no regtest added by the series in $TREE"; finish; }
for t in $ours; do
    name=$(basename "$t" .vgtest)
    # vg_regtest exits non-zero when the test fails.
    out=$( cd "$TREE" && perl tests/vg_regtest --valgrind="$STOCK_PREFIX/bin/valgrind" \
             --valgrind-lib="$STOCK_PREFIX/libexec/valgrind" "callgrind/tests/$name.vgtest" 2>&1 )
    rc=$?
    if printf '%s\n' "$out" | grep -q "^$name: *(skipping"; then
        # a test of another architecture's fix (arm64's a64calls ...)
        echo "SKIP: $name fails on stock callgrind $(printf '%s\n' "$out" | grep -m1 "^$name: *(skipping" | sed 's/^[^(]*//')"
    elif [ $rc -eq 0 ]; then
        fail "$name fails on stock callgrind"
    else
        pass "$name fails on stock callgrind"
    fi
done
finish
