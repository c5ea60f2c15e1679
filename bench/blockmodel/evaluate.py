#!/usr/bin/env python3
"""Accuracy of the block model against native time, with the per-
instruction sums Ct and Cl and llvm-mca's own simulation beside it.

Usage: evaluate.py native.json loops.json TAG=table.json...
(the first TAG is the one the detailed tables show)
Writes results.json and prints the Markdown tables RESULTS.md quotes."""
import json
import re
import subprocess
import sys

from gen_table import mca, normalise
from model import Model

# Optimisation pairs: (slow, fast, what).  Both kernels of a pair compute
# the same result over the same work per loop iteration.
PAIRS = [
    ("fsum1", "fsum4", "FP sum: 1 vs 4 accumulators"),
    ("dot1", "dot4", "dot product: 1 vs 4 accumulators"),
    ("isum1", "isum4", "integer sum: 1 vs 4 accumulators"),
    ("imul_dep4", "imul_indep4", "4 dependent vs independent multiplies"),
    ("fdiv_arr", "fmul_arr", "array: divide vs multiply by reciprocal"),
    ("fdiv_dep", "fmul_dep", "chain: divide vs multiply by reciprocal"),
    ("idiv_var", "idiv_const", "divide by a variable vs by a constant"),
    ("idiv_dep", "idiv32_dep", "64-bit vs 32-bit division"),
    ("count_mem", "count_reg", "counter in memory vs in a register"),
    ("horner", "estrin", "polynomial: Horner vs Estrin"),
    ("add_dep4", "addimm_dep4", "add chain: register vs immediate operand"),
]


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)


def kendall(a, b):
    """Kendall's tau-b (ties in either list counted as neither)."""
    c = d = ta = tb = 0
    n = len(a)
    for i in range(n):
        for j in range(i + 1, n):
            x, y = a[i] - a[j], b[i] - b[j]
            if x == 0 and y == 0:
                continue
            if x == 0:
                ta += 1
            elif y == 0:
                tb += 1
            elif (x > 0) == (y > 0):
                c += 1
            else:
                d += 1
    den = ((c + d + ta) * (c + d + tb)) ** 0.5
    return (c - d) / den if den else 0.0


def mca_sim(mcpu, texts, iters=300):
    src = ".Ltop:\n" + "\n".join(normalise(t) for t in texts) + "\n"
    try:
        p = mca(["-mcpu=" + mcpu, "-iterations=%d" % iters, "-resource-pressure=0",
                 "-instruction-info=0"], src, timeout=60)
    except subprocess.TimeoutExpired:
        return None
    m = re.search(r"Total Cycles:\s+(\d+)", p.stdout)
    return int(m.group(1)) / iters if m else None


