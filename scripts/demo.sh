#!/bin/sh
# Profile the programs in examples/ with the patched callgrind and write the
# results under demo/: callgrind.out files, folded stacks and a flamegraph
# (as far as the installed tools provide them).
#
# Usage: demo.sh PREFIX
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$top/dist}
out=$top/demo
bin=$top/build/examples
unset MAKEFLAGS MFLAGS MAKELEVEL || true

make -s -C "$top/examples" OUT="$bin" PREFIX="$prefix"
rm -rf "$out"
mkdir -p "$out"
vg=$prefix/bin/valgrind
fold=$prefix/bin/callgrind_fold

# name: program and arguments
demos="calls:calls 300
loops:loops 64"

echo "$demos" | while IFS=: read -r name cmd; do
    # callgrind.out and its exact twin, the folded tree (--dump-folded)
    "$vg" --tool=callgrind --callgrind-out-file="$out/$name.callgrind.out" \
        --dump-folded=yes --folded-out-file="$out/$name.tree" \
        $bin/$cmd > "$out/$name.stdout" 2> "$out/$name.valgrind.log"
    echo "demo: $out/$name.callgrind.out"
    echo "demo: $out/$name.tree (exact folded tree, from callgrind --dump-folded=yes)"
    if [ -x "$fold" ]; then
        "$fold" "$out/$name.tree" > "$out/$name.folded"
        echo "demo: $out/$name.folded (exact folded stacks: callgrind_fold of the tree)"
        # the same, estimated from callgrind.out alone
        "$fold" "$out/$name.callgrind.out" > "$out/$name.estimated.folded" 2>> "$out/$name.valgrind.log"
        echo "demo: $out/$name.estimated.folded (estimated by callgrind_fold from callgrind.out)"
    fi
done
# Last: a flame graph of each exact folded file (callgrind_fold -f svg).
if [ -x "$fold" ]; then
    echo "$demos" | while IFS=: read -r name cmd; do
        "$fold" -f svg --title="$name: $cmd" \
            --subtitle="exact stacks from callgrind --dump-folded=yes" \
            --countname=instructions "$out/$name.folded" > "$out/$name.svg"
        echo "demo: $out/$name.svg (flame graph; open it in a browser)"
        # the report page: every part and event of the exact tree
        "$fold" -f html --title="$name: $cmd" -o "$out/$name.html" "$out/$name.tree"
        echo "demo: $out/$name.html (report: parts, every event's totals and flame graph)"
    done
fi
if [ -x "$fold" ]; then
    # Inlined functions as frames: instruction-level data (--dump-instr=yes),
    # expanded with the program's DWARF (callgrind_fold --inline).
    "$vg" --tool=callgrind --dump-instr=yes --callgrind-out-file="$out/inlined.callgrind.out" \
        $bin/inlined > "$out/inlined.stdout" 2> "$out/inlined.valgrind.log"
    "$fold" --inline "$out/inlined.callgrind.out" > "$out/inlined.folded" 2>> "$out/inlined.valgrind.log"
    "$fold" -f svg --inline --title="inlined: optimised code, inlined helpers as frames" \
        --countname=instructions "$out/inlined.callgrind.out" > "$out/inlined.svg" \
        2>> "$out/inlined.valgrind.log"
    echo "demo: $out/inlined.folded (callgrind_fold --inline: inlined functions as frames)"
    echo "demo: $out/inlined.svg (flame graph of it)"
fi
if [ -x "$fold" ]; then
    # A harness whose benchmarks run on a thread pool (examples/pool.c),
    # under a benchmark runner's command line with --separate-threads=yes:
    # each benchmark is one part, a section per thread; the report shows
    # one row per benchmark and draws every thread under its own frame.
    "$vg" --tool=callgrind --instr-atstart=no --separate-threads=yes --combine-dumps=yes \
        --cache-sim=yes --callgrind-out-file="$out/pool.callgrind.out" \
        --dump-folded=yes --folded-out-file="$out/pool.tree" \
        $bin/pool > "$out/pool.stdout" 2> "$out/pool.valgrind.log"
    "$fold" -f html --title="pool: benchmarks on a thread pool" -o "$out/pool.html" "$out/pool.tree"
    "$fold" -f md "$out/pool.tree" > "$out/pool.md"
    echo "demo: $out/pool.html (report of a thread-pool harness: a row per benchmark, a frame per thread)"
    echo "demo: $out/pool.md (the same table in markdown)"
fi
echo "demo: outputs are in $out"
