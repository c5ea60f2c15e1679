#!/bin/sh
# The patched build says it is ours and passes CodSpeed's runner's check;
# the stock build is plain 3.27.1.
#
# The runner's check of `valgrind --version`, reimplemented from its
# source for each runner release (tests/codspeed-setup-check.py;
# notes/codspeed-dropin.md): its own test cases are checked first, so
# a wrong reimplementation fails here too.  tests/deb.sh runs the whole
# check (with libc6-dbg) against the installed package.
. "$(dirname "$0")/lib.sh"
want=valgrind-3.27.1+fold1.codspeed7
got=$("$PREFIX/bin/valgrind" --version)
check "patched valgrind --version is $want" [ "$got" = "$want" ]
check "stock valgrind --version is valgrind-3.27.1" \
    [ "$("$STOCK_PREFIX/bin/valgrind" --version)" = valgrind-3.27.1 ]

runner=$top/tests/codspeed-setup-check.py
python3 "$runner" cases > "$scratch/cases"
cat "$scratch/cases"
check "the runner's parse (reimplemented) passes the runner's own test cases" \
    grep -q "^runner's own cases: all pass" "$scratch/cases"
python3 "$runner" version "$got" > "$scratch/verdicts"
sed 's/^/  /' "$scratch/verdicts"
# 4.0.0-4.2.1 take only their own 3.24.0.codspeed
check "CodSpeed's runner 4.3.0 and later take $got as its Valgrind (no reinstall)" \
    sh -c "! grep -v '^4\.0\.0-4\.2\.1: ' '$scratch/verdicts' | grep -v ': accepts\$'"
finish
