#!/usr/bin/env python3
"""Loops of two basic blocks (native/kernels2.c): the per-superblock model
(each basic block on its own, as callgrind would have it: no chasing, so a
superblock ends at every branch) summed over the blocks one iteration
runs, against the model of the whole body as one block, and native.
Usage: multiblock.py BINARY native_split.json table.json"""
import json, re, sys
from extract_loops import functions
from model import Model

def main():
    funcs = functions(sys.argv[1])
    native = json.load(open(sys.argv[2]))
    m = Model(json.load(open(sys.argv[3])))
    print("| kernel | native | blocks: estimate each (issue/ports/deps) | sum of blocks | body as one block |")
    print("|---|---|---|---|---|")
    for name in ("k_split_self", "k_split_cross", "k_split_indep"):
        ins = funcs[name]
        back = [x for x in ins if re.match(r"^j(?!mp)\w+ ([0-9a-f]+)", x[2])
                and int(x[2].split()[1], 16) < x[0]][-1]
        lo, hi = int(back[2].split()[1], 16), back[0]
        body = [x for x in ins if lo <= x[0] <= hi]
        blocks, cur = [], []
        for x in body:
            cur.append(x)
            if re.match(r"^j\w+ ", x[2]):
                blocks.append(cur)
                cur = []
        parts, total = [], 0.0
        for b in blocks:
            last = b is blocks[-1]
            r = m.estimate([x[2] for x in b], loops=last,
                           addrs=[(x[0], len(x[1].split())) for x in b])
            parts.append("%.2f (%.2f/%.2f/%.2f)" % (r["est"], r["issue"], r["ports"], r["deps"]))
            total += r["est"]
        whole = m.estimate([x[2] for x in body if not (re.match(r"^j\w+ ", x[2]) and x is not back)],
                           addrs=[(x[0], len(x[1].split())) for x in body
                                  if not (re.match(r"^j\w+ ", x[2]) and x is not back)])
        k = name[2:]
        print("| %s | %.2f | %s | %.2f | %.2f |" % (k, native[k]["cyc_median"], " + ".join(parts),
                                                   total, whole["est"]))

if __name__ == "__main__":
    main()
