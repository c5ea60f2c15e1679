#!/bin/sh
# The patch series: exporting it is deterministic and matches patches/, and
# applying patches/ to pristine upstream reproduces the build tree exactly.
#
# tests/patch-series.sh --every-patch [--from N]: the long check, not run by
# `make check` (an hour or more on two cores): in a fresh tree
# ($BUILD/every-patch, or EVERY_DIR) configured once at upstream, apply the
# series one patch at a time and check at each that it applies, that the
# tree builds (make -j$JOBS), and that the callgrind regtests present at
# that point pass (vg_regtest callgrind); at the end, that the series
# reproduces the build tree.  --from N checks building and regtests from
# patch N on only (the patches before it are applied and built once).  One
# line per patch on stdout; logs in EVERY_DIR/logs.
. "$(dirname "$0")/lib.sh"
. "$top/scripts/lib.sh"

every_patch() {
    from=1
    [ "${1:-}" != --from ] || from=$2
    dir=${EVERY_DIR:-$BUILD/every-patch}
    jobs=${JOBS:-2}
    tarball=$("$top/scripts/fetch-upstream.sh" "${CACHE:-$BUILD/cache}") || exit 1
    rm -rf "$dir" && mkdir -p "$dir/logs"
    tar --no-same-owner -C "$dir" -xjf "$tarball"
    v=$(ls -d "$dir"/valgrind-*)
    g() { git -C "$v" -c user.name=t -c user.email=t@t "$@"; }
    g init -q && g add -A -f . && g commit -q -m upstream
    # Configure once: maintainer mode re-runs automake and configure when a
    # patch changes a Makefile.am or configure.ac.
    if ! (cd "$v" && ./autogen.sh && ./configure --enable-maintainer-mode \
            --prefix="$dir/inst") > "$dir/logs/configure.log" 2>&1; then
        fail "every-patch: configure at upstream (see $dir/logs/configure.log)"; finish
    fi
    # A copy of the series: patches/ may change while this runs.
    mkdir -p "$dir/patches"
    for f in $(series_files); do cp "$f" "$dir/patches/"; done
    n=0
    for f in $(series_files | sed "s|.*/|$dir/patches/|"); do
        n=$((n + 1))
        name=$(basename "$f" .patch)
        if ! g am -q --whitespace=nowarn "$f" > "$dir/logs/$name.am" 2>&1; then
            fail "every-patch: $name applies"; break
        fi
        [ "$n" -ge "$from" ] || continue
        log=$dir/logs/$name.log
        if ! make -C "$v" -s -j"$jobs" > "$log" 2>&1; then
            fail "every-patch: $name builds (see $log)"; continue
        fi
        if ! { make -s -C "$v/tests" check TESTS= && make -s -C "$v/callgrind/tests" check TESTS= \
                 && make -s -C "$v/memcheck/tests" bug445235_ada_demangle; } >> "$log" 2>&1; then
            fail "every-patch: $name builds the regtests' programs (see $log)"; continue
        fi
        out=$dir/logs/$name.regtest
        (cd "$v" && perl tests/vg_regtest callgrind) > "$out" 2>&1
        ran=$(grep -c '^[A-Za-z0-9_+.-]*: ' "$out")
        bad=$(sed -n 's/^\*\*\* \([^ ]*\) failed.*/\1/p' "$out" | sort -u | tr '\n' ' ')
        postbad=$(awk '/^[A-Za-z0-9_.+-]+: / { t = $1 } /^post check failed: / { print t }' "$out" \
                  | sort -u | tr -d ':' | tr '\n' ' ')
        check "every-patch: $name applies, builds, its $ran callgrind regtests pass" \
            [ -z "$bad$postbad" ] || echo "  failed: $bad$postbad"
    done
    check "every-patch: the series reproduces the build tree exactly" \
        [ "$(g rev-parse HEAD^{tree})" = "$(git -C "$TREE" rev-parse HEAD^{tree})" ]
    finish
}
[ "${1:-}" != --every-patch ] || { shift; every_patch "$@"; }

"$top/scripts/export-patches.sh" "$TREE" "$scratch/export1" 2>/dev/null
"$top/scripts/export-patches.sh" "$TREE" "$scratch/export2" 2>/dev/null
check "export is deterministic" diff -r "$scratch/export1" "$scratch/export2"
check "patches/ is the export of the build tree (run make patches)" \
    diff -r -x '*~' "$scratch/export1" "$top/patches"

listed=$(grep -v -e '^#' -e '^$' "$top/patches/series" | sort)
present=$(cd "$top/patches" && ls [0-9]*.patch 2>/dev/null | sort)
check "series lists exactly the patch files" [ "$listed" = "$present" ]

tarball=$("$top/scripts/fetch-upstream.sh" "$BUILD/cache")
mkdir -p "$scratch/pristine"
tar --no-same-owner -C "$scratch/pristine" -xjf "$tarball"
p=$(ls -d "$scratch"/pristine/valgrind-*)
g() { git -C "$p" -c user.name=t -c user.email=t@t "$@"; }
g init -q && g add -A -f . && g commit -q -m upstream
check "upstream commit of the build tree is the pristine tarball" \
    [ "$(g rev-parse HEAD^{tree})" = "$(git -C "$TREE" rev-parse upstream^{tree})" ]
ok=true
for f in $(series_files); do g am -q "$f" || ok=false; done
check "every patch applies to pristine upstream" $ok
check "series on pristine upstream reproduces the build tree exactly" \
    [ "$(g rev-parse HEAD^{tree})" = "$(git -C "$TREE" rev-parse HEAD^{tree})" ]
finish
