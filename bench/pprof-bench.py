#!/usr/bin/env python3
"""A whole `callgrind_fold -f pprof` run, two builds side by side (issue 28).

Usage: pprof-bench.py BEFORE AFTER [FILE...]
  BEFORE, AFTER: callgrind_fold executables.  FILEs: callgrind.out inputs,
  by default cc1.ev9.callgrind.out and cc1.callgrind.out of
  $BENCH_WORK/fold/ (made by reader-bench.sh and fold.sh).
Environment: BENCH_RUNS (11), BENCH_WARMUP (1), BENCH_WORK (bench/work),
  BENCH_PATCHED (<repo>/dist: its valgrind counts the instructions).

For each input: the two builds' outputs must be the same bytes once
gunzipped (and the same exit status and messages); then the wall and
CPU time of `-f pprof -o /dev/null FILE`, before and after alternating
(median of the rounds after the warm-up), and the instructions callgrind
counts on each, split into the reader (read_path, less the folding it
calls), the folding (fold_profile) and the writer (pprof_write, of which
deflate).  The table goes to stdout and bench/results/<date>-<host>-pprof.md.
"""
import os
import platform
import re
import statistics
import subprocess
import sys
import time
import zlib

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
WORK = os.environ.get("BENCH_WORK", os.path.join(BENCH, "work"))
PATCHED = os.environ.get("BENCH_PATCHED", os.path.join(ROOT, "dist"))
RUNS = int(os.environ.get("BENCH_RUNS", "11"))
WARMUP = int(os.environ.get("BENCH_WARMUP", "1"))
OUT = os.path.join(WORK, "pprof")


def say(msg):
    print("bench/pprof: " + msg, file=sys.stderr, flush=True)


def pprof_of(binary, path, out):
    """Runs binary -f pprof; returns (status, stderr, gunzipped output)."""
    p = subprocess.run([binary, "-f", "pprof", "-o", out, path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    data = b""
    if p.returncode == 0:
        with open(out, "rb") as f:
            data = zlib.decompress(f.read(), 16 + zlib.MAX_WBITS)
    return p.returncode, p.stderr, data


def timed(binary, path):
    """Wall and CPU (user + system) seconds of one run to /dev/null."""
    t0 = time.perf_counter()
    c0 = os.times()
    p = subprocess.run([binary, "-f", "pprof", "-o", "/dev/null", path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    c1 = os.times()
    if p.returncode != 0:
        sys.exit("bench/pprof: %s %s: exit %d" % (binary, path, p.returncode))
    return wall, (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)


# callgrind_annotate --inclusive=yes lines: "1,234 (5.6%)  file:function [object]"
INCLUSIVE = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+\*?\s*(\S+?):(\S+)")


def instructions(binary, path, tag):
    """Ir of the whole run and inclusive Ir of the stages."""
    cg = os.path.join(OUT, tag + ".callgrind.out")
    subprocess.run([os.path.join(PATCHED, "bin", "valgrind"), "--tool=callgrind",
                    "--callgrind-out-file=" + cg, "--log-file=" + cg + ".log",
                    binary, "-f", "pprof", "-o", "/dev/null", path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", cg],
                          capture_output=True, text=True, check=True).stdout
    best = {}
    for line in text.splitlines():
        m = INCLUSIVE.match(line)
        if m and "PROGRAM" not in line:
            fn, ir = m.group(3), int(m.group(1).replace(",", ""))
            best[fn] = max(best.get(fn, 0), ir)
    total = int(re.search(r"([\d,]+) \([\d.]+%\)\s+PROGRAM TOTALS", text).group(1).replace(",", ""))
    fold = best.get("fold_profile", 0)
    return {"total": total, "read": best.get("read_path", 0) - fold, "fold": fold,
            "write": best.get("pprof_write", 0), "deflate": best.get("deflate", 0)}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = (os.path.abspath(a) for a in sys.argv[1:3])
    files = sys.argv[3:] or [os.path.join(WORK, "fold", f)
                             for f in ("cc1.ev9.callgrind.out", "cc1.callgrind.out")]
    os.makedirs(OUT, exist_ok=True)
    load0 = open("/proc/loadavg").read().split()[:3]
    started = time.strftime("%Y-%m-%d %H:%M %z")
    rows = []
    for path in files:
        name = os.path.basename(path)
        b = pprof_of(before, path, os.path.join(OUT, "before.pb.gz"))
        a = pprof_of(after, path, os.path.join(OUT, "after.pb.gz"))
        if b != a:
            sys.exit("bench/pprof: %s: the builds' outputs differ" % name)
        say("%s: same %d bytes (gunzipped); %d warm-up + %d rounds" %
            (name, len(a[2]), WARMUP, RUNS))
        times = {"before": [], "after": []}
        for k in range(WARMUP + RUNS):
            for which, binary in (("before", before), ("after", after)):
                t = timed(binary, path)
                if k >= WARMUP:
                    times[which].append(t)
        ir = {w: instructions(b_, path, w + "." + name)
              for w, b_ in (("before", before), ("after", after))}
        rows.append((name, os.path.getsize(path), len(a[2]), times, ir))
    load1 = open("/proc/loadavg").read().split()[:3]

    med = lambda ts, i: statistics.median(t[i] for t in ts)
    out = ["# A whole `-f pprof` run, before and after (issue 28)", "",
           "- date: %s, host: `%s` (%d CPUs), load average %s at the start, %s at the end"
           % (started, platform.node().split(".")[0], os.cpu_count(),
              " ".join(load0), " ".join(load1)),
           "- before: `%s`; after: `%s`" % (before, after),
           "- command: `callgrind_fold -f pprof -o /dev/null FILE`; wall and CPU: median of "
           "%d rounds after %d warm-up, before and after alternating" % (RUNS, WARMUP),
           "- output: the same bytes (gunzipped), exit status and messages before and after", "",
           "## Wall and CPU time", "",
           "| input | MB | before wall s | after wall s | after/before | before CPU s | after CPU s |",
           "|---|--:|--:|--:|--:|--:|--:|"]
    for name, size, _, t, _ in rows:
        bw, aw = med(t["before"], 0), med(t["after"], 0)
        out.append("| `%s` | %.1f | %.4f | %.4f | **%.3f** | %.4f | %.4f |" %
                   (name, size / 1e6, bw, aw, aw / bw, med(t["before"], 1), med(t["after"], 1)))
    out += ["", "## Instructions (callgrind, whole process; stages inclusive)", "",
            "| input | build | total Ir | Ir/byte | reader | folding | pprof_write | of which deflate |",
            "|---|---|--:|--:|--:|--:|--:|--:|"]
    for name, size, _, _, ir in rows:
        for w in ("before", "after"):
            i = ir[w]
            out.append("| `%s` | %s | %s | %.1f | %s | %s | %s | %s |" %
                       (name, w, format(i["total"], ","), i["total"] / size,
                        format(i["read"], ","), format(i["fold"], ","),
                        format(i["write"], ","), format(i["deflate"], ",")))
    report = "\n".join(out) + "\n"
    sys.stdout.write(report)
    dest = os.path.join(BENCH, "results", "%s-%s-pprof.md" %
                        (time.strftime("%Y-%m-%d"), platform.node().split(".")[0]))
    with open(dest, "w") as f:
        f.write(report)
    say("written " + dest)


if __name__ == "__main__":
    main()
