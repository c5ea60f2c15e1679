#!/bin/sh
# callgrind_fold --inline on programs of every common linker: ld.bfd,
# ld.gold, lld and mold, each making a PIE and a position-dependent
# executable, of
#   - C (callgrind_fold/tests/progs/inline_hot.c) built by gcc and clang,
#   - C++ (index_cpp.cc) built by g++ and clang++,
#   - Rust (inline_rust.rs) built by rustc (-C link-arg=-fuse-ld=LD;
#     -C relocation-model=static for the position-dependent one),
# and of split DWARF packed into <program>.dwp (clang++ -gsplit-dwarf and
# llvm-dwp, DWARF 4 and 5; g++ -gdwarf-4 -gsplit-dwarf and dwp).
# Profiled with --dump-instr=yes, each: the program is not reported, under
# 1% of its self cost is left unexpanded, its own inlined frames show.
# A linker, compiler or packer that is not installed is a SKIP that says
# how to install it.
. "$(dirname "$0")/lib.sh"
fold=${CALLGRIND_FOLD:-$PREFIX/bin/callgrind_fold}
progs=$top/callgrind_fold/tests/progs
index_add="Index::add(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) [inlined]"

# expanded TAG BINARY FRAME: profile it, fold it, check (lib.sh's check
# sets $name: a build is $b)
expanded() {
    b=$1 bin=$2 frame=$3 out=$scratch/$1.out
    inline_profile inline-linkers "$b" "$bin" || return
    self=$(self_cost "$bin" "$out") lost=$(unexpanded "$bin" "$scratch/$b.err")
    check "inline-linkers: $b: not reported, under 1% of its self cost ($self) unexpanded ($lost)" \
        sh -c '! grep -F -q "$1:" "$2" && awk -v l="$3" -v s="$4" "BEGIN { exit !(s > 0 && l * 100 < s) }"' \
        - "$bin" "$scratch/$b.err" "$lost" "$self" || sed 's/^/  /' "$scratch/$b.err"
    check "inline-linkers: $b: its own inlined frames ($frame)" \
        grep -q -F -e ";$frame;" -e ";$frame " "$scratch/$b.folded"
}

# linked_by BINARY LD TYPE: each linker's mark (gold: its version note;
# lld, mold: their .comment lines; bfd: none of those), and the ELF type.
linked_by() {
    sections=$(readelf -SW "$1") comment=$(readelf -p .comment "$1" 2> /dev/null)
    readelf -h "$1" | grep -q "Type: *$3" || return 1
    gold=no lld=no mold=no
    case $sections in *.note.gnu.gold-version*) gold=yes ;; esac
    case $comment in *LLD*) lld=yes ;; esac
    case $comment in *mold*) mold=yes ;; esac
    case $2 in
    bfd) [ $gold$lld$mold = nonono ] ;;
    gold) [ $gold = yes ] ;;
    lld) [ $lld = yes ] ;;
    mold) [ $mold = yes ] ;;
    esac
}

d=$scratch/bin
mkdir -p "$d"
for ld in bfd gold lld mold; do
    case $ld in
    bfd | gold) pkg="binutils (ld.$ld)" ;;
    *) pkg=$ld ;;
    esac
    for cc in gcc clang g++ clang++ rustc; do
        if ! command -v $cc > /dev/null 2>&1; then
            echo "SKIP: inline-linkers: $cc with $ld ($cc is not installed)"
            continue
        fi
        for pie in pie no-pie; do
            b=$cc-$ld-$pie exe=$d/$cc-$ld-$pie
            case $cc in
            gcc | clang) src=$progs/inline_hot.c frame="helper_a [inlined]"
                set -- -O2 -g -fuse-ld=$ld -$pie -o "$exe" "$src" ;;
            g++ | clang++) src=$progs/index_cpp.cc frame="$index_add"
                set -- -O2 -g -fuse-ld=$ld -$pie -o "$exe" "$src" ;;
            rustc) src=$progs/inline_rust.rs frame="wc::normalize [inlined]"
                set -- --crate-name wc -O -g -C link-arg=-fuse-ld=$ld -o "$exe" "$src"
                [ $pie = pie ] || set -- -C relocation-model=static "$@" ;;
            esac
            [ $cc != clang ] && [ $cc != clang++ ] || [ $pie = no-pie ] || set -- -fPIE "$@"
            if ! (cd "$d" && $cc "$@") > "$scratch/$b.build" 2>&1; then
                if grep -q -i -E "fuse-ld|cannot find|invalid linker|ld\.$ld|linker .* not found" \
                        "$scratch/$b.build"; then
                    echo "SKIP: inline-linkers: $b (ld.$ld is not installed: apt-get install $pkg)"
                else
                    fail "inline-linkers: $b: $cc $* builds"
                    sed 's/^/  /' "$scratch/$b.build"
                fi
                continue
            fi
            want=DYN
            [ $pie = pie ] || want=EXEC
            check "inline-linkers: $b: linked by $ld, an ELF $want file" linked_by "$exe" $ld $want \
                || readelf -hp .comment "$exe" 2>&1 | sed 's/^/  /'
            expanded "$b" "$exe" "$frame"
        done
    done
done

# Split DWARF in a package, by the packers of clang and of binutils.
for v in clang++:4 clang++:5 g++:4; do
    cc=${v%:*} dv=${v#*:} b=split-packed-${v%:*}-dwarf${v#*:}
    packer=llvm-dwp
    [ $cc = g++ ] && packer=dwp
    if ! command -v $cc > /dev/null 2>&1 || ! command -v $packer > /dev/null 2>&1; then
        echo "SKIP: inline-linkers: $b ($cc or $packer is not installed)"
        continue
    fi
    sd=$scratch/$b
    mkdir -p "$sd"
    (cd "$sd" && $cc -O2 -g -gdwarf-$dv -gsplit-dwarf -o "$sd/prog" "$progs/index_cpp.cc" \
        && $packer -e "$sd/prog" -o "$sd/prog.dwp" && rm -f ./*.dwo) > "$scratch/$b.build" 2>&1
    if check "inline-linkers: $b: $cc -gsplit-dwarf and $packer make a package" \
            [ -s "$sd/prog.dwp" ]; then
        expanded "$b" "$sd/prog" "$index_add"
    else
        sed 's/^/  /' "$scratch/$b.build"
    fi
done
finish
