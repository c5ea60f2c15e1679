#!/bin/sh
# Run every test and end with one line "N passed, M failed".
#
# Test groups (each test reports one line PASS:/FAIL:/SKIP: name):
#   regtest   upstream's and our callgrind/tests/*.vgtest, and the core
#             tests of our core patches, run by vg_regtest in the patched
#             build tree
#   tests/    the project's own tests (pipeline, stock equivalence, ...)
#   fold      callgrind_fold's unit, golden and sanitizer tests
#   arm64     (make check ARCH=arm64; not in the default groups) the
#             callgrind regtests of the cross-built tree ($TREE, there
#             build/valgrind-arm64), run by vg_regtest under qemu-user
#             through scripts/run-arm64; callgrind_fold's suite on its
#             arm64 build under qemu-user; tests/arm64/ (the package)
#
# Usage: check.sh [regtest|project|fold|arm64]...   (default: regtest project fold)
# Expects `make all stock` (or `make ARCH=arm64 all`) to have run
# (make check does that).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
TREE=${TREE:-$BUILD/valgrind}
PREFIX=${PREFIX:-$top/dist}
STOCK_PREFIX=${STOCK_PREFIX:-$BUILD/stock-dist}
export top BUILD TREE PREFIX STOCK_PREFIX
. "$top/scripts/lib.sh"
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
    clean_regtest_outputs "$TREE/callgrind/tests"
    # shellcheck disable=SC2086 # core_tests: one word per test
    (cd "$TREE" && perl tests/vg_regtest callgrind $(for t in $core_tests; do echo "$t.vgtest"; done)) \
        > "$out" 2>&1
    cat "$out" >> "$log"
    # shellcheck disable=SC2046 # one word per test
    report_regtests regtest "$out" "$TREE"/callgrind/tests/*.vgtest \
        $(for t in $core_tests; do echo "$TREE/$t.vgtest"; done)
}

# report_regtests LABEL OUT VGTEST...: a PASS/FAIL/SKIP line per test from
# vg_regtest's output OUT.
report_regtests() {
    label=$1 out=$2
    shift 2
    for t in "$@"; do
        name=$(basename "$t" .vgtest)
        # a post: command exiting non-zero gets no "*** failed" line
        if awk -v n="$name: " 'index($0, n) == 1 { p = 1; next }
                 p && /^[A-Za-z0-9_.+-]+: / { p = 0 }
                 p && /^post check failed: / { f = 1 } END { exit !f }' "$out"; then
            report FAIL "$label: $name (post: command failed)"
        elif grep -q "^\*\*\* $name failed" "$out"; then
            report FAIL "$label: $name"
            grep "^\*\*\* $name failed" "$out"
        elif grep -q "^$name: *(skipping" "$out"; then
            report SKIP "$label: $name $(grep -m1 "^$name: *(skipping" "$out" | sed 's/^[^(]*//')"
        elif grep -q "^$name: " "$out"; then
            report PASS "$label: $name"
        else
            report FAIL "$label: $name (did not run)"
        fi
    done
}

