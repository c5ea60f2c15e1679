#!/bin/sh
# Changing one callgrind source and re-running the build rebuilds callgrind
# only: the core library is left alone.
. "$(dirname "$0")/lib.sh"
core=$(ls "$TREE"/coregrind/libcoregrind-*.a | head -n 1)
tool=$(ls "$TREE"/callgrind/callgrind-*-linux | head -n 1)
before_core=$(stat -c %Y.%y "$core")
before_tool=$(stat -c %y "$tool")
sleep 1
touch "$TREE/callgrind/fn.c"
start=$(date +%s)
"$top/scripts/build-valgrind.sh" "$TREE" "$PREFIX" --enable-maintainer-mode 2>/dev/null
rc=$?
elapsed=$(( $(date +%s) - start ))
check "rebuild after touching callgrind/fn.c succeeds" [ $rc -eq 0 ]
check "callgrind tool was relinked" [ "$(stat -c %y "$tool")" != "$before_tool" ]
check "core library was not rebuilt" [ "$(stat -c %Y.%y "$core")" = "$before_core" ]
check "incremental rebuild took ${elapsed}s (< 120s)" [ "$elapsed" -lt 120 ]
finish
