# Sourced by the tests in this directory.  check.sh exports top, BUILD,
# TREE, PREFIX and STOCK_PREFIX; defaults let a test run on its own too.
top=${top:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$top/build}
TREE=${TREE:-$BUILD/valgrind}
PREFIX=${PREFIX:-$top/dist}
STOCK_PREFIX=${STOCK_PREFIX:-$BUILD/stock-dist}
unset MAKEFLAGS MFLAGS MAKELEVEL || true

failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# check NAME COMMAND...: PASS when the command succeeds; returns its status
# (so that `check ... || echo details` shows details of a failure).
check() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; return 1; fi; }
finish() { exit $((failures > 0)); }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cgfold-test.XXXXXX")
touch "$scratch/.started"
# JITs profiled by a test (node, CPython, harnesses' addons) write
# /tmp/perf-<pid>.map and leave it: a later process given the same pid
# would find another process's map.  Those of the processes whose
# profiles are in $scratch (their pid: lines), written since the test
# started, go with it.
remove_perf_maps() {
    grep -rhoa --include='*out*' '^pid: *[0-9]*' "$scratch" 2>/dev/null \
        | sed 's/[^0-9]//g' | sort -u | while read -r pid; do
        map=/tmp/perf-$pid.map
        [ -f "$map" ] && [ ! "$scratch/.started" -nt "$map" ] && rm -f "$map"
    done
}
cleanup() { remove_perf_maps; rm -rf "$scratch"; }
trap cleanup EXIT

# Build the example programs (once per check run).
examples() { make -s -C "$top/examples" OUT="$BUILD/examples" PREFIX="$PREFIX" >&2; echo "$BUILD/examples"; }

# For the harness tests: $scratch/libcgshim.so (tests/cgshim.c, the ctypes
# library of tests/codspeed_harness.py) built against $PREFIX's callgrind.h,
# and that module next to it.  LABEL names the failure.
build_cgshim() {
    if ! "${CC:-cc}" -shared -fPIC -O2 -I"$PREFIX/include" -o "$scratch/libcgshim.so" \
            "$top/tests/cgshim.c" 2> "$scratch/cc.log"; then
        cat "$scratch/cc.log"
        fail "$1: building the ctypes library against $PREFIX/include/valgrind/callgrind.h"
        finish
    fi
    cp "$top/tests/codspeed_harness.py" "$scratch/"
}

# codspeed_valgrind SKIP OUT COMMAND...: COMMAND under $PREFIX's callgrind
# with CodSpeed's runner's command line (instrumentation mode, hiding
# SKIP), plus the folded twin: OUT/<pid>.out and OUT/<pid>.folded.
codspeed_valgrind() {
    _skip=$1 _out=$2
    shift 2
    "$PREFIX/bin/valgrind" -q --trace-children=yes --cache-sim=yes --I1=32768,8,64 \
        --D1=32768,8,64 --LL=8388608,16,64 --instr-atstart=no --collect-systime=nsec \
        --read-inline-info=yes --tool=callgrind --compress-strings=no \
        --combine-dumps=yes --dump-line=no '--trace-children-skip=*esbuild' \
        --obj-skip="$_skip" --callgrind-out-file="$_out/%p.out" \
        --dump-folded=yes --folded-out-file="$_out/%p.folded" "$@"
}

# For the tests of CodSpeed's Node plugin: calls the test's skip() without
# node, git or the plugin (scripts/npm-harness.sh, pinned); else $repo is a
# benchmark repository whose node_modules are the plugin's (the plugin's
# uris are paths relative to the git root): write benches/, then
# commit_bench_repo.
npm_bench_repo() {
    command -v node > /dev/null 2>&1 || skip "node is not installed"
    command -v git > /dev/null 2>&1 || skip "git is not installed (the plugin names benchmarks relative to a git root)"
    npmdir=$(sh "$top/scripts/npm-harness.sh" 2> "$scratch/npm.err") \
        || skip "$(tr '\n' ' ' < "$scratch/npm.err" | sed 's/ *$//')"
    repo=$scratch/repo
    mkdir -p "$repo/benches"
    ln -s "$npmdir/node_modules" "$repo/node_modules"
}

commit_bench_repo() {
    (cd "$repo" && git init -q . && git add benches \
        && git -c user.name=test -c user.email=test@example.invalid -c commit.gpgsign=false commit -q -m bench)
}

