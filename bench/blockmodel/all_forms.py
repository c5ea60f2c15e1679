#!/usr/bin/env python3
"""Every instruction text callgrind's amd64 decoder can key (the candidate
list of build/valgrind/callgrind/gen-cycle-table.py, read-only: its own
functions make the encodings and let llvm-mc-19 name them), then
gen_table.tables() on all of them for one model, to see whether
llvm-mca's --instruction-tables covers the whole decoder space without
the simulation stalls that keep sapphirerapids out of cycletab_amd64.h.
Usage: all_forms.py [--mcpu sapphirerapids] > all_forms_spr.json"""
import importlib.util, json, os, sys, time
CALLGRIND = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build",
                         "valgrind", "callgrind")
sys.path.insert(0, CALLGRIND)
spec = importlib.util.spec_from_file_location(
    "gct", os.path.join(CALLGRIND, "gen-cycle-table.py"))
gct = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gct)
import gen_table

mcpu = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--mcpu" else "sapphirerapids"
t0 = time.time()
cands = []
for enc in (gct.ENC_LEGACY, gct.ENC_VEX, gct.ENC_EVEX):
    for mp in gct.MAPS[enc]:
        for op in range(256):
            for v in gct.variants(enc, mp, op):
                cands.append((enc, mp, op, v, gct.encode(enc, mp, op, v)))
texts = gct.disassemble("llvm-mc-19", cands)
retry = [i for i, (c, t) in enumerate(zip(cands, texts)) if t is None and c[0] != gct.ENC_LEGACY]
again = gct.disassemble("llvm-mc-19", [cands[i][:4] + (gct.encode(*cands[i][:4], vvvv=0),)
                                      for i in retry])
for i, t in zip(retry, again):
    texts[i] = t
unique = sorted({t for t in texts if t is not None})
print("%d encodings, %d texts, %.0f s" % (len(cands), len(unique), time.time() - t0), file=sys.stderr)
out = {}
for i in range(0, len(unique), 2000):
    chunk = unique[i:i + 2000]
    ports, rows = gen_table.tables(mcpu, chunk)
    out.update(zip(chunk, rows))
    print("%d/%d %.0f s" % (i + len(chunk), len(unique), time.time() - t0), file=sys.stderr)
skipped = sum(1 for r in out.values() if r is None)
known = sum(1 for r in out.values() if r is not None)
print("%d skipped by llvm-mca (no scheduling data)" % skipped, file=sys.stderr)
print("%d forms, %d with data, %.0f s" % (len(out), known, time.time() - t0), file=sys.stderr)
json.dump({"mcpu": mcpu, "ports": ports, "forms": out}, sys.stdout, sort_keys=True)
