#!/bin/sh
# callgrind_fold --diff OLD NEW -f md on two runs of CodSpeed's real Node
# harness (@codspeed/tinybench-plugin, as in tests/harness-node.sh): the
# second run doubles one benchmark's work (fib(20) called twice), renames
# another and adds a benchmark before the unchanged one, so that it moves
# to another part number.  The Markdown table must lead with the doubled
# benchmark at about +100% (between +80% and +120%), show the unchanged
# one within 3% of 0, and the renamed one as removed and added: parts are
# paired by benchmark name, not by number.
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind
fold=${FOLD:-$PREFIX/bin/callgrind_fold}

skip() { echo "SKIP: report-diff-node ($*)"; exit 0; }
npm_bench_repo
[ -x "$vg" ] && [ -x "$fold" ] || { fail "report-diff-node: $vg or $fold missing"; finish; }

flags="--interpreted-frames-native-stack --allow-natives-syntax --hash-seed=1 --random-seed=1 --no-opt --predictable --predictable-gc-schedule --expose-gc --no-concurrent-sweeping --max-old-space-size=4096"
node_bin=$(realpath "$(command -v node)")

# bench RUN FIB_CALLS STRING_NAME EXTRA: one run's benchmarks, profiled into
# $scratch/RUN/ (the profile of the process whose parts name them).
bench() {
    cat > "$repo/benches/bench.mjs" <<EOB
import { Bench } from "tinybench";
import { withCodSpeed } from "@codspeed/tinybench-plugin";

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function parseRows(text) {
  return text.split("\n").map((line) => {
    const [id, name, score] = line.split(",");
    return { id: Number(id), name, score: parseFloat(score) };
  });
}

const csv = Array.from({ length: 200 }, (_, i) => \`\${i},name\${i},\${(i * 7) % 13}.5\`).join("\n");

function buildString(n) {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + (i % 26));
  return s;
}

const bench = withCodSpeed(new Bench({ iterations: 1, time: 0, warmup: false }));
bench
  .add("fib 20", () => { for (let i = 0; i < $2; i++) fib(20); })
  $4
  .add("parse rows", () => { parseRows(csv); })
  .add("$3", () => { buildString(2000); });
await bench.run();
EOB
    (cd "$repo" && git add benches && git -c user.name=test -c user.email=test@example.invalid \
        -c commit.gpgsign=false commit -q -m "$1" --allow-empty) || return 1
    mkdir -p "$scratch/$1"
    # shellcheck disable=SC2086 # $flags: one word per flag
    (cd "$repo" && export CODSPEED_ENV=runner CODSPEED_RUNNER_MODE=instrumentation &&
        codspeed_valgrind "$node_bin" "$scratch/$1" node $flags benches/bench.mjs) \
        > "$scratch/$1.log" 2>&1 || { sed 's/^/  log: /' "$scratch/$1.log"; return 1; }
    grep -l '^desc: Trigger: Client Request: benches/bench.mjs::' "$scratch/$1"/*.out | head -n 1
}

: > "$repo/benches/bench.mjs"
commit_bench_repo || { fail "report-diff-node: git repository for the benchmark"; finish; }
old=$(bench old 1 "string building" "") && [ -n "$old" ] \
    || { fail "report-diff-node: the first run under callgrind"; finish; }
new=$(bench new 2 "string concat" '.add("fib 10", () => { fib(10); })') && [ -n "$new" ] \
    || { fail "report-diff-node: the second run under callgrind"; finish; }

# REPORT_KEEP=DIR: keep both runs' profiles for a look
if [ -n "${REPORT_KEEP:-}" ]; then
    mkdir -p "$REPORT_KEEP" && cp -r "$scratch/old" "$scratch/new" "$REPORT_KEEP"/ \
        && echo "  info: profiles kept in $REPORT_KEEP"
fi
md=$scratch/diff.md
"$fold" --diff "$old" "$new" -f md -o "$md" 2> "$scratch/fold.err"
rc=$?
sed 's/^/  md: /' "$md" "$scratch/fold.err"
check "report-diff-node: --diff OLD NEW -f md exits 0" [ $rc -eq 0 ]
# The first table's rows: | name | old | new | change |
rows=$(awk '/^\| Benchmark/ { n++; next } n == 1 && /^\| / { print } n == 1 && /^$/ { exit }' "$md")
first=$(printf '%s\n' "$rows" | head -n 1)
check "report-diff-node: the doubled benchmark leads" \
    sh -c 'printf "%s\n" "$1" | grep -q "^| benches/bench.mjs::fib 20 |"' - "$first"
pct() { printf '%s\n' "$rows" | grep -F "| benches/bench.mjs::$1 |" | awk -F'|' '{ gsub(/[ %+]/, "", $5); print $5 }'; }
fibpct=$(pct "fib 20")
check "report-diff-node: fib 20 grew by about 100% (+80..+120%, got $fibpct)" \
    awk -v p="$fibpct" 'BEGIN { exit !(p != "" && p + 0 >= 80 && p + 0 <= 120) }'
rowspct=$(pct "parse rows")
check "report-diff-node: parse rows changed by under 3% (got $rowspct)" \
    awk -v p="$rowspct" 'BEGIN { exit !(p != "" && p + 0 > -3 && p + 0 < 3) }'
check "report-diff-node: the renamed benchmark is removed" \
    grep -q 'string building.*removed' "$md"
check "report-diff-node: the renamed benchmark is added" \
    grep -q 'string concat.*added' "$md"
finish
