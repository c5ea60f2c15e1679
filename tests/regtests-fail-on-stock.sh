#!/bin/sh
# Our vgtests guard fixes: each of them must fail when run with the stock
# (unpatched) callgrind, the same test programs and expected outputs.
. "$(dirname "$0")/lib.sh"
[ -x "$STOCK_PREFIX/bin/valgrind" ] || { fail "stock build missing (make stock)"; finish; }
for t in "$top"/callgrind/tests/*.vgtest; do
    name=$(basename "$t" .vgtest)
    # vg_regtest exits non-zero when the test fails.
    if ( cd "$TREE" && perl tests/vg_regtest --valgrind="$STOCK_PREFIX/bin/valgrind" \
             --valgrind-lib="$STOCK_PREFIX/libexec/valgrind" "callgrind/tests/$name.vgtest" ) >/dev/null 2>&1; then
        fail "$name fails on stock callgrind"
    else
        pass "$name fails on stock callgrind"
    fi
done
finish
