#!/usr/bin/env python3
"""Checks of a multi-threaded benchmark's profile (--separate-threads=yes).

For each --bench NAME, in the callgrind.out FILEs (and their folded twins,
FILE with .out replaced by .folded, when present):
  - its part (the sections whose trigger is "Client Request: NAME", of one
    pid and part number) has two threads or more, no two with one lwpid;
  - the threads after the first (the one that asked for the dump) hold at
    least --worker-share of the part's first event;
  - `callgrind_fold -f md FILE` has one row NAME, no "NAME (2)", whose first
    event is the sum over the part's threads (the same for the twin).
Prints PASS:/FAIL: lines; exits 1 if any failed.
"""
import argparse
import os
import re
import subprocess
import sys


def sections(path):
    """(pid, part, lwpid, trigger, first event's totals) of each section."""
    out, pid, cur = [], None, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("pid:"):
                pid = line.split()[1]
            elif line.startswith("part:"):
                cur = {"pid": pid, "part": int(line.split()[1]), "lwpid": None,
                       "trigger": "", "total": None}
                out.append(cur)
            elif cur is None:
                continue
            elif line.startswith("thread:"):
                cur["lwpid"] = line.split()[1]
            elif line.startswith("desc: Trigger: "):
                cur["trigger"] = line[len("desc: Trigger: "):].rstrip("\n")
            elif line.startswith("totals:"):
                cur["total"] = int(line.split()[1])
    return out


def md_rows(fold, path):
    """Benchmark name -> first event's value, from callgrind_fold -f md."""
    res = subprocess.run([fold, "-f", "md", path], capture_output=True, text=True)
    if res.returncode != 0:
        return None, res.stderr.strip()
    rows = {}
    for line in res.stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 1 and re.fullmatch(r"[0-9,]+", cells[1]):
            rows[cells[0].replace("\\", "")] = int(cells[1].replace(",", ""))
    return rows, ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("--fold", required=True)
    ap.add_argument("--bench", action="append", required=True)
    ap.add_argument("--worker-share", type=float, default=0.5)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    failed = 0

    def check(name, ok, detail=""):
        nonlocal failed
        print(("PASS: " if ok else "FAIL: ") + f"{args.label}: {name}")
        if not ok:
            failed += 1
            if detail:
                print("  " + detail)

    found = {}
    for path in args.files:
        if os.path.getsize(path) == 0:
            continue
        for s in sections(path):
            for b in args.bench:
                if s["trigger"] == "Client Request: " + b:
                    found.setdefault(b, []).append((path, s))
    for b in args.bench:
        secs = found.get(b, [])
        keys = {(s["pid"], s["part"]) for _, s in secs}
        check(f"{b}: one part", len(keys) == 1, f"parts {sorted(keys)}")
        if len(keys) != 1:
            continue
        lwpids = [s["lwpid"] for _, s in secs]
        check(f"{b}: a section per thread, two threads or more",
              len(lwpids) >= 2 and None not in lwpids and len(set(lwpids)) == len(lwpids),
              f"threads {lwpids}")
        total = sum(s["total"] or 0 for _, s in secs)
        workers = sum(s["total"] or 0 for _, s in secs[1:])
        check(f"{b}: the threads after the first hold at least {args.worker_share:.0%}",
              total > 0 and workers >= args.worker_share * total,
              f"{workers} of {total}")
        path = secs[0][0]
        twin = re.sub(r"\.out$", ".folded", path)
        for kind, p in (("callgrind.out", path), ("folded tree", twin)):
            if not os.path.exists(p):
                continue
            rows, err = md_rows(args.fold, p)
            if rows is None:
                check(f"{b}: callgrind_fold -f md of its {kind}", False, err)
                continue
            check(f"{b}: -f md of its {kind}: one row, the sum of its threads ({total})",
                  rows.get(b) == total and f"{b} (2)" not in rows,
                  f"rows {rows}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
