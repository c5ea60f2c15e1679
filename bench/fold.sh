#!/usr/bin/env bash
# Converter rows of the benchmark (called by bench/run.sh when
# callgrind_fold is installed): callgrind_fold against
# callgrind_annotate --inclusive=yes on the same callgrind.out of 20 MB or
# more, alternating, output to /dev/null.
#
# The input is made once and cached in $BENCH_WORK/fold/: the patched
# callgrind profiling cc1 (the C compiler proper) compiling a generated C
# file (workloads/gen_big_c.py) with --dump-instr=yes --dump-line=yes
# --collect-jumps=yes --cache-sim=yes --branch-sim=yes (a few minutes).  Delete
# the directory to make it again.
#
# The same run also writes its folded tree (--dump-folded=yes), beside it
# as cc1.callgrind.out.folded, for the reader rows (reader-bench.sh).
#
# Usage: fold.sh OUT.tsv     (measurements for report.py; progress on stderr)
#        fold.sh --input-only  (make the input if needed, measure nothing)
# Environment: BENCH_RUNS (5), BENCH_WARMUP (1), BENCH_WORK (bench/work),
#   BENCH_PATCHED (<repo>/dist), BENCH_FOLD_RUNS (default BENCH_RUNS),
#   BENCH_FOLD_INPUT=FILE (use this callgrind.out instead),
#   BENCH_FOLD_FUNCS (60: functions in the generated C file)
set -euo pipefail
export LC_ALL=C

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
PATCHED=${BENCH_PATCHED:-$ROOT/dist}
WORK=${BENCH_WORK:-$BENCH/work}
RUNS=${BENCH_FOLD_RUNS:-${BENCH_RUNS:-5}}
WARMUP=${BENCH_WARMUP:-1}
FUNCS=${BENCH_FOLD_FUNCS:-60}
MIN_BYTES=$((20 * 1024 * 1024))
OUT=${1:?usage: fold.sh OUT.tsv | --input-only}

say() { printf '%s\n' "$*" >&2; }
die() { say "bench/fold: error: $*"; exit 1; }

FOLD=$PATCHED/bin/callgrind_fold
ANNOTATE=$PATCHED/bin/callgrind_annotate
[ -x "$FOLD" ] || die "$FOLD not installed"
[ -x "$ANNOTATE" ] || die "$ANNOTATE not installed"

dir=$WORK/fold
mkdir -p "$dir"
input=${BENCH_FOLD_INPUT:-$dir/cc1.callgrind.out}
desc_file=$input.desc

size_of() { if [ -f "$1" ]; then wc -c < "$1"; else echo 0; fi; }

if [ -z "${BENCH_FOLD_INPUT:-}" ] &&
   { [ "$(size_of "$input")" -lt "$MIN_BYTES" ] || [ ! -s "$input.folded" ]; }; then
    cc1=$(gcc -print-prog-name=cc1 2>/dev/null || true)
    case $cc1 in /*) ;; *) cc1=/usr/lib/gcc/x86_64-linux-gnu/12/cc1 ;; esac
    [ -x "$cc1" ] || die "cc1 (the C compiler proper) not found; install gcc"
    src=$dir/big.c
    python3 "$BENCH/workloads/gen_big_c.py" "$FUNCS" > "$src"
    opts="--dump-instr=yes --dump-line=yes --collect-jumps=yes --cache-sim=yes --branch-sim=yes"
    say "bench/fold: making the input (once, a few minutes): callgrind $opts on cc1 -O2 -g big.c ($FUNCS functions)"
    rm -f "$input" "$input.tmp" "$input.folded" "$input.tmp.folded"
    # shellcheck disable=SC2086
    "$PATCHED/bin/valgrind" --tool=callgrind $opts --dump-folded=yes \
        --callgrind-out-file="$input.tmp" --log-file="$dir/valgrind.log" \
        "$cc1" -quiet -O2 -g -Wall "$src" -o "$dir/big.s" ||
        die "callgrind on cc1 failed; see $dir/valgrind.log"
    mv "$input.tmp.folded" "$input.folded"
    mv "$input.tmp" "$input"
    echo "callgrind $opts on $(basename "$cc1") -O2 -g compiling a generated C file ($FUNCS functions, $(wc -l < "$src") lines)" > "$desc_file"
fi
[ -s "$input" ] || die "no input $input"
size=$(size_of "$input")
[ "$size" -ge "$MIN_BYTES" ] ||
    say "bench/fold: warning: $input is only $size bytes (< 20 MB); raise BENCH_FOLD_FUNCS"
desc=$(cat "$desc_file" 2>/dev/null || echo "given by BENCH_FOLD_INPUT")

[ "$OUT" != --input-only ] || exit 0
printf 'input\t%s\t%s\t%s\n' "$input" "$size" "$desc" > "$OUT"

# run_tool TOOL PASS INDEX: appends "TOOL pass index wall rss rc" to $OUT.
LAST_WALL=0
run_tool() {
    local tool=$1 pass=$2 idx=$3 tf=$dir/$1.time t0 t1 rc=0 rss
    local cmd
    if [ "$tool" = fold ]; then cmd=("$FOLD" "$input"); else cmd=("$ANNOTATE" --inclusive=yes "$input"); fi
    rm -f "$tf"
    t0=$EPOCHREALTIME
    /usr/bin/time -f %M -o "$tf" "${cmd[@]}" > /dev/null 2> "$dir/$tool.stderr" || rc=$?
    t1=$EPOCHREALTIME
    rss=$(tail -n 1 "$tf" 2>/dev/null || true)
    case $rss in ''|*[!0-9]*) rss=0 ;; esac
    LAST_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$pass" "$idx" "$LAST_WALL" "$rss" "$rc" >> "$OUT"
    if [ "$rc" -ne 0 ]; then
        say "bench/fold: $tool failed (exit $rc); see $dir/$tool.stderr"
        return 1
    fi
}

say "bench/fold: $(basename "$input") ($((size / 1000000)) MB): $WARMUP warm-up + $RUNS measured rounds (annotate, fold)"
total=$((WARMUP + RUNS))
for ((i = 1; i <= total; i++)); do
    if [ "$i" -le "$WARMUP" ]; then pass=warm idx=$i; else pass=run idx=$((i - WARMUP)); fi
    run_tool annotate "$pass" "$idx" || exit 1
    wa=$LAST_WALL
    run_tool fold "$pass" "$idx" || exit 1
    say "bench/fold:   $pass $idx: callgrind_annotate $(printf '%.2f' "$wa")s, callgrind_fold $(printf '%.3f' "$LAST_WALL")s"
done
# SVG rendering of a large folded file: bench/render-bench.sh, run by run.sh.
