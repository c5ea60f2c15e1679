#!/bin/sh
# Create or update a Valgrind source tree from the pinned tarball.
#
# Usage: prepare-tree.sh TARBALL TREE [patched|stock]
#
# patched (default): TREE is a git repository whose first commit (tag
#   `upstream`) is the pristine tarball and whose following commits are the
#   series in patches/, applied with `git am`: every line we add to
#   Valgrind, new files and tests included, is in the series.  When
#   patches/ changes, the tree is reset to `upstream` and the series
#   re-applied, but only if that loses no work (see docs/patches.md).
# stock: TREE is the pristine tarball, nothing else.
set -eu

die() { echo "prepare-tree: error: $*" >&2; exit 1; }
say() { echo "prepare-tree: $*" >&2; }

[ $# -ge 2 ] || die "usage: $0 TARBALL TREE [patched|stock]"
tarball=$1
tree=$2
mode=${3:-patched}
top=$(cd "$(dirname "$0")/.." && pwd)

unpack() {
    tmp=$tree.unpack.$$
    rm -rf "$tmp" && mkdir -p "$tmp"
    tar --no-same-owner -C "$tmp" -xjf "$tarball" || die "cannot unpack $tarball"
    src=$(ls -d "$tmp"/valgrind-* 2>/dev/null | head -n 1)
    [ -d "$src" ] || die "$tarball does not contain a valgrind-* directory"
    mv "$src" "$tree"
    rm -rf "$tmp"
}

if [ "$mode" = stock ]; then
    [ -f "$tree/configure.ac" ] || { say "unpacking stock tree $tree"; unpack; }
    exit 0
fi

. "$top/scripts/lib.sh"

git_tree() { git -C "$tree" -c user.name="callgrind-fold build" \
                 -c user.email="build@callgrind-fold.invalid" "$@"; }

apply_series() {
    for p in $(series_files); do
        git_tree am -q --whitespace=nowarn "$p" || {
            git_tree am --abort >/dev/null 2>&1 || true
            die "patch $(basename "$p") does not apply to upstream valgrind"
        }
    done
    # Regenerate the build system with this machine's autotools, so that
    # Makefile.am edits in the series (or made later in the tree) are picked
    # up by automake's own rebuild rules.  The generated files stay out of
    # the patches.
    say "running autogen.sh"
    (cd "$tree" && ./autogen.sh >/dev/null) || die "autogen.sh failed (are autoconf and automake installed?)"
    record_series "$tree"
}

if [ ! -d "$tree/.git" ]; then
    rm -rf "$tree"
    say "unpacking pristine upstream into $tree"
    mkdir -p "$(dirname "$tree")"
    unpack
    git -C "$tree" init -q
    git_tree add -A -f .
    git_tree commit -q -m "Pristine upstream Valgrind 3.27.1 (valgrind_3.27.1.orig.tar.bz2)"
    git_tree tag upstream
    say "applying $(series_files | wc -l) patch(es) from patches/series"
    apply_series
elif [ "$(cat "$tree/.git/callgrind-fold-series" 2>/dev/null)" != "$(series_hash)" ]; then
    applied=$(cat "$tree/.git/callgrind-fold-applied-head" 2>/dev/null || echo none)
    if [ "$(git_tree rev-parse HEAD)" != "$applied" ] || [ -n "$(dirty_sources "$tree")" ]; then
        die "patches/ changed, but $tree has commits or edits that are not exported.
Run 'make patches' to export them, or 'make reset-tree' to discard them."
    fi
    say "patches/ changed: re-applying the series on upstream"
    # Trees made before the series held our own files linked them in from
    # the project (and kept the links out of git): drop those.
    find "$tree" -type l -lname "$top/*" -exec rm -f {} + 2>/dev/null || true
    : > "$tree/.git/info/exclude"
    git_tree reset -q --hard upstream
    apply_series
fi
