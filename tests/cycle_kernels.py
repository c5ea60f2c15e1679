#!/usr/bin/env python3
"""The cycle events against native time on bench/blockmodel/native's
kernels (tests/cycle-sanity.sh).

Usage: cycle_kernels.py NATIVE_JSON CALLGRIND_OUT ITERATIONS MIN_RHO MIN_PAIRS

NATIVE_JSON holds each kernel's median cycles per iteration on the machine
that measured it (bench/blockmodel/native/native.json); CALLGRIND_OUT is
a run of the kernels' driver (irdriver.c), each kernel k_NAME called once
from main with ITERATIONS iterations.  Prints the table (native, Ct, Cl,
Cb per iteration), Spearman's rho of each event, and the optimisation
pairs; exits 1 unless Cb's rho >= MIN_RHO and at least MIN_PAIRS pairs
are right (the faster kernel estimated faster by more than 1%, the
speedup within 2x of native's)."""
import json
import sys

# (slow, fast, what): both compute the same result, the second faster.
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


def inclusive_costs(path):
    """{function: [cost per event]} of the calls main makes to k_*."""
    names, out, events, pending = {}, {}, [], None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("fn=", "cfn=")):
            num, _, name = line.split("=", 1)[1].partition(")")
            if name.strip():
                names[num] = name.strip()
            pending = names.get(num) if line.startswith("cfn=") else None
        elif line.startswith("calls=") and pending:
            continue
        elif pending and line[:1].isdigit():
            v = [int(x) for x in line.split()[1:]]
            if pending.startswith("k_"):
                acc = out.setdefault(pending[2:], [0] * len(v))
                for i, x in enumerate(v):
                    acc[i] += x
            pending = None
    return events, out


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)


def main():
    native_path, out_path, n, min_rho, min_pairs = sys.argv[1:6]
    n, min_rho, min_pairs = int(n), float(min_rho), int(min_pairs)
    native = {k: v["cyc_median"] for k, v in json.load(open(native_path)).items()
              if not k.startswith("_")}
    events, costs = inclusive_costs(out_path)
    missing = sorted(k for k in native if k not in costs)
    if missing or not all(e in events for e in ("Ct", "Cl", "Cb")):
        print("no estimate for %s (events: %s)" % (missing, " ".join(events)))
        return 1
    est = {e: {k: costs[k][events.index(e)] / 100.0 / n for k in native}
           for e in ("Ct", "Cl", "Cb")}
    ks = sorted(native, key=native.get)
    print("%-12s %8s %8s %8s %8s" % ("kernel", "native", "Ct", "Cl", "Cb"))
    for k in ks:
        print("%-12s %8.2f %8.2f %8.2f %8.2f" % (k, native[k], est["Ct"][k],
                                                est["Cl"][k], est["Cb"][k]))
    rho = {e: spearman([native[k] for k in ks], [est[e][k] for k in ks])
           for e in est}
    print("Spearman rho with native cycles per iteration: Ct %.3f, Cl %.3f, Cb %.3f"
          % (rho["Ct"], rho["Cl"], rho["Cb"]))
    right = 0
    print("%-44s %8s %8s %8s %8s" % ("pair (slow -> fast)", "native", "Ct", "Cl", "Cb"))
    for slow, fast, what in PAIRS:
        sp = {e: est[e][slow] / est[e][fast] if est[e][fast] else float("inf")
              for e in est}
        nat = native[slow] / native[fast]
        # a tie (within 1%) points nowhere
        ok = sp["Cb"] > 1.01 and nat / 2 <= sp["Cb"] <= nat * 2
        right += ok
        print("%-44s %7.2fx %7.2fx %7.2fx %7.2fx %s" % (
            what, nat, sp["Ct"], sp["Cl"], sp["Cb"], "right" if ok else "WRONG"))
    print("Cb: %d of %d pairs right" % (right, len(PAIRS)))
    return 0 if rho["Cb"] >= min_rho and right >= min_pairs else 1


if __name__ == "__main__":
    sys.exit(main())
