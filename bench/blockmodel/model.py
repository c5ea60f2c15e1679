#!/usr/bin/env python3
"""Block model prototype: estimated cycles per execution of a
basic block, the max of three bounds, from a per-form table
(gen_table.py's JSON):

  issue   front end / allocation: uops / IssueWidth, and at least one
          cycle per taken branch (a loop's back edge);
  ports   port pressure: for every union U of the port sets the block's
          uops may use, (cycles of the uops that can only run in U) / |U|;
          the max over U is the bound (the min-max assignment's value, as
          Facile computes it, without an LP);
  deps    dependency chains through registers, flags and memory, with each
          operand's latency (producer latency minus the consumer's
          ReadAdvance), in steady state: the block as if run back to back
          (its own loop when it jumps to itself).  Computed as the max-plus
          eigenvalue (max cycle mean) of the "carried" matrix M, where
          M[a][b] is the longest path, within one execution, from the value
          of resource a at entry to the value of resource b at exit, over
          the resources the block reads before writing and also writes.

Also the per-instruction sums Ct (reciprocal throughputs) and Cl
(latencies), which callgrind computes today, for comparison.

Operand semantics are those of a decoder the C implementation would have
(reads/writes per opcode class, zero idioms, move elimination, macro
fusion), written for the x86 AT&T subset objdump prints for the kernels.
"""
import itertools
import json
import re
import sys

# ---------------------------------------------------------------- decoding
GPR = {}
for i, n in enumerate(["ax", "bx", "cx", "dx"]):
    full = "r" + n
    for a in (n[0] + "l", n[0] + "h", n, "e" + n, full):
        GPR[a] = full
for n in ["si", "di", "bp", "sp"]:
    for a in (n + "l", n, "e" + n, "r" + n):
        GPR[a] = "r" + n
for k in range(8, 16):
    for s in ("b", "w", "d", ""):
        GPR["r%d%s" % (k, s)] = "r%d" % k
GPR["rip"] = "rip"


def reg(name):
    n = name.lstrip("%")
    m = re.match(r"^[xyz]mm(\d+)$", n)
    if m:
        return "v" + m.group(1)
    return GPR.get(n)


class Insn:
    def __init__(self, text):
        self.text = text
        m = re.match(r"^(\S+)\s*(.*)$", text)
        self.mn, rest = m.group(1), m.group(2)
        self.ops = split_ops(rest)
        self.reads, self.writes = set(), set()
        self.addr_regs = set()      # registers used to form an address
        self.mem = None             # (location key, is_load, is_store)
        self.branch = self.mn.startswith("j")
        semantics(self)


