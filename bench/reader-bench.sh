#!/usr/bin/env bash
# Reader rows (issue 28): callgrind_fold's input reading, two builds side
# by side in one run, on three inputs from the same program:
#   cc1 callgrind.out  fold.sh's 23 MB profile of cc1 (13 events, instr and
#                      line positions, jumps), folded for one event (Ir)
#   cc1 folded tree    the folded tree of that same run (--dump-folded=yes)
#   cc1 9 events       cc1 on the same file under --cache-sim=yes only
#                      (Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw)
# For each: the wall time of `callgrind_fold FILE > /dev/null`, before and
# after alternating (median, MB/s, per-round ratio), the same for the
# reader alone (`--part=` a part the file does not have: everything is
# read and checked, the call graph built, but nothing folded or written;
# exit status 2, "no part ..."), and the instructions
# per input byte counted by callgrind on callgrind_fold, split into the
# reader, the folding it calls, and the rest (sorting, writing); then the
# all-events cost scanner alone (obj/colscan_bench) on the 9-event file.
#
# Usage: reader-bench.sh [BEFORE [AFTER]]
#   BEFORE, AFTER: a callgrind_fold executable, or a git revision of this
#   repository, built once into $BENCH_WORK/reader/<commit>/.  Defaults:
#   BEFORE the installed $BENCH_PATCHED/bin/callgrind_fold (the main
#   build), AFTER callgrind_fold/callgrind_fold of this tree (run `make -C
#   callgrind_fold` first).
# Environment: BENCH_RUNS (9 here), BENCH_WARMUP (1), BENCH_WORK (bench/work),
#   BENCH_PATCHED (<repo>/dist: valgrind, and the cc1 profiles' maker).
# Output: a markdown table on stdout, also written to
# bench/results/<date>-<short-host>-reader.md; progress on stderr.  The
# inputs are made once (a few minutes each) into $BENCH_WORK/fold/.
set -euo pipefail
export LC_ALL=C

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
PATCHED=${BENCH_PATCHED:-$ROOT/dist}
WORK=${BENCH_WORK:-$BENCH/work}
RUNS=${BENCH_RUNS:-9}
WARMUP=${BENCH_WARMUP:-1}
RESULTS=$BENCH/results
VALGRIND=$PATCHED/bin/valgrind

say() { printf '%s\n' "$*" >&2; }
die() { say "bench/reader: error: $*"; exit 1; }

[ -x "$VALGRIND" ] || die "no valgrind in $PATCHED (run 'make')"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (apt-get install time)"
mkdir -p "$WORK/reader" "$RESULTS"

# A callgrind_fold: the executable given, or revision $1 built once.
binary() {
    local what=$1 sha dir
    if [ -f "$what" ] && [ -x "$what" ]; then
        readlink -f "$what"
        return
    fi
    sha=$(git -C "$ROOT" rev-parse --verify -q "$what^{commit}") ||
        die "$what: neither an executable nor a git revision"
    dir=$WORK/reader/$sha
    if [ ! -x "$dir/callgrind_fold/callgrind_fold" ]; then
        say "bench/reader: building callgrind_fold of $what (${sha:0:12})"
        rm -rf "$dir" && mkdir -p "$dir"
        git -C "$ROOT" archive "$sha" callgrind_fold | tar -x -C "$dir"
        make -s -C "$dir/callgrind_fold" -j2 callgrind_fold >&2 ||
            die "building $what failed"
    fi
    echo "$dir/callgrind_fold/callgrind_fold"
}

BEFORE=$(binary "${1:-$PATCHED/bin/callgrind_fold}")
AFTER=$(binary "${2:-$ROOT/callgrind_fold/callgrind_fold}")
say "bench/reader: before $BEFORE"
say "bench/reader: after  $AFTER"

# ---------------------------------------------------------------------------
# Inputs.  fold.sh makes the cc1 profile and its folded tree; the 9-event
# profile is the same compilation of the same generated file.
dir=$WORK/fold
BENCH_WORK=$WORK BENCH_PATCHED=$PATCHED "$BENCH/fold.sh" --input-only
cg=$dir/cc1.callgrind.out
tree=$cg.folded
ev9=$dir/cc1.ev9.callgrind.out
if [ ! -s "$ev9" ]; then
    say "bench/reader: making the 9-event input (once, a few minutes)"
    "$VALGRIND" --tool=callgrind --dump-instr=yes --dump-line=yes --cache-sim=yes \
        --callgrind-out-file="$ev9.tmp" --log-file="$dir/valgrind-ev9.log" \
        "$(gcc -print-prog-name=cc1)" -quiet -O2 -g -Wall "$dir/big.c" -o "$dir/big-ev9.s" ||
        die "callgrind on cc1 failed; see $dir/valgrind-ev9.log"
    mv "$ev9.tmp" "$ev9"
fi

NAMES=("cc1 callgrind.out" "cc1 folded tree" "cc1 9 events")
FILES=("$cg" "$tree" "$ev9")
DESCS=("$(cat "$cg.desc" 2>/dev/null || echo "fold.sh's profile"), one event (Ir) folded"
       "the folded tree (--dump-folded=yes) of the same run, 13 events, Ir folded"
       "the same compilation under --dump-instr=yes --dump-line=yes --cache-sim=yes (9 events), Ir folded")

