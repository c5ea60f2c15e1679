#!/bin/sh
# Code without a symbol, on real programs: every process starts in the
# dynamic loader's entry point, which Debian's ld.so has no symbol for,
# and callgrind names it by its offset ("0x000000000001ab70").
# callgrind_fold names such code by its object: the folded stacks of
# /bin/true and of a C program calling through its PLT, profiled by our
# Valgrind, start at "ld-linux-x86-64.so.2+0x..." (ld-linux-aarch64.so.1
# on arm64), and no frame of a known object is named by its offset alone
# ("0x0000...").
# Our own Valgrind missing is a failure: the check needs this build.
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind
fold=${CALLGRIND_FOLD:-$PREFIX/bin/callgrind_fold}

case $(uname -m) in
    aarch64) loader=ld-linux-aarch64.so.1 ;;
    *) loader=ld-linux-x86-64.so.2 ;;
esac
if ! "$vg" --version 2> /dev/null | grep -q '+fold'; then
    fail "loader-names: no Valgrind of this project's build at $vg (run make first)"
    finish
fi
[ -x "$fold" ] || { fail "loader-names: no callgrind_fold at $fold"; finish; }

progs="/bin/true"
printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' > "$scratch/hello.c"
if "${CC:-cc}" -O1 -o "$scratch/hello" "$scratch/hello.c" 2> "$scratch/cc.err"; then
    progs="$progs $scratch/hello"
else
    echo "SKIP: loader-names: hello (no C compiler: $(head -n 1 "$scratch/cc.err"))"
fi

for prog in $progs; do
    base=$(basename "$prog")
    out=$scratch/$base.out
    if ! "$vg" -q --tool=callgrind --callgrind-out-file="$out" "$prog" > "$scratch/$base.log" 2>&1; then
        sed 's/^/  /' "$scratch/$base.log"
        fail "loader-names: $base runs under callgrind"
        continue
    fi
    "$fold" "$out" > "$scratch/$base.folded" 2> "$scratch/$base.err" \
        && "$fold" --frame=fn+obj "$out" > "$scratch/$base.obj" 2>> "$scratch/$base.err" \
        || { sed 's/^/  /' "$scratch/$base.err"; fail "loader-names: $base: callgrind_fold"; continue; }
    check "loader-names: $base: stacks start at $loader+0x..." \
        grep -q "^$loader+0x[0-9a-f]*[; ]" "$scratch/$base.folded" \
        || head -n 3 "$scratch/$base.folded" | sed 's/^/  /'
    # with --frame=fn+obj each frame says its object: "0x... [???]" may
    # stay (no object knows it), "0x... [libc.so.6]" may not
    known=$(tr ';' '\n' < "$scratch/$base.obj" | sed 's/ [0-9]*$//' \
        | grep -E '^0x[0-9a-fA-F]+( \[(PLT|Data|BSS|GOT)\])? \[[^]]*\]$' | grep -v ' \[???\]$' | sort -u)
    check "loader-names: $base: no frame of a known object named 0x... alone" [ -z "$known" ] \
        || echo "$known" | head -n 5 | sed 's/^/  /'
done
finish
