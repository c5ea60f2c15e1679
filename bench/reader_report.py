"""Instruction split and markdown table for bench/reader-bench.sh (issue 28).

Usage:
  reader_report.py split CALLGRIND_OUT BYTES
      Reads callgrind's profile of one callgrind_fold run and prints, per
      input byte, tab-separated: total, read, fold, rest (instructions,
      event Ir):
        read  what read_path() (fold_path() before; the reader's entry, src/read/input.c) costs,
              less the calls its reader functions (src/read/) make into the
              folding (src/stacks/, src/inline/): building the call graph,
              stacks_add, and fold_profile at the end of each part
        fold  those calls
        rest  everything outside read_path(): start-up, sorting and
              writing the output
  reader_report.py incl CALLGRIND_OUT FUNCTION BYTES
      Inclusive Ir of FUNCTION (all its calls) per input byte.
  reader_report.py table RAW META
      RAW: lines "row before|after pass index wall_s cpu_s" and
      "ir row before|after total read fold rest", "size row bytes desc",
      "scan row MB/s Ir/byte ok"; META: key=value lines.  Markdown on
      stdout.
"""
import re
import statistics
import sys

from report import read_meta

SPEC = re.compile(r"^(fl|fi|fe|fn|cfi|cfl|cfn|calls)=(.*)$")
NAME = re.compile(r"^\((\d+)\)(?:\s(.*))?$")


def call_edges(path):
    """{(caller, callee): inclusive Ir}, {function: file} of a callgrind.out
    (one part, name compression as callgrind writes it)."""
    names = {"fl": {}, "fn": {}}
    npositions = 1
    ir_column = 0
    fn = None
    fn_file = {}
    cur_file = None
    callee = callee_file = None
    call_pending = False
    edges = {}

    def name(kind, value):
        m = NAME.match(value)
        if not m:
            return value
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), value)

    with open(path, encoding="latin-1") as f:
        for line in f:
            line = line.rstrip("\n")
            if call_pending and line[:1] and (line[0].isdigit() or line[0] in "+-*"):
                words = line.split()
                cost = int(words[npositions + ir_column]) if len(words) > npositions + ir_column else 0
                key = (fn, callee)
                edges[key] = edges.get(key, 0) + cost
                call_pending = False
                continue
            if line.startswith("positions:"):
                npositions = len(line.split()[1:])
                continue
            if line.startswith("events:"):
                ir_column = line.split()[1:].index("Ir")
                continue
            m = SPEC.match(line)
            if not m:
                continue
            key, value = m.groups()
            if key == "fl":
                cur_file = name("fl", value)
            elif key in ("fi", "fe"):
                name("fl", value)
            elif key == "fn":
                fn = name("fn", value)
                fn_file[fn] = cur_file  # its own block says best where it is
                callee_file = None
            elif key in ("cfi", "cfl"):
                callee_file = name("fl", value)
            elif key == "cfn":
                callee = name("fn", value)
                fn_file.setdefault(callee, callee_file or cur_file)
            elif key == "calls":
                call_pending = True
                callee_file = None  # cfi= is for one call
    return edges, fn_file


def totals(path):
    with open(path, encoding="latin-1") as f:
        events = None
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1 + events.index("Ir")])
    return 0


def inclusive(edges, function):
    return sum(c for (a, b), c in edges.items() if b == function and a != function)


def split(path, size):
    edges, fn_file = call_edges(path)
    total = totals(path)
    # The reader's entry: fold_path() before the pipeline module (issue
    # 28), read_path() since; the part sink (pipeline.c's run_part) is
    # folding too.
    reading = inclusive(edges, "fold_path") + inclusive(edges, "read_path")

    def under(fn, dirs):
        f = fn_file.get(fn) or ""
        return any("/src/%s/" % d in f for d in dirs) or \
            ("pipeline" in dirs and f.endswith("/src/pipeline.c"))

    fold = sum(c for (a, b), c in edges.items()
               if under(a, ("read",)) and under(b, ("stacks", "inline", "pipeline")))
    return [total / size, (reading - fold) / size, fold / size, (total - reading) / size]


def fmt(x, digits=1):
    return f"{x:.{digits}f}"


def wall_table(p, rows, sizes, wall, cpu, suffix):
    p("| input | MB | before s | after s | before MB/s | after MB/s | after/before (min-max) | CPU after/before |")
    p("|---|--:|--:|--:|--:|--:|--:|--:|")
    for row in rows:
        size = sizes[row][0]
        b, a = wall.get((row + suffix, "before"), []), wall.get((row + suffix, "after"), [])
        if not b or not a:
            continue
        ratios = [y / x for x, y in zip(b, a) if x > 0]
        cb, ca = cpu.get((row + suffix, "before"), []), cpu.get((row + suffix, "after"), [])
        cratios = [y / x for x, y in zip(cb, ca) if x > 0]
        mb, ma = statistics.median(b), statistics.median(a)
        cr = f"{statistics.median(cratios):.2f}" if cratios else "-"
        p(f"| {row} | {size / 1e6:.1f} | {mb:.3f} | {ma:.3f} | {size / mb / 1e6:.0f} | "
          f"{size / ma / 1e6:.0f} | {statistics.median(ratios):.2f} "
          f"({min(ratios):.2f}-{max(ratios):.2f}) | {cr} |")


