#!/bin/sh
# The recipe for gungraun users (docs/gungraun.md): exact trees
# beside gungraun's callgrind files, then callgrind_fold on them.
#
# A Rust library benchmark binary laid out as gungraun's macros lay one
# out (tests/gungraun_bench.rs, built as cargo's bench profile builds it)
# is run as gungraun's runner runs it: its valgrind command line, in its
# order (gungraun/gungraun, gungraun-runner: runner/tool/args.rs
# ValgrindArgs::to_vec and defaults, runner/callgrind/args.rs, the default
# entry point's --toggle-collect from runner/tool/config.rs and
# DEFAULT_TOGGLE), its file names (callgrind.<name>.out.#%p and .log.#%p
# in the benchmark's directory, runner/tool/path.rs) and the binary's
# arguments (--gungraun-run GROUP BENCH ITER). The trees come two ways:
#   - VALGRIND_OPTS=--callgrind:dump-folded=yes (the tool prefix keeps
#     the option from the other tools gungraun runs: a memcheck run under
#     the same environment still works; without it, it would not start);
#   - gungraun's own setting, --callgrind-args=--dump-folded=yes
#     (GUNGRAUN_CALLGRIND_ARGS), which gungraun passes on among the other
#     arguments.
# tests/gungraun_check.py then applies gungraun's own file filters
# (sanitizing, the files its parsers read, the next run's clean-up): the
# trees are neither renamed nor deleted nor read as profiles. Last,
# callgrind_fold on the trees: exact stacks summing to the profile's
# totals, through the benchmark's wrapper function, and a flame graph.
# (lib.sh's check sets $name: a benchmark is $b.)
. "$(dirname "$0")/lib.sh"
fold=${CALLGRIND_FOLD:-$PREFIX/bin/callgrind_fold}
skip() { echo "SKIP: gungraun ($*)"; exit 0; }
command -v rustc > /dev/null 2>&1 || skip "rustc is not installed: https://rustup.rs or apt-get install rustc"
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"

bin=$scratch/target/release/deps/gungraun_bench-0123456789abcdef
mkdir -p "$(dirname "$bin")"
# cargo's bench profile: opt-level 3, no debug info (symbols kept)
rustc --crate-name gungraun_bench --edition 2021 -C opt-level=3 -C strip=debuginfo \
    -o "$bin" "$top/tests/gungraun_bench.rs" > "$scratch/build.log" 2>&1
check "gungraun: the benchmark binary builds" [ $? -eq 0 ] || { sed 's/^/  /' "$scratch/build.log"; finish; }

# gungraun_valgrind DIR NAME INDEX EXTRA...: one benchmark as gungraun's
# runner starts it, EXTRA among the other arguments (--callgrind-args)
gungraun_valgrind() {
    _dir=$1 _name=$2 _index=$3
    shift 3
    mkdir -p "$_dir"
    "$PREFIX/bin/valgrind" --tool=callgrind --error-exitcode=0 --trace-children=yes \
        --fair-sched=try --vgdb=no "$@" --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
        --cache-sim=yes --compress-strings=no --compress-pos=no --dump-line=yes \
        --dump-instr=no --combine-dumps=no --separate-threads=yes \
        '--toggle-collect=*::__gungraun_wrapper_mod::*' \
        "--callgrind-out-file=$_dir/callgrind.$_name.out.#%p" \
        "--log-file=$_dir/callgrind.$_name.log.#%p" \
        "$bin" --gungraun-run 0 "$_index" 0
}

bench_dir=$scratch/target/gungraun/gungraun_bench/gungraun_bench/words
for way in valgrind-opts callgrind-args; do
    case $way in
    valgrind-opts)
        b=bench_count_words index=0
        VALGRIND_OPTS=--callgrind:dump-folded=yes gungraun_valgrind "$bench_dir/$b" $b $index ;;
    callgrind-args)
        b=bench_sort_words index=1
        gungraun_valgrind "$bench_dir/$b" $b $index --dump-folded=yes ;;
    esac > "$scratch/$way.run" 2>&1
    check "gungraun: $way: the benchmark runs under gungraun's command line" [ $? -eq 0 ] \
        || sed 's/^/  /' "$scratch/$way.run"
    python3 "$top/tests/gungraun_check.py" "gungraun: $way" "$bench_dir/$b" $b \
        > "$scratch/$way.check" 2>&1
    rc=$?
    grep -E '^(PASS|FAIL): ' "$scratch/$way.check"
    failures=$((failures + $(grep -c '^FAIL: ' "$scratch/$way.check")))
    [ $rc -eq 0 ] || grep -q '^FAIL: ' "$scratch/$way.check" \
        || { fail "gungraun: $way: gungraun_check.py ran"; sed 's/^/  /' "$scratch/$way.check"; }
    trees=$(sed -n 's/^TREES //p' "$scratch/$way.check")
    profile=$(sed -n 's/^PROFILE //p' "$scratch/$way.check")
    [ -n "$trees" ] && [ -f "$profile" ] \
        || { fail "gungraun: $way: the run left folded trees and a profile to fold"; continue; }
    # callgrind_fold on the trees: exact, the profile's totals, the benchmark's frames
    # shellcheck disable=SC2086 # one word per tree
    "$fold" $trees > "$scratch/$way.folded" 2> "$scratch/$way.err"
    want=$(awk '/^totals:/ { s += $2 } END { printf "%d\n", s }' "$profile")
    got=$(awk '{ s += $NF } END { printf "%d\n", s }' "$scratch/$way.folded")
    check "gungraun: $way: callgrind_fold on the trees: exact stacks summing to the profile's totals ($want)" \
        sh -c '[ "$1" = "$2" ] && [ "$1" -gt 0 ] && ! [ -s "$3" ]' - "$want" "$got" "$scratch/$way.err" \
        || { echo "  got $got"; sed 's/^/  /' "$scratch/$way.err"; }
    check "gungraun: $way: every cost is in the benchmark function ($b)" \
        awk -v f="::__gungraun_wrapper_mod::$b" '$NF > 0 && index($0, f) == 0 { bad = 1 } END { exit bad }' \
        "$scratch/$way.folded" || head -3 "$scratch/$way.folded" | cut -c1-200 | sed 's/^/  /'
    # shellcheck disable=SC2086
    "$fold" -f svg --title="$b" $trees > "$scratch/$way.svg" 2> "$scratch/$way.svg.err"
    check "gungraun: $way: a flame graph of the trees" \
        grep -q "__gungraun_wrapper_mod::$b" "$scratch/$way.svg" || sed 's/^/  /' "$scratch/$way.svg.err"
done

# VALGRIND_OPTS reaches every tool gungraun runs: with the tool prefix the
# option is callgrind's alone
VALGRIND_OPTS=--callgrind:dump-folded=yes "$PREFIX/bin/valgrind" -q --tool=memcheck \
    --error-exitcode=201 "$bin" --gungraun-run 0 0 0 > "$scratch/memcheck.log" 2>&1
check "gungraun: VALGRIND_OPTS=--callgrind:dump-folded=yes leaves memcheck runs working" [ $? -eq 0 ] \
    || sed 's/^/  /' "$scratch/memcheck.log"
VALGRIND_OPTS=--dump-folded=yes "$PREFIX/bin/valgrind" -q --tool=memcheck \
    "$bin" --gungraun-run 0 0 0 > "$scratch/memcheck-bare.log" 2>&1
check "gungraun: (without the prefix, memcheck would refuse the option)" [ $? -ne 0 ]
finish
