#!/bin/sh
# A Python harness doing what pytest-codspeed does, end to end: through
# ctypes and a small C library built here against $PREFIX's callgrind.h,
# it hides the interpreter (CALLGRIND_ADD_OBJ_SKIP of libpython's and
# sys.executable's real paths), then per benchmark ZERO_STATS + START,
# calls a Python function __codspeed_root_frame__ running the benchmark,
# STOP, DUMP_STATS_AT("bench.py::<name>").  It runs under the patched
# callgrind with CodSpeed's runner command line (--obj-skip of libpython)
# plus --dump-folded=yes.  Checks (tests/harness-check.py): one part per
# benchmark named by its uri, summary: = totals:, the twin's stacks of each
# part sum to its totals for every event, no frame of libpython or the
# python executable, and the C extensions' native functions (_json's
# scanner, zlib's deflate) in their benchmarks' stacks.
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind
fold=$PREFIX/bin/callgrind_fold
header=$PREFIX/include/valgrind/callgrind.h

skip() { echo "SKIP: harness-python ($*)"; exit 0; }
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed"
cc=${CC:-cc}
command -v "$cc" > /dev/null 2>&1 || skip "no C compiler ($cc) for the ctypes library"
command -v nm > /dev/null 2>&1 || skip "nm (binutils) is not installed"
[ -x "$vg" ] && [ -x "$fold" ] && [ -f "$header" ] || { fail "harness-python: $vg, $fold or $header missing"; finish; }

# The real interpreter (pyenv's python3 is a launcher script) and the
# objects to hide: libpython when it is linked shared, and the executable.
py=$(python3 -c 'import sys; print(sys.executable)')
py_real=$(realpath "$py")
libpython=$("$py" -c '
import os, sysconfig as s
if s.get_config_var("Py_ENABLE_SHARED"):
    for d in (s.get_config_var("LIBDIR"), s.get_config_var("LIBPL")):
        p = os.path.join(d or "", s.get_config_var("INSTSONAME") or "")
        if os.path.isfile(p):
            print(os.path.realpath(p)); break
')
[ -n "$libpython" ] || libpython=$(ldd "$py_real" 2>/dev/null | sed -n 's/^\s*libpython[^ ]* => \(\/[^ ]*\) .*/\1/p' | head -n 1)
[ -z "$libpython" ] || libpython=$(realpath "$libpython")
runtime=${libpython:-$py_real} # what CodSpeed's runner passes to --obj-skip
echo "  info: interpreter $py_real, libpython ${libpython:-(linked statically)}"
"$py" -c 'import _json, zlib' 2> /dev/null || skip "$py lacks the _json or zlib extension"

build_cgshim harness-python
cat > "$scratch/bench.py" <<'EOF'
"""Three benchmarks measured the way pytest-codspeed measures them."""
import json
import zlib

from codspeed_harness import hide_runtime, run, write_maps

hide_runtime("callgrind-fold-harness 1")  # libpython, sys.executable


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


DOC = json.dumps([{"id": i, "name": "row %d" % i, "tags": ["a", "b", str(i)], "score": i * 1.5}
                  for i in range(60)])
DATA = ("".join("line %d of some text to compress\n" % i for i in range(300))).encode()


def bench_fib():
    fib(12)


def bench_json():
    for _ in range(3):
        json.loads(DOC)


def bench_zlib():
    zlib.compress(DATA, 6)


run("fib", bench_fib)
run("json loads", bench_json)
run("zlib compress", bench_zlib)
write_maps()
EOF

out=$scratch/out
mkdir -p "$out"
start=$(date +%s)
(cd "$scratch" && export HARNESS_MAPS="$out/maps" CODSPEED_ENV=runner \
    CODSPEED_RUNNER_MODE=instrumentation PYTHONHASHSEED=0 PYTHONMALLOC=malloc &&
    codspeed_valgrind "$runtime" "$out" \
    "$py" bench.py "$scratch/libcgshim.so" ${libpython:+"$libpython"} "$py_real") > "$scratch/run.log" 2>&1
rc=$?
echo "  info: python under callgrind: exit status $rc, $(($(date +%s) - start)) s"
sed 's/^/  log: /' "$scratch/run.log"
check "harness-python: python under callgrind exits 0" [ $rc -eq 0 ]
nskip=1
[ -z "$libpython" ] || nskip=2
check "harness-python: ADD_OBJ_SKIP accepted the interpreter's objects" \
    [ "$(grep -c '^ADD_OBJ_SKIP .* -> 1$' "$scratch/run.log")" -eq $nskip ]

prof=$(grep -l '^desc: Trigger: Client Request: bench.py::' "$out"/*.out 2>/dev/null | head -n 1)
if [ -z "$prof" ]; then
    fail "harness-python: a callgrind.out with the benchmarks' parts (files: $(ls "$out" | tr '\n' ' '))"
    finish
fi
twin=${prof%.out}.folded
check "harness-python: the folded twin $(basename "$twin") exists" [ -s "$twin" ]
set -- --skip-obj "$py_real"
[ -z "$libpython" ] || set -- "$@" --skip-obj "$libpython"
python3 "$top/tests/harness-check.py" --fold "$fold" --label harness-python --file bench.py \
    --bench "fib" --bench "json loads" --bench "zlib compress" "$@" \
    --expect-fn "json loads=^(scan_once_unicode|_parse_object_unicode|_parse_array_unicode|scanstring_unicode|scanner_call)$" \
    --expect-fn "zlib compress=^(deflate|deflate_slow|longest_match|compress_block)$" \
    --root-frame __codspeed_root_frame__ --root-frame-info --maps "$out/maps" \
    "$prof" "$twin" || failures=$((failures + 1))
# HARNESS_KEEP=DIR: keep the profiles and the benchmark for a look
if [ -n "${HARNESS_KEEP:-}" ]; then
    mkdir -p "$HARNESS_KEEP" && cp -r "$out"/. "$scratch/bench.py" "$HARNESS_KEEP"/ && echo "  info: outputs kept in $HARNESS_KEEP"
fi
finish
