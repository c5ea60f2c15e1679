#!/usr/bin/env python3
"""Exact per-opcode scheduling data of one LLVM 19 model, read from the
tables llvm-tblgen-19 generates from the model's .td files (the same
tables llvm-mca and LLVM's schedulers use):

  X86GenSubtargetInfo.inc (-gen-subtarget):
    <Model>ProcResources[]        {Name, NumUnits, SuperIdx, BufferSize, SubUnits}
    <Model>ProcResourceSubUnits[] the member units of each group
    <Model>SchedClasses[]         {NumMicroOps, .., WriteProcResIdx, N,
                                   WriteLatencyIdx, N, ReadAdvanceIdx, N}
    X86WriteProcResTable[]        {ProcResourceIdx, ReleaseAtCycle, AcquireAtCycle}
    X86WriteLatencyTable[]        {Cycles, WriteResourceID}: one per def
    X86ReadAdvanceTable[]         {UseIdx, WriteResourceID, Cycles}
    <Model> = {IssueWidth, MicroOpBufferSize, LoopMicroOpBufferSize, LoadLatency, ..}
  X86GenInstrInfo.inc (-gen-instr-info):
    X86Descs                      per opcode {.., NumOperands, NumDefs, Size,
                                  SchedClass, NumImplicitUses, NumImplicitDefs,
                                  ImplicitOps offset, ..} // Inst #N = NAME
    ImplicitOps                   the implicit uses then defs (RAX, EFLAGS, ..)

Make the .inc files with (sources: fetch-llvm-src.sh):
  llvm-tblgen-19 -gen-subtarget  -I include -I lib/Target/X86 lib/Target/X86/X86.td
  llvm-tblgen-19 -gen-instr-info -I include -I lib/Target/X86 lib/Target/X86/X86.td

Sched classes whose NumMicroOps is VariantNumMicroOps (8190) are resolved
by C++ predicates at run time (resolveVariantSchedClassImpl: zero idioms,
register-equality tests, ...); they are marked "variant" here and the
prototype takes llvm-mca's resolved figures for them.

Usage: tblgen_table.py [--target=X86|AArch64] GEN_DIR MODEL [TEXTS_FILE] > json
       tblgen_table.py --as-gen-table TBLGEN_FORMS.json GEN_TABLE.json > json
  MODEL as named in the .inc (SapphireRapidsModel, IceLakeModel, ...).
  With TEXTS_FILE, the output is per instruction text (llvm-mc-19
  -show-inst names each text's opcode and operands); else per opcode."""
import json
import re
import subprocess
import sys

VARIANT = 8190
TARGET = "X86"      # or AArch64 (--target)


def c_array(src, name):
    """Body text of 'NAME[] = { ... };'."""
    m = re.search(re.escape(name) + r"\[\] = \{\n(.*?)\n\};", src, re.S)
    if not m:
        sys.exit("tblgen_table: no %s" % name)
    return m.group(1)


def rows(body):
    """The {..} rows of an array body, as lists of field strings."""
    out = []
    for line in body.splitlines():
        line = re.sub(r"//.*$", "", line).strip()
        m = re.match(r"^\{(.*)\},?$", line)
        if m:
            f = re.sub(r"DBGFIELD\([^)]*\)", "", m.group(1))
            out.append([x.strip() for x in f.split(",")])
    return out


def load_model(gen, model):
    sub = open(gen + "/%sGenSubtargetInfo.inc" % TARGET).read()
    units = []
    for r in rows(c_array(sub, model + "ProcResources")):
        units.append(r)
    subunits = [int(x) for x in re.findall(r"\d+", re.sub(r"//.*", "",
                c_array(sub, model + "ProcResourceSubUnits")))]
    names = [re.sub(r'"', "", u[0]) for u in units]
    members = []
    for i, u in enumerate(units):
        m = re.search(r"SubUnits \+ (\d+)", u[4]) if len(u) > 4 else None
        n = int(u[1]) if i else 0
        if m and n:
            members.append([names[k] for k in subunits[int(m.group(1)):int(m.group(1)) + n]])
        else:
            members.append([names[i]] if i else [])
    classes = [[int(x) if re.match(r"^-?\d+$", x) else x for x in r]
               for r in rows(c_array(sub, model + "SchedClasses"))]
    wpr = [[int(x) for x in r] for r in rows(c_array(sub, TARGET + "WriteProcResTable"))]
    wl = [[int(x) for x in r] for r in rows(c_array(sub, TARGET + "WriteLatencyTable"))]
    ra = [[int(x) for x in r] for r in rows(c_array(sub, TARGET + "ReadAdvanceTable"))]
    m = re.search(r"MCSchedModel " + re.escape(model) + r" = \{\n(.*?)\n\};", sub, re.S)
    params = {}
    for line in m.group(1).splitlines():
        mm = re.match(r"\s*(\S+?),\s*// (\w+)", line)
        if mm:
            params[mm.group(2)] = mm.group(1)
    return {"names": names, "members": members, "classes": classes, "wpr": wpr,
            "wl": wl, "ra": ra, "params": params}


