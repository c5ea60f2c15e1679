#!/bin/sh
# A Node benchmark that hands its work to a worker_threads Worker, under
# CodSpeed's runner's command line for tracked subprocesses
# (--instr-atstart=inherit --separate-threads=yes, node hidden with
# --obj-skip), with CodSpeed's tinybench plugin (pinned,
# scripts/npm-harness.sh).  The benchmark's part holds a section for the
# Worker's thread with the Worker's work, and callgrind_fold reports it as
# one benchmark whose cost is the sum of its threads
# (tests/threads_check.py).
. "$(dirname "$0")/lib.sh"

skip() { echo "SKIP: threads-node ($*)"; exit 0; }
npm_bench_repo

cat > "$repo/benches/crunch.mjs" <<'JS'
import { parentPort } from "node:worker_threads";

function crunch(n) {
  let h = 0;
  for (let i = 0; i < n; i++) h = (h * 31 + i) | 0;
  return h;
}

parentPort.on("message", (n) => parentPort.postMessage(crunch(n)));
JS
cat > "$repo/benches/bench.mjs" <<'JS'
import { Worker } from "node:worker_threads";
import { Bench } from "tinybench";
import { withCodSpeed } from "@codspeed/tinybench-plugin";

const worker = new Worker(new URL("./crunch.mjs", import.meta.url));
function onWorker(n) {
  return new Promise((resolve) => {
    worker.once("message", resolve);
    worker.postMessage(n);
  });
}
await onWorker(10); // the Worker is up before anything is measured

const bench = withCodSpeed(new Bench({ iterations: 1, time: 0, warmup: false }));
bench.add("worker crunch", async () => { await onWorker(300000); });
await bench.run();
await worker.terminate();
JS
commit_bench_repo || { fail "threads-node: git repository for the benchmark"; finish; }

node_bin=$(realpath "$(command -v node)")
out=$scratch/profile
mkdir -p "$out"
(cd "$repo" && CODSPEED_ENV=runner CODSPEED_RUNNER_MODE=instrumentation \
    codspeed_valgrind "$node_bin" "$out" --instr-atstart=inherit --separate-threads=yes \
    node --interpreted-frames-native-stack --allow-natives-syntax --hash-seed=1 \
    --random-seed=1 --no-opt --predictable --predictable-gc-schedule --expose-gc \
    --no-concurrent-sweeping --max-old-space-size=4096 benches/bench.mjs) \
    > "$scratch/run.log" 2>&1
rc=$?
sed 's/^/  log: /' "$scratch/run.log" | tail -n 20
check "threads-node: valgrind and the benchmark exit 0" [ $rc -eq 0 ] || finish
python3 "$top/tests/threads_check.py" --label threads-node \
    --fold "$PREFIX/bin/callgrind_fold" --bench "benches/bench.mjs::worker crunch" \
    --worker-share 0.5 "$out"/*.out || failures=$((failures + 1))
finish