def main():
    native = json.load(open(sys.argv[1]))
    loops = json.load(open(sys.argv[2]))
    tables = {}
    for arg in sys.argv[3:]:
        tag, fn = arg.split("=", 1)
        tables[tag] = json.load(open(fn))
    main_tag = next(iter(tables))
    names = sorted(k for k in loops if k in native)
    rows = {}
    for k in names:
        ins = loops[k]["insns"]
        texts = [x[2] for x in ins]
        addrs = [(int(x[0], 16), len(x[1].split())) for x in ins]
        row = {"native": native[k]["cyc_median"], "native_min": native[k]["cyc_min"],
               "native_max": native[k]["cyc_max"], "ns": native[k]["ns_median"],
               "native_p10": native[k]["cyc_p10"], "native_p90": native[k]["cyc_p90"],
               "ninsns": len(ins)}
        for tag, t in tables.items():
            r = Model(t).estimate(texts, addrs=addrs)
            for f in ("est", "issue", "ports", "deps", "ct", "cl"):
                row["%s_%s" % (tag, f)] = r[f]
            row["%s_mca" % tag] = mca_sim(t["mcpu"], texts)
        rows[k] = row
    preds = []
    for tag in tables:
        preds += [(tag + "_est", "block model (%s)" % tag), (tag + "_ct", "Ct sum (%s)" % tag),
                  (tag + "_cl", "Cl sum (%s)" % tag), (tag + "_mca", "llvm-mca simulation (%s)" % tag)]
    nat = [rows[k]["native"] for k in names]
    summary = {}
    for p, label in preds:
        vals = [rows[k][p] for k in names]
        ok = [i for i, v in enumerate(vals) if v is not None]
        rho = spearman([nat[i] for i in ok], [vals[i] for i in ok])
        tau = kendall([nat[i] for i in ok], [vals[i] for i in ok])
        pr = []
        for slow, fast, what in PAIRS:
            ns = rows[slow]["native"] / rows[fast]["native"]
            ps, pf = rows[slow][p], rows[fast][p]
            es = ps / pf if ps and pf else None
            right = es is not None and ((ns > 1) == (es > 1) or abs(ns - 1) < 0.1 and abs(es - 1) < 0.1) \
                and (max(es, ns) / min(es, ns) <= 2)
            pr.append({"pair": "%s / %s" % (slow, fast), "what": what, "native": ns,
                       "est": es, "ok": right})
        summary[p] = {"label": label, "rho": rho, "tau": tau, "n": len(ok), "pairs": pr,
                      "pairs_ok": sum(1 for x in pr if x["ok"]),
                      "within": sum(1 for i in ok if 0.5 <= vals[i] / nat[i] <= 2)}
    # ablation: each element of the model switched off in turn (main table)
    ablation = {}
    variants = [("as is", {}), ("no ReadAdvance", {"read_advance": False}),
                ("no move elimination", {"move_elim": False}),
                ("no zero idioms", {"zero_idioms": False}),
                ("no macro-fusion", {"macro_fusion": False}),
                ("no taken-branch floor", {"taken_branch": 0.0}),
                ("no memory dependencies", {"mem_deps": False})]
    for label, kw in variants:
        m = Model(tables[main_tag], **kw)
        vals = []
        for k in names:
            ins = loops[k]["insns"]
            vals.append(m.estimate([x[2] for x in ins],
                                   addrs=[(int(x[0], 16), len(x[1].split())) for x in ins])["est"])
        est = dict(zip(names, vals))
        pairs_ok = 0
        for slow, fast, what in PAIRS:
            ns = rows[slow]["native"] / rows[fast]["native"]
            es = est[slow] / est[fast]
            if ((ns > 1) == (es > 1) or abs(ns - 1) < 0.1 and abs(es - 1) < 0.1) and \
                    max(es, ns) / min(es, ns) <= 2:
                pairs_ok += 1
        ablation[label] = {"rho": spearman(nat, vals), "pairs_ok": pairs_ok}
    json.dump({"rows": rows, "summary": summary, "ablation": ablation},
              open("results.json", "w"), indent=1, sort_keys=True)
    # Markdown
    print("| predictor | Spearman rho | Kendall tau | kernels within 2x | pairs right (direction and within 2x) |")
    print("|---|---|---|---|---|")
    seen = set()
    for p, _ in preds:
        s = summary[p]
        if p.endswith("_mca") and (rows[names[0]][p], s["rho"]) in seen:
            continue          # the same llvm-mca run under another table's tag
        seen.add((rows[names[0]][p], s["rho"]))
        print("| %s | %.3f | %.3f | %d/%d | %d/%d |" % (s["label"], s["rho"], s["tau"], s["within"],
                                                      s["n"], s["pairs_ok"], len(PAIRS)))
    print()
    T = main_tag
    print("Block model per table (cycles per iteration):\n")
    print("| kernel | native | " + " | ".join(tables) + " |")
    print("|---|---|" + "---|" * len(tables))
    for k in sorted(names, key=lambda k: rows[k]["native"]):
        print("| %s | %.2f | %s |" % (k, rows[k]["native"], " | ".join(
            "%.2f" % rows[k][t + "_est"] for t in tables)))
    print()
    print("Ablation (table `%s`): each element switched off in turn.\n" % T)
    print("| model | Spearman rho | pairs right |")
    print("|---|---|---|")
    for label, a in ablation.items():
        print("| %s | %.3f | %d/%d |" % (label, a["rho"], a["pairs_ok"], len(PAIRS)))
    print()
    print("Detailed: table `%s`.\n" % T)
    print("| kernel | insns | native cycles/iter median [p10..p90] | block model | issue | ports | deps | Ct | Cl | llvm-mca |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in sorted(names, key=lambda k: rows[k]["native"]):
        r = rows[k]
        print("| %s | %d | %.2f [%.2f..%.2f] | **%.2f** | %.2f | %.2f | %.2f | %.2f | %.1f | %s |" % (
            k, r["ninsns"], r["native"], r["native_p10"], r["native_p90"], r[T + "_est"],
            r[T + "_issue"], r[T + "_ports"], r[T + "_deps"], r[T + "_ct"], r[T + "_cl"],
            "%.2f" % r[T + "_mca"] if r[T + "_mca"] else "-"))
    print()
    print("| pair (slow / fast) | what | native speedup | block model | Ct | Cl | llvm-mca |")
    print("|---|---|---|---|---|---|---|")
    for i, (slow, fast, what) in enumerate(PAIRS):
        cells = []
        for p in (T + "_est", T + "_ct", T + "_cl", T + "_mca"):
            x = summary[p]["pairs"][i]
            cells.append("%.2f %s" % (x["est"], "ok" if x["ok"] else "**wrong**")
                         if x["est"] else "-")
        print("| %s / %s | %s | %.2f | %s |" % (slow, fast, what,
              summary[T + "_est"]["pairs"][i]["native"], " | ".join(cells)))


if __name__ == "__main__":
    main()