def table(raw_path, meta_path):
    meta = read_meta(meta_path)
    rows, sizes, ir, scans = [], {}, {}, {}
    wall = {}
    cpu = {}
    with open(raw_path) as f:
        for line in f:
            w = line.rstrip("\n").split("\t")
            if w[0] == "size":
                sizes[w[1]] = (int(w[2]), w[3])
                rows.append(w[1])
            elif w[0] == "ir":
                ir[(w[1], w[2])] = [float(x) for x in w[3:7]]
            elif w[0] == "scan":
                scans[w[1]] = w[2:]
            elif w[2] == "run":
                wall.setdefault((w[0], w[1]), []).append(float(w[4]))
                cpu.setdefault((w[0], w[1]), []).append(float(w[5]))
    out = []
    p = out.append
    p("# callgrind_fold's reader, before and after (issue 28)")
    p("")
    p(f"- date: {meta.get('date', '?')}, host: `{meta.get('host', '?')}`, {meta.get('cpu', '?')}")
    p(f"- load average at start: {meta.get('load_start', '?')}, at end: {meta.get('load_end', '?')}")
    p(f"- before: `{meta.get('before', '?')}`")
    p(f"- after: `{meta.get('after', '?')}`")
    p(f"- {meta.get('runs', '?')} measured rounds after {meta.get('warmup', '?')} warm-up, "
      "alternating before, after, before, ...; whole `callgrind_fold FILE > /dev/null` runs, "
      "warm page cache")
    p("")
    for title, suffix in (("Whole runs (wall time)", ""),
                          ("The reader alone (wall time of `--part=` a part the file does "
                           "not have: read, checked and the call graph built, nothing "
                           "folded or written)", "|read")):
        p(f"## {title}")
        p("")
        wall_table(p, rows, sizes, wall, cpu, suffix)
        p("")
    p("## Instructions per input byte (callgrind, Ir)")

    p("")
    p("*read*: the reader (`read_path()`, formerly `fold_path()`, and all it calls) less what it calls in the "
      "folding (`src/stacks/`, `src/inline/`: the call graph, `stacks_add`, "
      "`fold_profile`); *fold*: those calls; *rest*: start-up, sorting and writing the "
      "output (outside the reader).  The whole run is read + fold + rest.")
    p("")
    p("| input | before: whole run | read | fold | rest | after: whole run | read | fold | rest | read after/before |")
    p("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for row in rows:
        b, a = ir.get((row, "before")), ir.get((row, "after"))
        if not b or not a:
            continue
        p(f"| {row} | {fmt(b[0])} | {fmt(b[1])} | {fmt(b[2])} | {fmt(b[3])} | "
          f"**{fmt(a[0])}** | **{fmt(a[1])}** | {fmt(a[2])} | {fmt(a[3])} | "
          f"{a[1] / b[1]:.2f} |")
    if scans:
        p("")
        p("## All events of a cost line (`scan_cost_columns`, `obj/colscan_bench`)")
        p("")
        p("Every cost column of every cost line read into a `uint64_t` array and summed "
          "per column (checked against the file's `totals:`), as a one-pass `-f pprof` of "
          "all events would; no \"before\" (the reader had no such scanner).  MB/s: file "
          "size / median time of the passes (and of the fastest: the machine is "
          "shared); Ir/byte: the scanning function, inclusive.")
        p("")
        p("| input | MB/s | Ir/byte | sums = totals |")
        p("|---|--:|--:|---|")
        for row, (mbs, irb, ok) in scans.items():
            p(f"| {row} | {mbs} | {irb} | {ok} |")
    p("")
    p("Inputs:")
    p("")
    for row in rows:
        p(f"- {row}: {sizes[row][1]} ({sizes[row][0]:,} bytes)")
    print("\n".join(out))


def main():
    cmd = sys.argv[1]
    if cmd == "split":
        print("\t".join(f"{x:.3f}" for x in split(sys.argv[2], int(sys.argv[3]))))
    elif cmd == "incl":
        edges, _ = call_edges(sys.argv[2])
        print(f"{inclusive(edges, sys.argv[3]) / int(sys.argv[4]):.3f}")
    elif cmd == "table":
        table(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
