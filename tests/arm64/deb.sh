#!/bin/sh
# The arm64 Debian package (make deb ARCH=arm64), as an arm64 user gets
# it: cross-built from the pinned tarball and patches/ alone
# (scripts/make-deb.sh, lintian clean), its programs for aarch64, and,
# unpacked, its valgrind and callgrind_fold run under qemu-user: callgrind
# profiles an arm64 program (examples/calls.c) with the folded tree, and
# callgrind_fold's folded stacks of the profile and of the tree sum to
# the profile's totals.  Run by `make check ARCH=arm64`.
top=${top:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top/tests/lib.sh"

skip() { echo "SKIP: deb-arm64 ($*)"; exit 0; }
for tool in dpkg-buildpackage dh lintian fakeroot aarch64-linux-gnu-gcc qemu-aarch64-static; do
    command -v "$tool" > /dev/null 2>&1 || skip "$tool is not installed (scripts/deps.sh arm64 and deb install it)"
done
[ -e /lib/ld-linux-aarch64.so.1 ] || skip "no multiarch arm64 libc (libc6:arm64; scripts/deps.sh arm64 installs it)"
[ -e /usr/include/aarch64-linux-gnu/elfutils/libdw.h ] || [ -e /usr/lib/aarch64-linux-gnu/libdw.so ] \
    || skip "no arm64 libdw (libdw-dev:arm64; scripts/deps.sh arm64 installs it)"

if ! deb=$(ARCH=arm64 sh "$top/scripts/make-deb.sh" "$scratch/out" 2> "$scratch/make-deb.err"); then
    tail -n 20 "$scratch/make-deb.err"
    fail "deb-arm64: make deb ARCH=arm64 builds the package (lintian clean)"
    finish
fi
pass "deb-arm64: make deb ARCH=arm64 builds $(basename "$deb"), lintian clean"
check "deb-arm64: the package's architecture is arm64" [ "$(dpkg-deb -f "$deb" Architecture)" = arm64 ]

root=$scratch/root
dpkg-deb -x "$deb" "$root"
# e_machine 0xb7 (EM_AARCH64) in an ELF file
is_aarch64() { [ "$(od -An -tx1 -j18 -N2 "$1" | tr -d ' \n')" = b700 ] && [ "$(od -An -c -N4 "$1" | tr -d ' \n')" = 177ELF ]; }
for f in usr/bin/callgrind_fold usr/bin/valgrind usr/libexec/valgrind/callgrind-arm64-linux \
         usr/libexec/valgrind/memcheck-arm64-linux; do
    check "deb-arm64: $f is an aarch64 program" is_aarch64 "$root/$f"
done

prog=$scratch/calls
if ! aarch64-linux-gnu-gcc -O1 -g -I"$root/usr/include" -o "$prog" "$top/examples/calls.c" 2> "$scratch/cc.err"; then
    cat "$scratch/cc.err"; fail "deb-arm64: building examples/calls.c for arm64"; finish
fi
VALGRIND_LIB=$root/usr/libexec/valgrind sh "$top/scripts/run-arm64" -q --tool=callgrind \
    --dump-folded=yes --callgrind-out-file="$scratch/cg.out" --folded-out-file="$scratch/cg.tree" \
    "$prog" > "$scratch/run.out" 2> "$scratch/run.err"
profiled() { [ -s "$scratch/cg.out" ] && [ -s "$scratch/cg.tree" ]; }
check "deb-arm64: the package's callgrind profiles an arm64 program under qemu" profiled \
    || tail -n 10 "$scratch/run.err"

total=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' "$scratch/cg.out")
for input in cg.out cg.tree; do
    if sh "$top/scripts/run-arm64" --qemu "$root/usr/bin/callgrind_fold" "$scratch/$input" \
            -o "$scratch/$input.folded" 2> "$scratch/fold.err"; then
        sum=$(awk '{ s += $NF } END { print s + 0 }' "$scratch/$input.folded")
        check "deb-arm64: the package's callgrind_fold folds $input; the counts sum to the totals ($total)" \
            [ -n "$total" -a "$sum" = "$total" ] || echo "  sum $sum, totals $total"
    else
        cat "$scratch/fold.err"; fail "deb-arm64: the package's callgrind_fold folds $input"
    fi
done
finish
