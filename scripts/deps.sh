#!/bin/sh
# Check the build and test dependencies; install the missing ones with
# apt-get when running as root, otherwise print the exact command: without
# the build dependencies that is an error; without only those of the tests
# (check) the run goes on, and the tests that need them say SKIP.
#
# Usage: deps.sh [build|check|demo|bench|deb|arm64]   (default: build)
# With ARCH=arm64 in the environment (make ARCH=arm64 ...), check also
# wants the arm64 cross tools and emulator (purpose arm64).
set -eu

purpose=${1:-build}

# "command-or-file package" pairs.  A leading / means a file to test for.
build_deps="
gcc gcc
make make
perl perl
git git
bzip2 bzip2
autoconf autoconf
automake automake
pkg-config pkg-config
apt-get apt
/usr/include/elfutils/libdw.h libdw-dev
/usr/include/zlib.h zlib1g-dev
/usr/include/graphviz/gvc.h libgraphviz-dev
dot graphviz
python3 python3
"
check_deps="
/usr/bin/chromium chromium
npm npm
clang clang
gdb gdb
go golang-go
llvm-mca-19 llvm-19
llvm-config-19 llvm-19-dev
g++ g++
setarch util-linux
"
deb_deps="
dpkg-buildpackage dpkg-dev
dh debhelper
fakeroot fakeroot
lintian lintian
patch patch
"
bench_deps="
/usr/bin/time time
sqlite3 sqlite3
"
# Cross-building and running the arm64 Valgrind (make ARCH=arm64): the
# cross compiler and emulator, and Debian's own arm64 libc with its debug
# info (multiarch, ":arm64"), which the tests run with: the cross
# sysroot's libc has no symbols (docs/arm64-notes.md); for callgrind_fold,
# arm64's libdw and zlib, and libstdc++ (C++ names).
arm64_deps="
aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
qemu-aarch64-static qemu-user-static
/usr/aarch64-linux-gnu/include/stdio.h libc6-dev-arm64-cross
/lib/ld-linux-aarch64.so.1 libc6:arm64
pkg:libc6-dbg:arm64 libc6-dbg:arm64
/usr/include/aarch64-linux-gnu/elfutils/libdw.h libdw-dev:arm64
/usr/include/aarch64-linux-gnu/zlib.h zlib1g-dev:arm64
pkg:libstdc++6:arm64 libstdc++6:arm64
"

case $purpose in
    build|demo) want=$build_deps ;;
    check) want="$build_deps $check_deps $deb_deps" ;;
    deb) want="$build_deps $deb_deps" ;;
    bench) want="$build_deps $check_deps $deb_deps $bench_deps" ;;
    arm64) want="$build_deps $arm64_deps" ;;
    *) echo "deps.sh: unknown purpose '$purpose'" >&2; exit 2 ;;
esac
[ "$purpose" != check ] || [ "${ARCH:-}" != arm64 ] || want="$want $arm64_deps"

# The packages of the pairs in $1 whose command or file is missing.
missing_of() {
    echo "$1" | while read -r what pkg; do
        [ -n "$what" ] || continue
        case $what in
            /*) [ -e "$what" ] || echo "$pkg" ;;
            pkg:*) dpkg-query -W -f='${Status}' "${what#pkg:}" 2>/dev/null | grep -q ' installed$' \
                       || echo "$pkg" ;;
            *) command -v "$what" >/dev/null 2>&1 || echo "$pkg" ;;
        esac
    done | sort -u | tr '\n' ' '
}

missing=$(missing_of "$want")

[ -n "$missing" ] || exit 0

cmd="apt-get install -y --no-install-recommends $missing"
# Packages of another architecture (multiarch) need it added to dpkg.
foreign=
case " $missing" in *:arm64\ *) dpkg --print-foreign-architectures | grep -qx arm64 || foreign=arm64 ;; esac
[ -z "$foreign" ] || cmd="dpkg --add-architecture $foreign && apt-get update && $cmd"
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing missing packages: $missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    if [ -n "$foreign" ]; then
        dpkg --add-architecture "$foreign" && apt-get update -q >&2 \
            || { echo "deps: error: 'dpkg --add-architecture $foreign && apt-get update' failed" >&2; exit 1; }
    fi
    if ! apt-get install -y -q --no-install-recommends $missing >&2; then
        apt-get update -q >&2 && apt-get install -y -q --no-install-recommends $missing >&2 \
            || { echo "deps: error: '$cmd' failed" >&2; exit 1; }
    fi
else
    echo "deps: missing dependencies: $missing" >&2
    echo "deps: install them as root with:" >&2
    if [ -n "$foreign" ]; then echo "    sudo sh -c '$cmd'" >&2; else echo "    sudo $cmd" >&2; fi
    # Only the tests' missing: they say SKIP with the reason.
    if [ "$purpose" = check ] && [ -z "$(missing_of "$build_deps" | tr -d ' ')" ]; then
        echo "deps: going on without them: the tests that need them say SKIP" >&2
        exit 0
    fi
    exit 1
fi
