#!/bin/sh
# With no new option, the patched callgrind counts the same events as stock
# callgrind: every function's self cost, every call arc's count and
# inclusive cost, and the totals, for several event sets and options.
#
# The two builds live under different paths, and the client's work depends
# on the length of the preload paths valgrind puts in LD_PRELOAD: both runs
# get their lib directory through VALGRIND_LIB links of the same length.
# Cache misses depend on where the client's memory lands, which moves with
# the tool binary's size, so only the deterministic events are compared.
# Profiles are compared through tests/cgprofile.py (name ids and block order
# differ between runs).  PLT stubs in .plt.sec and .plt.got are hidden by
# --skip-plt=yes in the patched build only (the debuginfo patch knows them
# as PLT): stock shows them as functions without symbol or object, which
# cgprofile.py --fold-stubs folds into their callers, as skipping does
# (with --skip-plt=no both builds show them, the patched one with " [PLT]"
# after their names: --separate-callers is compared that way, as stubs
# take places in its caller contexts).  Totals are compared as they are.
. "$(dirname "$0")/lib.sh"
ex=$(examples)
ln -s "$STOCK_PREFIX/libexec/valgrind" "$scratch/libS"
ln -s "$PREFIX/libexec/valgrind" "$scratch/libP"
events=Ir,Dr,Dw,Bc,Bcm,Bi,Bim

run_pair() {  # run_pair NAME VALGRIND_OPTIONS... PROGRAM ARGS...
    name=$1; shift
    for build in stock patched; do
        case $build in
            stock) p=$STOCK_PREFIX lib=$scratch/libS ;;
            *) p=$PREFIX lib=$scratch/libP ;;
        esac
        VALGRIND_LIB=$lib "$p/bin/valgrind" --tool=callgrind --callgrind-out-file="$scratch/$build.out" "$@" \
            > /dev/null 2> "$scratch/$build.err" || { fail "$name ($build run failed)"; return; }
        # sorted again once the install path is out of the names: the two
        # builds' paths sort differently wherever they are installed
        python3 "$top/tests/cgprofile.py" --fold-stubs --events=$events "$scratch/$build.out" \
            | sed -e "s|$(realpath "$lib")|VGLIB|g" -e 's/ \[PLT\]//g' | LC_ALL=C sort > "$scratch/$build.sum"
    done
    if cmp -s "$scratch/stock.sum" "$scratch/patched.sum" && grep -q '^totals [1-9]' "$scratch/patched.sum"; then
        pass "$name"
    else
        fail "$name"
        diff "$scratch/stock.sum" "$scratch/patched.sum" | head -n 20
    fi
}

run_pair "calls: default events" "$ex/calls" 50
run_pair "calls: cache and branch simulation" --cache-sim=yes --branch-sim=yes "$ex/calls" 50
run_pair "loops: instructions and jumps" --dump-instr=yes --collect-jumps=yes "$ex/loops" 32
run_pair "calls: --separate-callers=3" --separate-callers=3 --skip-plt=no "$ex/calls" 50
run_pair "calls: --fn-skip" --fn-skip='lookup' "$ex/calls" 50
finish
