#!/bin/sh
# Install FlameGraph's flamegraph.pl (Brendan Gregg's flame graph renderer,
# the baseline of bench/render-bench.sh), pinned, into $BUILD/flamegraph-pl
# (once; later runs reuse it) and print the script's path.  Exits non-zero
# with the reason on stderr when it cannot be had (no apt-get, no perl, the
# package or that version not in the archive): the benchmark then says SKIP.
#
# The script comes from Debian's own copy in Devel::NYTProf's package:
#
#   libdevel-nytprof-perl 6.12+dfsg-1 (bookworm),
#   /usr/share/perl5/Devel/NYTProf/flamegraph.pl
#
# FlameGraph's flamegraph.pl of October 2014 (its history ends with the zoom
# added on 11-Oct-2014; Tim Bunce's options, merged upstream in 2013, are
# in).  Debian has no package of FlameGraph itself, and no npm package was
# found to ship its script.  The package is only downloaded and unpacked
# here (apt-get download, dpkg-deb), not installed: apt checks the .deb
# against the archive's signed index, and the script's own SHA-256 is
# checked below.  It needs perl and nothing else (Getopt::Long).
#
# Usage: flamegraph-pl.sh [DIR]   (default $BUILD/flamegraph-pl)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
dir=${1:-$BUILD/flamegraph-pl}

package=libdevel-nytprof-perl
version=6.12+dfsg-1
member=usr/share/perl5/Devel/NYTProf/flamegraph.pl
sha256=5ec63a7c6f81c1806e7d5f5a7ef2d570b89deabea7c881ab96fba3af89276feb
script=$dir/flamegraph.pl

say() { echo "flamegraph-pl: $*" >&2; }

installed() {
    [ -f "$script" ] && [ "$(sha256sum "$script" 2>/dev/null | cut -d' ' -f1)" = "$sha256" ]
}

command -v perl > /dev/null 2>&1 || { say "perl is not installed"; exit 1; }

if ! installed; then
    for tool in apt-get dpkg-deb sha256sum; do
        command -v "$tool" > /dev/null 2>&1 || { say "$tool is not available (a Debian system is needed)"; exit 1; }
    done
    work=$dir/download
    rm -rf "$work" && mkdir -p "$work" || exit 1
    log=$dir/download.log
    # apt-get download needs the package lists; as root, fetch them once
    # if the version is not found (a fresh machine has none).
    if ! (cd "$work" && apt-get download "$package=$version" > "$log" 2>&1); then
        if [ "$(id -u)" -eq 0 ] && apt-get update -q >> "$log" 2>&1 &&
           (cd "$work" && apt-get download "$package=$version" >> "$log" 2>&1); then
            :
        else
            why=$(grep -m 1 -E '^(E|W):' "$log" | sed 's/^[EW]: //')
            say "apt-get download $package=$version failed: ${why:-see $log}"
            exit 1
        fi
    fi
    deb=
    for f in "$work/${package}"_*.deb; do [ -f "$f" ] && deb=$f; done
    [ -n "$deb" ] || { say "no .deb downloaded (see $log)"; exit 1; }
    if ! dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" "./$member" 2>> "$log"; then
        say "$member not in $(basename "$deb") (see $log)"
        exit 1
    fi
    mv "$work/$member" "$script" && chmod 755 "$script" || exit 1
    rm -rf "$work"
    installed || { say "$script is not the pinned file (SHA-256 differs)"; rm -f "$script"; exit 1; }
fi
echo "$script"
