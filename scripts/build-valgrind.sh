#!/bin/sh
# Configure (when needed), build and install a prepared Valgrind tree.
#
# Usage: build-valgrind.sh TREE PREFIX [CONFIGURE_OPTION...]
# Environment: JOBS (default 2).
#
# Re-running after an edit only rebuilds what depends on it: configure runs
# again only when the tree has no config.status or PREFIX or the options
# changed.
set -eu

die() { echo "build-valgrind: error: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: $0 TREE PREFIX [CONFIGURE_OPTION...]"
tree=$1
prefix=$2
shift 2
jobs=${JOBS:-2}

# With --enable-maintainer-mode (the patched tree), editing a Makefile.am
# re-runs automake through the generated rebuild rules.
# Our make -jN must not inherit a parent make's job server or flags.
unset MAKEFLAGS MFLAGS MAKELEVEL || true

cd "$tree"
stamp=.callgrind-fold-prefix
if [ ! -f config.status ] || [ "$(cat $stamp 2>/dev/null)" != "$prefix $*" ]; then
    echo "build-valgrind: configuring $tree for prefix $prefix" >&2
    ./configure -q --prefix="$prefix" "$@" > configure.out 2>&1 \
        || { tail -n 30 configure.out >&2; die "configure failed in $tree (log: $tree/configure.out)"; }
    echo "$prefix $*" > $stamp
fi
echo "build-valgrind: building $tree" >&2
make -s -j"$jobs" > make.out 2>&1 \
    || { grep -E -B2 -A8 'error|Error' make.out | tail -n 60 >&2; die "build failed in $tree (log: $tree/make.out)"; }
make -s -j"$jobs" install > install.out 2>&1 \
    || { tail -n 30 install.out >&2; die "install failed (log: $tree/install.out)"; }
# A cross-built launcher (configure --host=...) does not run here.
version=$("$prefix/bin/valgrind" --version 2>/dev/null) || version="a cross-built valgrind ($*)"
echo "build-valgrind: installed $version in $prefix" >&2
