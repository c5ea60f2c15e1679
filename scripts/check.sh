#!/bin/sh
# Run every test and end with one line "N passed, M failed".
#
# Test groups (each test reports one line PASS:/FAIL:/SKIP: name):
#   regtest   upstream's and our callgrind/tests/*.vgtest, and the core
#             tests of our core patches, run by vg_regtest in the patched
#             build tree
#   tests/    the project's own tests (pipeline, stock equivalence, ...)
#   fold      callgrind_fold's unit, golden and sanitizer tests
#
# Usage: check.sh [regtest|project|fold]...   (default: all groups)
# Expects `make all stock` to have run (make check does that).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
TREE=${TREE:-$BUILD/valgrind}
PREFIX=${PREFIX:-$top/dist}
STOCK_PREFIX=${STOCK_PREFIX:-$BUILD/stock-dist}
export top BUILD TREE PREFIX STOCK_PREFIX
unset MAKEFLAGS MFLAGS MAKELEVEL || true

groups=${*:-regtest project fold}
log=$BUILD/check.log
mkdir -p "$BUILD"
: > "$log"

results=$BUILD/check.results
: > "$results"
report() { echo "$1: $2" | tee -a "$results"; }

# The core's tests of the series' core patches (--allow-file-caps,
# PR_GET_AUXV) and those of the options they touch.
core_tests="none/tests/linux/file_caps_noopt none/tests/linux/file_caps_match
    none/tests/linux/file_caps_nomatch none/tests/linux/file_caps_traced
    none/tests/linux/prctl_auxv none/tests/cmdline1 none/tests/cmdline2"

run_regtests() {
    echo "== callgrind and core regtests (vg_regtest)"
    # Test programs: callgrind's own, the helpers vg_regtest uses, the
    # one memcheck program bug497723 profiles, and the core tests'.
    if ! { make -s -C "$TREE/tests" check TESTS= && make -s -C "$TREE/callgrind/tests" check TESTS= \
           && make -s -C "$TREE/memcheck/tests" bug445235_ada_demangle \
           && make -s -C "$TREE/none/tests/linux" file_caps file_caps_child prctl_auxv; } >> "$log" 2>&1; then
        report FAIL "regtest: building test programs (see $log)"
        return
    fi
    out=$BUILD/regtest.out
    # shellcheck disable=SC2086 # core_tests: one word per test
    (cd "$TREE" && perl tests/vg_regtest callgrind $(for t in $core_tests; do echo "$t.vgtest"; done)) \
        > "$out" 2>&1
    cat "$out" >> "$log"
    for t in "$TREE"/callgrind/tests/*.vgtest $(for t in $core_tests; do echo "$TREE/$t.vgtest"; done); do
        name=$(basename "$t" .vgtest)
        if grep -q "^\*\*\* $name failed" "$out"; then
            report FAIL "regtest: $name"
            grep "^\*\*\* $name failed" "$out"
        elif grep -q "^$name: *(skipping" "$out"; then
            report SKIP "regtest: $name $(grep -m1 "^$name: *(skipping" "$out" | sed 's/^[^(]*//')"
        elif grep -q "^$name: " "$out"; then
            report PASS "regtest: $name"
        else
            report FAIL "regtest: $name (did not run)"
        fi
    done
}

run_project_tests() {
    echo "== project tests (tests/)"
    for t in "$top"/tests/*.sh; do
        [ "$(basename "$t")" != lib.sh ] || continue
        [ -f "$t" ] || continue
        name=$(basename "$t" .sh)
        out=$BUILD/tests-$name.out
        sh "$t" > "$out" 2>&1
        rc=$?
        cat "$out" >> "$log"
        if grep -q -E '^(PASS|FAIL|SKIP): ' "$out"; then
            grep -E '^(PASS|FAIL|SKIP): ' "$out" | sed "s/^\([A-Z]*\): /\1: $name: /" | tee -a "$results"
            [ $rc -eq 0 ] || grep -q '^FAIL: ' "$out" || report FAIL "$name (exit status $rc)"
        elif [ $rc -eq 0 ]; then
            report PASS "$name"
        else
            report FAIL "$name"
        fi
        [ $rc -eq 0 ] || tail -n 20 "$out"
    done
}

run_fold_tests() {
    [ -f "$top/callgrind_fold/Makefile" ] || return 0
    echo "== callgrind_fold tests"
    out=$BUILD/fold-check.out
    make -s -C "$top/callgrind_fold" check VALGRIND="$PREFIX/bin/valgrind" > "$out" 2>&1
    rc=$?
    cat "$out" >> "$log"
    grep -E '^(PASS|FAIL|SKIP): ' "$out" | sed 's/^\([A-Z]*\): /\1: fold: /' | tee -a "$results"
    if [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$out"; then
        report FAIL "fold: make check (exit status $rc)"
        tail -n 20 "$out"
    fi
}

for g in $groups; do
    case $g in
        regtest) run_regtests ;;
        project) run_project_tests ;;
        fold) run_fold_tests ;;
        *) echo "check.sh: unknown group $g" >&2; exit 2 ;;
    esac
done

passed=$(grep -c '^PASS: ' "$results")
failed=$(grep -c '^FAIL: ' "$results")
skipped=$(grep -c '^SKIP: ' "$results")
echo "(full log: $log; $skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
