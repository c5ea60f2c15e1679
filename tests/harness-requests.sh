#!/bin/sh
# Client requests at a harness's scale (issue 16): 200,000 distinct
# CALLGRIND_ADD_OBJ_SKIP patterns, each added twice, take seconds.
. "$(dirname "$0")/lib.sh"
prog=$TREE/callgrind/tests/clientreq
[ -x "$prog" ] || make -s -C "$TREE/callgrind/tests" clientreq >/dev/null 2>&1
start=$(date +%s)
"$PREFIX/bin/valgrind" -q --tool=callgrind --callgrind-out-file="$scratch/cg.out" \
    "$prog" skips 200000 > "$scratch/out" 2>&1
rc=$? took=$(( $(date +%s) - start ))
echo "200,000 distinct patterns (400,000 requests): exit $rc, $took s"
check "200,000 distinct CALLGRIND_ADD_OBJ_SKIP patterns: done in under 30 s" \
    [ "$rc" -eq 0 -a "$took" -lt 30 ]
finish
