#!/usr/bin/env python3
"""Folded trees (docs/folded-tree.md) for the tests and the benchmark.

* generate(): a random tree of many parts, threads and events, written as
  callgrind --dump-folded=yes does (ids defined just before first use,
  missing trailing costs, nodes without cost that only carry children,
  names with ';', clone marks and spaces); optionally also the folded
  stacks text of one event, the input callgrind_fold reads the other way.
* fold(): an independent reference reader (no error checking beyond what
  the tests need): folded stacks of one event and part, and the totals.

Command line:
  folded_tree.py gen OUT.tree [--nodes N] [--depth D] [--parts P]
      [--threads T] [--events Ir,Dr] [--functions F] [--seed S]
      [--folded OUT.folded]
"""
import argparse
import random

MARKER = "# callgrind folded tree"

# Names callgrind gives functions, with what frames.c makes of them.
SPECIAL_NAMES = ["(below main)", "(unknown)", "fib'2", "fib'3", "leaf'helper'main",
                 "std::vector<int>::push_back(int const&)", "a;b", "operator()<'a'>",
                 "0x0000000000401000"]


def frame_text(name, keep_clones=False):
    """frames.c: clone suffix cut at the first ' outside brackets, ; -> :."""
    if not keep_clones:
        depth = 0
        for i, c in enumerate(name):
            if c in "(<[{":
                depth += 1
            elif c in ")>]}" and depth > 0:
                depth -= 1
            elif c == "'" and depth == 0 and 0 < i < len(name) - 1:
                name = name[:i]
                break
    return name.replace(";", ":")


def generate(out, nodes=1000, depth=40, parts=2, threads=2, events=("Ir", "Dr"),
             functions=2000, seed=1, folded=None, folded_event=0):
    """Writes a tree of about `nodes` node lines (split over parts x
    threads sections) to the file object `out`; with `folded` (a file
    object), also the folded stacks of event number `folded_event`."""
    rng = random.Random(seed)
    names = SPECIAL_NAMES + ["fn_%d" % i for i in range(max(functions - len(SPECIAL_NAMES), 1))]
    frames = [frame_text(n) for n in names]
    defined = set()
    w = out.write
    w(MARKER + "\nversion: 1\ncreator: folded_tree.py\npid: %d\ncmd: ./generated --seed=%d\n"
      "events: %s\n" % (seed, seed, " ".join(events)))
    sections = parts * threads
    per_section = max(nodes // sections, 1)
    for part in range(1, parts + 1):
        for thread in range(1, threads + 1):
            w("\npart: %d\n" % part)
            if threads > 1:
                w("thread: %d\n" % thread)
            w("desc: Trigger: %s\n" % ("Program termination" if part == parts
                                       else "Client Request: dump"))
            totals = [0] * len(events)
            path = []          # function index per depth
            children = [set()]  # functions used below the node at each depth
            d = 0
            for _ in range(per_section):
                if d == 0:
                    nd = 1
                else:
                    deeper = 0.5 + 0.45 * (depth - d) / depth
                    if rng.random() < deeper:
                        nd = d + 1
                    else:
                        nd = d
                        while nd > 1 and rng.random() < 0.5:
                            nd -= 1
                used = children[nd - 1]
                fn = rng.randrange(len(names))
                while fn in used:
                    fn = rng.randrange(len(names))
                used.add(fn)
                del path[nd - 1:]
                path.append(fn)
                del children[nd:]
                children.append(set())
                d = nd
                if fn not in defined:
                    defined.add(fn)
                    w("fn: %d %s\n" % (fn + 1, names[fn]))
                costs = []
                if rng.random() < 0.7:
                    costs = [rng.choice((0, 1, 3, rng.randrange(1, 100000)))
                             for _ in events]
                    while costs and costs[-1] == 0 and rng.random() < 0.8:
                        costs.pop()
                for i, c in enumerate(costs):
                    totals[i] += c
                w("%d %d%s\n" % (nd, fn + 1, "".join(" %d" % c for c in costs)))
                if folded is not None and folded_event < len(costs) and costs[folded_event]:
                    folded.write("%s %d\n" % (";".join(frames[f] for f in path),
                                              costs[folded_event]))
            w("totals: %s\n" % " ".join(str(t) for t in totals))


def fold(text, event=None, part=None, keep_clones=False):
    """Reference reader: ({stack: count}, total) of the selected event and
    part (None: the first event, every part), from the totals: lines."""
    events, names = [], {}
    stacks, total = {}, 0
    path, column, this_part = [], 0, None
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(": ")
        if sep and key == "events":
            events = value.split()
            column = events.index(event) if event else 0
        elif sep and key == "fn":
            ident, _, name = value.partition(" ")
            names[int(ident)] = frame_text(name, keep_clones)
        elif sep and key == "part":
            this_part, path = int(value), []
        elif sep and key == "totals":
            values = [int(v) for v in value.split()]
            if part in (None, this_part) and column < len(values):
                total += values[column]
        elif line[0].isdigit():
            fields = [int(v) for v in line.split()]
            depth, ident, costs = fields[0], fields[1], fields[2:]
            del path[depth - 1:]
            path.append(names[ident])
            if part in (None, this_part) and column < len(costs) and costs[column]:
                key = ";".join(path)
                stacks[key] = stacks.get(key, 0) + costs[column]
    return stacks, total


def folded_lines(stacks):
    """The output callgrind_fold writes for these stacks: sorted by bytes."""
    lines = sorted(("%s %d" % (s, c)).encode() for s, c in stacks.items() if c)
    return "".join(l.decode() + "\n" for l in lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["gen"])
    ap.add_argument("out")
    ap.add_argument("--nodes", type=int, default=1000000)
    ap.add_argument("--depth", type=int, default=40)
    ap.add_argument("--parts", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--events", default="Ir,Dr")
    ap.add_argument("--functions", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--folded", help="also write the first event's folded stacks here")
    a = ap.parse_args()
    folded = open(a.folded, "w") if a.folded else None
    with open(a.out, "w") as out:
        generate(out, a.nodes, a.depth, a.parts, a.threads, a.events.split(","),
                 a.functions, a.seed, folded)
    if folded:
        folded.close()


if __name__ == "__main__":
    main()
