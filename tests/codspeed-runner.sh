#!/bin/sh
# CodSpeed's runner, reproduced: its newest command line per benchmark
# process (src/executor/valgrind/measure.rs, see
# notes/codspeed-dropin.md), with our valgrind installed in its
# place, runs CodSpeed's Node integration (@codspeed/tinybench-plugin,
# pinned in scripts/npm-harness.sh) on two benchmarks:
#
#   setarch <arch> --addr-no-randomize valgrind -q --trace-children=yes
#     --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64
#     --collect-systime=nsec --read-inline-info=yes
#     --instr-atstart=no|inherit --separate-threads=no|yes
#     --cycle-estimation=yes --tool=callgrind --compress-strings=no
#     --combine-dumps=yes --dump-line=no --trace-children-skip=*esbuild
#     --obj-skip=<node> --callgrind-out-file=<dir>/%p.out
#     --log-file=<dir>/valgrind.%p.log <wrapper.sh> "<command>" <status file>
#
# with the runner's environment (PYTHONMALLOC=malloc, PYTHONHASHSEED=0,
# CODSPEED_ENV=runner, CODSPEED_RUNNER_MODE=instrumentation,
# CODSPEED_PROFILE_FOLDER=<dir>) and docs/codspeed.md's recipe's
# VALGRIND_OPTS=--dump-folded=yes, in both variants (no/no and
# inherit/yes).  The runner first checks `valgrind --version`
# (tests/version.sh checks that parse).  Checks
# (tests/codspeed-runner-check.py): valgrind and the benchmark command
# exit 0 (the wrapper's status file says 0), each benchmark exactly one
# part, each part's header in CodSpeed's order, Ct and Cl among the
# events, a tree <pid>.out.folded in <dir> beside every profile summing
# exactly to each section's totals for every event, and the logs holding
# no line that stock Valgrind does not print for the same command (stock
# runs it with the options it knows).
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind
stock=$STOCK_PREFIX/bin/valgrind

skip() { echo "SKIP: codspeed-runner ($*)"; exit 0; }
command -v setarch > /dev/null 2>&1 || skip "setarch (util-linux) is not installed"
command -v bash > /dev/null 2>&1 || skip "bash is not installed (the runner's wrapper script)"
npm_bench_repo
[ -x "$vg" ] && [ -x "$stock" ] || { fail "codspeed-runner: $vg or $stock missing"; finish; }

cat > "$repo/benches/bench.mjs" <<'JS'
import { Bench } from "tinybench";
import { withCodSpeed } from "@codspeed/tinybench-plugin";

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function sortNumbers(n) {
  return Array.from({ length: n }, (_, i) => (i * 7919) % 1009).sort((a, b) => a - b);
}

const bench = withCodSpeed(new Bench({ iterations: 1, time: 0, warmup: false }));
bench
  .add("fib 12", () => { fib(12); })
  .add("sort numbers", () => { sortNumbers(500); });
await bench.run();
JS
commit_bench_repo || { fail "codspeed-runner: git repository for the benchmark"; finish; }

# The runner's wrapper: the command in bash, its status into a file.
cat > "$scratch/wrapper.sh" <<'SH'
#!/bin/bash
bash -c "$1"
status=$?
echo -n "$status" > "$2"
SH
chmod 0777 "$scratch/wrapper.sh"

node_bin=$(realpath "$(command -v node)")
arch=$(uname -m)
# The node flags the plugin requires under instrumentation; the runner adds
# them through a node wrapper first on PATH (tests/harness-node.sh checks
# the plugin asks for exactly these).
command="node --interpreted-frames-native-stack --allow-natives-syntax --hash-seed=1 --random-seed=1 --no-opt --predictable --predictable-gc-schedule --expose-gc --no-concurrent-sweeping --max-old-space-size=4096 benches/bench.mjs"

# run VALGRIND DIR VALGRIND_OPTS OPTION...: the runner's invocation, in
# the repository
run() {
    _vg=$1 _dir=$2 _opts=$3
    shift 3
    mkdir -p "$_dir"
    (cd "$repo" && PYTHONMALLOC=malloc PYTHONHASHSEED=0 CODSPEED_ENV=runner \
        VALGRIND_OPTS=$_opts \
        CODSPEED_RUNNER_MODE=instrumentation CODSPEED_PROFILE_FOLDER="$_dir" \
        setarch "$arch" --addr-no-randomize "$_vg" "$@" \
        --callgrind-out-file="$_dir/%p.out" --log-file="$_dir/valgrind.%p.log" \
        "$scratch/wrapper.sh" "$command" "$_dir/status") > "$_dir.stdout" 2>&1
}
common="-q --trace-children=yes --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --collect-systime=nsec --read-inline-info=yes"
tail="--tool=callgrind --compress-strings=no --combine-dumps=yes --dump-line=no --trace-children-skip=*esbuild"

# What stock prints for the same command: the warnings ours may print too.
# shellcheck disable=SC2086 # option lists: one word per option
run "$stock" "$scratch/stock" "" $common --instr-atstart=no --separate-threads=no $tail
cat "$scratch"/stock/valgrind.*.log 2>/dev/null | sed 's/^[-=][-=][0-9]*[-=][-=] //' | sort -u > "$scratch/stock-warnings"
echo "  info: stock valgrind: $(wc -l < "$scratch/stock-warnings") distinct log lines"

for variant in "no no" "inherit yes"; do
    set -- $variant
    dir=$scratch/profile-$1
    start=$(date +%s)
    # shellcheck disable=SC2086
    run "$vg" "$dir" --dump-folded=yes $common --instr-atstart="$1" --separate-threads="$2" \
        --cycle-estimation=yes $tail --obj-skip="$node_bin"
    rc=$?
    label="codspeed-runner --instr-atstart=$1 --separate-threads=$2"
    echo "  info: $label: exit status $rc, $(($(date +%s) - start)) s, files: $(ls "$dir" | tr '\n' ' ')"
    sed 's/^/  log: /' "$dir.stdout"
    check "$label: valgrind exits 0" [ $rc -eq 0 ]
    check "$label: the benchmark command exits 0 (status file)" [ "$(cat "$dir/status" 2>/dev/null)" = 0 ]
    rm -f "$dir/status"
    flags=
    [ "$2" = no ] || flags="--threads"
    [ "$1" = no ] || flags="$flags --inherit"
    # shellcheck disable=SC2086
    python3 "$top/tests/codspeed-runner-check.py" --label "$label" $flags \
        --bench "benches/bench.mjs::fib 12" --bench "benches/bench.mjs::sort numbers" \
        --stock-warnings "$scratch/stock-warnings" "$dir" || failures=$((failures + 1))
    # CODSPEED_KEEP=DIR: keep the profile folders for a look
    [ -z "${CODSPEED_KEEP:-}" ] || { mkdir -p "$CODSPEED_KEEP" && cp -r "$dir" "$CODSPEED_KEEP"/; }
    for p in "$dir"/*.out; do rm -f "/tmp/perf-$(basename "$p" .out).map"; done
done
finish
