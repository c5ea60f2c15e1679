#!/bin/sh
# --dump-folded invariants on real runs (see folded-invariants.py): the sum
# equals callgrind.out's totals, and inclusive costs equal
# callgrind_annotate's, for several programs and options, of the folded
# tree read by callgrind_fold and of --dump-folded=text.
. "$(dirname "$0")/lib.sh"
ex=$(examples)
t=$TREE/callgrind/tests
vg=$PREFIX/bin/valgrind
run() { python3 "$top/tests/folded-invariants.py" "$vg" "$@" || failures=$((failures + 1)); }

run "calls" -- "$ex/calls" 100
run "loops, cache simulation, event D1mr" --cache-sim=yes --folded-event=D1mr -- "$ex/loops" 48
run "calls, branch simulation, event Bcm" --branch-sim=yes --folded-event=Bcm -- "$ex/calls" 100
run "diamond" -- "$t/folded" diamond
run "obj-skip, start inside the library" --instr-atstart=no --obj-skip=libclobjskip.so -- "$t/objskip"
run "fn-skip" --fn-skip='helper' -- "$t/folded" diamond
run "mid-stack start, 200 cycles" --instr-atstart=no -- "$t/midstack" cycles 200
run "threads" -- "$t/folded" threads
run "calls, text" --dump-folded=text -- "$ex/calls" 100
run "loops, cache simulation, text of event D1mr" --dump-folded=text --cache-sim=yes --folded-event=D1mr -- "$ex/loops" 48
finish
