#!/bin/sh
# Time callgrind_fold -f svg on a generated folded file of LINES lines
# (default 1000000): prints the time, lines/s, the SVG's size and the
# peak memory; one run (bench/render-bench.sh compares, with flamegraph.pl).
# The input is made by workloads/gen_folded.py and kept in $BENCH_WORK.
# Usage: render-svg.sh [CALLGRIND_FOLD] [LINES]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
fold=${1:-$top/dist/bin/callgrind_fold}
lines=${2:-1000000}
work=${BENCH_WORK:-$top/bench/work}
mkdir -p "$work"
in=$work/render-$lines.folded
out=$work/render-$lines.svg

if [ ! -s "$in" ]; then
    python3 "$top/bench/workloads/gen_folded.py" "$lines" > "$in.tmp" && mv "$in.tmp" "$in"
fi

if [ -x /usr/bin/time ]; then
    timing=$( { /usr/bin/time -f "%e %M" "$fold" -f svg -o "$out" "$in"; } 2>&1 | tail -1)
    secs=${timing% *}
    kb=${timing#* }
else
    start=$(date +%s.%N)
    "$fold" -f svg -o "$out" "$in"
    end=$(date +%s.%N)
    secs=$(echo "$end - $start" | bc)
    kb=?
fi
size=$(wc -c < "$out")
frames=$(grep -c '<g class="f"' "$out" || true)
rate=$(awk -v n="$lines" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
echo "render-svg: $lines lines in ${secs} s ($rate lines/s), svg $size bytes, $frames frames, peak ${kb} KB"
