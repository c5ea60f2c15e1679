#!/bin/sh
# JavaScript frames named from V8's own perf map, without any benchmark
# harness: a plain node script doing some JS work (recursive fib, parsing
# CSV rows through an arrow function, building a string) runs as
# `node --perf-basic-prof` (V8 appends "START SIZE JS:<tier><name> <file>:
# <line>:<col>" to /tmp/perf-<pid>.map for every code object it makes;
# tier * TurboFan, ^ Sparkplug, ~ bytecode) under the patched callgrind
# measuring from the start (--instr-atstart=yes), --dump-folded=yes.
# --predictable (as CodSpeed's runner passes it) makes V8's tiering the
# same in every run: without it parseRows is sometimes never compiled.
# (tests/harness-node.sh covers CodSpeed's harness, whose addon writes
# the map.)
#
# Checks: node exits 0 with the right result; the map names the script's
# functions; in callgrind.out fib, parseRows, buildString and the arrow
# function are functions of object /tmp/perf-<pid>.map, and the folded
# twin's stacks hold them as frames, fib's recursion as repeated frames;
# the twin's paths sum to its totals and callgrind.out's; under 5% of the
# whole run's cost, and under 5% of the cost below the script's frames,
# is in leaf frames named 0x... (code neither an ELF symbol nor the map
# names).  About 10 s.
. "$(dirname "$0")/lib.sh"
vg=$PREFIX/bin/valgrind
fold=$PREFIX/bin/callgrind_fold

skip() { echo "SKIP: perfmap-node ($*)"; exit 0; }
command -v node > /dev/null 2>&1 || skip "node is not installed"
command -v python3 > /dev/null 2>&1 || skip "python3 is not installed (runs the checks)"
[ -x "$vg" ] && [ -x "$fold" ] || { fail "perfmap-node: $vg or $fold missing"; finish; }

cat > "$scratch/work.js" <<'EOF'
"use strict";
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
function parseRows(text) {
  return text.split("\n").map((line) => {
    const [id, name, score] = line.split(",");
    return { id: Number(id), name, score: parseFloat(score) };
  });
}
function buildString(n) {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + (i % 26));
  return s;
}
const csv = Array.from({ length: 20 }, (_, i) => `${i},name${i},${(i * 7) % 13}.5`).join("\n");
let sink = 0;
for (let round = 0; round < 30; round++) {
  sink += fib(20);
  // often enough for V8 to compile parseRows (a function V8 has not
  // compiled runs inside the interpreter's builtins: no code, no frame)
  for (let j = 0; j < 10; j++) sink += parseRows(csv).length;
  sink += buildString(5000).length;
}
console.log(sink);
EOF

out=$scratch/out
mkdir -p "$out"
start=$(date +%s)
(cd "$scratch" && "$vg" -q --tool=callgrind --instr-atstart=yes --compress-strings=no \
    --callgrind-out-file="$out/%p.out" --dump-folded=yes --folded-out-file="$out/%p.folded" \
    node --perf-basic-prof --predictable work.js) > "$scratch/run.log" 2>&1
rc=$?
echo "  info: node --perf-basic-prof under callgrind: exit status $rc, $(($(date +%s) - start)) s"
sed 's/^/  log: /' "$scratch/run.log"
check "perfmap-node: node under callgrind exits 0" [ $rc -eq 0 ]
check "perfmap-node: the script's result" grep -qx 358950 "$scratch/run.log"

