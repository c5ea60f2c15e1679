#!/bin/sh
# Python frames named from CPython's perf map: CPython 3.13 and 3.14 (each
# built once from Debian's source package by scripts/cpython.sh) with its perf
# trampolines on (sys.activate_stack_trampoline("perf") writes
# /tmp/perf-<pid>.map entries "py::<qualname>:<file>" for a small stub per
# code object, through which every Python call then runs), measured the way
# pytest-codspeed measures: through ctypes and a small C library built here
# against $PREFIX's callgrind.h, CALLGRIND_ADD_OBJ_SKIP of libpython's and
# sys.executable's real paths, then per benchmark ZERO_STATS + START, a
# Python function __codspeed_root_frame__ running the benchmark, STOP,
# DUMP_STATS_AT("bench.py::<name>").  Command line: CodSpeed's runner's
# (--obj-skip of libpython) plus --dump-folded=yes, as
# tests/harness-python.sh.  With libpython hidden, the interpreter's cost
# goes to the trampolines' frames: a Python-level profile.
#
# Checks (tests/harness-check.py), per benchmark (recursive fib, a json
# parse through the C extension _json, a generator expression): one part
# named by its uri, summary: = totals:, callgrind_fold --part=N sums to the
# part's totals for every event, no frame of libpython or the python
# executable, the stacks run through __codspeed_root_frame__ and through
# the benchmark's own Python function (> 50% of its cost below it), Python
# functions are frames named from the map (py::fib:..., in object
# /tmp/perf-<pid>.map), fib's recursion is repeated py::fib frames
# (deeper than 5), json's C functions sit right below the Python function
# that called them (json.decoder's raw_decode), under 5% of each
# benchmark's cost in leaf frames named 0x... (code callgrind could not
# name).
#
# Each version runs in its own process with the same checks and reports its
# own lines ("PASS: perfmap-python 3.14: ..."), SKIP when that interpreter
# cannot be built here.  3.14's trampolines write the map's names as
# 3.13's do ("py::<co_qualname>:<co_filename>", the same snprintf in
# Python/perf_trampoline.c), so no check depends on the version.
#
#   tests/perfmap-python.sh [VERSION...]   (default: 3.13 3.14)
if [ $# -ne 1 ]; then
    [ $# -gt 0 ] || set -- 3.13 3.14
    rc=0
    for v in "$@"; do
        sh "$0" "$v" || rc=1
    done
    exit $rc
fi
ver=$1
label="perfmap-python $ver" # every result's name (not $name: lib.sh's check() uses it)
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind
fold=$PREFIX/bin/callgrind_fold
header=$PREFIX/include/valgrind/callgrind.h

skip() { echo "SKIP: $label ($*)"; exit 0; }
cc=${CC:-cc}
command -v "$cc" > /dev/null 2>&1 || skip "no C compiler ($cc) for the ctypes library"
command -v nm > /dev/null 2>&1 || skip "nm (binutils) is not installed"
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed (runs the checks)"
[ -x "$vg" ] && [ -x "$fold" ] && [ -f "$header" ] || { fail "$label: $vg, $fold or $header missing"; finish; }
if ! py=$(BUILD=$BUILD sh "$top/scripts/cpython.sh" "$ver" 2> "$scratch/cpython.err"); then
    why=$(grep '^cpython [0-9.]*: error:' "$scratch/cpython.err" | head -n 1 | sed 's/^cpython [0-9.]*: error: //')
    skip "CPython $ver cannot be built: ${why:-$(tail -n 1 "$scratch/cpython.err")}"
fi
py_real=$(realpath "$py")
libpython=$("$py" -c '
import os, sysconfig as s
p = os.path.join(s.get_config_var("LIBDIR") or "", s.get_config_var("INSTSONAME") or "")
print(os.path.realpath(p) if s.get_config_var("Py_ENABLE_SHARED") and os.path.isfile(p) else "")
')
[ -n "$libpython" ] || { fail "$label: $py is not linked against a shared libpython"; finish; }
echo "  info: $("$py" -c 'import sys; print(sys.version.split()[0])') at $py_real, libpython $libpython"

build_cgshim "$label"
cat > "$scratch/bench.py" <<'EOF'
"""Three benchmarks measured the way pytest-codspeed measures them, with
CPython's perf trampolines on."""
import json
import sys

from codspeed_harness import hide_runtime, run, write_maps

hide_runtime("callgrind-fold-perfmap-python 1")  # libpython, sys.executable

sys.activate_stack_trampoline("perf")  # /tmp/perf-<pid>.map
print("trampoline active: %s" % sys.is_stack_trampoline_active())


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


DOC = json.dumps([{"id": i, "name": "row %d" % i, "tags": ["a", "b", str(i)], "score": i * 1.5}
                  for i in range(60)])
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon"] * 40


def bench_fib():
    fib(12)


def bench_json():
    for _ in range(3):
        json.loads(DOC)


def bench_genexpr():
    return sum(len(w) * i for i, w in enumerate(WORDS) if w[0] != "e")


run("fib", bench_fib)
run("json loads", bench_json)
run("genexpr", bench_genexpr)
write_maps()
EOF

out=$scratch/out
mkdir -p "$out"
start=$(date +%s)
(cd "$scratch" && export HARNESS_MAPS="$out/maps" CODSPEED_ENV=runner \
    CODSPEED_RUNNER_MODE=instrumentation PYTHONHASHSEED=0 PYTHONMALLOC=malloc &&
    codspeed_valgrind "$libpython" "$out" \
    "$py" bench.py "$scratch/libcgshim.so" "$libpython" "$py_real") > "$scratch/run.log" 2>&1
rc=$?
echo "  info: python$ver under callgrind: exit status $rc, $(($(date +%s) - start)) s"
grep -v 'warning: \(L3 cache found\|specified LL cache\|simulated LL cache\)' "$scratch/run.log" | sed 's/^/  log: /'
check "$label: python$ver under callgrind exits 0" [ $rc -eq 0 ]
check "$label: ADD_OBJ_SKIP accepted the interpreter's objects" \
    [ "$(grep -c '^ADD_OBJ_SKIP .* -> 1$' "$scratch/run.log")" -eq 2 ]
check "$label: the perf trampoline is active" grep -q '^trampoline active: True$' "$scratch/run.log"

prof=$(grep -l '^desc: Trigger: Client Request: bench.py::' "$out"/*.out 2>/dev/null | head -n 1)
if [ -z "$prof" ]; then
    fail "$label: a callgrind.out with the benchmarks' parts (files: $(ls "$out" | tr '\n' ' '))"
    finish
fi
pid=$(basename "$prof" .out)
twin=$out/$pid.folded
perfmap=/tmp/perf-$pid.map # written by the trampolines
check "$label: the folded twin $pid.folded exists" [ -s "$twin" ]
check "$label: the perf map $perfmap exists" [ -s "$perfmap" ]
# the Python functions (trampolines) of this file: "py::<qualname>:<path>"
pyf() { printf '^py::%s:%s$' "$1" "$scratch/bench.py"; }
python3 "$top/tests/harness-check.py" --fold "$fold" --label "$label" --file bench.py \
    --bench "fib" --bench "json loads" --bench "genexpr" \
    --skip-obj "$py_real" --skip-obj "$libpython" --maps "$out/maps" --perf-map "$perfmap" \
    --root-frame __codspeed_root_frame__ --root-frame-required \
    --own-frame "fib=$(pyf bench_fib)" --own-frame "json loads=$(pyf bench_json)" \
    --own-frame "genexpr=$(pyf bench_genexpr)" \
    --map-frame "fib=$(pyf fib)" --map-frame "json loads=^py::JSONDecoder\.raw_decode:.*/json/decoder\.py$" \
    --map-frame "genexpr=$(pyf 'bench_genexpr\.<locals>\.<genexpr>')" \
    --repeat "fib=$(pyf fib):6" \
    --parent "json loads=^(scanner_call|scan_once_unicode|_parse_object_unicode|_parse_array_unicode|scanstring_unicode)$=^py::JSONDecoder\.raw_decode:.*/json/decoder\.py$" \
    --max-anon-leaf 5 \
    "$prof" "$twin" || failures=$((failures + 1))
# HARNESS_KEEP=DIR: keep the profiles, the perf map and the benchmark for a
# look, in DIR/<version>
if [ -n "${HARNESS_KEEP:-}" ]; then
    keep=$HARNESS_KEEP/$ver
    mkdir -p "$keep" && cp -r "$out"/. "$scratch/bench.py" "$keep"/ \
        && { [ ! -f "$perfmap" ] || cp "$perfmap" "$keep"/; } && echo "  info: outputs kept in $keep"
fi
finish