def load_instrs(gen):
    src = open(gen + "/%sGenInstrInfo.inc" % TARGET).read()
    instrs = {}
    for m in re.finditer(r"\{ (\d+),\t(\d+),\t(\d+),\t(\d+),\t(\d+),\t(\d+),\t(\d+),\t" +
                         TARGET + r"ImpOpBase \+ (\d+),.*?// Inst #\d+ = (\w+)", src):
        op, nops, ndefs, size, sc, nimpu, nimpd, imp, name = m.groups()
        instrs[name] = {"nops": int(nops), "ndefs": int(ndefs), "sc": int(sc),
                        "nimpu": int(nimpu), "nimpd": int(nimpd), "imp": int(imp)}
    # the implicit operand list: /* N */ X86::A, X86::B, ...
    imp = {}
    ns = TARGET + "::"
    for m in re.finditer(r"/\* (\d+) \*/ ((?:" + ns + r"\w+,\s*)+)", src):
        regs = re.findall(ns + r"(\w+)", m.group(2))
        base = int(m.group(1))
        for k, r in enumerate(regs):
            imp[base + k] = r
    return instrs, imp


def sched(model, sc):
    c = model["classes"][sc]
    uops, wpi, nwp, wli, nwl, rai, nra = c[0], c[4], c[5], c[6], c[7], c[8], c[9]
    res = []
    for e in model["wpr"][wpi:wpi + nwp]:
        idx, release, acquire = e
        res.append({"resource": model["names"][idx], "ports": model["members"][idx],
                    "cycles": release - acquire})
    return {"class": c[1] if isinstance(c[1], str) else sc, "uops": uops,
            "variant": uops == VARIANT,
            "def_lat": [e[0] for e in model["wl"][wli:wli + nwl]],
            "read_advance": [{"use": e[0], "write_id": e[1], "cycles": e[2]}
                             for e in model["ra"][rai:rai + nra]],
            "res": res}


def declared(res):
    """Undo tblgen's expansion: a write that uses a unit is also listed on
    every group containing it, with the same cycles (so the scheduler can
    count group occupancy).  Going from small sets to large, a set's
    cycles minus those of the kept sets inside it is what the model
    declared for it."""
    kept = []
    for r in sorted(res, key=lambda r: (len(r["ports"]), r["resource"])):
        inside = sum(k["cycles"] for k in kept if set(k["ports"]) < set(r["ports"]))
        c = r["cycles"] - inside
        if c > 0:
            kept.append(dict(r, cycles=c))
    return kept


def opcode_record(model, instrs, imp, name):
    d = instrs[name]
    s = sched(model, d["sc"])
    s["opcode"] = name
    s["res_declared"] = declared(s["res"])
    s["explicit_defs"] = d["ndefs"]
    s["implicit_uses"] = [imp.get(d["imp"] + k) for k in range(d["nimpu"])]
    s["implicit_defs"] = [imp.get(d["imp"] + d["nimpu"] + k) for k in range(d["nimpd"])]
    return s


