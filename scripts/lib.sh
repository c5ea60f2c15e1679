# Shared helpers for the scripts in this directory (sourced, not run).
# Callers set $top (project root) before sourcing.

patches=${patches:-$top/patches}

# The series: patches/series lists the patch files in order.
series_files() {
    [ -f "$patches/series" ] || return 0
    grep -v -e '^#' -e '^[[:space:]]*$' "$patches/series" | while read -r p; do
        [ -f "$patches/$p" ] || { echo "patches/series names missing file $p" >&2; exit 1; }
        echo "$patches/$p"
    done
}

# Identifies the series' content, to notice when patches/ changed.
series_hash() {
    { cat "$patches/series" 2>/dev/null; for f in $(series_files); do cat "$f"; done; } \
        | sha256sum | cut -d' ' -f1
}

# Files autogen.sh rewrites after the series touches an autotools input:
# never part of a patch.
generated_re='(^|/)(configure|aclocal\.m4|config\.h|config\.h\.in|Makefile[^/]*\.in|compile|depcomp|install-sh|missing|test-driver|config\.guess|config\.sub|ar-lib)$'

# Tracked files of git tree $1 changed in the work tree, generated ones
# excluded: autotools outputs, and files configure makes from FILE.in.
dirty_sources() {
    git -C "$1" status --porcelain --untracked-files=no | cut -c4- | grep -v -E "$generated_re" \
        | while read -r f; do [ -f "$1/$f.in" ] || echo "$f"; done
}

# Record that tree $1 now holds exactly the series in patches/.
record_series() {
    git -C "$1" rev-parse HEAD > "$1/.git/callgrind-fold-applied-head"
    series_hash > "$1/.git/callgrind-fold-series"
}

# clean_regtest_outputs DIR: run the cleanup: line of every vgtest in DIR
# (a tree's tests directory, such as callgrind/tests) before a run, as
# vg_regtest runs it after each test.  Post-checks glob their outputs
# (harness-inherit-measuring.out.*): a file that a killed run left, or
# that a copy of the tree took while a test was running there, would be
# read as this run's.
clean_regtest_outputs() {
    for vgtest in "$1"/*.vgtest; do
        [ -f "$vgtest" ] || continue
        cleanup=$(sed -n 's/^cleanup: *//p' "$vgtest")
        [ -z "$cleanup" ] || (cd "$1" && sh -c "$cleanup") > /dev/null 2>&1 || true
    done
}
