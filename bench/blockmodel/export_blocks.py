#!/usr/bin/env python3
"""Write the kernels' lowered blocks (model.py: Model.lower) as the flat
integer records a C implementation would build at translation time, with
the figure model.py computes for each (centi-cycles, spread.py's
rounding), for blockcore.c to recompute and time.
Format, one block per record:
  block NAME NINSNS ISSUE_WIDTH TAKEN FUSED TAKEN_BRANCH_CENTI EXPECTED_CENTI
  i UOPS NRES {MASK CENTI}* NREADS {RID ADV_CENTI}* NWRITES {RID LAT_CENTI}*
Usage: export_blocks.py loops.json table.json > blocks.txt"""
import json, sys
from model import Model
from spread import centi

def main():
    loops = json.load(open(sys.argv[1]))
    m = Model(json.load(open(sys.argv[2])))
    for k, v in sorted(loops.items()):
        texts = [x[2] for x in v["insns"]]
        addrs = [(int(x[0], 16), len(x[1].split())) for x in v["insns"]]
        low = m.lower(texts, True, addrs)
        est = m.bounds(low)["est"]
        rid = {}
        def r(name):
            return rid.setdefault(name, len(rid))
        lines = []
        for x in low["insns"]:
            f = [x["uops"], len(x["res"])]
            for ports, c in x["res"]:
                f += [sum(1 << p for p in ports), round(c * 100)]
            f.append(len(x["reads"]))
            for name, adv in x["reads"]:
                f += [r(name), round(adv * 100)]
            f.append(len(x["writes"]))
            for name, lat in x["writes"]:
                f += [r(name), round(lat * 100)]
            lines.append("i " + " ".join(map(str, f)))
        assert len(rid) <= 64
        print("block %s %d %d %d %d %d %d" % (k, len(lines), low["iw"], low["taken"], low["fused"],
                                            round(low["taken_branch"] * 100), centi(est)))
        print("\n".join(lines))

if __name__ == "__main__":
    main()
