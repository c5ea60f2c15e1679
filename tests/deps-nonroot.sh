#!/bin/sh
# make check as a user without root: scripts/deps.sh check prints the
# exact apt-get command for what is missing; without a test-only tool
# (lintian here) it goes on (exit 0: the tests that need it say SKIP),
# without a build tool (gcc) it stops (exit 1).  The tools are hidden by
# a PATH of links to everything but them; run as `nobody` when root.
. "$(dirname "$0")/lib.sh"

# run_deps HIDDEN: deps.sh check with HIDDEN missing, as a non-root user
run_deps() {
    bin=$scratch/bin-$1
    mkdir -p "$bin"
    for d in /usr/local/bin /usr/bin /bin; do
        for f in "$d"/*; do
            n=$(basename "$f")
            [ "$n" = "$1" ] || [ -e "$bin/$n" ] || ln -s "$f" "$bin/$n"
        done
    done
    chmod -R a+rX "$scratch"
    if [ "$(id -u)" -eq 0 ]; then
        su nobody -s /bin/sh -c "PATH=$bin sh '$top/scripts/deps.sh' check" > "$scratch/$1.out" 2>&1
    else
        PATH=$bin sh "$top/scripts/deps.sh" check > "$scratch/$1.out" 2>&1
    fi
}

command -v lintian > /dev/null 2>&1 || { echo "SKIP: deps-nonroot (lintian is not installed: nothing to hide)"; exit 0; }
[ "$(id -u)" -ne 0 ] || command -v su > /dev/null 2>&1 || { echo "SKIP: deps-nonroot (no su to become nobody)"; exit 0; }
run_deps lintian
rc=$?
check "deps-nonroot: without lintian, the exact apt-get command is printed and make check goes on" \
    sh -c "[ $rc -eq 0 ] && grep -q 'sudo apt-get install -y --no-install-recommends lintian' '$scratch/lintian.out' \
           && grep -q 'say SKIP' '$scratch/lintian.out'" || cat "$scratch/lintian.out"
run_deps gcc
rc=$?
check "deps-nonroot: without gcc (a build tool), the command is printed and make check stops" \
    sh -c "[ $rc -eq 1 ] && grep -q 'sudo apt-get install -y --no-install-recommends gcc' '$scratch/gcc.out'" \
    || cat "$scratch/gcc.out"
finish
