#!/usr/bin/env python3
"""The SIMD kernels (native/kernels3.c): block model, Ct, Cl and llvm-mca
against native, their pairs, and the ranking over all kernels together.
Usage: simd_eval.py native_simd.json loops3.json native.json loops.json TAG=table.json..."""
import json, sys
from evaluate import spearman, kendall, mca_sim
from model import Model

# (slow, fast, what, work of one slow iteration in units of one fast one)
PAIRS = [
    ("fma_chain_y", "fma_8acc_y", "FMA: 1 chain vs 8 accumulators (per FMA)", 8),
    ("vsum1_y", "vsum4_y", "vector sum: 1 vs 4 accumulators", 1),
    ("daxpy_y", "daxpy_z", "daxpy: ymm vs zmm (8 elements)", 1),
    ("fma_8acc_y", "fma_8acc_z", "8 FMA chains: ymm vs zmm (per element)", 2),
    ("vdiv_z", "vmul_z", "zmm: divide vs multiply by reciprocal", 1),
]

def est(m, v):
    return m.estimate([x[2] for x in v["insns"]],
                      addrs=[(int(x[0], 16), len(x[1].split())) for x in v["insns"]])

def main():
    nat3, loops3 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    nat, loops = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
    tables = [a.split("=", 1) for a in sys.argv[5:]]
    names3 = sorted(loops3)
    print("| kernel | native [p10..p90] | " + " | ".join("block (%s)" % t for t, _ in tables)
          + " | Ct | Cl | llvm-mca |")
    print("|---|---|" + "---|" * len(tables) + "---|---|---|")
    rows = {}
    for k in names3:
        r = {"native": nat3[k]["cyc_median"]}
        for tag, fn in tables:
            m = Model(json.load(open(fn)))
            e = est(m, loops3[k])
            r[tag] = e["est"]
            if tag == tables[0][0]:
                r["ct"], r["cl"] = e["ct"], e["cl"]
                r["mca"] = mca_sim(m.t["mcpu"], [x[2] for x in loops3[k]["insns"]])
        rows[k] = r
        print("| %s | %.2f [%.2f..%.2f] | %s | %.2f | %.1f | %.2f |" % (
            k, r["native"], nat3[k]["cyc_p10"], nat3[k]["cyc_p90"],
            " | ".join("%.2f" % r[t] for t, _ in tables), r["ct"], r["cl"], r["mca"]))
    print()
    print("| pair (slow / fast) | what | native | " + " | ".join(t for t, _ in tables)
          + " | Ct | Cl | llvm-mca |")
    print("|---|---|---|" + "---|" * len(tables) + "---|---|---|")
    for slow, fast, what, mult in PAIRS:
        ns = rows[slow]["native"] * mult / rows[fast]["native"]
        cells = []
        for p in [t for t, _ in tables] + ["ct", "cl", "mca"]:
            es = rows[slow][p] * mult / rows[fast][p]
            ok = ((ns > 1) == (es > 1) or abs(ns - 1) < 0.1 and abs(es - 1) < 0.1) and \
                max(es, ns) / min(es, ns) <= 2
            cells.append("%.2f %s" % (es, "ok" if ok else "**wrong**"))
        print("| %s / %s | %s | %.2f | %s |" % (slow, fast, what, ns, " | ".join(cells)))
    print()
    # all kernels together (the scalar set's numbers from its own runs)
    for tag, fn in tables:
        m = Model(json.load(open(fn)))
        xs, ys, cts, cls = [], [], [], []
        for k, v in list(loops.items()) + list(loops3.items()):
            n = (nat.get(k) or nat3.get(k))["cyc_median"]
            e = est(m, v)
            xs.append(n); ys.append(e["est"]); cts.append(e["ct"]); cls.append(e["cl"])
        print("All %d kernels, table %s: block model rho %.3f tau %.3f; Ct rho %.3f; Cl rho %.3f" % (
            len(xs), tag, spearman(xs, ys), kendall(xs, ys), spearman(xs, cts), spearman(xs, cls)))

if __name__ == "__main__":
    main()
