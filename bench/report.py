"""Statistics and markdown for bench/run.sh.

Usage: report.py META ROWS RAW [FOLDRAW]
  META     key=value lines (date, host, versions, ...)
  ROWS     row id, workload, config, events check, stock opts, patched opts
  RAW      row id, build S|P, pass warm|run, index, wall s, max RSS KB,
           totals line, exit status, CPU s
  FOLDRAW  (optional, may be missing) bench/fold.sh's measurements
Writes markdown on stdout.  Exit status 1 if a row marked "same" did not
count the same events in every run of both builds (or a run failed)."""
import os
import statistics
import sys


def read_tsv(path):
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def read_meta(path):
    """key=value lines (run.sh's META) as a dict."""
    meta = {}
    with open(path) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                meta[k] = v
    return meta


def fmt_ratio(x):
    return f"{x:.3f}"


def fmt_mb(kb_values):
    kb = [k for k in kb_values if k > 0]
    return f"{statistics.median(kb) / 1024:.1f}" if kb else "?"


def code(s):
    return f"`{s}`" if s else "—"


def main():
    meta_path, rows_path, raw_path = sys.argv[1:4]
    fold_path = sys.argv[4] if len(sys.argv) > 4 else None
    meta = read_meta(meta_path)
    rows = read_tsv(rows_path)
    raw = read_tsv(raw_path)
    bad = False
    out = []
    w = out.append

    w("# callgrind-fold benchmarks")
    w("")
    w(f"- date: {meta.get('date', '?')}, host: `{meta.get('host', '?')}`, "
      f"{meta.get('cpu', '?')}")
    w(f"- load average at start: {meta.get('load_start', '?')}, "
      f"at end: {meta.get('load_end', '?')}")
    w(f"- stock: `{meta.get('stock', '?')}`")
    w(f"- patched: `{meta.get('patched', '?')}` (commit {meta.get('commit', '?')})")
    w(f"- {meta.get('runs', '?')} measured runs of each build per row, "
      f"alternating stock, patched, stock, ... after "
      f"{meta.get('warmup', '?')} warm-up round(s); "
      f"python: `{meta.get('python', '?')}`")
    w("- **ratio** = patched wall time / stock wall time of the same round: "
      "median, min and max over the rounds (below 1: patched is faster). "
      "Wall times are medians, peak memory is the median maximum RSS of the "
      "valgrind process. **CPU ratio**: the same ratio for user + system "
      "CPU time (less sensitive to other load on the machine). "
      "**same events**: the `totals:` line of every "
      "callgrind.out is identical for stock and patched (`-`: not checked).")
    if meta.get("tools_start") != meta.get("tools_end"):
        w("- **warning: a callgrind build was reinstalled during this run; "
          "the rows mix two builds. Run again.**")
    w("")
    if rows:
        w("| workload | config | stock options | patched options | stock s | patched s "
          "| ratio patched/stock | min | max | CPU ratio | stock peak MB "
          "| patched peak MB | Ir | same events |")
        w("|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|:-:|")
    for row, wl, cfg, ev, sopt, popt in rows:
        mine = [r for r in raw if r[0] == row]
        failed = any(r[7] != "0" for r in mine)
        meas = {b: {int(r[3]): r for r in mine if r[1] == b and r[2] == "run"}
                for b in "SP"}
        pairs = sorted(set(meas["S"]) & set(meas["P"]))
        ws = [float(meas["S"][i][4]) for i in pairs]
        wp = [float(meas["P"][i][4]) for i in pairs]
        ratios = [p / s for s, p in zip(ws, wp) if s > 0]
        cs = [float(meas["S"][i][8]) for i in pairs]
        cp = [float(meas["P"][i][8]) for i in pairs]
        cpu_ratios = [p / s for s, p in zip(cs, cp) if s > 0]
        tot = {b: {r[6] for r in mine if r[1] == b} for b in "SP"}
        ir = next(iter(tot["S"])).split()[0] if len(tot["S"]) == 1 else "?"
        ir = f"{int(ir):,}" if ir.isdigit() else ir
        if ev != "same":
            same = "-"
        elif failed or not mine:
            same, bad = "NO (run failed)", True
        elif len(tot["S"]) != 1 or "-" in tot["S"]:
            same, bad = "NO (stock runs differ)", True
        elif tot["S"] != tot["P"]:
            same, bad = "NO", True
        else:
            same = "yes"
        if failed:
            bad = True
        if ratios and not failed:
            cells = [f"{statistics.median(ws):.2f}", f"{statistics.median(wp):.2f}",
                     f"**{fmt_ratio(statistics.median(ratios))}**",
                     fmt_ratio(min(ratios)), fmt_ratio(max(ratios)),
                     fmt_ratio(statistics.median(cpu_ratios)) if cpu_ratios else "?"]
        else:
            cells = ["FAILED"] * 6
        cells += [fmt_mb([int(meas["S"][i][5]) for i in pairs]),
                  fmt_mb([int(meas["P"][i][5]) for i in pairs]), ir, same]
        w(f"| {wl} | {cfg} | {code(sopt)} | {code(popt)} | " + " | ".join(cells) + " |")

    fold = read_tsv(fold_path)
    if fold:
        w("")
        w("## Converter: callgrind_fold against callgrind_annotate --inclusive=yes")
        w("")
        inputs = [r for r in fold if r[0] == "input"]
        runs = [r for r in fold if r[0] in ("annotate", "fold")]
        for inp in inputs:
            w(f"- input: `{inp[1]}`, {int(inp[2]) / 1e6:.1f} MB, {inp[3]}")
        w("- both read the same file, output to /dev/null, alternating "
          "(annotate, fold, annotate, ...); **speed-up** = annotate time / "
          "fold time of the same round: median, min, max. MB/s = file size / "
          "median time.")
        w("")
        size = int(inputs[0][2]) if inputs else 0
        meas = {t: {int(r[2]): r for r in runs if r[0] == t and r[1] == "run"}
                for t in ("annotate", "fold")}
        failed = any(r[5] != "0" for r in runs)
        pairs = sorted(set(meas["annotate"]) & set(meas["fold"]))
        ta = [float(meas["annotate"][i][3]) for i in pairs]
        tf = [float(meas["fold"][i][3]) for i in pairs]
        sp = [a / f for a, f in zip(ta, tf) if f > 0]
        w("| input MB | annotate s | annotate MB/s | fold s | fold MB/s "
          "| speed-up annotate/fold | min | max | annotate peak MB | fold peak MB |")
        w("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        if sp and not failed:
            ma, mf = statistics.median(ta), statistics.median(tf)
            cells = [f"{size / 1e6:.1f}", f"{ma:.2f}", f"{size / 1e6 / ma:.1f}",
                     f"{mf:.3f}", f"{size / 1e6 / mf:.1f}",
                     f"**{statistics.median(sp):.1f}x**", f"{min(sp):.1f}x",
                     f"{max(sp):.1f}x"]
        else:
            cells = [f"{size / 1e6:.1f}"] + ["FAILED"] * 7
            bad = True
        cells += [fmt_mb([int(meas["annotate"][i][4]) for i in pairs]),
                  fmt_mb([int(meas["fold"][i][4]) for i in pairs])]
        w("| " + " | ".join(cells) + " |")
        # SVG rendering of a large folded file: a row goes here once
        # callgrind_fold can render SVG.

    print("\n".join(out))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