def split_ops(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def is_mem(op):
    return "(" in op


def mem_regs(op):
    return {reg(r) for r in re.findall(r"%\w+", op) if reg(r)} - {"rip"}


WRITE_ONLY = re.compile(r"^(mov|lea|set|cvt|pop)")
NO_FLAGS = re.compile(r"^(mov|lea|set|cvt|j|cmov|.*s[sd]$|.*p[sd]$|p[a-z]+|v[a-z]+|not|bswap)")
COMPARE = re.compile(r"^(cmp|test|ucomis|comis|bt[^a-z]?$)")
FMA = re.compile(r"^vf(n)?m(add|sub|addsub|subadd)")   # reads its destination
ZERO_IDIOM = re.compile(r"^(xor|sub|pxor|xorp[sd]|vpxor|vxorp[sd]|psub\w)$")


def semantics(i):
    mn, ops = i.mn, i.ops
    mnb = re.sub(r"[bwlq]$", "", mn) if mn not in ("mul", "imul", "div", "idiv", "shl", "sbb", "sub") else mn
    srcs, dsts = [], []
    if i.branch:
        if mn != "jmp":
            i.reads.add("flags")
        return
    for op in ops:
        if is_mem(op):
            i.addr_regs |= mem_regs(op)
    memop = next((op for op in ops if is_mem(op)), None)
    mem_is_dst = memop is not None and ops[-1] == memop
    # register operand lists (immediates dropped)
    regs = [reg(op) if op.startswith("%") else None for op in ops]
    vex = mn.startswith("v") and len(mn) > 3   # VEX/EVEX forms (vaddpd, vmovupd, ...)
    base = mn[1:] if vex else mn
    if mn.startswith(("div", "idiv")) and len(ops) == 1:
        i.reads |= {"rax", "rdx"}
        i.writes |= {"rax", "rdx", "flags"}
        if regs[0]:
            i.reads.add(regs[0])
    elif mn.startswith(("mul", "imul")) and len(ops) == 1:
        i.reads.add("rax")
        i.writes |= {"rax", "rdx", "flags"}
        if regs[0]:
            i.reads.add(regs[0])
    elif mn.startswith("imul") and len(ops) == 3:
        if regs[1]:
            i.reads.add(regs[1])
        i.writes |= {regs[2], "flags"}
    elif COMPARE.match(base):
        i.reads |= {r for r in regs if r}
        i.writes.add("flags")
    elif vex and not FMA.match(mn) and len(ops) == 3 and regs[0] and regs[0] == regs[1] \
            and ZERO_IDIOM.match(base):
        i.writes.add(regs[2])          # vpxor x,x,y: zero idiom, no inputs
        i.zero_idiom = True
    elif vex and not FMA.match(mn) and not WRITE_ONLY.match(base) and len(ops) >= 2:
        # VEX/EVEX: the destination is written, not read (non-destructive
        # three-operand forms; two-operand ones such as vsqrtpd)
        i.reads |= {r for r in regs[:-1] if r}
        if regs[-1]:
            i.writes.add(regs[-1])
        if mem_is_dst:
            i.reads.discard(None)
    elif WRITE_ONLY.match(base):
        if mn.startswith("set"):
            i.reads.add("flags")
        if mn.startswith("cmov"):
            pass
        if mn.startswith("lea"):
            pass                       # address registers are its sources
        else:
            i.reads |= {r for r in regs[:-1] if r}
        if regs[-1]:
            i.writes.add(regs[-1])
    elif len(ops) == 2 and regs[0] and regs[0] == regs[1] and ZERO_IDIOM.match(mnb):
        i.writes.add(regs[1])          # zero idiom: no inputs
        i.zero_idiom = True
        if not NO_FLAGS.match(mn):
            i.writes.add("flags")
    else:                              # read-modify-write of the last operand
        i.reads |= {r for r in regs if r}
        if mn.startswith("cmov"):
            i.reads.add("flags")
        if mn.startswith(("sh", "sa", "ro", "rc")) and len(ops) == 2 and ops[0] == "%cl":
            i.reads.add("rcx")
        if regs[-1]:
            i.writes.add(regs[-1])
        if not NO_FLAGS.match(mn):
            i.writes.add("flags")
        if mn.startswith(("adc", "sbb")):
            i.reads.add("flags")
    if mn.startswith("lea"):
        i.reads |= i.addr_regs
        return
    if memop is not None:
        load = not (mem_is_dst and WRITE_ONLY.match(base))   # a plain store does not load
        store = mem_is_dst and not COMPARE.match(base)
        i.mem = (memop, load, store)


def resolve_rip(text, addr, length):
    """0x10(%rip) -> 0xABS(%rip): one location, whichever instruction names it."""
    def sub(mm):
        disp = int(mm.group(1), 16) * (-1 if mm.group(0).startswith("-") else 1)
        return "0x%x(%%rip)" % (addr + length + disp)
    return re.sub(r"-?0x([0-9a-f]+)\(%rip\)", sub, text)


# ----------------------------------------------------------------- bounds
def port_bound(masks):
    """masks: {frozenset(ports): cycles}.  max over unions U of sets of
    (cycles of sets inside U) / |U|."""
    sets = [s for s in masks if s]
    best, arg = 0.0, None
    if len(sets) > 14:                 # the C version would cap as well
        sets = sorted(sets, key=lambda s: -masks[s])[:14]
    for k in range(1, len(sets) + 1):
        for combo in itertools.combinations(sets, k):
            u = frozenset().union(*combo)
            c = sum(v for s, v in masks.items() if s and s <= u)
            if c / len(u) > best:
                best, arg = c / len(u), u
    return best, arg


def max_cycle_mean(M, n):
    """Karp's algorithm on a dense max-plus matrix (None = no edge)."""
    NEG = float("-inf")
    best = NEG
    # run Karp from every node (the graph need not be strongly connected)
    D = [[NEG] * n for _ in range(n + 1)]
    for s in range(n):
        D[0][s] = 0.0                  # a virtual source to every node
    for k in range(1, n + 1):
        for v in range(n):
            m = NEG
            for u in range(n):
                if M[u][v] is not None and D[k - 1][u] > NEG:
                    m = max(m, D[k - 1][u] + M[u][v])
            D[k][v] = m
    for v in range(n):
        if D[n][v] == NEG:
            continue
        worst = float("inf")
        for k in range(n):
            if D[k][v] > NEG:
                worst = min(worst, (D[n][v] - D[k][v]) / (n - k))
        best = max(best, worst)
    return best if best > NEG else 0.0


class Model:
    def __init__(self, table, store_forward=1.0, move_elim=True, macro_fusion=True,
                 taken_branch=1.0, read_advance=True, mem_deps=True, zero_idioms=True):
        self.t = table
        self.iw = table["issue_width"]
        self.store_forward = store_forward
        self.move_elim = move_elim
        self.macro_fusion = macro_fusion
        self.taken_branch = taken_branch
        self.read_advance = read_advance
        self.mem_deps = mem_deps
        self.zero_idioms = zero_idioms

    def form(self, text):
        from gen_table import normalise
        return self.t["forms"].get(normalise(text))

    def lat(self, ins, f):
        if self.zero_idioms and getattr(ins, "zero_idiom", False) and f.get("dep_break"):
            return 0.0

        if self.move_elim and f["uops"] == 0 and ins.mn.startswith("mov"):
            return 0.0                 # eliminated at rename
        return float(f["lat"])

    def estimate(self, texts, loops=True, addrs=None):
        """texts: the block's instructions; addrs: [(address, length)] of
        each, to resolve RIP-relative operands to absolute locations."""
        low = self.lower(texts, loops, addrs)
        if "missing" in low:
            return low
        return self.bounds(low)

    def lower(self, texts, loops=True, addrs=None):
        """The block as the bounds see it: per instruction its uops, port
        sets, reads (resource, ReadAdvance) and writes (resource, latency),
        all semantics applied (zero idioms, move elimination, store
        forwarding, memory locations).  What a C implementation would hold
        per instruction; export_blocks.py writes it for blockcore.c."""
        if addrs:
            insns = [Insn(resolve_rip(t, a, n)) for t, (a, n) in zip(texts, addrs)]
        else:
            insns = [Insn(t) for t in texts]
        forms = [self.form(t) for t in texts]
        missing = [t for t, f in zip(texts, forms) if f is None]
        if missing:
            return {"missing": missing}
        fused = 0
        if self.macro_fusion:
            for a, b in zip(insns, insns[1:]):
                if b.branch and b.mn != "jmp" and re.match(r"^(cmp|test|add|sub|and|inc|dec)", a.mn) \
                        and not a.mem:
                    fused += 1
        taken = 1 if (loops and insns[-1].branch) else 0
        written_regs = set()
        for ins in insns:
            written_regs |= ins.writes

        def loc(ins):
            if not ins.mem or not self.mem_deps:
                return None
            op = ins.mem[0]
            if mem_regs(op) & written_regs:
                return None            # moves every iteration: no carried dep
            return "mem:" + op

        out = []
        for ins, f in zip(insns, forms):
            zi = self.zero_idioms and getattr(ins, "zero_idiom", False) and f.get("dep_break")
            r = set(ins.reads) | ins.addr_regs
            w = set(ins.writes)
            if not self.zero_idioms and getattr(ins, "zero_idiom", False):
                r |= w - {"flags"}          # then xor r,r reads r
            l = loc(ins)
            if l and ins.mem[1]:
                r.add(l)
            if l and ins.mem[2]:
                w.add(l)
            ra = (f.get("ra") or 0) if self.read_advance else 0
            reads = []
            for x in sorted(r):
                # ReadAdvance: register data operands of a folded-load form
                # may arrive ra cycles after the instruction starts
                adv = ra if (ins.mem and ins.mem[1] and x not in ins.addr_regs
                             and not x.startswith("mem:")) else 0
                reads.append((x, adv))
            lat = self.lat(ins, f)
            writes = []
            for x in sorted(w):
                if x.startswith("mem:"):
                    writes.append((x, self.store_forward))   # store -> load forwarding
                elif x == "flags" and ins.mem and ins.mem[2] and not ins.mem[1]:
                    writes.append((x, 1.0))
                else:
                    writes.append((x, lat))
            out.append({"text": ins.text, "uops": f["uops"], "rthr": f["rthr"], "lat": f["lat"],
                        "res": [] if zi else [(tuple(p), c) for p, c in f["res"]],
                        "reads": reads, "writes": writes})
        return {"iw": self.iw, "taken": taken, "fused": fused, "insns": out,
                "taken_branch": self.taken_branch}

    def bounds(self, low):
        ins = low["insns"]
        ct = sum(x["rthr"] for x in ins)
        cl = sum(x["lat"] for x in ins)
        uops = sum(x["uops"] for x in ins)
        issue = max((uops - low["fused"]) / low["iw"], low["taken"] * low["taken_branch"])
        masks = {}
        for x in ins:
            for ports, cyc in x["res"]:
                k = frozenset(ports)
                masks[k] = masks.get(k, 0.0) + cyc
        ports, port_set = port_bound(masks)
        dep, M, carried = dep_bound(ins)
        return {"issue": issue, "ports": ports, "port_set": sorted(port_set or []),
                "deps": dep, "est": max(issue, ports, dep), "ct": ct, "cl": cl,
                "uops": uops, "fused": low["fused"], "carried": carried}


def dep_bound(ins):
    """Max cycle mean of the carried matrix of a lowered block."""
    seen_w, live_in = set(), set()
    for x in ins:
        live_in |= {r for r, _ in x["reads"]} - seen_w
        seen_w |= {w for w, _ in x["writes"]}
    carried = sorted(live_in & seen_w)
    n = len(carried)
    if n == 0:
        return 0.0, [], carried
    NEG = float("-inf")
    M = [[None] * n for _ in range(n)]
    for si, s in enumerate(carried):
        t = {s: 0.0}
        for x in ins:
            start = NEG
            for r, adv in x["reads"]:
                if r in t:
                    start = max(start, t[r] - adv)
            for w, lat in x["writes"]:
                if start == NEG:
                    t.pop(w, None)       # overwritten by a value not from s
                else:
                    t[w] = start + lat
        for bi, b in enumerate(carried):
            if b in t:
                M[si][bi] = t[b]
    return max_cycle_mean(M, n), M, carried


def main():
    table = json.load(open(sys.argv[1]))
    loops = json.load(open(sys.argv[2]))
    m = Model(table)
    for k, v in sorted(loops.items()):
        r = m.estimate([x[2] for x in v["insns"]],
                       addrs=[(int(x[0], 16), len(x[1].split())) for x in v["insns"]])
        print("%-12s est %6.2f  issue %5.2f ports %5.2f deps %6.2f  Ct %6.2f Cl %6.1f  %s" % (
            k, r["est"], r["issue"], r["ports"], r["deps"], r["ct"], r["cl"], r["port_set"]))


if __name__ == "__main__":
    main()
