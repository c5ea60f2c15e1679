#!/bin/sh
# Time callgrind_fold -f svg on a generated folded file of LINES lines
# (default 1000000): prints the time, lines/s, the SVG's size and the
# peak memory. Usage: render-svg.sh [CALLGRIND_FOLD] [LINES]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
fold=${1:-$top/dist/bin/callgrind_fold}
lines=${2:-1000000}
work=${BENCH_WORK:-$top/bench/work}
mkdir -p "$work"
in=$work/render-$lines.folded
out=$work/render-$lines.svg

if [ ! -s "$in" ]; then
    # A program-like call tree: a few hot paths from main, then deep and
    # varied stacks under them (2000 function names, depth up to 28).
    python3 - "$lines" > "$in" <<'PY'
import random, sys
n = int(sys.argv[1])
rnd = random.Random(42)
fn = ["ns::Class%d::method_%d" % (i % 50, i) for i in range(2000)]
hot = [["main", "run", fn[i], fn[i + 1]] for i in range(0, 60, 2)]
out = sys.stdout
for i in range(n):
    stack = hot[rnd.randrange(len(hot))] + [fn[rnd.randrange(200 + (i % 1800))]
                                            for _ in range(rnd.randint(1, 24))]
    out.write(";".join(stack) + " %d\n" % rnd.randint(1, 5000))
PY
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
