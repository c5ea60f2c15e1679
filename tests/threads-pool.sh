#!/bin/sh
# A C benchmark harness whose benchmarks hand their work to a pool of
# three named threads (examples/pool.c), run twice under CodSpeed's
# runner's command line with --separate-threads=yes:
#   - each benchmark is one part with a section per thread, the pool
#     threads holding its work; callgrind_fold -f md shows one row per
#     benchmark, the sum over its threads (tests/threads_check.py);
#   - --diff of the two runs: every benchmark within 1%, no "(2)" rows;
#   - --thread=NAME and --thread=LWPID: exactly that thread's costs;
#   - -f html in headless Chromium: one table row per benchmark with the
#     sum, flame graphs drawn with a frame per pool thread;
#   - without --combine-dumps, callgrind_annotate reads each thread's file.
. "$(dirname "$0")/lib.sh"
fold=$PREFIX/bin/callgrind_fold
bin=$(examples)/pool

for run in 1 2; do
    mkdir -p "$scratch/run$run"
    codspeed_valgrind /nonexistent/libnothing.so "$scratch/run$run" --separate-threads=yes \
        "$bin" > "$scratch/run$run.log" 2>&1
    check "threads-pool: run $run exits 0" [ $? -eq 0 ] || sed 's/^/  log: /' "$scratch/run$run.log"
