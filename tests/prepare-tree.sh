#!/bin/sh
# scripts/prepare-tree.sh re-applies a changed series over untracked
# files: on a small fake tarball and fake series (no Valgrind, a second
# or two), a tree prepared with series A gets untracked files where series
# B creates files (a build product, a test left by an older series, a
# file where B needs a directory) and one that is in nobody's way (a build
# product that must survive).  With B in place of A, prepare-tree moves
# the three aside to TREE.aside/<time>/, says so, applies B and keeps the
# fourth; a second run has nothing to do.  When they cannot be moved, it
# stops with a command that removes them, leaves the tree at upstream, and
# after that command the next run applies B.
. "$(dirname "$0")/lib.sh"

skip() { echo "SKIP: prepare-tree ($*)"; exit 0; }
command -v git > /dev/null 2>&1 || skip "git is not installed"
command -v bzip2 > /dev/null 2>&1 || skip "bzip2 is not installed (the tarball is .tar.bz2)"

gr() { r=$1; shift; git -C "$r" -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false "$@"; }

# The fake upstream: what prepare-tree needs of a Valgrind tarball.
up=$scratch/up/valgrind-3.27.1
mkdir -p "$up/callgrind/tests" "$up/docs"
echo 'AC_INIT([valgrind], [3.27.1])' > "$up/configure.ac"
echo '# generated' > "$up/configure"
printf '#!/bin/sh\necho "# regenerated" > configure\n' > "$up/autogen.sh"
chmod +x "$up/autogen.sh"
echo 'int main(void) { return 0; }' > "$up/callgrind/main.c"
echo 'upstream docs' > "$up/docs/README"
tar -C "$scratch/up" -cjf "$scratch/valgrind_3.27.1.orig.tar.bz2" valgrind-3.27.1

# The series, made as `make patches` makes them: A adds a source file; B
# adds a header (a build product of the tree before), a regtest (left
# untracked by an older series) and docs/x/notes (docs/x is a file there).
src=$scratch/series-src
cp -r "$up" "$src"
gr "$src" init -q && gr "$src" add -A && gr "$src" commit -q -m upstream
echo 'void feature(void) {}' > "$src/callgrind/feature.c"
gr "$src" add -A && gr "$src" commit -q -m "callgrind: a feature"
echo '#define GENERATED 1' > "$src/callgrind/gen.h"
echo 'prog: t1' > "$src/callgrind/tests/t1.vgtest"
mkdir -p "$src/docs/x" && echo 'notes' > "$src/docs/x/notes"
gr "$src" add -A && gr "$src" commit -q -m "callgrind: generated header, a test, notes"
for s in A:HEAD~1 B:HEAD; do
    mkdir -p "$scratch/${s%:*}"
    gr "$src" format-patch -q --zero-commit -o "$scratch/${s%:*}" "HEAD~2..${s#*:}"
    (cd "$scratch/${s%:*}" && ls -- *.patch) > "$scratch/${s%:*}/series"
done

tree=$scratch/build/valgrind
prep() { # SERIES: prepare-tree with that series; stderr in $scratch/err
    patches=$scratch/$1 sh "$top/scripts/prepare-tree.sh" "$scratch/valgrind_3.27.1.orig.tar.bz2" \
        "$tree" patched 2> "$scratch/err"
}
show_err() { sed 's/^/  /' "$scratch/err"; }
in_way() { # the untracked files, what a build and an older series leave
    echo '#define GENERATED 0 /* built */' > "$tree/callgrind/gen.h"
    echo 'prog: old' > "$tree/callgrind/tests/t1.vgtest"
    echo 'a file' > "$tree/docs/x"
    echo 'object' > "$tree/callgrind/feature.o"
}

check "prepare-tree: series A on the fake tarball" prep A || show_err
check "prepare-tree: the tree holds A" [ -f "$tree/callgrind/feature.c" ] || show_err
in_way

# B over the untracked files
if check "prepare-tree: series B goes on over untracked files in its way (exit 0)" prep B; then
    aside=$(sed -n 's/.* to \(.*\.aside\/[^/]*\)\/callgrind\/gen\.h$/\1/p' "$scratch/err" | head -n 1)
    check "prepare-tree: it names each file it moves aside and where ($aside)" \
        sh -c "[ -n '$aside' ] && grep -q 'moved aside callgrind/tests/t1.vgtest .* to $aside/callgrind/tests/t1.vgtest' '$scratch/err' \
               && grep -q 'moved aside docs/x .* to $aside/docs/x' '$scratch/err'" || show_err
    check "prepare-tree: the moved files keep their content under TREE.aside" \
        sh -c "grep -q built '$aside/callgrind/gen.h' && grep -q old '$aside/callgrind/tests/t1.vgtest' \
               && grep -q 'a file' '$aside/docs/x'"
    check "prepare-tree: the tree holds B: its files, nothing untracked in their place" \
        sh -c "grep -q 'GENERATED 1' '$tree/callgrind/gen.h' && grep -q t1 '$tree/callgrind/tests/t1.vgtest' \
               && [ -f '$tree/docs/x/notes' ] && [ \"\$(git -C '$tree' log --format=%s upstream..HEAD | wc -l)\" = 2 ] \
               && [ -z \"\$(git -C '$tree' status --porcelain -- callgrind/gen.h callgrind/tests docs)\" ]"
    check "prepare-tree: an untracked file in nobody's way stays (callgrind/feature.o)" \
        grep -q object "$tree/callgrind/feature.o"
    head=$(git -C "$tree" rev-parse HEAD)
    prep B
    check "prepare-tree: a second run with B has nothing to do" \
        sh -c "[ ! -s '$scratch/err' ] && [ \"\$(git -C '$tree' rev-parse HEAD)\" = '$head' ]" || show_err
else
    show_err
fi

# When they cannot be moved: the exact command, the tree back at upstream.
rm -rf "$tree" "$tree.aside"
prep A
in_way
echo 'not a directory' > "$tree.aside"
if prep B; then
    fail "prepare-tree: stops when the files in the way cannot be moved"
else
    show_err
    cmd=$(sed -n 's/^    \(git -C .* clean -f -d -x -- .*\)/\1/p' "$scratch/err")
    check "prepare-tree: the stop names the command that removes the files in the way" \
        sh -c "[ -n '$cmd' ] && echo '$cmd' | grep -q 'callgrind/gen.h' && echo '$cmd' | grep -q 'docs/x'"
    check "prepare-tree: the stopped tree is at upstream, nothing of B applied" \
        [ "$(git -C "$tree" rev-parse HEAD)" = "$(git -C "$tree" rev-parse upstream)" ]
    (eval "$cmd") > /dev/null
    rm -f "$tree.aside"
    check "prepare-tree: after that command the next run applies B" prep B || show_err
    check "prepare-tree: ... and the tree holds B" \
        sh -c "grep -q 'GENERATED 1' '$tree/callgrind/gen.h' && [ -f '$tree/docs/x/notes' ]"
    check "prepare-tree: ... the build product in nobody's way stays" grep -q object "$tree/callgrind/feature.o"
fi
finish
