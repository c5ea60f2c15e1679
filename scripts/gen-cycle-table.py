#!/usr/bin/env python3
"""Generate callgrind/cycletab_amd64.h, the cost table of --cycle-estimation.

Where the numbers come from: LLVM's scheduling models, as llvm-mca reports
them (-instruction-info: latency and reciprocal throughput of one
instruction, in cycles).  Nothing is typed in by hand.

How: callgrind's decoder (callgrind/cycles.c) reduces an instruction to a
key: encoding (legacy, VEX, EVEX), opcode map, opcode, the 66/F3/F2
prefixes, REX.W/VEX.W, vector length, register or memory operand, the ModRM
reg field, for a few opcodes the ModRM rm field, EVEX broadcast and LOCK.
This script builds one instruction for every value of every key, lets
llvm-mc disassemble it (which also says which keys are real instructions)
and llvm-mca cost it on every CPU model.  A key field that never changes
the result for an opcode is marked insignificant for that opcode; the
decoder masks it out, so the table holds only the forms that differ.

Usage: gen-cycle-table.py [--llvm-suffix=-19] [-o FILE]
Needs Debian's llvm-19 (llvm-mc-19, llvm-mca-19).  Takes about a minute.
"""
import argparse
import collections
import itertools
import os
import re
import sys

from llvm_mca import costs, llvm_version, run, write_header

# CPU models: --cycle-model name -> llvm -mcpu.  The first is the default
# (AMD Zen 4, as CodSpeed's valgrind uses).  LLVM 19's Alder Lake P-core
# and Sapphire Rapids models are left out: llvm-mca never finishes on some
# of their instructions (aeskeygenassist, for one).
MODELS = [
    ("znver4", "znver4"),
    ("znver3", "znver3"),
    ("skylake", "skylake"),
    ("icelake-server", "icelake-server"),
]

ENC_LEGACY, ENC_VEX, ENC_EVEX = 0, 1, 2
ENC_NAMES = ["LEGACY", "VEX", "EVEX"]
# Opcode maps per encoding: legacy 0 = one byte, 1 = 0F, 2 = 0F38, 3 = 0F3A.
MAPS = {ENC_LEGACY: [0, 1, 2, 3], ENC_VEX: [1, 2, 3], ENC_EVEX: [1, 2, 3]}

# Legacy opcodes with a ModRM byte (the decoder has the same lists).
MODRM_MAP0 = set()
for row in range(0, 0x40, 8):
    MODRM_MAP0.update(range(row, row + 4))
MODRM_MAP0.update([0x62, 0x63, 0x69, 0x6B])
MODRM_MAP0.update(range(0x80, 0x90))
MODRM_MAP0.update([0xC0, 0xC1, 0xC4, 0xC5, 0xC6, 0xC7, 0xD0, 0xD1, 0xD2, 0xD3])
MODRM_MAP0.update(range(0xD8, 0xE0))
MODRM_MAP0.update([0xF6, 0xF7, 0xFE, 0xFF])
MODRM_MAP1 = set(range(0x100)) - set(
    [0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0E, 0x0F, 0x77, 0xA0, 0xA1,
     0xA2, 0xA8, 0xA9, 0xAA] + list(range(0x30, 0x38)) + list(range(0x80, 0x90)) +
    list(range(0xC8, 0xD0)) + [0x38, 0x3A])
# Opcodes whose register forms are told apart by ModRM.rm as well.
RM_OPCODES = {(ENC_LEGACY, 0, op) for op in range(0xD8, 0xE0)} | {
    (ENC_LEGACY, 1, op) for op in (0x00, 0x01, 0x1E, 0xAE, 0xC7)}

# Field order of a variant tuple; the same names are the F_* flags in C.
FIELDS = ["p66", "rep", "w", "l", "mem", "reg", "rm", "b", "lock"]
VVVV = 10  # VEX/EVEX extra source register: never equal to reg or rm,
           # so no zero idiom (vpxor x,x,x) is costed by accident.  An
           # instruction without that operand needs vvvv = 0 (all ones
           # encoded): both are tried, and the first valid one kept.
MARK = "[0x49 0xbf 0x88 0x77 0x66 0x55 0x44 0x33 0x22 0x11]"


def has_modrm(enc, mp, op):
    if enc == ENC_LEGACY:
        return op in MODRM_MAP0 if mp == 0 else op in MODRM_MAP1 if mp == 1 else True
    return not (enc == ENC_VEX and mp == 1 and op == 0x77)


