#!/bin/sh
# Build CPython 3.X (for its perf trampolines: tests/perfmap-python.sh)
# from Debian's source package python3.X, once, and print the path of the
# installed python3.X.  Later runs only check the installation and print
# the path.
#
#   scripts/cpython.sh [3.13|3.14]   (default 3.13)
#
#   $BUILD/cpython-3.X/            the installation (--prefix), bin/python3.X
#   $BUILD/cpython-3.X.lock, .log  one build at a time per version; its log
#   $BUILD/cache/python3.X_*.orig.tar.xz   the upstream tarball, kept
#
# The sources come from the Debian mirror through a private apt
# configuration under $BUILD (as scripts/fetch-upstream.sh does for
# valgrind): the machine's apt sources and state are never read or changed.
# The upstream (orig) tarball is built, without Debian's patches:
#   ./configure --enable-shared --prefix=$BUILD/cpython-3.X --without-ensurepip
#               LDFLAGS=-Wl,-rpath,$BUILD/cpython-3.X/lib
#   make -j$JOBS && make install DESTDIR=<staging>
# in a temporary directory under $BUILD, moved into place only when the
# interpreter works (its version, json, zlib, ctypes, perf trampolines): an
# interrupted run leaves nothing half-built behind.  About 4-5 minutes on 2
# cores.  3.14 builds the same way (its new compression.zstd wants
# libzstd-dev, optional as the other modules' libraries are).
#
# Missing build dependencies are installed with apt-get when run as root;
# otherwise the exact command is printed and the script fails.  Every
# failure exits non-zero with the reason on stderr.
#
# Environment: BUILD, JOBS (default 2), CPYTHON_SUITES (default "sid testing"),
# DEBIAN_MIRROR (default http://deb.debian.org/debian),
# CPYTHON_TARBALL=/path/to/Python-3.X.Y.tar.xz or python3.X_3.X.Y.orig.tar.xz
# (no download; several separated by spaces: the one of the version built).
set -eu

ver=${1:-3.13}
case $ver in
    3.13 | 3.14) ;;
    *) echo "usage: $0 [3.13|3.14]" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/private-apt.sh"
BUILD=${BUILD:-$top/build}
JOBS=${JOBS:-2}
suites=${CPYTHON_SUITES:-"sid testing"}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
dest=$BUILD/cpython-$ver
cache=$BUILD/cache
py=$dest/bin/python$ver

die() { echo "cpython $ver: error: $*" >&2; exit 1; }
say() { echo "cpython $ver: $*" >&2; }

# What the tests need of the interpreter, of version $ver.
works() {
    [ -x "$1" ] && "$1" -c '
import os, sys, json, zlib, ctypes, _json
assert "%d.%d" % sys.version_info[:2] == sys.argv[1], sys.version
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
' "$ver" > /dev/null 2>&1
}

if works "$py"; then
    echo "$py"
    exit 0
fi

mkdir -p "$BUILD" "$cache"
BUILD=$(cd "$BUILD" && pwd)
dest=$BUILD/cpython-$ver cache=$BUILD/cache py=$dest/bin/python$ver

# One build at a time per version (a second run waits, then finds it
# installed); versions build side by side: they share no file but the cache.
if command -v flock > /dev/null 2>&1 && [ -z "${CPYTHON_LOCKED:-}" ]; then
    CPYTHON_LOCKED=1 exec flock "$BUILD/cpython-$ver.lock" sh "$0" "$ver"
fi
if works "$py"; then
    echo "$py"
    exit 0