RAW=$WORK/reader/raw.tsv
META=$WORK/reader/meta.txt
: > "$RAW"
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
{
    echo "date=$(date '+%Y-%m-%d %H:%M:%S %z')"
    echo "host=$(uname -n)"
    echo "cpu=${cpu:-unknown} ($(nproc) cpus)"
    echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "before=$BEFORE"
    echo "after=$AFTER (commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo ?))"
    echo "runs=$RUNS"
    echo "warmup=$WARMUP"
} > "$META"

# A part number no input has: --part=$NO_PART reads the whole file and
# folds nothing.
NO_PART=4000000000

# run ROW WHICH PASS INDEX BINARY FILE [read]: one timed run, appended to
# $RAW; with "read", the reader alone (--part=$NO_PART, exit status 2).
run() {
    local row=$1 which=$2 pass=$3 idx=$4 bin=$5 file=$6 mode=${7:-whole}
    local t0 t1 tf=$WORK/reader/time rc=0 args=()
    [ "$mode" = read ] && args=(--part=$NO_PART)
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%U %S' -o "$tf" "$bin" "${args[@]}" "$file" > /dev/null \
        2> "$WORK/reader/stderr" || rc=$?
    t1=$EPOCHREALTIME
    if [ "$mode" = read ]; then
        [ "$rc" -eq 2 ] && grep -q "no part $NO_PART" "$WORK/reader/stderr" ||
            die "$bin --part=$NO_PART $file: exit $rc: $(tail -n 3 "$WORK/reader/stderr")"
        row="$row|read"
    else
        [ "$rc" -eq 0 ] || die "$bin $file failed: $(tail -n 3 "$WORK/reader/stderr")"
    fi
    tail -n 1 "$tf" > "$tf.last"; mv "$tf.last" "$tf"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$row" "$which" "$pass" "$idx" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')" \
        "$(awk '{ printf "%.3f", $1 + $2 }' "$tf")" >> "$RAW"
}

for i in "${!FILES[@]}"; do
    row=${NAMES[$i]} file=${FILES[$i]}
    size=$(wc -c < "$file")
    printf 'size\t%s\t%s\t%s\n' "$row" "$size" "${DESCS[$i]}" >> "$RAW"
    # The two builds must agree before their speed means anything.
    cmp -s <("$BEFORE" "$file" 2>/dev/null) <("$AFTER" "$file" 2>/dev/null) ||
        die "before and after fold $file differently"
    say "bench/reader: $row ($((size / 1000000)) MB): $WARMUP warm-up + $RUNS rounds"
    for ((k = 1; k <= WARMUP + RUNS; k++)); do
        if [ "$k" -le "$WARMUP" ]; then pass=warm; else pass=run; fi
        run "$row" before "$pass" "$k" "$BEFORE" "$file"
        run "$row" after "$pass" "$k" "$AFTER" "$file"
        run "$row" before "$pass" "$k" "$BEFORE" "$file" read
        run "$row" after "$pass" "$k" "$AFTER" "$file" read
    done
    for which in before after; do
        bin=$BEFORE; [ "$which" = after ] && bin=$AFTER
        out=$WORK/reader/$which.$i.callgrind.out
        "$VALGRIND" --tool=callgrind --callgrind-out-file="$out" --log-file="$out.log" \
            "$bin" "$file" > /dev/null 2>&1 || die "callgrind on $bin $file failed"
        printf 'ir\t%s\t%s\t%s\n' "$row" "$which" \
            "$(python3 "$BENCH/reader_report.py" split "$out" "$size")" >> "$RAW"
    done
done

# The all-events scanner: built from the AFTER tree when it has one.
src=$(dirname "$AFTER")
if [ -f "$src/bench/colscan_bench.c" ] && make -s -C "$src" obj/colscan_bench >&2; then
    scan=$src/obj/colscan_bench
    size=$(wc -c < "$ev9")
    say "bench/reader: the all-events scanner on $(basename "$ev9")"
    res=$("$scan" "$ev9" "$((RUNS * 2 + 1))") || die "colscan_bench: $res"
    mbs=$(awk -F'\t' '$1 == "MB_per_s" { m = $2 } $1 == "bytes" { b = $2 }
                     $1 == "best_s" { t = $2 } END { printf "%s (best %.0f)", m, b / t / 1e6 }' <<< "$res")
    ok=$(awk -F'\t' '$1 == "sums_equal_totals" { print $2 }' <<< "$res")
    out=$WORK/reader/colscan.callgrind.out
    "$VALGRIND" --tool=callgrind --callgrind-out-file="$out" --log-file="$out.log" \
        "$scan" "$ev9" 1 > /dev/null
    irb=$(python3 "$BENCH/reader_report.py" incl "$out" scan "$size")
    printf 'scan\t%s\t%s\t%s\t%s\n' "cc1 9 events" "$mbs" "$irb" "$ok" >> "$RAW"
fi

echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$META"
report=$WORK/reader/report.md
python3 "$BENCH/reader_report.py" table "$RAW" "$META" > "$report"
cat "$report"
host=$(uname -n); host=${host%%.*}
cp "$report" "$RESULTS/$(date +%Y-%m-%d)-$host-reader.md"
say "bench/reader: written $RESULTS/$(date +%Y-%m-%d)-$host-reader.md"
