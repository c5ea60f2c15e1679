#!/bin/sh
# callgrind/cycletab_amd64.h and cycletab_arm64.h are what the series'
# callgrind/gen-cycle-table.py and gen-cycle-table-arm64.py (in the build
# tree) make from Debian's llvm-19 today: the committed cost and block
# tables of --cycle-estimation are current and reproducible.
. "$(dirname "$0")/lib.sh"
command -v llvm-mca-19 >/dev/null 2>&1 && command -v llvm-mc-19 >/dev/null 2>&1 || {
    echo "SKIP: cycle-table (llvm-19 is not installed: apt-get install llvm-19)"; exit 0; }
# the generators build their extractor of LLVM's scheduling data
command -v llvm-config-19 >/dev/null 2>&1 && command -v "${CXX:-g++}" >/dev/null 2>&1 || {
    echo "SKIP: cycle-table (needs llvm-19-dev and g++: apt-get install llvm-19-dev g++)"; exit 0; }
for arch in amd64 arm64; do
    gen=$TREE/callgrind/gen-cycle-table.py
    [ $arch = amd64 ] || gen=$TREE/callgrind/gen-cycle-table-arm64.py
    table=callgrind/cycletab_$arch.h
    if ! python3 "$gen" -o "$scratch/$arch.h" 2> "$scratch/err"; then
        cat "$scratch/err"; fail "cycle-table: $(basename "$gen") runs"; continue
    fi
    if cmp -s "$scratch/$arch.h" "$TREE/$table"; then
        pass "cycle-table: $table is the generator's output"
    else
        diff "$TREE/$table" "$scratch/$arch.h" | head -n 20
        fail "cycle-table: $table is the generator's output (regenerate it)"
    fi
done
finish
