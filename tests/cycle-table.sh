#!/bin/sh
# callgrind/cycletab_amd64.h is what scripts/gen-cycle-table.py makes from
# Debian's llvm-19 today: the committed cost table of --cycle-estimation
# is current and reproducible.
. "$(dirname "$0")/lib.sh"
command -v llvm-mca-19 >/dev/null 2>&1 && command -v llvm-mc-19 >/dev/null 2>&1 || {
    echo "SKIP: cycle-table (llvm-19 is not installed: apt-get install llvm-19)"; exit 0; }
if ! python3 "$top/scripts/gen-cycle-table.py" -o "$scratch/table.h" 2> "$scratch/err"; then
    cat "$scratch/err"; fail "cycle-table: scripts/gen-cycle-table.py runs"; finish
fi
if cmp -s "$scratch/table.h" "$TREE/callgrind/cycletab_amd64.h"; then
    pass "cycle-table: callgrind/cycletab_amd64.h is the generator's output"
else
    diff "$TREE/callgrind/cycletab_amd64.h" "$scratch/table.h" | head -n 20
    fail "cycle-table: callgrind/cycletab_amd64.h is the generator's output (regenerate it)"
fi
finish
