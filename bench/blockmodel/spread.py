#!/usr/bin/env python3
"""Reference for callgrind's integer bookkeeping of the block figure
(NOTES.md, "Exits" and "Spread over instructions, exactly"): what the C
code must reproduce bit for bit, on the kernels' superblocks as VEX hands
them to callgrind (self-loops unrolled, a side exit after each copy).

For a superblock with exits after instructions x_0 < x_1 < ... < x_m
(the last is the block's end):
  E_j  = the block model of instructions 0..x_j, in centi-cycles,
         rounded half up from the exact rational, then made
         non-decreasing (E_j = max(E_j, E_{j-1}));
  D_j  = E_j - E_{j-1} spread over instructions x_{j-1}+1 .. x_j in
         proportion to their Ct (centi-cycles), by largest remainder,
         ties to the lowest index; equal weights when all are 0.
Checks: every share >= 0, the prefix sum at each exit == E_j, the total
== E_m.  Prints each superblock's exits and figures.

Usage: spread.py IR_DUMP loops.json table.json"""
import json
import sys
from fractions import Fraction

from ir_deps import parse_sbs
from model import Model


def centi(x):
    """Centi-cycles of a bound, rounded half up.  The bounds are rationals
    with small denominators (issue width, port-set sizes, cycle lengths);
    limit_denominator recovers them exactly from the float."""
    q = Fraction(x).limit_denominator(10 ** 6) * 100
    return int(q + Fraction(1, 2)) if q >= 0 else -int(-q + Fraction(1, 2))


def apportion(total, weights):
    """Integer shares of total in proportion to weights, summing to total."""
    n = len(weights)
    if n == 0:
        return []
    W = sum(weights)
    if W == 0:
        weights, W = [1] * n, n
    shares = [total * w // W for w in weights]
    rema = [(-(total * w % W), i) for i, w in enumerate(weights)]
    left = total - sum(shares)
    for _, i in sorted(rema)[:left]:
        shares[i] += 1
    return shares


def block_figures(model, texts, addrs, exits):
    E, prev = [], 0
    for x in exits:
        r = model.estimate(texts[:x + 1], addrs=addrs[:x + 1])
        e = max(centi(r["est"]), prev)
        E.append(e)
        prev = e
    ct = [centi(model.form(t)["rthr"]) for t in texts]
    shares, lo, prev = [], 0, 0
    for x, e in zip(exits, E):
        shares += apportion(e - prev, ct[lo:x + 1])
        lo, prev = x + 1, e
    return E, shares


def main():
    sbs = parse_sbs(sys.argv[1])
    loops = json.load(open(sys.argv[2]))
    model = Model(json.load(open(sys.argv[3])))
    base = None
    ok = 0
    print("| kernel | instructions | exits after | E_j (centi-cycles) | per iteration | shares (first copy) |")
    print("|---|---|---|---|---|---|")
    for k, v in sorted(loops.items()):
        start = int(v["start"], 16)
        if base is None:
            cand = [a for a in sbs if (a & 0xfff) == (start & 0xfff) and a > start]
            base = min(cand) - start
        sb = sbs[start + base]
        by_addr = {int(a, 16) + base: (t, len(b.split())) for a, b, t in v["insns"]}
        texts = [by_addr[a][0] for a, _ in sb]
        addrs = [(a, by_addr[a][1]) for a, _ in sb]
        exits = [i for i, (a, st) in enumerate(sb) if any(s.startswith("if (") for s in st)]
        if not exits or exits[-1] != len(sb) - 1:
            exits.append(len(sb) - 1)
        E, shares = block_figures(model, texts, addrs, exits)
        prefix = [sum(shares[:x + 1]) for x in exits]
        good = all(s >= 0 for s in shares) and prefix == E and sum(shares) == E[-1]
        ok += good
        copies = sum(1 for a, _ in sb if a == start + base)
        body = len(sb) // copies
        print("| %s | %d | %s | %s | %.2f | %s |" % (
            k, len(sb), ",".join(map(str, exits)), ",".join(map(str, E)),
            E[-1] / 100 / copies, " ".join(map(str, shares[:body]))
            + ("" if good else " **CHECK FAILED**")))
    print("\n%d of %d superblocks: shares non-negative, prefix sums at every exit "
          "equal to E_j" % (ok, len(loops)))


if __name__ == "__main__":
    main()
