#!/bin/sh
# Fetch the pinned upstream Valgrind tarball into a cache and verify it.
#
# Usage: fetch-upstream.sh CACHE_DIR
# Prints the path of the verified tarball on stdout.
#
# The pin is the orig tarball's sha256, not a Debian revision: any Debian
# source version of valgrind whose .dsc lists a tarball with this checksum
# is accepted.  Environment:
#   VALGRIND_TARBALL=/path  use this file instead of downloading
#   VALGRIND_SHA256=hex     expected checksum (default: the pin below)
#   VALGRIND_SUITES="sid testing"  Debian suites searched with apt-get
#   DEBIAN_MIRROR=http://deb.debian.org/debian
set -eu

PIN_SHA256=5d589152eb8071c02feab8ce6ab719e431a1fbc3e2b1700f5432632a8b9264dc
TARBALL_NAME=valgrind_3.27.1.orig.tar.bz2

die() { echo "fetch-upstream: error: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 CACHE_DIR"
cache=$1
want=${VALGRIND_SHA256:-$PIN_SHA256}
suites=${VALGRIND_SUITES:-"sid testing"}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

verify() {  # verify FILE: exit with a clear message unless it matches
    got=$(sha_of "$1")
    if [ "$got" != "$want" ]; then
        die "checksum mismatch for $1
  expected sha256 $want
  got      sha256 $got
The file is corrupt or is not the pinned Valgrind 3.27.1 tarball."
    fi
}

mkdir -p "$cache"
cached=$cache/$TARBALL_NAME

if [ -n "${VALGRIND_TARBALL:-}" ]; then
    [ -f "$VALGRIND_TARBALL" ] || die "VALGRIND_TARBALL=$VALGRIND_TARBALL: no such file"
    verify "$VALGRIND_TARBALL"
    echo "$VALGRIND_TARBALL"
    exit 0
fi

if [ -f "$cached" ]; then
    if [ "$(sha_of "$cached")" = "$want" ]; then
        echo "$cached"
        exit 0
    fi
    echo "fetch-upstream: cached $cached does not match the pin; downloading again" >&2
    rm -f "$cached"
fi

# A private apt configuration under the cache directory.
. "$(dirname "$0")/private-apt.sh"
apt=$cache/apt
private_apt_init "$apt" "$suites" "$mirror"

echo "fetch-upstream: downloading valgrind sources from Debian ($suites)" >&2
private_apt apt-get -q update >&2 || die "apt-get update failed for the private source list $apt/etc/sources.list"

# Pick the newest source version whose files include the pinned tarball.
version=$(private_apt apt-cache showsrc valgrind 2>/dev/null | awk -v want="$want" -v name="$TARBALL_NAME" '
    /^Package:/      { pkg = $2 }
    /^Version:/      { ver = $2 }
    /^Checksums-Sha256:/ { insha = 1; next }
    /^[^ ]/          { insha = 0 }
    insha && $1 == want && $3 == name && pkg == "valgrind" { print ver; exit }')
[ -n "$version" ] || die "no Debian suite among '$suites' carries $TARBALL_NAME with sha256 $want any more.
Download it by other means and pass VALGRIND_TARBALL=/path/to/$TARBALL_NAME"

echo "fetch-upstream: using valgrind source version $version" >&2
(cd "$apt/download" && private_apt apt-get -q source --download-only "valgrind=$version" >&2) \
    || die "apt-get source --download-only valgrind=$version failed"
[ -f "$apt/download/$TARBALL_NAME" ] || die "apt-get did not deliver $TARBALL_NAME"
verify "$apt/download/$TARBALL_NAME"
mv "$apt/download/$TARBALL_NAME" "$cached"
rm -rf "$apt"
echo "$cached"
