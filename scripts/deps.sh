#!/bin/sh
# Check the build and test dependencies; install the missing ones with
# apt-get when running as root, otherwise print the exact command and stop.
#
# Usage: deps.sh [build|check|demo|bench]   (default: build)
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
"
bench_deps="
/usr/bin/time time
sqlite3 sqlite3
"

case $purpose in
    build|demo) want=$build_deps ;;
    check) want="$build_deps $check_deps" ;;
    bench) want="$build_deps $check_deps $bench_deps" ;;
    *) echo "deps.sh: unknown purpose '$purpose'" >&2; exit 2 ;;
esac

missing=$(echo "$want" | while read -r what pkg; do
    [ -n "$what" ] || continue
    case $what in
        /*) [ -e "$what" ] || echo "$pkg" ;;
        *) command -v "$what" >/dev/null 2>&1 || echo "$pkg" ;;
    esac
done | sort -u | tr '\n' ' ')

[ -n "$missing" ] || exit 0

cmd="apt-get install -y --no-install-recommends $missing"
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing missing packages: $missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends $missing >&2; then
        apt-get update -q >&2 && apt-get install -y -q --no-install-recommends $missing >&2 \
            || { echo "deps: error: '$cmd' failed" >&2; exit 1; }
    fi
else
    echo "deps: missing build dependencies: $missing" >&2
    echo "deps: install them as root with:" >&2
    echo "    sudo $cmd" >&2
    exit 1
fi
