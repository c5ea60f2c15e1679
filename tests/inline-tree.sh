#!/bin/sh
# One picture, two ways: the folded tree's inlined frames (callgrind with
# --dump-folded=yes --read-inline-info=yes) against callgrind_fold
# --inline on the same run's --dump-instr=yes callgrind.out, for programs
# whose every function has one call path, where --inline's split of a
# function among its callers is exact too:
#   - C, callgrind_fold/tests/progs/inline_hot.c, built by gcc and clang,
#   - C++, tests/inline_tree.cc, built by g++ and clang++,
#   - Rust, tests/inline_tree.rs, built by rustc -O,
# all with -g.  Below the program's hot function both print the same lines
# with the same counts.  Names: Valgrind's DWARF reader names an inlined
# function by its DW_AT_name (C++ "add", "twice<long unsigned int>"; Rust
# "mix", "rotate_left<u64>") where --inline demangles its linkage name
# ("geo::Acc::add(unsigned long)", "tw::mix"), so C++ and Rust frames are
# compared by their last name component without template arguments or
# parameters; C names are compared as they are.
# Then the tree as pprof: go tool pprof -traces marks its inlined frames
# "(inline)".  A compiler or go that is not installed is a SKIP.
. "$(dirname "$0")/lib.sh"
fold=${CALLGRIND_FOLD:-$PREFIX/bin/callgrind_fold}
progs=$top/callgrind_fold/tests/progs

# The lines of folded stacks on stdin from frame FN on, sorted; with
# SHORT, frames of inlined code by their last name component.
below() { # FN SHORT
    python3 -c '
import re, sys
fn, short = sys.argv[1], sys.argv[2] == "short"
def last(name):
    name = re.sub(r"\([^()]*\)$", "", name)   # parameters
    while True:                                 # template arguments
        n = re.sub(r"<[^<>]*>$", "", name)
        if n == name: break
        name = n
    depth, cut = 0, 0
    for i, c in enumerate(name):
        depth += c == "<"
        depth -= c == ">"
        if depth == 0 and name.startswith("::", i): cut = i + 2
    return re.sub(r"<[^<>]*>$", "", name[cut:])
out = []
for line in sys.stdin:
    path, count = line.rstrip("\n").rsplit(" ", 1)
    frames = path.split(";")
    if fn not in frames: continue
    frames = frames[frames.index(fn):]
    if short:
        frames = [last(f[:-len(" [inlined]")]) + " [inlined]"
                  if f.endswith(" [inlined]") else f for f in frames]
    out.append(";".join(frames) + " " + count)
print("\n".join(sorted(out)))
' "$1" "$2"
}

# same TAG BINARY FN SHORT: profile, fold both ways, compare.
same() {
    b=$1 bin=$2 fn=$3 short=$4 out=$scratch/$1.out tree=$scratch/$1.tree
    "$PREFIX/bin/valgrind" -q --tool=callgrind --dump-instr=yes --dump-folded=yes \
        --read-inline-info=yes --callgrind-out-file="$out" --folded-out-file="$tree" \
        "$bin" > "$scratch/$b.run" 2>&1
    if ! check "inline-tree: $b: runs under callgrind, tree beside" \
            sh -c '[ -s "$1" ] && [ -s "$2" ]' - "$out" "$tree"; then
        sed 's/^/  /' "$scratch/$b.run"
        return
    fi
    "$fold" "$tree" 2> "$scratch/$b.tree.err" | below "$fn" "$short" > "$scratch/$b.a"
    "$fold" --inline --inline-cache=no "$out" 2> "$scratch/$b.err" | below "$fn" "$short" > "$scratch/$b.b"
    check "inline-tree: $b: the tree has inlined frames below $fn" \
        grep -q '\[inlined\]' "$scratch/$b.a" || sed 's/^/  /' "$scratch/$b.a"
    check "inline-tree: $b: the tree and --inline print the same lines below $fn${short:+ (inlined frames by their last name component)}" \
        cmp -s "$scratch/$b.a" "$scratch/$b.b" || diff "$scratch/$b.a" "$scratch/$b.b" | sed 's/^/  /'
}

d=$scratch/bin
mkdir -p "$d"
for cc in gcc clang g++ clang++ rustc; do
    if ! command -v $cc > /dev/null 2>&1; then
        echo "SKIP: inline-tree: $cc (not installed: apt-get install $cc)"
        continue
    fi
    case $cc in
    gcc | clang) src=$progs/inline_hot.c fn=hot_loop short= ;;
    g++ | clang++) src=$top/tests/inline_tree.cc fn="run(unsigned long)" short=short ;;
    rustc) src=$top/tests/inline_tree.rs fn=tw::run short=short ;;
    esac
    exe=$d/$cc
    if [ $cc = rustc ]; then
        rustc -O -g --crate-name tw -o "$exe" "$src" > "$scratch/$cc.build" 2>&1
    else
        $cc -O2 -g -o "$exe" "$src" > "$scratch/$cc.build" 2>&1
    fi || { fail "inline-tree: $cc builds $src"; sed 's/^/  /' "$scratch/$cc.build"; continue; }
    same "$cc" "$exe" "$fn" "$short"
done

# pprof: inlined frames as lines of one location
if [ -x "$d/gcc" ] && [ -s "$scratch/gcc.tree" ]; then
    if command -v go > /dev/null 2>&1; then
        "$fold" -f pprof -o "$scratch/gcc.pb.gz" "$scratch/gcc.tree"
        go tool pprof -traces "$scratch/gcc.pb.gz" > "$scratch/traces" 2>&1
        check "inline-tree: go tool pprof -traces marks the tree's inlined frames (inline)" \
            python3 -c '
import re, sys
text = open(sys.argv[1]).read()
# a trace: helper_b inlined into helper_a inlined into hot_loop
ok = re.search(r"helper_b \(inline\)\n\s+helper_a \(inline\)\n\s+hot_loop\n", text)
sys.exit(0 if ok else 1)' "$scratch/traces" || sed 's/^/  /' "$scratch/traces" | head -40
    else
        echo "SKIP: inline-tree: pprof (go is not installed: apt-get install golang-go)"
    fi
elif ! command -v gcc > /dev/null 2>&1; then
    echo "SKIP: inline-tree: pprof (gcc is not installed: its tree is pprof's input)"
else
    fail "inline-tree: pprof: not run (no gcc program and tree, see above)"
fi
finish