# The arm64 tree's programs are aarch64 ones.  vg_regtest starts the tool
# through scripts/run-arm64 (the launcher cannot exec it here), and runs
# tests/arch_test, os_test ... itself and in prereq: lines: each of those
# is wrapped in a script running it under qemu (not tests/true, which
# tests profile).
run_arm64_regtests() {
    echo "== callgrind regtests on arm64 (vg_regtest under qemu-aarch64-static)"
    qemu=${QEMU:-qemu-aarch64-static}
    why=
    command -v $qemu >/dev/null 2>&1 || why="$qemu not installed (Debian package qemu-user-static)"
    [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || [ -e /lib/ld-linux-aarch64.so.1 ] \
        || why=${why:-"no arm64 sysroot (Debian package libc6-dev-arm64-cross)"}
    if [ -n "$why" ]; then
        for t in "$TREE"/callgrind/tests/*.vgtest; do
            report SKIP "regtest-arm64: $(basename "$t" .vgtest) ($why)"
        done
        return
    fi
    if ! { make -s -C "$TREE/tests" check TESTS= && make -s -C "$TREE/callgrind/tests" check TESTS= \
           && make -s -C "$TREE/memcheck/tests" bug445235_ada_demangle; } >> "$log" 2>&1; then
        report FAIL "regtest-arm64: building test programs (see $log)"
        return
    fi
    for f in "$TREE"/tests/*; do
        case $f in */true|*.arm64) continue ;; esac
        [ -f "$f" ] && [ -x "$f" ] || continue
        # an ELF file for aarch64 (else a wrapper made before, rewritten)
        [ "$(od -An -tx1 -N20 "$f" | tr -d ' \n' | sed 's/^\(........\).*\(....\)$/\1\2/')" != 7f454c46b700 ] \
            || mv "$f" "$f.arm64"
        [ -f "$f.arm64" ] || continue
        printf '#!/bin/sh\nexec %s --qemu "$0.arm64" "$@"\n' "$top/scripts/run-arm64" > "$f"
        chmod +x "$f"
    done
    # Tests that run the tree's launcher themselves (../../vg-in-place)
    # get a wrapper in its place for the run; the real one is put back
    # after it (and before, should a run have been killed), so that
    # `make install` never installs the wrapper.
    launcher=$TREE/coregrind/valgrind
    restore_launcher() { [ ! -f "$launcher.arm64" ] || mv -f "$launcher.arm64" "$launcher"; }
    restore_launcher
    mv "$launcher" "$launcher.arm64"
    trap 'restore_launcher; exit 130' INT TERM
    printf '#!/bin/sh\nexec %s "$@"\n' "$top/scripts/run-arm64" > "$launcher"
    chmod +x "$launcher"
    # callgrind_control (folded-control) runs the vgdb beside it first:
    # an arm64 vgdb under qemu (not installed: callgrind/ installs no vgdb)
    printf '#!/bin/sh\nexec %s --qemu "$(dirname "$0")/../coregrind/vgdb" "$@"\n' \
        "$top/scripts/run-arm64" > "$TREE/callgrind/vgdb"
    chmod +x "$TREE/callgrind/vgdb"
    out=$BUILD/regtest-arm64.out
    clean_regtest_outputs "$TREE/callgrind/tests"
    (cd "$TREE" && perl tests/vg_regtest --valgrind="$top/scripts/run-arm64" callgrind) > "$out" 2>&1
    restore_launcher
    rm -f "$TREE/callgrind/vgdb"
    trap - INT TERM
    cat "$out" >> "$log"
    report_regtests regtest-arm64 "$out" "$TREE"/callgrind/tests/*.vgtest
}

# callgrind_fold cross-built for arm64, its whole suite under qemu-user
# (make -C callgrind_fold cross-check; its profiles from this machine's
# Valgrind when there is one).
run_arm64_fold_tests() {
    [ -f "$top/callgrind_fold/Makefile" ] || return 0
    echo "== callgrind_fold tests on arm64 (under qemu-aarch64-static)"
    vg=$(command -v valgrind 2>/dev/null || true)
    [ ! -x "$top/dist/bin/valgrind" ] || vg=$top/dist/bin/valgrind
    # PREFIX elsewhere leaves no dist/: a stock valgrind on PATH cannot
    # make the suite's folded trees, our amd64 build run in place can.
    if [ -x "$BUILD/valgrind/vg-in-place" ] &&
       ! { [ -n "$vg" ] && "$vg" --tool=callgrind --help 2>&1 | grep -q -- --dump-folded; }; then
        vg=$BUILD/valgrind/vg-in-place
    fi
    fold_suite fold-arm64 cross-check CROSS=aarch64-linux-gnu ${vg:+VALGRIND="$vg"}
}

# The project's arm64 tests (tests/arm64/: the arm64 package).
run_arm64_project_tests() {
    echo "== project tests on arm64 (tests/arm64/)"
    for t in "$top"/tests/arm64/*.sh; do
        [ -f "$t" ] || continue
        run_project_test "$t" "arm64-$(basename "$t" .sh)"
    done
}

# run_project_test SCRIPT NAME: the test's PASS/FAIL/SKIP lines, as NAME's.
run_project_test() {
    t=$1 name=$2
    out=$BUILD/tests-$name.out
    sh "$t" > "$out" 2>&1
    rc=$?
    cat "$out" >> "$log"
    if grep -q -E '^(PASS|FAIL|SKIP): ' "$out"; then
        grep -E '^(PASS|FAIL|SKIP): ' "$out" | sed "s/^\([A-Z]*\): /\1: $name: /" | tee -a "$results"
        [ $rc -eq 0 ] || grep -q '^FAIL: ' "$out" || report FAIL "$name (exit status $rc)"
    elif [ $rc -eq 0 ]; then
        # a test that says nothing may have tested nothing
        report FAIL "$name (exit status 0 but no PASS/FAIL/SKIP line)"
    else
        report FAIL "$name"
    fi
    [ $rc -eq 0 ] || tail -n 20 "$out"
}

run_project_tests() {
    echo "== project tests (tests/)"
    for t in "$top"/tests/*.sh; do
        [ "$(basename "$t")" != lib.sh ] || continue
        [ -f "$t" ] || continue
        run_project_test "$t" "$(basename "$t" .sh)"
    done
}

# fold_suite LABEL TARGET [VAR=VALUE...]: callgrind_fold's `make TARGET`,
# its test lines reported as LABEL's.
fold_suite() {
    label=$1 target=$2
    shift 2
    out=$BUILD/$label-check.out
    make -s -C "$top/callgrind_fold" "$target" "$@" > "$out" 2>&1
    rc=$?
    cat "$out" >> "$log"
    grep -E '^(PASS|FAIL|SKIP): ' "$out" | sed "s/^\([A-Z]*\): /\1: $label: /" | tee -a "$results"
    if ! grep -q -E '^(PASS|FAIL|SKIP): ' "$out"; then
        report FAIL "$label: make $target printed no test line (exit status $rc)"
        tail -n 20 "$out"
    elif [ $rc -ne 0 ] && ! grep -q '^FAIL: ' "$out"; then
        report FAIL "$label: make $target (exit status $rc)"
        tail -n 20 "$out"
    fi
}

run_fold_tests() {
    [ -f "$top/callgrind_fold/Makefile" ] || return 0
    echo "== callgrind_fold tests"
    fold_suite fold check VALGRIND="$PREFIX/bin/valgrind"
}

for g in $groups; do
    case $g in
        regtest) run_regtests ;;
        project) run_project_tests ;;
        fold) run_fold_tests ;;
        arm64) run_arm64_regtests; run_arm64_fold_tests; run_arm64_project_tests ;;
        *) echo "check.sh: unknown group $g" >&2; exit 2 ;;
    esac
done

passed=$(grep -c '^PASS: ' "$results")
failed=$(grep -c '^FAIL: ' "$results")
skipped=$(grep -c '^SKIP: ' "$results")
echo "(full log: $log; $skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
