#!/usr/bin/env bash
# SVG rendering of 1,000,000 folded lines, side by side in one run (issue
# 28): FlameGraph's flamegraph.pl (scripts/flamegraph-pl.sh, pinned), the
# callgrind_fold to measure ("after") and, when given, another build of it
# ("before", e.g. one of main), alternately on the same input, each writing
# an SVG file.  Prints a markdown table: median wall and CPU times,
# lines/s, peak memory, and the speed-up over flamegraph.pl (median of the
# per-round ratios flamegraph.pl / callgrind_fold, with min and max);
# before and after are also compared with each other, and their SVGs must
# be byte-identical (exit 1 if not).  Progress goes to stderr.
#
# Without flamegraph.pl (not a Debian system, no perl, the pinned package
# not in the archive) its row says SKIP with the reason and the other rows
# are still timed.  flamegraph.pl takes about 100 s and 5 GB of memory on
# the million lines, so it runs in the first BENCH_RENDER_FG_RUNS rounds
# only.
#
# The input is workloads/gen_folded.py's, made once and kept as
# $BENCH_WORK/render-LINES.folded (also used by render-svg.sh).
#
# Usage: render-bench.sh [AFTER [BEFORE]]
#   AFTER   callgrind_fold to measure (default: $BENCH_PATCHED/bin/callgrind_fold,
#           BENCH_PATCHED defaulting to <repo>/dist)
#   BEFORE  callgrind_fold to compare with (default: $BENCH_RENDER_BEFORE; none)
# Environment: BENCH_RENDER_LINES (1000000), BENCH_RENDER_RUNS (BENCH_RUNS,
#   else 5: rounds of callgrind_fold), BENCH_RENDER_FG_RUNS (3: rounds that
#   run flamegraph.pl first; 0: none), BENCH_WARMUP (1: unmeasured rounds
#   of callgrind_fold before), BENCH_WORK (bench/work)
set -euo pipefail
export LC_ALL=C

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
AFTER=${1:-${BENCH_PATCHED:-$ROOT/dist}/bin/callgrind_fold}
BEFORE=${2:-${BENCH_RENDER_BEFORE:-}}
LINES=${BENCH_RENDER_LINES:-1000000}
RUNS=${BENCH_RENDER_RUNS:-${BENCH_RUNS:-5}}
FG_RUNS=${BENCH_RENDER_FG_RUNS:-3}
WARMUP=${BENCH_WARMUP:-1}
WORK=${BENCH_WORK:-$BENCH/work}

say() { printf '%s\n' "$*" >&2; }
die() { say "bench/render: error: $*"; exit 1; }

for v in LINES RUNS FG_RUNS WARMUP; do
    case ${!v} in ''|*[!0-9]*) die "$v must be a non-negative integer" ;; esac
done
[ "$RUNS" -ge 1 ] || die "BENCH_RENDER_RUNS must be at least 1"
[ -x "$AFTER" ] || die "no callgrind_fold at $AFTER"
[ -z "$BEFORE" ] || [ -x "$BEFORE" ] || die "no callgrind_fold at $BEFORE"
[ -x /usr/bin/time ] || die "/usr/bin/time is needed (apt-get install time)"
command -v python3 > /dev/null 2>&1 || die "python3 is needed"

dir=$WORK/render
mkdir -p "$dir"
input=$WORK/render-$LINES.folded
if [ ! -s "$input" ]; then
    say "bench/render: making $input ($LINES lines)"
    python3 "$BENCH/workloads/gen_folded.py" "$LINES" > "$input.tmp" && mv "$input.tmp" "$input"
fi

fg='' fg_why=''
if [ "$FG_RUNS" -eq 0 ]; then
    fg_why="BENCH_RENDER_FG_RUNS=0"
elif ! fg=$(sh "$ROOT/scripts/flamegraph-pl.sh" 2> "$dir/flamegraph-pl.err"); then
    fg=
    fg_why=$(tr '\n' ' ' < "$dir/flamegraph-pl.err" | sed 's/^flamegraph-pl: //; s/ *$//')
fi
[ -n "$fg" ] || say "bench/render: flamegraph.pl: SKIP ($fg_why)"

RAW=$dir/raw.tsv
: > "$RAW"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# run_tool NAME PASS INDEX COMMAND...: the command writes $dir/NAME.svg
# (flamegraph.pl: its standard output); appends "NAME pass index wall cpu
# rss_kb rc" to $RAW.
LAST_WALL=0
run_tool() {
    local name=$1 pass=$2 idx=$3 tf=$dir/$1.time t0 t1 rc=0 usr sys rss
    shift 3
    rm -f "$tf" "$dir/$name.svg"
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%U %S %M' -o "$tf" "$@" > "$dir/$name.out" 2> "$dir/$name.stderr" || rc=$?
    if [ "$name" = flamegraph.pl ]; then mv "$dir/$name.out" "$dir/$name.svg"; fi
    t1=$EPOCHREALTIME
    read -r usr sys rss < <(tail -n 1 "$tf" 2> /dev/null || true) || true
    LAST_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$pass" "$idx" "$LAST_WALL" \
        "$(awk -v u="${usr:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.2f", u + s }')" \
        "${rss:-0}" "$rc" >> "$RAW"
    [ "$rc" -eq 0 ] || { say "bench/render: $name failed (exit $rc); see $dir/$name.stderr"; return 1; }
}