def variants(enc, mp, op):
    """Every field combination the decoder can report for this opcode."""
    modrm = has_modrm(enc, mp, op)
    if enc == ENC_LEGACY and mp == 0 and op in (0x0F, 0x62, 0xC4, 0xC5):
        return  # escapes, decoded as other encodings
    if enc == ENC_LEGACY and mp == 1 and op in (0x38, 0x3A):
        return
    pfx = [(p, r) for p in (0, 1) for r in (0, 1, 2)] if enc == ENC_LEGACY else \
        [(0, 0), (1, 0), (0, 1), (0, 2)]
    lens = {ENC_LEGACY: (0,), ENC_VEX: (0, 1), ENC_EVEX: (0, 1, 2)}[enc]
    mems = (0, 1) if modrm else (0,)
    regs = range(8) if modrm else (0,)
    bs = (0, 1) if enc == ENC_EVEX else (0,)
    locks = (0, 1) if enc == ENC_LEGACY else (0,)
    for (p66, rep), w, l, mem, reg, b, lock in itertools.product(
            pfx, (0, 1), lens, mems, regs, bs, locks):
        if lock and not mem:
            continue
        if modrm and not mem and (enc, mp, op) in RM_OPCODES:
            rms = range(8)
        else:
            rms = (0,)
        for rm in rms:
            yield (p66, rep, w, l, mem, reg, rm, b, lock)


def encode(enc, mp, op, v, vvvv=VVVV):
    p66, rep, w, l, mem, reg, rm, b, lock = v
    out = []
    rmbits = rm if (enc, mp, op) in RM_OPCODES and not mem else 0 if mem else reg ^ 1
    modrm = ((0 if mem else 3) << 6) | (reg << 3) | rmbits
    if enc == ENC_LEGACY:
        out += [0xF0] * lock + [0x66] * p66 + {0: [], 1: [0xF3], 2: [0xF2]}[rep]
        out += [0x48] * w
        out += {0: [], 1: [0x0F], 2: [0x0F, 0x38], 3: [0x0F, 0x3A]}[mp]
    else:
        pp = 1 if p66 else {0: 0, 1: 2, 2: 3}[rep]
        nv = (~vvvv) & 0xF
        if enc == ENC_VEX:
            out += [0xC4, 0xE0 | mp, (w << 7) | (nv << 3) | (l << 2) | pp]
        else:
            out += [0x62, 0xF0 | mp, (w << 7) | (nv << 3) | 0x04 | pp,
                    (l << 5) | (b << 4) | 0x08]
    out.append(op)
    if has_modrm(enc, mp, op):
        out.append(modrm)
    # Immediates, displacements and anything unused decode as nops.
    return out + [0x90] * 8


