#!/usr/bin/env python3
"""The dependency bound from VEX IR, as callgrind would see it, compared
with model.py's (from an x86 operand decoder).

Input: valgrind --tool=none --vex-guest-chase=no --trace-flags=01000000
(the IR after VEX's pre-instrumentation optimisation: what a tool's
instrument function receives) of native/irdriver, filtered to the
kernels' superblocks.  For each kernel's loop superblock:

- statements are grouped by IMark (one guest instruction each);
- an instruction reads: temps defined by an earlier instruction, guest
  state (GET: registers, the flags thunk, by offset) last PUT earlier in
  the superblock or live in, memory (LDle) at an address;
- it writes temps used later, PUTs, memory (STle);
- a read that only feeds a load's address is an address operand (no
  ReadAdvance); the other reads of a load-op form are data operands;
- latencies, ReadAdvance, move elimination and store forwarding as in
  model.py, from the same per-form table (matched by address to the
  instruction text objdump gives);
- VEX unrolls small self-loops (ir_opt.c: the superblock holds the body
  k times); the bound of the superblock is divided by k.

Usage: ir_deps.py IR_DUMP loops.json table.json [tblgen_forms.json]
(with tblgen_forms.json, flags come from LLVM's implicit EFLAGS operands)"""
import json
import re
import sys

from model import Model, max_cycle_mean

RIP = 184
YMM0 = 224          # amd64 guest state: guest_YMM0 (16..136 GPRs, 144..168 flags thunk)


