#!/bin/sh
# A dump from callgrind_control -d with --separate-threads=yes: two
# threads that ran one after another in one Valgrind slot, both exited
# before the dump, are two sections with their own work, kernel ids and
# names; every section of callgrind.out and of the folded tree sums to its
# totals (callgrind/tests/threadseq-check.pl of the build tree).
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind
checker=$TREE/callgrind/tests/threadseq-check.pl

# the checker comes with the patch series: a tree without it is a broken build
[ -f "$checker" ] || { fail "threads-control: $checker is missing (make builds the patched tree)"; finish; }
"${CC:-cc}" -O1 -g -o "$scratch/prog" "$top/tests/threads-control.c" -lpthread \
    || { fail "threads-control: building tests/threads-control.c"; finish; }
cd "$scratch" || exit 1
"$vg" -q --tool=callgrind --separate-threads=yes --combine-dumps=yes --dump-folded=yes \
    --callgrind-out-file=ctl.out ./prog ids go > run.log 2>&1 &
pid=$!
i=0
while [ ! -e ids ] && [ $i -lt 600 ] && kill -0 $pid 2> /dev/null; do sleep 0.1; i=$((i + 1)); done
timeout 120 "$PREFIX/bin/callgrind_control" -d $pid > control.log 2>&1
rc=$?
touch go
wait $pid
vgrc=$?
cat control.log run.log | sed 's/^/  log: /'
check "threads-control: callgrind_control -d exits 0" [ $rc -eq 0 ]
check "threads-control: valgrind exits 0" [ $vgrc -eq 0 ]
cat > expected <<'EXP'
 part 1: main: -, sums to totals
 part 1: worker-a "worker-a": work_a, sums to totals
 part 1: worker-b "worker-b": work_b, sums to totals
 part 2: main: -, sums to totals
.folded part 1: main: -, sums to totals
.folded part 1: worker-a "worker-a": work_a, sums to totals
.folded part 1: worker-b "worker-b": work_b, sums to totals
.folded part 2: main: -, sums to totals
EXP
perl "$checker" ids ctl.out ctl.out ctl.out.folded > got 2>&1
check "threads-control: a section per thread, each with its own work, summing to its totals" \
    cmp -s expected got || diff expected got | sed 's/^/  /'
grep -q "^desc: Trigger: dump" ctl.out
check "threads-control: part 1 is the callgrind_control dump" [ $? -eq 0 ]
finish
