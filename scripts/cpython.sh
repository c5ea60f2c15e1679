#!/bin/sh
# Build CPython 3.13 (for its perf trampolines: tests/perfmap-python.sh)
# from Debian's source package python3.13, once, and print the path of the
# installed python3.13.  Later runs only check the installation and print
# the path.
#
#   $BUILD/cpython-3.13/           the installation (--prefix), bin/python3.13
#   $BUILD/cache/python3.13_*.orig.tar.xz   the upstream tarball, kept
#
# The sources come from the Debian mirror through a private apt
# configuration under $BUILD (as scripts/fetch-upstream.sh does for
# valgrind): the machine's apt sources and state are never read or changed.
# The upstream (orig) tarball is built, without Debian's patches:
#   ./configure --enable-shared --prefix=$BUILD/cpython-3.13 --without-ensurepip
#               LDFLAGS=-Wl,-rpath,$BUILD/cpython-3.13/lib
#   make -j$JOBS && make install DESTDIR=<staging>
# in a temporary directory under $BUILD, moved into place only when the
# interpreter works (json, zlib, ctypes, perf trampolines): an interrupted
# run leaves nothing half-built behind.  About 4-5 minutes on 2 cores.
#
# Missing build dependencies are installed with apt-get when run as root;
# otherwise the exact command is printed and the script fails.  Every
# failure exits non-zero with the reason on stderr.
#
# Environment: BUILD, JOBS (default 2), CPYTHON_SUITES (default "sid testing"),
# DEBIAN_MIRROR (default http://deb.debian.org/debian),
# CPYTHON_TARBALL=/path/to/Python-3.13.x tarball (no download).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/private-apt.sh"
BUILD=${BUILD:-$top/build}
JOBS=${JOBS:-2}
suites=${CPYTHON_SUITES:-"sid testing"}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
dest=$BUILD/cpython-3.13
cache=$BUILD/cache
py=$dest/bin/python3.13

die() { echo "cpython: error: $*" >&2; exit 1; }
say() { echo "cpython: $*" >&2; }

# What the tests need of the interpreter.
works() {
    [ -x "$1" ] && "$1" -c '
import os, sys, json, zlib, ctypes, _json
assert sys.version_info[:2] == (3, 13), sys.version
assert sys.is_stack_trampoline_active() is False
sys.activate_stack_trampoline("perf")  # creates /tmp/perf-<pid>.map: remove it
try:
    assert sys.is_stack_trampoline_active()
finally:
    sys.deactivate_stack_trampoline()
    try:
        os.unlink("/tmp/perf-%d.map" % os.getpid())
    except OSError:
        pass
' > /dev/null 2>&1
}

if works "$py"; then
    echo "$py"
    exit 0
fi

mkdir -p "$BUILD" "$cache"
BUILD=$(cd "$BUILD" && pwd)
dest=$BUILD/cpython-3.13 cache=$BUILD/cache py=$dest/bin/python3.13

# One build at a time (a second run waits, then finds it installed).
if command -v flock > /dev/null 2>&1 && [ -z "${CPYTHON_LOCKED:-}" ]; then
    CPYTHON_LOCKED=1 exec flock "$BUILD/cpython-3.13.lock" sh "$0" "$@"
fi
if works "$py"; then
    echo "$py"
    exit 0
fi
[ ! -e "$dest" ] || { say "$dest exists but does not work; building again"; rm -rf "$dest"; }
# left by a run that was killed (under the lock no other run is building)
[ -z "${CPYTHON_LOCKED:-}" ] || rm -rf "$BUILD"/cpython-3.13.tmp.*

