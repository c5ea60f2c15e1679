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
#   Untracked files where a patch creates a file (build products, tests
#   left by an older series) are moved aside to TREE.aside/<time>/, each
#   named on stderr; other untracked files (the build) stay in place.
#   When a patch still fails, the tree goes back to `upstream` and the
#   script stops with what to run; the next run applies the series again.
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

# The paths patch $1 creates (new files, rename and copy targets), from
# its git headers.  Our patches have no paths that git would quote.
created_paths() {
    awk '/^diff --git a\// { if (made) print path; made = 0
                             path = $NF; sub(/^b\//, "", path); next }
         /^new file mode / { made = 1 }
         /^(rename|copy) to / { made = 1; path = substr($0, index($0, " to ") + 4) }
         END { if (made) print path }' "$1"
}

# Untracked paths of the tree where one of the paths given on stdin is to be
# created: the path itself (a file, link or directory), or a file or link
# where one of its parent directories must go.  Each once.
in_the_way() {
    while read -r f; do
        d=$f
        while :; do
            if [ -L "$tree/$d" ] || { [ -e "$tree/$d" ] && { [ "$d" = "$f" ] || [ ! -d "$tree/$d" ]; }; }; then
                git_tree ls-files --error-unmatch -- "$d" >/dev/null 2>&1 || echo "$d"
            fi
            case $d in */*) d=${d%/*} ;; *) break ;; esac
        done
    done | sort -u
}

# Move the untracked paths given after WHAT out of the tree, keeping their
# relative paths under $aside; WHAT says what they are in the way of.
# Stops with the command that removes them when they cannot be moved.
aside=$tree.aside/$(date +%Y%m%d-%H%M%S)
move_aside() {
    what=$1
    shift
    for f in "$@"; do
        if ! err=$({ mkdir -p "$aside/$(dirname "$f")" && mv "$tree/$f" "$aside/$f"; } 2>&1); then
            [ -z "${applying:-}" ] || back_to_upstream
            die "untracked files in $tree are in the way of $what, and moving them to $aside failed:
$err
The tree is at upstream again.  Remove those files (or move them away
yourself), then run make again:
    git -C $tree clean -f -d -x -- $*"
        fi
        say "moved aside $f (untracked, in the way of $what) to $aside/$f"
    done
}

# After a failure: the tree at `upstream`, recorded as holding no work of
# its own, so that the next run applies the series again.
back_to_upstream() {
    git_tree am --abort >/dev/null 2>&1 || true
    git_tree reset -q --hard upstream
    git_tree rev-parse HEAD > "$tree/.git/callgrind-fold-applied-head"
}

apply_series() {
    applying=yes
    for p in $(series_files); do
        # shellcheck disable=SC2046 # one word per path (none has spaces)
        move_aside "$(basename "$p")" $(created_paths "$p" | in_the_way)
        if ! err=$(git_tree am -q --whitespace=nowarn "$p" 2>&1); then
            echo "$err" | sed 's/^/    /' >&2
            back_to_upstream
            die "patch $(basename "$p") does not apply to upstream valgrind (the tree is back at upstream)"
        fi
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
    # The reset would overwrite, unasked, untracked files where upstream
    # has files the old series deleted.
    # shellcheck disable=SC2046
    move_aside "upstream's files (the reset to upstream)" \
        $(git_tree diff --name-only --no-renames --diff-filter=D upstream HEAD | in_the_way)
    git_tree reset -q --hard upstream
    apply_series
fi