# For the --inline tests (they set $fold): BINARY under callgrind with
# --dump-instr=yes ($scratch/TAG.out) and callgrind_fold --inline of that
# ($scratch/TAG.folded, its stderr $scratch/TAG.err, its exit status
# $fold_rc).  Returns 1 after a FAIL when the run made no profile.
inline_profile() { # LABEL TAG BINARY
    _out=$scratch/$2.out
    "$PREFIX/bin/valgrind" -q --tool=callgrind --dump-instr=yes --callgrind-out-file="$_out" \
        "$3" > "$scratch/$2.run" 2>&1
    if ! check "$1: $2: runs under callgrind" [ -s "$_out" ]; then
        sed 's/^/  /' "$scratch/$2.run"
        return 1
    fi
    "$fold" --inline --inline-cache=no "$_out" > "$scratch/$2.folded" 2> "$scratch/$2.err"
    fold_rc=$?
}

# The self cost of BINARY's own functions in PROFILE: stacks whose last
# frame is "NAME [BASENAME]" with --frame=fn+obj.
self_cost() { # BINARY PROFILE
    "$fold" --frame=fn+obj "$2" | awk -v o=" [$(basename "$1")]" '
        { n = $NF; line = $0; sub(/ [0-9]+$/, "", line); k = split(line, f, ";")
          if (substr(f[k], length(f[k]) - length(o) + 1) == o) s += n }
        END { printf "%d\n", s }'
}

# The self cost callgrind_fold's reports in ERRFILE say it left
# unexpanded in BINARY.
unexpanded() { # BINARY ERRFILE
    awk -v b="$1:" 'index($0, b) && /left unexpanded/ {
        for (i = 1; i < NF; i++) if ($i == "with") s += $(i + 1) }
        END { printf "%d\n", s }' "$2"
}

# --cycle-estimation's coverage in a -v run: its report lines, at most
# 0.1% of executed instructions without costs, and Ct and Cl totals in the
# profile with 0 < Ct (throughput) < Cl (latency).
# _fell and _all of the first "HEADING...): N of M ..." line of LOGFILE.
report_fraction() { # HEADING LOGFILE
    _line=$(grep -m1 "$1" "$2")
    _fell=$(echo "$_line" | sed -n 's/.*): \([0-9]*\) of [0-9]* .*/\1/p')
    _all=$(echo "$_line" | sed -n 's/.*): [0-9]* of \([0-9]*\) .*/\1/p')
}

cycle_coverage_checks() { # LABEL LOGFILE PROFILE
    sed -n 's/^==[0-9]*== \(Cycle estimation.*\)/\1/p; s/^==[0-9]*== \(Block model.*\)/\1/p
            s/^==[0-9]*== \( \{3,\}[0-9,]*  .*\)/\1/p' "$2"
    report_fraction 'Cycle estimation (' "$2"
    if [ -z "$_fell" ] || [ -z "$_all" ] || [ "$_all" -eq 0 ]; then
        fail "$1: no report of the fallbacks with -v"; return
    fi
    check "$1: at most 0.1% of executed instructions without costs ($_fell of $_all)" \
        [ $((_fell * 1000)) -le "$_all" ]
    check "$1: totals of Ct and Cl, 0 < Ct < Cl" \
        awk '/^events:/ { for (i = 2; i <= NF; i++) ev[$i] = i }
             /^totals:/ { ct = $ev["Ct"]; cl = $ev["Cl"] }
             END { exit !(ct != "" && ct + 0 > 0 && ct + 0 < cl + 0) }' "$3"
    # the block model: a block overlaps its instructions, so its figure
    # stays under the sum of their latencies
    report_fraction 'Block model (' "$2"
    if [ -z "$_fell" ] || [ -z "$_all" ] || [ "$_all" -eq 0 ]; then
        fail "$1: no report of the block model's coverage with -v"; return
    fi
    check "$1: at most 1% of block runs outside the block model ($_fell of $_all)" \
        [ $((_fell * 100)) -le "$_all" ]
    check "$1: total of Cb, 0 < Cb < Cl" \
        awk '/^events:/ { for (i = 2; i <= NF; i++) ev[$i] = i }
             /^totals:/ { cb = $ev["Cb"]; cl = $ev["Cl"] }
             END { exit !(cb != "" && cb + 0 > 0 && cb + 0 < cl + 0) }' "$3"
}