def disassemble(llvm_mc, cands):
    """Text of each candidate's first instruction, or None when invalid."""
    lines = []
    for _, _, _, _, code in cands:
        lines.append("[" + " ".join("0x%02x" % x for x in code) + "]")
        lines.append(MARK)
    p = run([llvm_mc, "--disassemble", "-triple=x86_64"], "\n".join(lines) + "\n")
    bad = set()
    for m in re.finditer(r":(\d+):\d+: warning: invalid instruction encoding", p.stderr):
        bad.add((int(m.group(1)) - 1) // 2)
    texts = []
    cur = []
    groups = []
    for line in p.stdout.splitlines():
        s = line.strip()
        if not s or s.startswith("."):
            continue
        s = re.sub(r"\s*#.*$", "", s)
        s = re.sub(r"\s+", " ", s)
        if s == "movabsq $1234605616436508552, %r15":
            groups.append(cur)
            cur = []
        else:
            cur.append(s)
    good = iter(groups)
    for i in range(len(cands)):
        if i in bad:
            texts.append(None)
            next(good)  # an invalid candidate still has its marker
        else:
            g = next(good)
            texts.append(g[0] if g else None)
    return texts


def mnemonic(text):
    words = text.split(" ")
    pre = []
    while words and words[0] in ("lock", "rep", "repne", "repe", "notrack", "data16",
                                 "rex64", "{vex}", "{evex}"):
        pre.append(words.pop(0))
    return " ".join(pre + words[:1])


def significant(results, nfields):
    """Fields whose value changes some result (None = invalid, matches all)."""
    sig = []
    keys = list(results)
    for f in range(nfields):
        groups = collections.defaultdict(set)
        for v in keys:
            r = results[v]
            if r is None:
                continue
            groups[v[:f] + v[f + 1:]].add(r)
        sig.append(any(len(s) > 1 for s in groups.values()))
    return sig


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llvm-suffix", default="-19")
    # the tree where the series is edited (commit the result there)
    ap.add_argument("-o", "--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "valgrind", "callgrind",
        "cycletab_amd64.h"))
    args = ap.parse_args()
    llvm_mc = "llvm-mc" + args.llvm_suffix
    llvm_mca = "llvm-mca" + args.llvm_suffix
    version = llvm_version(llvm_mca)

    cands = []
    for enc in (ENC_LEGACY, ENC_VEX, ENC_EVEX):
        for mp in MAPS[enc]:
            for op in range(256):
                for v in variants(enc, mp, op):
                    cands.append((enc, mp, op, v, encode(enc, mp, op, v)))
    texts = disassemble(llvm_mc, cands)
    # VEX and EVEX forms that reject a vvvv register: again with vvvv unused.
    retry = [i for i, (c, t) in enumerate(zip(cands, texts)) if t is None and c[0] != ENC_LEGACY]
    again = disassemble(llvm_mc, [cands[i][:4] + (encode(*cands[i][:4], vvvv=0),)
                                  for i in retry])
    for i, t in zip(retry, again):
        texts[i] = t
    unique = sorted({t for t in texts if t is not None})
    if os.environ.get("CYC_DUMP_TEXTS"):
        with open(os.environ["CYC_DUMP_TEXTS"], "w") as f:
            f.write("\n".join(unique) + "\n")
    print("gen-cycle-table: %d encodings, %d instructions to cost" % (len(cands), len(unique)), file=sys.stderr)
    per_model = [costs(llvm_mca, mcpu, unique) for _, mcpu in MODELS]

    by_opcode = collections.defaultdict(dict)
    for (enc, mp, op, v, _), t in zip(cands, texts):
        if t is None:
            by_opcode[(enc, mp, op)][v] = None
            continue
        c = tuple(m.get(t) for m in per_model)
        known = all(x is not None for x in c)
        # An instruction without cost data is told apart by its name.
        by_opcode[(enc, mp, op)][v] = (c, None) if known else (None, mnemonic(t))
        by_opcode[(enc, mp, op)].setdefault(("name", v), mnemonic(t))

    names = {}
    entries = {}
    opflags = {}
    for (enc, mp, op), res in sorted(by_opcode.items()):
        results = {v: r for v, r in res.items() if v[0] != "name"}
        if all(r is None for r in results.values()):
            continue
        sig = significant(results, len(FIELDS))
        opflags[(enc, mp, op)] = sig
        for v in sorted(results):
            r = results[v]
            if r is None:
                continue
            key = (enc, mp, op) + tuple(x if s else 0 for x, s in zip(v, sig))
            if key in entries:
                continue  # the first (lowest) variant speaks for the form
            name = res[("name", v)]
            names.setdefault(name, len(names))
            entries[key] = (r[0], names[name])

    write(args.output, version, entries, names, opflags, len(cands), len(unique))


def write(path, version, entries, names, opflags, ncands, nunique):
    with open(path, "w") as f:
        write_header(f, "gen-cycle-table.py", version,
                     "%d encodings tried, %d distinct instructions costed, %d forms kept"
                     % (ncands, nunique, len(entries)), MODELS, names)
        f.write("/* Key fields that matter, per encoding, map and opcode (F_*). */\n")
        f.write("static const UShort cyc_opcode_fields[3][4][256] = {\n")
        for enc in range(3):
            f.write("   [%d] = {\n" % enc)
            for mp in range(4):
                ops = [(op, opflags[(enc, mp, op)]) for op in range(256)
                       if (enc, mp, op) in opflags]
                if not ops:
                    continue
                f.write("      [%d] = {\n" % mp)
                for op, sig in ops:
                    flags = "|".join("F_" + n.upper() for n, s in zip(FIELDS, sig) if s)
                    f.write("         [0x%02x] = F_VALID%s,\n" % (op, "|" + flags if flags else ""))
                f.write("      },\n")
            f.write("   },\n")
        f.write("};\n\n")
        f.write("/* Sorted by key: CYC_KEY(enc,map,opcode,%s). */\n" % ",".join(FIELDS))
        f.write("static const CycEntry cyc_table[%d] = {\n" % len(entries))
        rows = []
        for key, (c, name) in entries.items():
            cost = ", ".join("{%d,%d}" % x if x else "{CYC_NONE,CYC_NONE}"
                             for x in (c or [None] * len(MODELS)))
            rows.append((key, "   { CYC_KEY(%s), %d, { %s } },\n"
                         % (",".join(str(x) for x in key), name, cost)))
        # Sort as the decoder's packed key sorts (see CYC_KEY in cycles.c).
        rows.sort(key=lambda r: pack(r[0]))
        f.writelines(r for _, r in rows)
        f.write("};\n")


def pack(k):
    """Python twin of CYC_KEY in callgrind/cycles.c (for sorting only)."""
    enc, mp, op, p66, rep, w, l, mem, reg, rm, b, lock = k
    return (enc << 30 | mp << 27 | op << 19 | p66 << 18 | rep << 16 | w << 15 |
            l << 13 | mem << 12 | reg << 9 | rm << 6 | b << 5 | lock << 4)


if __name__ == "__main__":
    main()
