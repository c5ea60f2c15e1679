#!/usr/bin/env python3
"""Median, min and max ns per iteration of every kernel over the rounds of
one or more bench outputs, and cycles per iteration scaled by the imul
chain (4 dependent 64-bit imuls = 12 cycles per iteration: imul r64,r64 has
latency 3 on every Intel core since Nehalem; that calibrates the clock the
kernels actually ran at, turbo included).  Each round is scaled by its own
calibration (paired).  Output JSON on stdout, a table on stderr.
Usage: summarize_native.py run1.txt [run2.txt ...] > native.json"""
import collections, json, statistics, sys

CAL, CAL_CYCLES = "imul_dep4", 12.0

def main():
    runs = collections.defaultdict(dict)   # (file, round) -> kernel -> ns/iter
    for fn in sys.argv[1:]:
        for line in open(fn):
            r, k, n, t, per = line.split()
            runs[(fn, int(r))][k] = float(per)
    ns = collections.defaultdict(list)
    cyc = collections.defaultdict(list)
    for key, ks in runs.items():
        if CAL not in ks:
            continue
        ghz = CAL_CYCLES / ks[CAL]
        for k, v in ks.items():
            ns[k].append(v)
            cyc[k].append(v * ghz)
    out = {}
    for k in sorted(ns):
        c = sorted(cyc[k])
        q = lambda p: c[min(len(c) - 1, int(round(p * (len(c) - 1))))]
        out[k] = {"ns_median": statistics.median(ns[k]), "ns_min": min(ns[k]),
                  "cyc_p10": q(0.1), "cyc_p90": q(0.9),
                  "ns_max": max(ns[k]), "cyc_median": statistics.median(c),
                  "cyc_min": c[0], "cyc_max": c[-1], "rounds": len(c)}
    ghz = [CAL_CYCLES / ks[CAL] for ks in runs.values() if CAL in ks]
    out["_clock_ghz"] = {"median": statistics.median(ghz), "min": min(ghz), "max": max(ghz)}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print("clock (from %s): median %.2f GHz, range %.2f-%.2f" %
          (CAL, statistics.median(ghz), min(ghz), max(ghz)), file=sys.stderr)
    for k in sorted(ns):
        o = out[k]
        print("%-12s %8.3f ns  cyc %7.2f  p10-p90 [%6.2f..%6.2f]  min-max [%6.2f..%6.2f]" % (
              k, o["ns_median"], o["cyc_median"], o["cyc_p10"], o["cyc_p90"], o["cyc_min"],
              o["cyc_max"]), file=sys.stderr)

if __name__ == "__main__":
    main()
