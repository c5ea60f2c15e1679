#!/bin/sh
# PREFIX is honoured wherever the install is (issue 16): the tests that
# compare with the stock build pass with the patched install under another
# path, which sorts differently, and bench/run.sh (make bench) looks for
# Valgrind in $PREFIX.
. "$(dirname "$0")/lib.sh"
other=$scratch/0-other-prefix
cp -a "$PREFIX" "$other" || { fail "copying the install"; finish; }
out=$(PREFIX=$other sh "$top/tests/stock-equivalence.sh" 2>&1)
if echo "$out" | grep -q '^FAIL'; then
    fail "stock-equivalence with PREFIX=$other"
    echo "$out" | head -n 30 | sed "s/^/  /"
else
    pass "stock-equivalence with PREFIX=$other ($(echo "$out" | grep -c '^PASS') tests)"
fi
# bench/run.sh must look in PREFIX: an empty one is reported by its path
out=$(PREFIX=$scratch/empty-prefix BENCH_WORK=$scratch/bench "$top/bench/run.sh" 2>&1)
check "bench/run.sh looks for Valgrind in PREFIX" \
    sh -c 'echo "$1" | grep -q "no Valgrind installed in $2"' - "$out" "$scratch/empty-prefix"
finish
