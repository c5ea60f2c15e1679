#!/bin/sh
# CodSpeed's own Node integration end to end: @codspeed/tinybench-plugin
# 5.7.1 (+ @codspeed/core 5.7.1, tinybench 6.2.3, from the npm registry,
# installed once in $BUILD/npm-harness by scripts/npm-harness.sh) runs
# three benchmarks under the patched callgrind with exactly the command
# line of CodSpeed's runner (docs: /work/shared/notes/harnesses.md), plus
# --dump-folded=yes.  Checks (tests/harness-check.py): one part per
# benchmark named by its uri, summary: = totals:, the twin's stacks of
# each part sum to its totals for every event, no frame of the skipped
# node binary, the benchmarks' cost is there.  JavaScript frames are named
# from the perf map the addon writes (callgrind's --perf-map=yes), so:
# every benchmark's stacks run through __codspeed_root_frame__, more than
# half of each benchmark's cost sits below its own JavaScript function
# (parseRows, fib, buildString: frames named from the map, in object
# /tmp/perf-<pid>.map) below the root frame, and under 5% of it is in leaf
# frames named 0x... (code neither an ELF symbol nor the map names).  The
# profiles are printed as info; fib(15)'s recursion is checked exactly 15
# deep: one frame per call.  (Functions V8 compiled with Sparkplug, as all
# three are here after the plugin's warm-up, call the skipped builtin
# BaselineOutOfLinePrologue, which returns to them with their new frame's
# slots left on the stack: callgrind took that `ret`, below the caller's
# stack pointer, for a new call, and fib(15) was 30 frames deep.)
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind
fold=$PREFIX/bin/callgrind_fold

skip() { echo "SKIP: harness-node ($*)"; exit 0; }
command -v nm > /dev/null 2>&1 || skip "nm (binutils) is not installed"
npm_bench_repo
[ -x "$vg" ] && [ -x "$fold" ] || { fail "harness-node: $vg or $fold missing"; finish; }

# The benchmarks, in a throwaway git repository (like CodSpeed's runner,
# node runs at its root).
mkdir -p "$scratch/out"
cat > "$repo/benches/bench.mjs" <<'EOF'
import { Bench } from "tinybench";
import { withCodSpeed } from "@codspeed/tinybench-plugin";

const csv = Array.from({ length: 200 }, (_, i) => `${i},name${i},${(i * 7) % 13}.5`).join("\n");

function parseRows(text) {
  return text.split("\n").map((line) => {
    const [id, name, score] = line.split(",");
    return { id: Number(id), name, score: parseFloat(score) };
  });
}

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function buildString(n) {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + (i % 26));
  return s;
}

// Under instrumentation the plugin runs each benchmark 7 times unmeasured
// (to warm up and optimise) and once measured, whatever these options say.
const bench = withCodSpeed(new Bench({ iterations: 1, time: 0, warmup: false }));
bench
  .add("parse rows", () => { parseRows(csv); })
  .add("fib 15", () => { fib(15); })
  .add("string building", () => { buildString(2000); });
await bench.run();

// Not part of a CodSpeed benchmark: for the checks, where code lies.
if (process.env.HARNESS_MAPS) {
  const fs = await import("node:fs");
  fs.writeFileSync(process.env.HARNESS_MAPS, fs.readFileSync("/proc/self/maps"));
}
EOF
commit_bench_repo || { fail "harness-node: git repository for the benchmark"; finish; }

# Node flags of CodSpeed's runner in instrumentation mode; the runner gets
# them from the plugin itself (__CODSPEED_NODE_CORE_INTROSPECTION_PATH__).
flags="--interpreted-frames-native-stack --allow-natives-syntax --hash-seed=1 --random-seed=1 --no-opt --predictable --predictable-gc-schedule --expose-gc --no-concurrent-sweeping --max-old-space-size=4096"
(cd "$repo" && __CODSPEED_NODE_CORE_INTROSPECTION_PATH__=$scratch/introspect.json \
    CODSPEED_ENV=runner CODSPEED_RUNNER_MODE=instrumentation node benches/bench.mjs > /dev/null 2>&1)
asked=$(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["flags"]))' \
    "$scratch/introspect.json" 2>/dev/null)
check "harness-node: the plugin asks for the runner's node flags" [ "$asked" = "$flags" ] \
    || echo "  plugin: $asked"

node_bin=$(realpath "$(command -v node)")
out=$scratch/out
start=$(date +%s)
# shellcheck disable=SC2086 # $flags: one word per flag
(cd "$repo" && export HARNESS_MAPS="$out/maps" CODSPEED_ENV=runner \
    CODSPEED_RUNNER_MODE=instrumentation &&
    codspeed_valgrind "$node_bin" "$out" node $flags benches/bench.mjs) > "$scratch/run.log" 2>&1
rc=$?
echo "  info: node under callgrind: exit status $rc, $(($(date +%s) - start)) s"
sed 's/^/  log: /' "$scratch/run.log"
check "harness-node: node under callgrind exits 0" [ $rc -eq 0 ]
check "harness-node: the plugin measured 3 benchmarks (found callgrind)" \
    [ "$(grep -c '^\[CodSpeed\] Measured benches/bench.mjs::' "$scratch/run.log")" -eq 3 ]

# The profile of the process that ran the benchmarks (one per pid with
# --trace-children=yes: node runs no other process here).
prof=$(grep -l '^desc: Trigger: Client Request: benches/bench.mjs::' "$out"/*.out 2>/dev/null | head -n 1)
if [ -z "$prof" ]; then
    fail "harness-node: a callgrind.out with the benchmarks' parts (files: $(ls "$out" | tr '\n' ' '))"
    finish
fi
pid=$(basename "$prof" .out)
twin=$out/$pid.folded
perfmap=/tmp/perf-$pid.map # written by the plugin's native addon
check "harness-node: the folded twin $pid.folded exists" [ -s "$twin" ]
python3 "$top/tests/harness-check.py" --fold "$fold" --label harness-node --file bench.mjs \
    --bench "parse rows" --bench "fib 15" --bench "string building" \
    --skip-obj "$node_bin" --root-frame __codspeed_root_frame__ --root-frame-required \
    --perf-map "$perfmap" --maps "$out/maps" \
    --own-frame "parse rows=^Function:parseRows file:" --own-frame "fib 15=^Function:fib file:" \
    --own-frame "string building=^Function:buildString file:" \
    --map-frame "parse rows=^Function:parseRows file:" --map-frame "fib 15=^Function:fib file:" \
    --map-frame "string building=^Function:buildString file:" \
    --repeat "fib 15=^Function:fib file::=15" --max-anon-leaf 5 \
    "$prof" "$twin" || failures=$((failures + 1))
# HARNESS_KEEP=DIR: keep the profiles and the benchmark for a look
if [ -n "${HARNESS_KEEP:-}" ]; then
    mkdir -p "$HARNESS_KEEP" && cp -r "$out"/. "$repo/benches/bench.mjs" "$HARNESS_KEEP"/ \
        && { [ ! -f "$perfmap" ] || cp "$perfmap" "$HARNESS_KEEP"/; } && echo "  info: outputs kept in $HARNESS_KEEP"
fi
finish
