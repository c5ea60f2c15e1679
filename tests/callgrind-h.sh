#!/bin/sh
# The installed callgrind.h under -Wall -Wextra -Werror, in C and C++ with
# gcc and clang: every request macro used as a statement (as harnesses
# use them), and CALLGRIND_ADD_OBJ_SKIP's value still readable (1 under
# callgrind, 0 outside it).
. "$(dirname "$0")/lib.sh"
cat > "$scratch/req.c" <<'C'
#include <valgrind/callgrind.h>
int main(void)
{
    CALLGRIND_ADD_OBJ_SKIP("libfoo.so");
    CALLGRIND_ADD_DESC("a description");
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT("bench");
    CALLGRIND_DUMP_STATS;
    return CALLGRIND_ADD_OBJ_SKIP("libbar.so") == 1 ? 0 : 3;
}
C
cp "$scratch/req.c" "$scratch/req.cpp"
for cc in gcc g++ clang clang++; do
    case $cc in *++) src=req.cpp ;; *) src=req.c ;; esac
    if ! command -v $cc > /dev/null 2>&1; then
        echo "SKIP: callgrind-h: $cc ($cc is not installed)"
        continue
    fi
    $cc -Wall -Wextra -Werror -I"$PREFIX/include" -o "$scratch/req-$cc" "$scratch/$src" \
        > "$scratch/cc.log" 2>&1
    check "callgrind-h: $cc -Wall -Wextra -Werror, requests as statements" [ $? -eq 0 ] \
        || sed 's/^/  /' "$scratch/cc.log"
done
if [ -x "$scratch/req-gcc" ]; then
    "$scratch/req-gcc"
    check "callgrind-h: CALLGRIND_ADD_OBJ_SKIP is 0 outside callgrind" [ $? -eq 3 ]
    "$PREFIX/bin/valgrind" -q --tool=callgrind --callgrind-out-file=/dev/null "$scratch/req-gcc"
    check "callgrind-h: CALLGRIND_ADD_OBJ_SKIP is 1 under callgrind" [ $? -eq 0 ]
elif ! command -v gcc > /dev/null 2>&1; then
    echo "SKIP: callgrind-h: CALLGRIND_ADD_OBJ_SKIP's value (gcc is not installed)"
else
    fail "callgrind-h: CALLGRIND_ADD_OBJ_SKIP's value: not run (the gcc program did not build)"
fi
finish
