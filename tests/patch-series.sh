#!/bin/sh
# The patch series: exporting it is deterministic and matches patches/, and
# applying patches/ to pristine upstream reproduces the build tree exactly.
. "$(dirname "$0")/lib.sh"
. "$top/scripts/lib.sh"

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