done
out1=$(ls "$scratch"/run1/*.out) out2=$(ls "$scratch"/run2/*.out)
python3 "$top/tests/threads_check.py" --label threads-pool --fold "$fold" \
    --bench bench_hash --bench bench_sort --worker-share 0.9 "$out1" || failures=$((failures + 1))

# --diff: benchmarks paired by name, their sums compared
"$fold" --diff "${out1%.out}.folded" "${out2%.out}.folded" -f md > "$scratch/diff.md" 2> "$scratch/diff.err"
check "threads-pool: --diff -f md exits 0" [ $? -eq 0 ] || cat "$scratch/diff.err"
# the first table: Benchmark | before | after | Change
rows=$(awk -F'|' '/^\| Benchmark/ { t++ } t == 1 && /^$/ { t++ }
                  t == 1 && $2 ~ /bench/ { gsub(/[ \\%+]/, "", $2); gsub(/[ %+]/, "", $5); print $2, $5 }' \
       "$scratch/diff.md")
echo "$rows" | sed 's/^/  diff: /'
check "threads-pool: --diff has one row per benchmark" \
    [ "$(echo "$rows" | awk '{ print $1 }' | sort | tr '\n' ' ')" = "bench_hash bench_sort " ]
check "threads-pool: --diff: every benchmark within 1%" \
    awk '{ c = $2 + 0; if (c > 1 || c < -1) bad = 1 } END { exit bad }' <<EOF2
$rows
EOF2

# --thread: one thread's costs; its sections' totals in part 1 (bench_hash)
section_total() { # FILE PART FIELD VALUE: Ir of the section of PART whose FIELD line has VALUE
    awk -v part="$2" -v key="$3" -v val="$4" '
        /^part:/ { p = $2; hit = 0 }
        index($0, key) == 1 && substr($0, length(key) + 1) == val && p == part { hit = 1 }
        /^totals:/ && hit { print $2; hit = 0 }' "$1"
}
same_number() { [ -n "$1" ] && [ "$1" = "$2" ]; }
want=$(section_total "$out1" 1 "desc: Thread name: " pool-1)
got=$("$fold" --part=1 --thread=pool-1 "${out1%.out}.folded" | awk '{ s += $NF } END { print s + 0 }')
check "threads-pool: --thread=pool-1 --part=1 is pool-1's section ($want)" same_number "$want" "$got" \
    || echo "  got $got"
lwpid=$(awk '/^desc: Thread name: pool-2$/ { print t; exit } /^thread:/ { t = $2 }' "$out1")
want=$(section_total "$out1" 1 "thread: " "$lwpid")
got=$("$fold" --part=1 --thread="$lwpid" "$out1" | awk '{ s += $NF } END { print s + 0 }')
check "threads-pool: --thread=<lwpid of pool-2> on callgrind.out is its section ($want)" \
    same_number "$want" "$got" || echo "  got $got"

# the report page in headless Chromium
html=$scratch/report.html
"$fold" -f html -o "$html" "${out1%.out}.folded" 2> "$scratch/html.err"
check "threads-pool: -f html exits 0" [ $? -eq 0 ] || cat "$scratch/html.err"
pw=$BUILD/npm-browser/node_modules/playwright-core
[ -d "$pw" ] || npm install --no-save --no-audit --no-fund --prefix "$BUILD/npm-browser" \
    playwright-core > "$scratch/npm.log" 2>&1
if ! command -v chromium > /dev/null 2>&1; then
    echo "SKIP: threads-pool: report page in Chromium (chromium is not installed: apt-get install chromium)"
elif [ ! -d "$pw" ]; then
    echo "SKIP: threads-pool: report page in Chromium (playwright-core could not be installed from npm: $(tail -n 1 "$scratch/npm.log" 2>/dev/null))"
else
    mkdir -p "$scratch/chromium"
    node "$top/tests/threads_html_check.js" "$(dirname "$pw")" "$(command -v chromium)" "$html" \
        "$BUILD/threads-pool.png" "$scratch/chromium" > "$scratch/page.json" 2> "$scratch/page.err"
    python3 - "$scratch/page.json" "$out1" "$top/tests" <<'PY' || failures=$((failures + 1))
import json, sys
sys.path.insert(0, sys.argv[3])
from threads_check import sections
page = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
secs = sections(sys.argv[2])
bad = 0
def check(name, ok, detail=""):
    global bad
    print(("PASS: " if ok else "FAIL: ") + "threads-pool: page: " + name)
    if not ok:
        bad = 1
        if detail:
            print("  " + str(detail)[:2000])
res = page.get("result") or {}
check("no script errors", not page.get("errors"), page.get("errors"))
rows = res.get("rows") or []
def name_of(row):  # the first cell that is not a number (the part's comes first)
    return next((c for c in row if c and not c.replace(",", "").isdigit()), "")
names = [name_of(r) for r in rows]
check("one table row per benchmark", sorted(names) == ["bench_hash", "bench_sort"], rows)
for b in ("bench_hash", "bench_sort"):
    total = sum(s["total"] for s in secs if s["trigger"] == "Client Request: " + b)
    cells = next((r for r in rows if name_of(r) == b), [])
    values = [c.replace(",", "").replace("\u202f", "").replace(" ", "") for c in cells]
    check(f"{b}'s row shows the sum of its threads ({total})", str(total) in values, cells)
parts = res.get("parts") or []
check("every flame graph drawn", parts and all(p["drawn"] > 0 for p in parts), parts)
for i, p in enumerate(parts):
    check(f"part {i + 1}: a frame per pool thread",
          all(f"pool-{k}" in p["top"] for k in range(3)), p["top"])
sys.exit(bad)
PY
fi

# one file per thread and dump: callgrind_annotate reads each
mkdir -p "$scratch/files"
"$PREFIX/bin/valgrind" -q --tool=callgrind --separate-threads=yes --instr-atstart=no \
    --callgrind-out-file="$scratch/files/cg.out" "$bin" > /dev/null 2>&1
n=0 bad=0
for f in "$scratch"/files/cg.out.*; do
    n=$((n + 1))
    perl "$PREFIX/bin/callgrind_annotate" "$f" > "$scratch/annotate.txt" 2>&1 || bad=1
    if grep -q "^desc: Thread name: pool" "$f"; then
        grep -q "_chunk" "$scratch/annotate.txt" || bad=1
    fi
done
annotated() { [ "$1" -ge 8 ] && [ "$2" -eq 0 ]; }
check "threads-pool: callgrind_annotate reads each of the $n per-thread files" annotated $n $bad
finish
