#!/usr/bin/env python3
"""Generate callgrind/cycletab_arm64.h, the arm64 cost table of
--cycle-estimation.

Where the numbers come from: LLVM's AArch64 scheduling models, as llvm-mca
reports them (-instruction-info: latency and reciprocal throughput of one
instruction, in cycles), as for amd64 (gen-cycle-table.py).

How: an A64 instruction is one 32-bit word.  Its top 11 bits (31:21) name
a class; within a class, some of the low 21 bits select the instruction
(opcode bits) and the rest are registers and immediates.  For every class
this script finds the low bits that select a different LLVM opcode
(llvm-mc -show-inst) when flipped, from random words first, then from every
combination of the bits found so far (in the classes where the first round
found any), until two rounds find nothing new.
callgrind's decoder keeps those bits and clears the others: the key.  Then
every key is built with its other bits set to distinct registers and zero
shifts (other fills when that is not an instruction), disassembled, and
costed by llvm-mca on every CPU model.  Keys in sorted order that cost the
same on every model are one row: the decoder takes the last row at or below
its key.  Keys no fill makes valid are no instructions and join the row
before them.  SVE and SME are left out: Valgrind does not run them.

The random choices use a fixed seed: the output is the same at every run.

Usage: gen-cycle-table-arm64.py [--llvm-suffix=-19] [-o FILE]
Needs Debian's llvm-19 (llvm-mc-19, llvm-mca-19).  Takes about a minute.
"""
import argparse
import os
import random
import re
import sys

from llvm_mca import costs, llvm_version, run, write_header

# CPU models: --cycle-model name -> llvm -mcpu.  The first is the default:
# Neoverse N2 is the core of GitHub's hosted arm64 runners (Azure Cobalt
# 100), where most arm64 benchmark CI runs; V2 is AWS Graviton4, N1
# Graviton2 and Ampere Altra; Cortex-A72 is what CodSpeed's arm64 table
# models (and Graviton1, Raspberry Pi 4).
MODELS = [
    ("neoverse-n2", "neoverse-n2"),
    ("neoverse-v2", "neoverse-v2"),
    ("neoverse-n1", "neoverse-n1"),
    ("cortex-a72", "cortex-a72"),
]
LOW_BITS = 21
LOW_MASK = (1 << LOW_BITS) - 1
EXHAUSTIVE = 14      # classes with at most this many opcode bits: all combinations
SAMPLES = 128        # words tried per class and round, at least
FILLS = 4            # fills tried per key (PLAIN first)
# Rd/Rt x1, Rn x2, Rm x3, Ra/Rt2 x0, shift amounts zero: distinct registers
# (llvm-mca refuses a load that writes back into its own destination) and
# the plainest immediates.
PLAIN = 3 << 16 | 2 << 5 | 1


def skipped(cls):
    """SVE (op0 = 0010) and SME (bit 31 set, op0 = 0000)."""
    op0 = (cls >> 4) & 0xF
    return op0 == 0b0010 or (op0 == 0 and cls >> 10)


def disassemble(llvm_mc, words):
    """(text, LLVM opcode) of each word, or None when it is no instruction."""
    out = []
    for i in range(0, len(words), 400000):
        out += disassemble_chunk(llvm_mc, words[i:i + 400000])
    return out


def disassemble_chunk(llvm_mc, words):
    src = "".join("0x%02x 0x%02x 0x%02x 0x%02x\n" % (w & 255, (w >> 8) & 255,
                                                     (w >> 16) & 255, w >> 24)
                  for w in words)
    p = run([llvm_mc, "--disassemble", "-triple=aarch64", "-mattr=+all", "-show-inst"], src)
    bad = {int(m.group(1)) - 1
           for m in re.finditer(r":(\d+):\d+: warning: invalid instruction encoding", p.stderr)}
    insts = []
    for line in p.stdout.splitlines():
        at = line.find("// <MCInst #")
        if at >= 0:
            insts.append((" ".join(line[:at].split()), line[at:].split()[2]))
    found = iter(insts)
    out = []
    for i in range(len(words)):
        if i in bad:
            out.append(None)
        else:
            text, opcode = next(found)
            out.append((text, opcode))
    return out


def with_bits(bits, value, fill):
    """fill with the bits (positions) set from value's low bits."""
    for i, k in enumerate(bits):
        if value >> i & 1:
            fill |= 1 << k
        else:
            fill &= ~(1 << k)
    return fill


def combos(bits, rng):
    n = len(bits)
    if n <= EXHAUSTIVE:
        return range(1 << n)
    return [rng.getrandbits(n) for _ in range(1 << EXHAUSTIVE)]


