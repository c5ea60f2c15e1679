#!/bin/sh
# Coverage of --cycle-estimation's arm64 table on real arm64 programs, as
# tests/cycle-coverage.sh does on amd64: at most 0.1% of executed
# instructions may fall back to the flat cycle, the report with -v names
# them, and each profile has Ct and Cl totals with Ct (throughput) below
# Cl (latency).  The programs: Debian's arm64 CPython (python3.11 of
# bookworm, json), Debian's arm64 zstd (compressing), and this project's
# callgrind_fold cross-built (folding the CPython profile).  Debian's
# packages are fetched with apt-get download and unpacked into
# $BUILD/arm64-programs, not installed.  Run by `make check ARCH=arm64`.
top=${top:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top/tests/lib.sh"

skip() { echo "SKIP: cycle-coverage-arm64 ($*)"; exit 0; }
command -v qemu-aarch64-static > /dev/null 2>&1 || skip "qemu-aarch64-static is not installed (scripts/deps.sh arm64 installs it)"
# our arm64 build is what is tested: missing, that is a failure
[ -x "$PREFIX/bin/valgrind" ] || { fail "cycle-coverage-arm64: no arm64 build in $PREFIX (make ARCH=arm64)"; finish; }

root=$BUILD/arm64-programs
debs=$BUILD/cache/arm64-debs
pkgs="python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libexpat1 zstd libzstd1 liblz4-1 liblzma5"
if [ "$(cat "$root/.packages" 2>/dev/null)" != "$pkgs" ]; then
    rm -rf "$root"
    mkdir -p "$debs" "$root"
    if ! (cd "$debs" && apt-get download $(for p in $pkgs; do echo "$p:arm64"; done)) > "$scratch/apt.log" 2>&1; then
        tail -n 3 "$scratch/apt.log"
        skip "apt-get download of Debian's arm64 $pkgs failed"
    fi
    for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$root"; done
    echo "$pkgs" > "$root/.packages"
fi
libs=$root/usr/lib/aarch64-linux-gnu:$root/lib/aarch64-linux-gnu

# coverage NAME COMMAND...
coverage() {
    prog=$1; shift
    if ! (cd "$scratch" && LD_LIBRARY_PATH=$libs PYTHONHOME=$root/usr \
            "$top/scripts/run-arm64" "$PREFIX" -v --tool=callgrind --cycle-estimation=yes \
            --cache-sim=yes --log-file="$scratch/$prog.log" \
            --callgrind-out-file="$scratch/$prog.out" "$@") > "$scratch/$prog.stdout" 2>&1; then
        tail -n 20 "$scratch/$prog.log" "$scratch/$prog.stdout"
        fail "cycle-coverage-arm64: $prog runs under callgrind"; return
    fi
    cycle_coverage_checks "cycle-coverage-arm64: $prog" "$scratch/$prog.log" "$scratch/$prog.out"
}

coverage cpython "$root/usr/bin/python3.11" -c '
import json
data = [{"id": i, "name": "row%d" % i, "tags": ["a", "b"], "score": i * 0.5} for i in range(1500)]
text = json.dumps(data)
assert json.loads(text) == data'

cat "$root"/usr/lib/python3.11/*.py > "$scratch/input"
coverage zstd "$root/usr/bin/zstd" -q -3 -f "$scratch/input" -o "$scratch/input.zst"

if [ -x "$PREFIX/bin/callgrind_fold" ] && [ -f "$scratch/cpython.out" ]; then
    coverage callgrind_fold "$PREFIX/bin/callgrind_fold" -o "$scratch/cpython.folded" "$scratch/cpython.out"
else
    fail "cycle-coverage-arm64: callgrind_fold: not run (not in $PREFIX/bin, or no CPython profile to fold)"
fi
finish