fi
[ ! -e "$dest" ] || { say "$dest exists but does not work; building again"; rm -rf "$dest"; }
# left by a run that was killed (under the lock no other run is building)
[ -z "${CPYTHON_LOCKED:-}" ] || rm -rf "$BUILD/cpython-$ver".tmp.*

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
# 3.14's compression.zstd
[ "$ver" = 3.13 ] || nice="$nice/usr/include/zstd.h libzstd-dev
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
    for f in $CPYTHON_TARBALL; do
        case ${f##*/} in [Pp]ython-"$ver".* | "python${ver}_$ver".*) tarball=$f ;; esac
    done
    [ -n "$tarball" ] || die "CPYTHON_TARBALL=$CPYTHON_TARBALL: none is named as a $ver tarball (Python-$ver.Y.tar.* or python${ver}_$ver.Y.orig.tar.*)"
    [ -f "$tarball" ] || die "CPYTHON_TARBALL: $tarball: no such file"
else
    # the newest one downloaded before
    tarball=$(ls "$cache/python${ver}_$ver".*.orig.tar.* 2> /dev/null | sort -V | tail -n 1)
fi
if [ -z "$tarball" ]; then
    apt=$BUILD/cpython-$ver.apt
    trap 'rm -rf "$apt"' EXIT
    private_apt_init "$apt" "$suites" "$mirror"
    say "downloading the python$ver source package from Debian ($suites, $mirror)"
    private_apt apt-get -q update >&2 || die "apt-get update failed for the private source list $apt/etc/sources.list"
    # (apt-get update exits 0 when a mirror cannot be reached)
    ls "$apt/lists"/*_Sources* > /dev/null 2>&1 || die "could not download the source package lists of Debian $suites from $mirror"
    # Every 3.X.Y version the suites list, newest first; a mirror may
    # list a version its pool does not hold (yet): then the next one.
    versions=$(private_apt apt-cache showsrc "python$ver" 2> /dev/null | awk -v ver="$ver" '
        /^Package:/ { pkg = $2 }
        /^Version:/ && pkg == "python" ver && index($2, ver ".") == 1 { print $2 }' | sort -Vru)
    [ -n "$versions" ] || die "no source package python$ver of version $ver.x in Debian $suites ($mirror)"
    got=
    for version in $versions; do
        say "trying python$ver source version $version"
        rm -f "$apt/download"/*
        (cd "$apt/download" && private_apt apt-get -q source --download-only "python$ver=$version") \
            > "$apt/source.log" 2>&1 && got=$version
        cat "$apt/source.log" >&2
        [ -z "$got" ] || break
    done
    # with the last try's first error from apt (the mirror's answer: 404 Not Found, ...)
    [ -n "$got" ] || die "apt-get source --download-only python$ver failed for every version listed ($(echo "$versions" | tr '\n' ' ' | sed 's/ $//')): $(sed -n 's/^E: //p' "$apt/source.log" | head -n 1)"
    say "using python$ver source version $got"
    orig=
    for f in "$apt/download/python${ver}_"*.orig.tar.*; do
        case $f in *.asc) ;; *) [ -f "$f" ] && orig=$f ;; esac
    done
    [ -n "$orig" ] || die "apt-get did not deliver the orig tarball of python$ver $got"
    # apt checked it against the signed Sources index; the .dsc must agree
    sum=$(sha256sum "$orig" | cut -d' ' -f1)
    grep -q "^ $sum [0-9]* $(basename "$orig")\$" "$apt/download/python${ver}_"*.dsc \
        || die "$(basename "$orig") does not match the checksum in its .dsc"
    mv "$orig" "$cache/"
    tarball=$cache/$(basename "$orig")
    rm -rf "$apt"
fi

# ---------------------------------------------------------------- build
work=$(mktemp -d "$BUILD/cpython-$ver.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP
say "unpacking $(basename "$tarball")"
tar -C "$work" -xf "$tarball" || die "unpacking $tarball failed"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$src" ] && [ -x "$src/configure" ] || die "$tarball holds no configure script"
log=$BUILD/cpython-$ver.log
say "building in $src (log: $log; about 4-5 minutes on 2 cores)"
(
    cd "$src"
    ./configure --enable-shared --prefix="$dest" --without-ensurepip \
        LDFLAGS="-Wl,-rpath,$dest/lib" &&
    make -j"$JOBS" &&
    make install DESTDIR="$work/stage"
) > "$log" 2>&1 || die "building CPython $ver failed (last lines of $log):
$(tail -n 15 "$log")"
awk '/necessary bits to build these optional modules were not found/ { f = 1 } f && /^$/ { exit } f' "$log" \
    | sed "s/^/cpython $ver: /" >&2

# The staged tree holds the prefix's full path; check it, then move it.
staged=$work/stage$dest
LD_LIBRARY_PATH=$staged/lib PYTHONHOME=$staged works "$staged/bin/python$ver" \
    || die "the built interpreter is not $ver or lacks json, zlib, ctypes or perf trampolines (see $log)"
mkdir -p "$(dirname "$dest")"
mv "$staged" "$dest"
works "$py" || die "$py does not work after installation"
say "installed $("$py" -c 'import sys; print(sys.version.split()[0])') in $dest"
echo "$py"