def show_inst(texts):
    """llvm-mc-19 -show-inst: (opcode name, operand strings) per text (the
    last MCInst of a text that prints as several, e.g. a lone prefix),
    None for a text llvm-mc rejects.  A marker instruction after each
    text keeps them apart."""
    x86 = TARGET == "X86"
    mark = "movabsq $1234605616436508552, %r15" if x86 else "movk x15, #0x1122, lsl #48"
    mark_inst = ("MOV64ri", "Imm:1234605616436508552") if x86 else ("MOVKXi", "Imm:48")
    p = subprocess.run(["llvm-mc-19", "-triple=" + ("x86_64" if x86 else "aarch64"),
                        "-show-inst"] + ([] if x86 else ["-mattr=+all"]),
                       input="".join(t + "\n" + mark + "\n" for t in texts),
                       capture_output=True, text=True)
    insts, cur = [], None
    for line in p.stdout.splitlines():
        m = re.search(r"<MCInst #\d+ (\w+)", line)
        if m:
            cur = [m.group(1), []]
            insts.append(cur)
        m = re.search(r"<MCOperand (\w+):(-?\w+)>", line)
        if m and cur is not None:
            cur[1].append("%s:%s" % (m.group(1), m.group(2)))
    out, group = [], []
    for g in insts:
        if g[0] == mark_inst[0] and g[1] and g[1][-1] == mark_inst[1]:
            out.append(group[-1] if group else None)
            group = []
        else:
            group.append(g)
    return out


def as_gen_table(head, gt):
    """gen_table.py's JSON with uops, latency, ReadAdvance and port sets
    taken from the tblgen tables (llvm-mca's figures kept where the class
    is a variant, and rthr, the probes' dep_break kept as they were)."""
    ports = gt["ports"]
    pidx = {p: i for i, p in enumerate(ports)}
    # ports gen_table.py appended (--borrow-divider) are not the model's
    head_ports = [p for p in ports if "(" not in p]
    out = dict(gt)
    out["source"] = "tblgen " + head["model"] + " (variants: llvm-mca)"
    out["forms"] = {}
    nvar = 0
    for t, f in gt["forms"].items():
        g = head["forms"].get(t)
        f = dict(f)
        if g and not g["variant"]:
            f["uops"] = g["uops"]
            f["lat"] = max(g["def_lat"]) if g["def_lat"] else 0
            borrowed = [r for r in f["res"] if any(p >= len(head_ports) for p in r[0])]
            f["res"] = [[sorted(pidx[p] for p in r["ports"]), r["cycles"]]
                        for r in g["res_declared"] if all(p in pidx for p in r["ports"])] + borrowed
            ra = [r["cycles"] for r in g["read_advance"] if r["use"] == 0]
            f["ra"] = ra[0] if (ra and f.get("load")) else None
            f["tblgen"] = g["opcode"]
        else:
            nvar += 1
        out["forms"][t] = f
    out["variant_forms"] = nvar
    return out


def main():
    if sys.argv[1] == "--as-gen-table":
        head = json.load(open(sys.argv[2]))
        gt = json.load(open(sys.argv[3]))
        json.dump(as_gen_table(head, gt), sys.stdout, indent=1, sort_keys=True)
        return
    global TARGET
    if sys.argv[1].startswith("--target="):
        TARGET = sys.argv.pop(1).split("=", 1)[1]
    gen, modelname = sys.argv[1], sys.argv[2]
    model = load_model(gen, modelname)
    instrs, imp = load_instrs(gen)
    head = {"model": modelname, "issue_width": int(model["params"].get("IssueWidth", 0)),
            "load_latency": int(model["params"].get("LoadLatency", 0)),
            "params": model["params"],
            "groups": {n: m for n, m in zip(model["names"], model["members"]) if len(m) > 1}}
    if len(sys.argv) > 3:
        from gen_table import normalise
        texts = sorted({normalise(l.rstrip("\n")) if TARGET == "X86" else l.strip()
                        for l in open(sys.argv[3]) if l.strip()})
        insts = show_inst(texts)
        if len(insts) != len(texts):
            sys.exit("tblgen_table: llvm-mc named %d of %d texts" % (len(insts), len(texts)))
        forms = {}
        for t, inst in zip(texts, insts):
            if inst is None:
                continue
            name, ops = inst
            r = opcode_record(model, instrs, imp, name)
            r["operands"] = ops
            forms[t] = r
        head["forms"] = forms
    else:
        head["opcodes"] = {n: opcode_record(model, instrs, imp, n) for n in sorted(instrs)}
    json.dump(head, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
