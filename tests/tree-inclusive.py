#!/usr/bin/env python3
"""Checks a folded tree (--dump-folded=yes) against its callgrind.out:

 - every part's node costs sum to its totals: line and to callgrind.out's
   totals: of the same part and thread, for every event;
 - the inclusive cost of every non-recursive function (no call path holds
   it twice), summed over the paths through it, equals the one
   callgrind_annotate --inclusive=yes reports, for every event (functions
   whose name callgrind_annotate shows for several objects or files are
   left out: the tree has one frame per name).

    tree-inclusive.py CALLGRIND_ANNOTATE TREE OUT

Works on single-part files (callgrind_annotate reads one part).  Prints
one line per check and exits 1 if one fails."""
import re
import subprocess
import sys
from collections import defaultdict


def read_tree(path):
    """events, [(part, thread, {fn: inclusive costs}, recursive fns, sums, totals)]"""
    events, names, parts = [], {}, []
    part = None
    with open(path) as f:
        if f.readline() != "# callgrind folded tree\n":
            sys.exit("%s: not a folded tree" % path)
        for line in f:
            line = line.rstrip("\n")
            if line[:1].isdigit():
                fields = line.split(" ")
                depth, fid = int(fields[0]), int(fields[1])
                costs = [int(x) for x in fields[2:]] + [0] * (len(events) + 2 - len(fields))
                part["nodes"].append((depth, fid, costs))
            elif line.startswith("fn: "):
                fid, name = line[4:].split(" ", 1)
                names[int(fid)] = name
            elif line.startswith("events: ") and part is None:
                events = line[8:].split()
            elif line.startswith("part: "):
                part = {"part": int(line[6:]), "thread": 0, "nodes": []}
                parts.append(part)
            elif line.startswith("thread: "):
                part["thread"] = int(line[8:])
            elif line.startswith("totals:"):
                part["totals"] = [int(x) for x in line[7:].split()]
    out = []
    for p in parts:
        nodes = p["nodes"]
        n = len(nodes)
        parent = [-1] * n
        stack, recursive, on_path = [], set(), defaultdict(int)
        for i, (depth, fid, _) in enumerate(nodes):
            while len(stack) >= depth:
                on_path[nodes[stack.pop()][1]] -= 1
            parent[i] = stack[-1] if stack else -1
            if on_path[fid]:
                recursive.add(names[fid])
            on_path[fid] += 1
            stack.append(i)
        sub = [list(c) for _, _, c in nodes]
        for i in range(n - 1, -1, -1):
            if parent[i] >= 0:
                for k, c in enumerate(sub[i]):
                    sub[parent[i]][k] += c
        incl = defaultdict(lambda: [0] * len(events))
        sums = [0] * len(events)
        for i, (_, fid, c) in enumerate(nodes):
            for k in range(len(events)):
                incl[names[fid]][k] += sub[i][k]
                sums[k] += c[k]
        out.append((p["part"], p["thread"], incl, recursive, sums, p.get("totals")))
    return events, out


def read_out_totals(path):
    totals, events, key = {}, [], (1, 0)
    with open(path) as f:
        for line in f:
            if line.startswith("part:"):
                key = (int(line.split()[1]), 0)
            elif line.startswith("thread:"):
                key = (key[0], int(line.split()[1]))
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("totals:"):
                vals = [int(x) for x in line.split()[1:]]
                totals[key] = dict(zip(events, vals + [0] * (len(events) - len(vals))))
    return totals


COST = re.compile(r"\s*(?:([\d,]+)(?: \(\s*[\d.]+%\))?|(\.))")


def annotate(script, out, nevents):
    """{function name: inclusive costs} and the names shown more than once"""
    text = subprocess.run(["perl", script, "--inclusive=yes", "--threshold=100", out],
                          capture_output=True, text=True, check=True).stdout
    body = text.split("file:function\n", 1)[1].split("\n", 1)[1]
    result, seen, dup = {}, set(), set()
    for line in body.splitlines():
        if line.startswith("---") or not line.strip():
            if result:
                break
            continue
        costs, pos = [], 0
        for _ in range(nevents):
            m = COST.match(line, pos)
            if not m:
                break
            costs.append(int(m.group(1).replace(",", "")) if m.group(1) else 0)
            pos = m.end()
        if len(costs) != nevents:
            continue
        name = line[pos:].strip()
        name = re.sub(r" \[[^\]]*\]$", "", name)   # object
        name = name.split(":", 1)[1] if ":" in name else name   # file
        if name in seen:
            dup.add(name)
        seen.add(name)
        result[name] = costs
    return result, dup


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    script, tree, out = sys.argv[1:]
    events, parts = read_tree(tree)
    totals = read_out_totals(out)
    failed = False
    for part, thread, incl, recursive, sums, own in parts:
        want = totals.get((part, thread))
        for k, e in enumerate(events):
            ok = want is not None and want.get(e) == sums[k] and own and own[k] == sums[k]
            if not ok:
                failed = True
                print("FAIL part %d thread %d %s: sum %d, totals: %s, callgrind.out %s"
                      % (part, thread, e, sums[k], own and own[k], want and want.get(e)))
    print("sums: every part, thread and event equals its totals" if not failed else "sums: differ")
    if len(parts) == 1:
        _, _, incl, recursive, _, _ = parts[0]
        ann, dup = annotate(script, out, len(events))
        checked, bad = 0, []
        for name, costs in incl.items():
            if name in recursive or name in dup or name not in ann:
                continue
            checked += 1
            if ann[name] != costs:
                bad.append("%s: tree %s, callgrind_annotate %s" % (name, costs, ann[name]))
        missing = [n for n in incl if n not in ann and n not in recursive and any(incl[n])]
        if bad or checked == 0:
            failed = True
            print("FAIL inclusive costs: %d of %d differ" % (len(bad), checked))
            print("\n".join(bad[:20]))
        else:
            print("inclusive costs: %d non-recursive functions, every event, equal"
                  % checked)
        if missing:
            print("(%d functions of the tree not shown by callgrind_annotate, e.g. %s)"
                  % (len(missing), missing[0]))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