size=$(wc -c < "$input")
say "bench/render: $LINES lines ($((size / 1000000)) MB): $WARMUP warm-up + $RUNS rounds" \
    "(flamegraph.pl in the first $([ -n "$fg" ] && echo "$FG_RUNS" || echo 0))"
total=$((WARMUP + RUNS))
for ((i = 1; i <= total; i++)); do
    if [ "$i" -le "$WARMUP" ]; then pass=warm idx=$i; else pass=run idx=$((i - WARMUP)); fi
    msg="bench/render:   $pass $idx:"
    if [ "$pass" = run ] && [ -n "$fg" ] && [ "$idx" -le "$FG_RUNS" ]; then
        run_tool flamegraph.pl "$pass" "$idx" perl "$fg" "$input" || exit 1
        msg="$msg flamegraph.pl $(printf '%.1f' "$LAST_WALL")s"
    fi
    if [ -n "$BEFORE" ]; then
        run_tool before "$pass" "$idx" "$BEFORE" -f svg -o "$dir/before.svg" "$input" || exit 1
        msg="$msg before $(printf '%.3f' "$LAST_WALL")s"
    fi
    run_tool after "$pass" "$idx" "$AFTER" -f svg -o "$dir/after.svg" "$input" || exit 1
    say "$msg after $(printf '%.3f' "$LAST_WALL")s"
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

same=-
if [ -n "$BEFORE" ]; then
    if cmp -s "$dir/before.svg" "$dir/after.svg"; then same=yes; else same=NO; fi
fi

fg_label="flamegraph.pl (Debian libdevel-nytprof-perl 6.12+dfsg-1)"
python3 - "$RAW" "$LINES" "$size" "$fg_label" "$fg_why" "$BEFORE" "$AFTER" "$same" \
    "$load_start" "$load_end" "$RUNS" <<'PY'
import statistics as st
import sys

raw, lines, size, fg_label, fg_why, before, after, same, l0, l1, runs = sys.argv[1:]
lines, size = int(lines), int(size)
rows = {}
for line in open(raw):
    name, pas, idx, wall, cpu, rss, rc = line.rstrip("\n").split("\t")
    if pas == "run":
        rows.setdefault(name, {})[int(idx)] = (float(wall), float(cpu), int(rss))

def med(xs):
    return st.median(xs) if xs else None

def ratio(num, den, k):
    """Per-round ratios num/den of column k over the rounds both ran."""
    a, b = rows.get(num, {}), rows.get(den, {})
    return [a[i][k] / b[i][k] for i in sorted(set(a) & set(b)) if b[i][k] > 0]

def spread(rs, fmt):
    if not rs:
        return "-"
    s = fmt % med(rs)
    return s + (" (" + fmt % min(rs) + "-" + fmt % max(rs) + ")" if len(rs) > 1 else "")

def num(x, fmt):
    return "-" if x is None else fmt % x

print("### SVG rendering of %s folded lines, side by side" % format(lines, ","))
print()
print("`bench/render-bench.sh`: `flamegraph.pl FILE > out.svg` and "
      "`callgrind_fold -f svg -o out.svg FILE` on the same file "
      "(`workloads/gen_folded.py`, %s lines, %.1f MB), alternating, %s rounds "
      "(flamegraph.pl in the first %d); load average %s at the start, %s at the end."
      % (format(lines, ","), size / 1e6, runs, len(rows.get("flamegraph.pl", {})), l0, l1))
print()
print("| renderer | rounds | median s | CPU s | lines/s | speed-up over flamegraph.pl (min-max) | CPU speed-up | peak MB |")
print("|---|--:|--:|--:|--:|--:|--:|--:|")
for name, label in (("flamegraph.pl", fg_label),
                    ("before", "callgrind_fold before (`%s`)" % before),
                    ("after", "callgrind_fold after (`%s`)" % after)):
    r = rows.get(name)
    if not r:
        if name == "flamegraph.pl":
            print("| %s | SKIP: %s | | | | | | |" % (label, fg_why or "not run"))
        continue
    wall = med([v[0] for v in r.values()])
    cpu = med([v[1] for v in r.values()])
    rss = med([v[2] for v in r.values()]) / 1024
    if name == "flamegraph.pl":
        up, cpu_up = "1", "1"
    else:
        up = spread(ratio("flamegraph.pl", name, 0), "%.0f")
        cpu_up = spread(ratio("flamegraph.pl", name, 1), "%.0f")
    print("| %s | %d | %s | %s | %s | %s | %s | %s |"
          % (label, len(r), num(wall, "%.3f"), num(cpu, "%.2f"),
             format(round(lines / wall), ","), up, cpu_up, format(round(rss), ",")))
print()
if rows.get("before") and rows.get("after"):
    print("after against before: %sx as fast (wall, median of per-round ratios, min-max), "
          "%sx by CPU time; SVG byte-identical: %s."
          % (spread(ratio("before", "after", 0), "%.2f"),
             spread(ratio("before", "after", 1), "%.2f"), same))
ups = ratio("flamegraph.pl", "after", 0)
if ups and lines == 1000000:
    print("Target (issue 28), flamegraph.pl / callgrind_fold at least 100 (wall, median): %s."
          % ("met" if med(ups) >= 100 else "NOT met"))
PY
[ "$same" != NO ] || { say "bench/render: FAILED: before and after wrote different SVGs"; exit 1; }
