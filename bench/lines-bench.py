#!/usr/bin/env python3
"""What reading source lines costs -f pprof: the same profile read with and
without its "line" positions, paired runs of one build.

Usage: lines-bench.py [BINARY [FILE...]]
  BINARY: a callgrind_fold (default: the repository's build).  FILEs:
  callgrind.out inputs with line positions, by default cc1.callgrind.out
  and cc1.ev9.callgrind.out of $BENCH_WORK/fold/ (made by fold.sh and
  reader-bench.sh).
Environment: BENCH_RUNS (11), BENCH_WORK (bench/work).

The profile without lines is the same file with "line" in its
"positions:" header renamed "bb": the same bytes to read, the same
subpositions scanned, but no line followed, so that the difference is
the line work alone (the stacks must be the same: checked).  Rounds
alternate the two; each prints the median wall time of the reading alone
(`--part=<none>`, which reads every line and keeps no part) and of the
whole `-f pprof -o /dev/null`, and their ratios.  The bound: reading
with lines at most 1.3 times reading without (exit status 1 above it).
"""
import os
import statistics
import subprocess
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
WORK = os.environ.get("BENCH_WORK", os.path.join(BENCH, "work"))
RUNS = int(os.environ.get("BENCH_RUNS", "11"))
BOUND = 1.3


def without_lines(path):
    """A copy of path whose "positions:" lines name no "line"."""
    out = os.path.join(WORK, "lines", os.path.basename(path) + ".nolines")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(path, "rb") as f, open(out, "wb") as g:
        for line in f:
            if line.startswith(b"positions:"):
                line = line.replace(b" line", b" bb")
            g.write(line)
    return out


def wall(argv):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "callgrind_fold",
                                                                 "callgrind_fold")
    files = sys.argv[2:] or [os.path.join(WORK, "fold", f)
                             for f in ("cc1.callgrind.out", "cc1.ev9.callgrind.out")]
    worst = 0.0
    for path in files:
        if not os.path.exists(path):
            print("lines-bench: %s is missing (bench/reader-bench.sh makes it)" % path)
            continue
        flat = without_lines(path)
        same = [subprocess.run([binary, p], capture_output=True).stdout for p in (path, flat)]
        if same[0] != same[1]:
            print("lines-bench: %s: the stacks differ without lines" % path)
            return 1
        modes = {"read": ["--part=18446744073709551615", "-f", "pprof", "-o", os.devnull],
                 "pprof": ["-f", "pprof", "-o", os.devnull]}
        for mode, args in modes.items():
            times = {"lines": [], "none": []}
            for _ in range(RUNS):
                times["lines"].append(wall([binary] + args + [path]))
                times["none"].append(wall([binary] + args + [flat]))
            a, b = statistics.median(times["lines"]), statistics.median(times["none"])
            ratio = a / b
            if mode == "read":
                worst = max(worst, ratio)
            print("%s\t%s\twith lines %.1f ms\twithout %.1f ms\t%.2fx" %
                  (os.path.basename(path), mode, a * 1e3, b * 1e3, ratio))
    print("reading with lines: %.2fx at most (bound %.1fx)" % (worst, BOUND))
    return 1 if worst > BOUND else 0


if __name__ == "__main__":
    sys.exit(main())