# ---------------------------------------------------------------- dependencies
# "command-or-file package" pairs; a leading / is a file, a glob is allowed.
deps="
gcc gcc
make make
tar tar
xz xz-utils
apt-get apt
pkg-config pkg-config
/usr/include/zlib.h zlib1g-dev
/usr/include/*/ffi.h libffi-dev
"
nice="
/usr/include/openssl/ssl.h libssl-dev
/usr/include/bzlib.h libbz2-dev
/usr/include/lzma.h liblzma-dev
/usr/include/sqlite3.h libsqlite3-dev
/usr/include/expat.h libexpat1-dev
/usr/include/uuid/uuid.h uuid-dev
"
missing_of() {
    echo "$1" | while read -r what pkg; do
        [ -n "$what" ] || continue
        case $what in
            /*) set +f; found=; for f in $what; do [ -e "$f" ] && found=1; done; [ -n "$found" ] || echo "$pkg" ;;
            *) command -v "$what" > /dev/null 2>&1 || echo "$pkg" ;;
        esac
    done | sort -u | tr '\n' ' ' | sed 's/ *$//'
}
need=$(missing_of "$deps")
want=$(missing_of "$nice")
if [ -n "$need$want" ]; then
    all="$need${need:+${want:+ }}$want"
    cmd="apt-get install -y --no-install-recommends $all"
    if [ "$(id -u)" -eq 0 ]; then
        say "installing build dependencies: $all"
        export DEBIAN_FRONTEND=noninteractive
        # shellcheck disable=SC2086 # one word per package
        if ! apt-get install -y -q --no-install-recommends $all >&2; then
            apt-get update -q >&2 && apt-get install -y -q --no-install-recommends $all >&2 \
                || { [ -z "$(missing_of "$deps")" ] && say "warning: '$cmd' failed; building without some optional modules"; } \
                || die "'$cmd' failed"
        fi
    elif [ -n "$need" ]; then
        die "missing build dependencies: $need${want:+ (and, optional: $want)}
Install them as root with:
    sudo $cmd"
    else
        say "optional build dependencies missing (some modules will not be built): $want"
        say "    sudo $cmd"
    fi
fi

# ---------------------------------------------------------------- sources
tarball=
if [ -n "${CPYTHON_TARBALL:-}" ]; then
    [ -f "$CPYTHON_TARBALL" ] || die "CPYTHON_TARBALL=$CPYTHON_TARBALL: no such file"
    tarball=$CPYTHON_TARBALL
else
    # the newest one downloaded before
    tarball=$(ls "$cache"/python3.13_3.13.*.orig.tar.* 2> /dev/null | sort -V | tail -n 1)
fi
if [ -z "$tarball" ]; then
    apt=$BUILD/cpython-apt
    trap 'rm -rf "$apt"' EXIT
    private_apt_init "$apt" "$suites" "$mirror"
    say "downloading the python3.13 source package from Debian ($suites, $mirror)"
    private_apt apt-get -q update >&2 || die "apt-get update failed for the private source list $apt/etc/sources.list"
    # (apt-get update exits 0 when a mirror cannot be reached)
    ls "$apt/lists"/*_Sources* > /dev/null 2>&1 || die "could not download the source package lists of Debian $suites from $mirror"
    # Every 3.13.x version the suites list, newest first; a mirror may
    # list a version its pool does not hold (yet): then the next one.
    versions=$(private_apt apt-cache showsrc python3.13 2> /dev/null | awk '
        /^Package:/ { pkg = $2 }
        /^Version:/ && pkg == "python3.13" { print $2 }' | grep '^3\.13\.' | sort -Vru)
    [ -n "$versions" ] || die "no source package python3.13 of version 3.13.x in Debian $suites ($mirror)"
    got=
    for version in $versions; do
        say "trying python3.13 source version $version"
        rm -f "$apt/download"/*
        if (cd "$apt/download" && private_apt apt-get -q source --download-only "python3.13=$version" >&2); then
            got=$version
            break
        fi
    done
    [ -n "$got" ] || die "apt-get source --download-only python3.13 failed for every version listed ($(echo "$versions" | tr '\n' ' ' | sed 's/ $//'))"
    say "using python3.13 source version $got"
    orig=
    for f in "$apt/download"/python3.13_*.orig.tar.*; do
        case $f in *.asc) ;; *) [ -f "$f" ] && orig=$f ;; esac
    done
    [ -n "$orig" ] || die "apt-get did not deliver the orig tarball of python3.13 $got"
    # apt checked it against the signed Sources index; the .dsc must agree
    sum=$(sha256sum "$orig" | cut -d' ' -f1)
    grep -q "^ $sum [0-9]* $(basename "$orig")\$" "$apt/download"/python3.13_*.dsc \
        || die "$(basename "$orig") does not match the checksum in its .dsc"
    mv "$orig" "$cache/"
    tarball=$cache/$(basename "$orig")
    rm -rf "$apt"
fi

# ---------------------------------------------------------------- build
work=$(mktemp -d "$BUILD/cpython-3.13.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP
say "unpacking $(basename "$tarball")"
tar -C "$work" -xf "$tarball" || die "unpacking $tarball failed"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$src" ] && [ -x "$src/configure" ] || die "$tarball holds no configure script"
log=$BUILD/cpython-3.13.log
say "building in $src (log: $log; about 4-5 minutes on 2 cores)"
(
    cd "$src"
    ./configure --enable-shared --prefix="$dest" --without-ensurepip \
        LDFLAGS="-Wl,-rpath,$dest/lib" &&
    make -j"$JOBS" &&
    make install DESTDIR="$work/stage"
) > "$log" 2>&1 || die "building CPython failed (last lines of $log):
$(tail -n 15 "$log")"
awk '/necessary bits to build these optional modules were not found/ { f = 1 } f && /^$/ { exit } f' "$log" \
    | sed 's/^/cpython: /' >&2

# The staged tree holds the prefix's full path; check it, then move it.
staged=$work/stage$dest
LD_LIBRARY_PATH=$staged/lib PYTHONHOME=$staged works "$staged/bin/python3.13" \
    || die "the built interpreter lacks json, zlib, ctypes or perf trampolines (see $log)"
mkdir -p "$(dirname "$dest")"
mv "$staged" "$dest"
works "$py" || die "$py does not work after installation"
say "installed $("$py" -c 'import sys; print(sys.version.split()[0])') in $dest"
echo "$py"
