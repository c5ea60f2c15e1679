#!/usr/bin/env python3
"""Times shell commands alternately, ROUNDS times each, and prints each
one's median wall time and the median of its per-round ratios to the
first command's. On a noisy machine, compare builds this way: a lone
timing, or one command's runs all before the other's, measures the
machine's drift as much as the change.

    bench/interleave.py ROUNDS "CMD_A" "CMD_B" ...
"""
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__)
    rounds, cmds = int(sys.argv[1]), sys.argv[2:]
    times = {c: [] for c in cmds}
    for _ in range(rounds):
        for c in cmds:
            start = time.perf_counter()
            subprocess.run(c, shell=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            times[c].append(time.perf_counter() - start)
    base = times[cmds[0]]
    for c in cmds:
        ratios = [x / y for x, y in zip(times[c], base)]
        print("%8.2f ms  ratio to the first %.3f  %s"
              % (statistics.median(times[c]) * 1e3, statistics.median(ratios), c))


if __name__ == "__main__":
    main()