prof=$(ls "$out"/*.out 2> /dev/null | head -n 1)
[ -n "$prof" ] || { fail "perfmap-node: a callgrind.out (files: $(ls "$out" | tr '\n' ' '))"; finish; }
pid=$(basename "$prof" .out)
twin=$out/$pid.folded
perfmap=/tmp/perf-$pid.map # written by V8
check "perfmap-node: the folded twin $pid.folded exists" [ -s "$twin" ]
check "perfmap-node: V8 wrote $perfmap naming the script's functions" \
    grep -q "^[0-9a-f]* [0-9a-f]* JS:[*^~]\?fib $scratch/work.js:" "$perfmap"
# (its folded text would be gigabytes: only the first line is read)
check "perfmap-node: callgrind_fold reads the twin" \
    sh -c '"$1" "$2" 2> /dev/null | head -n 1 | grep -q " [0-9][0-9]*$"' - "$fold" "$twin"

# The twin is read as a tree (docs/folded-tree.md), not as folded text: a
# whole node run has paths hundreds of frames deep (V8's bytecode handlers
# chain by tail jumps, which callgrind takes for calls).
python3 - "$prof" "$twin" "$perfmap" "$scratch/work.js" <<'PY' || failures=$((failures + 1))
import collections, re, sys

out, tree, perfmap, script = sys.argv[1:]
failures = 0


def report(ok, name, detail=""):
    global failures
    failures += not ok
    print(("PASS: " if ok else "FAIL: ") + "perfmap-node: " + name + (" (%s)" % detail if detail and not ok else ""))
    if detail and ok:
        print("  info: " + detail)


# functions of callgrind.out, by object (--compress-strings=no)
fns = collections.defaultdict(set)
totals = None
ob = None
for line in open(out, errors="replace"):
    if line.startswith("ob="):
        ob = line[3:].rstrip("\n")
    elif line.startswith("fn="):
        fns[ob].add(re.sub(r"'\d+$", "", line[3:].rstrip("\n")))
    elif line.startswith("totals:"):
        totals = int(line.split()[1])

js = re.compile(r"^JS:[*^~]?(\S*) %s:\d+:\d+$" % re.escape(script))
fibrx = re.compile(r"^JS:[*^~]?fib %s:" % re.escape(script))
names = {}
is_js, is_fib, is_anon = set(), set(), set()
incl = collections.Counter()  # inclusive cost of each of the script's frames (by id)
active = collections.Counter()  # the script's frames on the current path
path = []  # function ids of the current path
fib_depth = deepest_fib = 0
total = tree_totals = leaf = below_js = below_js_leaf = 0
for line in open(tree, errors="replace"):
    if line.startswith("fn: "):
        _, i, name = line.rstrip("\n").split(" ", 2)
        names[i] = name
        if js.match(name):
            is_js.add(i)
        if fibrx.match(name):
            is_fib.add(i)
        if re.match(r"0x[0-9a-f]+$", name):
            is_anon.add(i)
        continue
    if line.startswith("totals:"):
        tree_totals += int(line.split()[1])
        continue
    if not line[:1].isdigit():
        continue
    p = line.split()
    d, i = int(p[0]), p[1]
    while len(path) >= d:
        gone = path.pop()
        if gone in is_js:
            active[gone] -= 1
            fib_depth -= gone in is_fib
    path.append(i)
    if i in is_js:
        active[i] += 1
        fib_depth += i in is_fib
        deepest_fib = max(deepest_fib, fib_depth)
    c = int(p[2]) if len(p) > 2 else 0
    if not c:
        continue
    total += c
    anon = i in is_anon
    leaf += c if anon else 0
    on = [k for k, n in active.items() if n > 0]
    if on:
        below_js += c
        below_js_leaf += c if anon else 0
        for k in on:
            incl[k] += c

report(total == totals == tree_totals, "the twin's paths sum to its totals: and to callgrind.out's",
       "%d Ir; totals: %s, callgrind.out %s" % (total, tree_totals, totals))
in_map = {fn for fn in fns.get(perfmap, ()) if js.match(fn)}
for name, line in (("fib", 2), ("parseRows", 5), ("", 6), ("buildString", 11)):
    want = re.compile(r"^JS:[*^~]?%s %s:%d:\d+$" % (re.escape(name), re.escape(script), line))
    named = sorted(fn for fn in in_map if want.match(fn))
    shown = sorted((names[k], k) for k in incl if want.match(names[k]))
    what = name or "the arrow function of line %d" % line
    report(bool(named), "%s is a function of object %s" % (what, perfmap),
           ", ".join(fn.split(" ")[0] for fn in named) if named else
           "%d functions of the script in the map's object: %s" % (len(in_map), ", ".join(sorted(in_map)[:4])))
    report(bool(shown), "%s is a frame of the twin's stacks" % what,
           ", ".join("%s %.1f%%" % (n.split(" ")[0], 100.0 * incl[k] / total) for n, k in shown) if shown
           else "no such frame")
report(deepest_fib >= 10, "fib's recursion shows as repeated frames, 10 deep or more",
       "deepest: %d fib frames" % deepest_fib)
report(100.0 * leaf / (total or 1) < 5, "under 5% of the run's cost in leaf frames named 0x...",
       "%.3f%% of %d Ir" % (100.0 * leaf / (total or 1), total))
report(below_js > 0 and 100.0 * below_js_leaf / below_js < 5,
       "under 5% of the cost below the script's frames in leaf frames named 0x...",
       "%.3f%% of %d Ir (%.1f%% of the run below the script's frames)" % (
           100.0 * below_js_leaf / (below_js or 1), below_js, 100.0 * below_js / (total or 1)))
sys.exit(1 if failures else 0)
PY
finish
