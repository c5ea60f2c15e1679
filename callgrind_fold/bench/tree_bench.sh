#!/bin/sh
# Speed of reading a folded tree (callgrind --dump-folded=yes) against
# reading the folded stacks text of the same profile: a generated tree of
# TREE_NODES node lines (default 1,000,000) around depth TREE_DEPTH
# (default 40, as in a compiler run), and its text made by the same
# generator (tests/folded_tree.py). Both must give the same stacks.
# Usage: bench/tree_bench.sh CALLGRIND_FOLD [WORKDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fold=$1 work=${2:-$here/work}
nodes=${TREE_NODES:-1000000} depth=${TREE_DEPTH:-40}
mkdir -p "$work"
tree=$work/bench-$nodes-$depth.tree
text=$work/bench-$nodes-$depth.folded
if [ ! -s "$tree" ] || [ ! -s "$text" ]; then
    python3 "$here/../tests/folded_tree.py" gen "$tree" --nodes "$nodes" --depth "$depth" \
        --events Ir,Dr --folded "$text"
fi
# CPU time (user + system), best of 5: it does not depend on what else
# the machine is doing. Output goes to a file, as a user would write it.
python3 - "$fold" "$tree" "$text" "$work" <<'PY'
import filecmp, os, resource, subprocess, sys
fold, tree, text, work = sys.argv[1:]
def measure(inp, dest):
    best = None
    for _ in range(5):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([fold, "-o", dest, inp], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = cpu if best is None else min(best, cpu)
    return best
out_tree, out_text = os.path.join(work, "tree.out"), os.path.join(work, "text.out")
ct = measure(tree, out_tree)
cx = measure(text, out_text)
lines = sum(1 for l in open(tree) if l[:1].isdigit())
print("tree:        %s (%d node lines, %d bytes)" % (tree, lines, os.path.getsize(tree)))
print("folded text: %s (%d bytes)" % (text, os.path.getsize(text)))
print("callgrind_fold on the tree:        cpu %.3f s" % ct)
print("callgrind_fold on the folded text: cpu %.3f s" % cx)
same = filecmp.cmp(out_tree, out_text, shallow=False)
print("same stacks: %s" % ("yes" if same else "NO"))
print("%s: bench/tree-not-slower-than-folded-text" % ("PASS" if same and ct <= cx else "FAIL"))
sys.exit(0 if same and ct <= cx else 1)
PY