def resource_of_offset(off):
    if off >= YMM0:
        return "v%d" % ((off - YMM0) // 32)
    return "g%d" % (off // 8 * 8)


def parse_sbs(path):
    """{start address: [(imark address, [statement lines])]}"""
    sbs, cur, start = {}, None, None
    for line in open(path):
        m = re.match(r"^==== SB \d+ .*\] (0x[0-9a-f]+) ", line)
        if m:
            start = int(m.group(1), 16)
            cur = sbs.setdefault(start, [])
            if cur:              # translated again: keep the first
                cur = []
            continue
        if cur is None:
            continue
        m = re.match(r"^\s+------ IMark\((0x[0-9A-Fa-f]+), (\d+), \d+\) ------", line)
        if m:
            cur.append((int(m.group(1), 16), []))
            continue
        s = line.strip()
        if cur and s and not s.startswith(("IRSB", "}", "t0:")) and \
                not re.match(r"^(t\d+:\S+\s*)+$", s):
            cur[-1][1].append(s)
    return sbs


def analyse(insns):
    """Per instruction: reads [(resource, is_address)], writes [resource],
    has_load.  insns: [(address, [statements])]."""
    tdef = {}                       # temp -> instruction index
    texpr = {}                      # temp -> expression text (for address keys)
    passthru = {}                   # GET temp -> the state it read
    out = []
    for i, (addr, stmts) in enumerate(insns):
        reads, writes, has_load = [], set(), False
        local = {}
        addr_temps = set()
        # pass 1: which temps feed a load/store address (transitively within the insn)
        deps = {}
        for s in stmts:
            m = re.match(r"^(t\d+) = (.*)$", s)
            if m:
                deps[m.group(1)] = set(re.findall(r"\bt\d+\b", m.group(2)))
                for a in re.findall(r"LDle:\w+\((t\d+)\)", m.group(2)):
                    addr_temps.add(a)
            m = re.match(r"^STle\((t\d+)\)", s)
            if m:
                addr_temps.add(m.group(1))
        changed = True
        while changed:
            changed = False
            for t in list(addr_temps):
                for u in deps.get(t, ()):
                    if u not in addr_temps and not re.search(r"LDle", " ".join(
                            x for x in stmts if x.startswith(u + " = "))):
                        addr_temps.add(u)
                        changed = True

        def key_of(atom):
            """Canonical address: temps expanded to GETs of live-in state."""
            atom = atom.strip()
            if re.fullmatch(r"t\d+", atom):
                e = texpr.get(atom)
                if e is None:
                    return atom
                return re.sub(r"\bt\d+\b", lambda mm: key_of(mm.group(0)), e)
            return atom

        for s in stmts:
            m = re.match(r"^(t\d+) = (.*)$", s)
            lhs, rhs = (m.group(1), m.group(2)) if m else (None, s)
            if s.startswith("if ("):
                rhs = s[:s.index(")") + 1]
            if s.startswith("PUT(%d)" % RIP) or "PUT(%d)" % RIP in s and s.startswith("if"):
                pass
            for t in set(re.findall(r"\bt\d+\b", rhs)):
                if t in tdef and tdef[t] != i:
                    reads.append(("t:" + t, t in addr_temps))
            for off in re.findall(r"GET:\w+\((\d+)\)", rhs):
                off = int(off)
                if off == RIP:
                    continue
                src = lhs in addr_temps if lhs else False
                reads.append(("s:" + resource_of_offset(off), src))
            for a in re.findall(r"LDle:\w+\(([^)]*)\)", rhs):
                has_load = True
                reads.append(("m:" + key_of(a), False))
            m2 = re.match(r"^PUT\((\d+)\) = ", s)
            if m2 and int(m2.group(1)) != RIP:
                writes.add("s:" + resource_of_offset(int(m2.group(1))))
                for t in set(re.findall(r"\bt\d+\b", s[s.index("=") + 1:])):
                    if t in tdef and tdef[t] != i:
                        reads.append(("t:" + t, False))
            m2 = re.match(r"^STle\(([^)]*)\) = (.*)$", s)
            if m2:
                writes.add("m:" + key_of(m2.group(1)))
                for t in set(re.findall(r"\bt\d+\b", s)):
                    if t in tdef and tdef[t] != i:
                        reads.append(("t:" + t, t in addr_temps))
            if lhs:
                tdef[lhs] = i
                texpr[lhs] = rhs
                writes.add("t:" + lhs)
                mg = re.fullmatch(r"GET:\w+\((\d+)\)", rhs)
                if mg:      # a register read: later users read the register
                    passthru["t:" + lhs] = "s:" + resource_of_offset(int(mg.group(1)))
        out.append({"addr": addr, "reads": reads, "writes": writes, "load": has_load,
                    "empty": not stmts,
                    "passthru": dict(passthru)})
        passthru.clear()
    return out


def add_flags(info, tforms):
    """Flags as the decoder's table says (LLVM's implicit EFLAGS use/def of
    the form): VEX's spec helpers fold a cmp's flag computation into its
    consumer (cmov, setcc, jcc), which hides the producer's latency."""
    for x, g in zip(info, tforms):
        if g is None:
            continue
        if "EFLAGS" in (g.get("implicit_uses") or []):
            x["reads"].append(("s:flags", False))
        if "EFLAGS" in (g.get("implicit_defs") or []):
            x["writes"] = set(x["writes"]) | {"s:flags"}


def dep_bound(model, info, forms, texts):
    # a GET of state written later in the block is carried; a temp never is
    reads = [set(r for r, _ in x["reads"]) for x in info]
    writes = [x["writes"] for x in info]
    seen, live_in = set(), set()
    for r, w in zip(reads, writes):
        live_in |= r - seen
        seen |= w
    carried = sorted(x for x in live_in & seen)
    n = len(carried)
    if not n:
        return 0.0, carried
    NEG = float("-inf")
    M = [[None] * n for _ in range(n)]
    for si, s in enumerate(carried):
        t = {s: 0.0}
        folded = 0.0      # latency of a flag producer VEX folded into its consumer
        for x, f, text in zip(info, forms, texts):
            if x["empty"] and "s:flags" in x["writes"]:
                folded = float(f["lat"])
                continue
            ra = f.get("ra") or 0
            start = NEG
            for res, is_addr in x["reads"]:
                if res in t:
                    adv = ra if (x["load"] and not is_addr and not res.startswith("m:")) else 0
                    start = max(start, t[res] - adv)
            if start == NEG:
                for w in x["writes"]:
                    src = x["passthru"].get(w)
                    if src is not None and src in t:
                        t[w] = t[src]
                    else:
                        t.pop(w, None)
                continue
            lat = float(f["lat"])
            if f["uops"] == 0 and text.startswith("mov"):
                lat = 0.0
            if ("s:flags", False) in x["reads"]:
                lat += folded
                folded = 0.0
            got = {w: t.get(src) for w, src in x["passthru"].items()}
            for w in x["writes"]:
                if w in got:                 # a GET: the register's own time
                    if got[w] is None:
                        t.pop(w, None)
                    else:
                        t[w] = got[w]
                else:
                    t[w] = start + (model.store_forward if w.startswith("m:") else lat)
        for bi, b in enumerate(carried):
            if b in t:
                M[si][bi] = t[b]
    return max_cycle_mean(M, n), carried


def main():
    sbs = parse_sbs(sys.argv[1])
    loops = json.load(open(sys.argv[2]))
    table = json.load(open(sys.argv[3]))
    model = Model(table)
    tblgen = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else None
    base = None
    print("| kernel | unrolled x | IR deps / iteration | decoder deps / iteration | IR carried |")
    print("|---|---|---|---|---|")
    same = 0
    for k, v in sorted(loops.items()):
        start = int(v["start"], 16)
        if base is None:
            cand = [a for a in sbs if (a & 0xfff) == (start & 0xfff) and a - start > 0]
            base = min(cand, key=lambda a: a - start) - start if cand else 0
        sb = sbs.get(start + base)
        if not sb:
            print("| %s | - | no superblock | | |" % k)
            continue
        text_at = {int(a, 16) + base: t for a, b, t in v["insns"]}
        texts = [text_at.get(a) for a, _ in sb]
        if any(t is None for t in texts):
            print("| %s | - | superblock leaves the loop | | |" % k)
            continue
        forms = [model.form(t) for t in texts]
        copies = sum(1 for a, _ in sb if a == start + base)
        info = analyse(sb)
        if tblgen:
            from gen_table import normalise
            add_flags(info, [tblgen["forms"].get(normalise(t)) for t in texts])
        d, carried = dep_bound(model, info, forms, texts)
        ref = model.estimate([x[2] for x in v["insns"]],
                             addrs=[(int(x[0], 16), len(x[1].split())) for x in v["insns"]])
        per = d / copies
        same += abs(per - ref["deps"]) < 0.01
        print("| %s | %d | %.2f | %.2f | %s |" % (k, copies, per, ref["deps"],
              " ".join(c for c in carried if not c.startswith("t:"))))
    print("\n%d of %d kernels: the same dependency bound from IR as from the decoder"
          % (same, len(loops)))


if __name__ == "__main__":
    main()
