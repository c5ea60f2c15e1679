#!/usr/bin/env python3
"""Per-instruction-form scheduling data from LLVM 19's models, as JSON:
the prototype's stand-in for what the block model's C table must hold.

For every instruction text given (AT&T, one per line; objdump's text is
accepted), from llvm-mca-19 -mcpu=MODEL:

  uops      NumMicroOps of the form's sched class (unfused domain)
  lat       the class's latency (max over its writes), cycles
  rthr      reciprocal throughput llvm-mca derives from the resources
  load, store, side   MayLoad, MayStore, HasSideEffects
  res       resource use as [[ports...], cycles]: the ports of one
            ProcResGroup (or one ProcResource) and the cycles it holds it
            (ReleaseAtCycles).  llvm-mca's per-instruction pressure view
            spreads a group's cycles evenly over its ports, so ports with
            equal pressure are put back together as one group (see
            port_sets(); exact unless two groups of one instruction have the
            same per-port share, when their union is taken: a relaxation of
            the port bound, never a tightening).
  ra        ReadAdvance of the register operands of a form with a folded
            load (cycles the register may arrive after the load started),
            measured: a self-dependent loop of the instruction in llvm-mca's
            simulation runs at lat - ra cycles per iteration.
  dep_break the form is a dependency-breaking (zero) idiom in LLVM's X86
            predicates (xor r,r...): measured the same way on a reference
            model that declares them (IsZeroIdiomFunction), since LLVM 19's
            sapphirerapids model does not.

and for the model: issue_width (SchedMachineModel IssueWidth, which
llvm-mca reports as its dispatch width), its resources (ports).

No simulation is needed for the main data (--instruction-tables), so none
of llvm-mca's stalls on some sapphirerapids instructions can hit it; only
the probes simulate, each under a timeout.

Usage: gen_table.py [--mcpu sapphirerapids] [--ref-mcpu skylake]
                    [--no-probes] TEXTS_FILE > table.json"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

MCA = "llvm-mca-19"


def mca(args, src, timeout=None):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(src)
        name = f.name
    try:
        return subprocess.run([MCA] + args + [name], capture_output=True, text=True,
                              timeout=timeout)
    finally:
        os.unlink(name)


def normalise(text):
    """objdump text -> text llvm-mc reads: symbols and branch targets go."""
    t = re.sub(r"\s*<[^>]*>", "", text).strip()
    t = re.sub(r"^(j\w+|jmp|call|loop\w*)\s+(0x)?[0-9a-f]+$", r"\1 .Ltop", t)
    return t


def port_sets(usage):
    """{port index: pressure} of one instruction -> [[ports], cycles]."""
    by_val = {}
    for p, v in usage.items():
        if v > 1e-9:
            by_val.setdefault(round(v, 4), []).append(p)
    return [[sorted(ps), round(v * len(ps), 4)] for v, ps in sorted(by_val.items())]


def tables(mcpu, texts):
    p = mca(["-mcpu=" + mcpu, "--instruction-tables", "--json",
             "-skip-unsupported-instructions=any"], ".Ltop:\n" + "\n".join(texts) + "\n")
    d = json.loads(p.stdout)
    res_names = d["TargetInfo"]["Resources"]
    reg = d["CodeRegions"][0]
    info = reg["InstructionInfoView"]["InstructionList"]
    insns = reg["Instructions"]
    usage = [dict() for _ in insns]
    for r in reg["ResourcePressureView"]["ResourcePressureInfo"]:
        if r["InstructionIndex"] < len(insns):   # index N: the totals row
            usage[r["InstructionIndex"]][r["ResourceIndex"]] = r["ResourceUsage"]
    idx = list(range(len(texts)))
    if len(insns) != len(texts):
        idx = align(texts, insns)
    out = []
    for t, i in zip(texts, idx):
        if i is None:          # llvm-mca skipped it: no scheduling data
            out.append(None)
            continue
        x = info[i]
        out.append({"mca_text": re.sub(r"\s+", " ", insns[i]), "uops": x["NumMicroOpcodes"],
                    "lat": x["Latency"], "rthr": round(x["RThroughput"], 4),
                    "load": x["mayLoad"], "store": x["mayStore"],
                    "side": x["hasUnmodeledSideEffects"], "res": port_sets(usage[i])})
    return res_names, out


def canon(t):
    return re.sub(r"\s+", " ", t).strip()


def align(texts, insns):
    """Index in llvm-mca's list of each text (None where it was skipped):
    llvm-mc prints every text as llvm-mca would, and llvm-mca's list is a
    subsequence of that."""
    mark = "movabsq $1234605616436508552, %r15"
    p = subprocess.run(["llvm-mc-19", "-triple=x86_64"],
                       input="".join(t + "\n" + mark + "\n" for t in texts),
                       capture_output=True, text=True)
    printed, cur = [], []
    for l in p.stdout.splitlines():
        if not l.strip() or l.lstrip().startswith("."):
            continue
        l = re.sub(r"\s*#.*$", "", l)   # llvm-mc's comments (# imm = ...)
        if canon(l) == mark:        # one text's lines end at its marker
            printed.append(cur)
            cur = []
        else:
            cur.append(canon(l))
    if len(printed) != len(texts):
        sys.exit("gen_table: llvm-mc printed %d of %d markers" % (len(printed), len(texts)))
    # llvm-mca's list: every printed line (an MCInst each: llvm-mc prints
    # a lone prefix such as addr32 as one) it has data for, in order
    want = [canon(x) for x in insns]
    out, j = [], 0
    for lines in printed:
        last = None
        for t in lines:
            if j < len(want) and want[j] == t:
                last = j
                j += 1
        # the text's own instruction is its last line
        out.append(last if lines and last is not None and want[last] == lines[-1] else None)
    if j != len(want):
        sys.exit("gen_table: cannot align llvm-mca's list (%d of %d matched)" % (j, len(want)))
    return out


def self_loop(mcpu, text, iters=200):
    """Cycles per iteration of a block of the one instruction, or None."""
    try:
        p = mca(["-mcpu=" + mcpu, "-iterations=%d" % iters, "-summary-view",
                 "-resource-pressure=0", "-instruction-info=0"], text + "\n", timeout=10)
    except subprocess.TimeoutExpired:
        return None
    m = re.search(r"Total Cycles:\s+(\d+)", p.stdout)
    return int(m.group(1)) / iters if m else None


def issue_width(mcpu):
    p = mca(["-mcpu=" + mcpu, "-iterations=1"], "nop\n")
    return int(re.search(r"Dispatch Width:\s+(\d+)", p.stdout).group(1))


REG = r"%[a-z0-9]+"


def rmw_dest(text):
    """The register a two-operand form both reads and writes, if any
    (AT&T: the last operand of an arithmetic op)."""
    m = re.match(r"^(\w+) (.*)$", text)
    if not m:
        return None
    mn, ops = m.group(1), m.group(2)
    if re.match(r"^(mov|lea|set|cvt|pop|push|j|cmp|test|ucomi|comi|nop)", mn):
        return None
    last = ops.split(",")[-1].strip()
    return last if re.fullmatch(REG, last) else None


def same_reg_pair(text):
    m = re.match(r"^\w+ (%[a-z0-9]+),\s*(%[a-z0-9]+)$", text)
    return m and m.group(1) == m.group(2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mcpu", default="sapphirerapids")
    ap.add_argument("--ref-mcpu", default="skylake",
                    help="model whose zero-idiom predicates mark dep_break")
    ap.add_argument("--no-probes", action="store_true")
    ap.add_argument("--borrow-divider", metavar="MCPU",
                    help="add the divider occupancy (resources named *Divider) "
                    "of this model's same form: LLVM 19's sapphirerapids model "
                    "has no divider resource, so its divides and square roots "
                    "look fully pipelined")
    ap.add_argument("texts")
    a = ap.parse_args()
    raw = [l.rstrip("\n") for l in open(a.texts) if l.strip()]
    texts = sorted({normalise(t) for t in raw})
    ver = re.search(r"LLVM version (\S+)", subprocess.run([MCA, "--version"],
                    capture_output=True, text=True).stdout).group(1)
    ports, rows = tables(a.mcpu, texts)
    forms = dict(zip(texts, rows))
    if a.borrow_divider:
        bports, brows = tables(a.borrow_divider, texts)
        div = {i for i, n in enumerate(bports) if "Divider" in n}
        extra = {}
        for t, b in zip(texts, brows):
            for ps, cyc in b["res"]:
                if len(ps) == 1 and ps[0] in div:
                    name = "%s(%s)" % (bports[ps[0]], a.borrow_divider)
                    if name not in extra:
                        extra[name] = len(ports) + len(extra)
                    forms[t]["res"].append([[extra[name]], cyc])
                    forms[t].setdefault("notes", []).append("divider from " + a.borrow_divider)
        ports = ports + sorted(extra, key=extra.get)
    if not a.no_probes:
        jobs = {}
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for t, f in forms.items():
                if f["load"] and rmw_dest(t) and f["uops"]:
                    jobs[(t, "ra")] = pool.submit(self_loop, a.mcpu, t)
                if same_reg_pair(t):
                    jobs[(t, "zi")] = pool.submit(self_loop, a.ref_mcpu, t)
                    jobs[(t, "zi_own")] = pool.submit(self_loop, a.mcpu, t)
            for (t, kind), fut in jobs.items():
                c = fut.result()
                f = forms[t]
                if c is None:
                    f.setdefault("notes", []).append("probe %s timed out" % kind)
                    continue
                if kind == "ra":
                    f["self_cyc"] = c
                    # the chain runs at lat - ra unless throughput binds
                    f["ra"] = max(0, round(f["lat"] - c)) if c > f["rthr"] + 0.25 else None
                elif kind == "zi":
                    # a zero idiom breaks the chain: far below one cycle
                    f["dep_break"] = c < 0.75
                    f["ref_self_cyc"] = c
                else:
                    f["own_self_cyc"] = c
    json.dump({"llvm": ver, "mcpu": a.mcpu, "issue_width": issue_width(a.mcpu),
               "ports": ports, "ref_mcpu": a.ref_mcpu, "forms": forms},
              sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
