#!/bin/sh
# A regtest's outputs from an earlier run (a killed run, or a copy of the
# tree taken while a test was running there, as long-path.sh and
# regtest-repeat.sh copy it) are not read as this run's: the post-check
# of harness-inherit-measuring globs its outputs (.out.<pid>), so one
# left-over profile adds a process to the check, and the run fails.
# check.sh, long-path.sh and regtest-repeat.sh run every vgtest's
# cleanup: line first (clean_regtest_outputs).
. "$(dirname "$0")/lib.sh"
. "$top/scripts/lib.sh"
dir=$TREE/callgrind/tests
test=harness-inherit-measuring
[ -x "$dir/clientreq" ] || make -s -C "$dir" clientreq > /dev/null 2>&1 ||
    { fail "regtest-leftovers: building $dir/clientreq"; finish; }
leftover() {
    cat > "$dir/$test.out.4000001" <<END
# callgrind format
version: 1
pid: 4000001
cmd: an earlier run
part: 1
positions: line
events: Ir
fn=child_work
1 5
summary: 5
totals: 5
END
}
run() { (cd "$TREE" && perl tests/vg_regtest "callgrind/tests/$test.vgtest") > "$scratch/run.out" 2>&1; }

# what a left-over file does to the test
leftover
run
check "regtest-leftovers: a left-over $test.out.<pid> fails the test" \
    grep -q "post failure" "$scratch/run.out"
# and what the cleanup before a run does
leftover
clean_regtest_outputs "$dir"
check "regtest-leftovers: clean_regtest_outputs removes it" [ ! -e "$dir/$test.out.4000001" ]
run
check "regtest-leftovers: $test passes after it" grep -q "0 post failures" "$scratch/run.out" ||
    tail -n 5 "$scratch/run.out"
rm -f "$dir/$test.out.4000001"
finish