def opcode_bits(llvm_mc, classes, rng):
    """{class: mask of the low bits that select the LLVM opcode}."""
    fields = {c: 0 for c in classes}
    quiet = 0
    rounds = 0
    while quiet < 2:
        words, meta = [], []
        for c in classes:
            m = fields[c]
            if rounds and not m:
                continue    # one opcode (or none) in every word the first round tried
            bits = [k for k in range(LOW_BITS) if m >> k & 1]
            # Some bits select an opcode only for some values of others:
            # every combination found so far, each with several fills.
            fills = max(1, SAMPLES >> len(bits))
            bases = [with_bits(bits, v, rng.getrandbits(LOW_BITS))
                     for v in combos(bits, rng) for _ in range(fills)]
            for b in bases:
                w = c << LOW_BITS | b
                words.append(w)
                meta.append((c, -1))
                for k in range(LOW_BITS):
                    if not m >> k & 1:
                        words.append(w ^ 1 << k)
                        meta.append((c, k))
        new = 0
        base = None
        for (c, k), r in zip(meta, disassemble(llvm_mc, words)):
            if k < 0:
                base = r
            elif base and r and r[1] != base[1] and not fields[c] >> k & 1:
                fields[c] |= 1 << k
                new += 1
        quiet = quiet + 1 if new == 0 else 0
        rounds += 1
        print("gen-cycle-table-arm64: round %d: %d words, %d new opcode bits"
              % (rounds, len(words), new), file=sys.stderr)
    return fields


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llvm-suffix", default="-19")
    # the tree where the series is edited (commit the result there)
    ap.add_argument("-o", "--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "valgrind", "callgrind",
        "cycletab_arm64.h"))
    args = ap.parse_args()
    llvm_mc = "llvm-mc" + args.llvm_suffix
    llvm_mca = "llvm-mca" + args.llvm_suffix
    rng = random.Random(64)

    classes = [c for c in range(1 << (32 - LOW_BITS)) if not skipped(c)]
    fields = opcode_bits(llvm_mc, classes, rng)

    # Every key, built with each fill until one is an instruction.
    keys = []
    for c in classes:
        bits = [k for k in range(LOW_BITS) if fields[c] >> k & 1]
        keys += [c << LOW_BITS | with_bits(bits, v, 0) for v in range(1 << len(bits))]
    fills = [PLAIN, 0] + [rng.getrandbits(LOW_BITS) for _ in range(FILLS - 2)]
    found = {}
    todo = keys
    for fill in fills:
        words = [k | (fill & ~fields[k >> LOW_BITS] & LOW_MASK) for k in todo]
        for k, r in zip(todo, disassemble(llvm_mc, words)):
            if r:
                found[k] = r
        todo = [k for k in todo if k not in found]
    texts = sorted({t for t, _ in found.values()})
    print("gen-cycle-table-arm64: %d classes, %d keys, %d instructions to cost"
          % (len(classes), len(keys), len(texts)), file=sys.stderr)
    per_model = [costs(llvm_mca, mcpu, texts, "aarch64", "+all") for _, mcpu in MODELS]

    # Rows: runs of keys with the same costs; a row some model has no
    # costs for keeps the instruction's name for the report at exit.
    rows = []
    names = {}
    for k in sorted(found):
        text = found[k][0]
        c = tuple(m.get(text) for m in per_model)
        name = None
        if not all(c):
            name = names.setdefault(text.split(" ")[0], len(names))
        if rows and rows[-1][1:] == (c, name):
            continue
        rows.append((k, c, name))
    write(args.output, llvm_version(llvm_mca), fields, rows, names, len(keys), len(texts))


def write(path, version, fields, rows, names, nkeys, ntexts):
    with open(path, "w") as f:
        write_header(f, "gen-cycle-table-arm64.py", version,
                     "%d keys, %d distinct instructions costed, %d rows"
                     % (nkeys, ntexts, len(rows)), MODELS, names)
        f.write("/* Per class (instruction bits 31:21): the bits of 20:0 that\n"
                "   select the instruction. */\n")
        f.write("static const UInt cyc_class_fields[%d] = {\n" % (1 << (32 - LOW_BITS)))
        for c in range(0, 1 << (32 - LOW_BITS), 8):
            f.write("  " + "".join(" 0x%06x," % fields.get(c + i, 0) for i in range(8)) + "\n")
        f.write("};\n\n")
        f.write("/* Sorted by key; a row holds from its key to the next row's. */\n")
        f.write("static const CycEntry cyc_table[%d] = {\n" % len(rows))
        for key, c, name in rows:
            cost = ", ".join("{%d,%d}" % x if x else "{CYC_NONE,CYC_NONE}" for x in c)
            f.write("   { 0x%08x, %d, { %s } },\n" % (key, name or 0, cost))
        f.write("};\n")


if __name__ == "__main__":
    main()
