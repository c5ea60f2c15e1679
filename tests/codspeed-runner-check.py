#!/usr/bin/env python3
"""Checks of a profile folder written by CodSpeed's runner's command line
(tests/codspeed-runner.sh): the callgrind.out files <pid>.out, their trees
<pid>.out.folded beside them and the logs valgrind.<pid>.log.

usage: codspeed-runner-check.py --label TEXT [--bench URI]... [--threads]
           [--inherit] [--stock-warnings FILE] DIR
Prints PASS:/FAIL: and info: lines; exits 1 if a check failed.
  --bench URI          a benchmark: exactly one part, over all files, whose
                       trigger is "Client Request: URI"
  --threads            --separate-threads=yes: every section has thread:
  --inherit            --instr-atstart=inherit: Spawned pid lines allowed
  --stock-warnings F   warning lines stock Valgrind printed for the same
                       program (pid prefixes removed): the logs may hold
                       those and nothing else
"""
import argparse
import glob
import os
import re
import sys

failed = 0


def check(name, ok, detail=""):
    global failed
    print("%s: %s%s" % ("PASS" if ok else "FAIL", name,
                        "" if ok or not detail else " -- " + detail[:600]))
    failed += not ok
    return ok


def out_sections(path):
    """Sections (part, thread section) of a callgrind.out file: header
    lines in order, events, totals."""
    sections, s, events = [], None, None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("part:"):
                s = {"part": int(line.split()[1]), "header": [line], "thread": None}
                sections.append(s)
                continue
            if s is None:
                continue
            if line.startswith("positions:"):
                s["in_body"] = True   # the header ends
            if line.startswith("events:"):
                s["events"] = line.split()[1:]
                s["in_body"] = True
            elif line.startswith("totals:"):
                # trailing zeros may be left out
                s["totals"] = [int(x) for x in line.split()[1:]]
                s["totals"] += [0] * (len(s["events"]) - len(s["totals"]))
            elif not s.get("in_body") and line.strip():
                s["header"].append(line)
                if line.startswith("thread:"):
                    s["thread"] = int(line.split()[1])
    return sections


def tree_sections(path):
    """Sections of a folded tree: part, thread, per-event sums and totals."""
    sections, s, events = [], None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(\d+) (\d+)((?: \d+)*)$", line)
            if m:
                costs = [int(x) for x in m.group(3).split()]
                for i, c in enumerate(costs):
                    s["sums"][i] += c
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("part:"):
                s = {"part": int(line.split()[1]), "thread": None, "events": events,
                     "sums": [0] * len(events)}
                sections.append(s)
            elif line.startswith("thread:"):
                s["thread"] = int(line.split()[1])
            elif line.startswith("totals:"):
                s["totals"] = [int(x) for x in line.split()[1:]]
                s["totals"] += [0] * (len(s["events"]) - len(s["totals"]))
    return sections


# A part's header, in CodSpeed's order: part:, Spawned pid lines, queued
# descriptions, thread: and Thread name, cache descriptions, Timerange,
# Trigger.  Each kind by the start of its lines, the first match wins.
KINDS = [("part", r"part:"), ("spawned", r"desc: Spawned pid:"), ("thread", r"thread:"),
         ("threadname", r"desc: Thread name:"), ("cache", r"desc: (I1|D1|LL) cache:"),
         ("timerange", r"desc: Timerange:"), ("trigger", r"desc: Trigger:"), ("desc", r"desc:")]
ORDER = ["part", "spawned", "desc", "thread", "threadname", "cache", "timerange", "trigger"]


def kind(line):
    for name, start in KINDS:
        if re.match(start, line):
            return name
    return "other: " + line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True)
    ap.add_argument("--bench", action="append", default=[])
    ap.add_argument("--threads", action="store_true")
    ap.add_argument("--inherit", action="store_true")
    ap.add_argument("--stock-warnings")
    ap.add_argument("dir")
    a = ap.parse_args()
    L = a.label + ": "

    outs = sorted(glob.glob(os.path.join(a.dir, "*.out")))
    check(L + "profiles <pid>.out in the folder", bool(outs), "files: %s" % os.listdir(a.dir))
    triggers, order_problems, tree_problems, pids = {}, [], [], set()
    nsections = 0
    for out in outs:
        pids.add(int(os.path.basename(out)[:-4]))
    for out in outs:
        name = os.path.basename(out)
        sections = out_sections(out)
        for s in sections:
            nsections += 1
            kinds = [kind(l) for l in s["header"]]
            known = [k for k in kinds if not k.startswith("other")]
            ranks = [ORDER.index(k) for k in known]
            where = "%s part %d" % (name, s["part"])
            if ranks != sorted(ranks) or len(known) != len(kinds):
                order_problems.append("%s: %s" % (where, kinds))
            if a.threads != (s["thread"] is not None):
                order_problems.append("%s: thread: line %s" % (where, "missing" if a.threads else "present"))
            for l in s["header"]:
                m = re.match(r"desc: Spawned pid: (\d+)$", l)
                if m and (not a.inherit or int(m.group(1)) not in pids):
                    order_problems.append("%s: %s (no profile of that pid)" % (where, l))
                if l.startswith("desc: Trigger: Client Request: "):
                    # one part, however many thread sections it has
                    uri = l[len("desc: Trigger: Client Request: "):]
                    triggers.setdefault(uri, set()).add((name, s["part"]))
            if "Ct" not in s.get("events", []) or "Cl" not in s.get("events", []):
                order_problems.append("%s: events %s without Ct and Cl" % (where, s.get("events")))
        # the tree beside the profile, section for section
        tree = out + ".folded"
        if not sections:
            continue
        if not os.path.exists(tree):
            tree_problems.append("%s: no %s.folded beside it" % (name, name))
            continue
        tsecs = tree_sections(tree)
        if len(tsecs) != len(sections):
            tree_problems.append("%s: %d sections, its tree %d" % (name, len(sections), len(tsecs)))
            continue
        for s, t in zip(sections, tsecs):
            where = "%s part %d%s" % (name, s["part"], "" if s["thread"] is None else " thread %d" % s["thread"])
            if (s["part"], s["thread"]) != (t["part"], t["thread"]):
                tree_problems.append("%s: the tree's section is part %d thread %s" % (where, t["part"], t["thread"]))
                continue
            for i, ev in enumerate(t["events"]):
                want = s["totals"][s["events"].index(ev)] if ev in s["events"] else None
                if want is None or t["sums"][i] != want or t["totals"][i] != want:
                    tree_problems.append("%s %s: tree sums to %d (its totals: %d), callgrind.out says %s"
                                         % (where, ev, t["sums"][i], t["totals"][i], want))
            missing = [e for e in s["events"] if e not in t["events"]]
            if missing:
                tree_problems.append("%s: events %s not in the tree" % (where, missing))
    print("info: %s%d profiles, %d sections" % (L, len(outs), nsections))
    check(L + "part headers in CodSpeed's order (Spawned pid, desc, thread, Timerange, Trigger), Ct and Cl",
          not order_problems, "; ".join(order_problems))
    for b in a.bench:
        check(L + "one part for %s" % b, len(triggers.get(b, ())) == 1,
              "found %s; triggers: %s" % (triggers.get(b), sorted(triggers)))
    check(L + "trees beside the profiles, summing exactly to each section's totals for every event",
          not tree_problems, "; ".join(tree_problems))

    # logs: warnings that stock does not print
    stock = set()
    if a.stock_warnings:
        with open(a.stock_warnings) as f:
            stock = {l.rstrip("\n") for l in f}
    extra = []
    logs = glob.glob(os.path.join(a.dir, "valgrind.*.log"))
    for log in logs:
        with open(log, errors="replace") as f:
            for l in f:
                l = re.sub(r"^[-=]{2}\d+[-=]{2} ", "", l.rstrip("\n"))
                if l and l not in stock:
                    extra.append("%s: %s" % (os.path.basename(log), l))
    check(L + "a log per process (valgrind.<pid>.log)", len(logs) >= len(outs),
          "%d logs, %d profiles" % (len(logs), len(outs)))
    check(L + "logs free of lines stock Valgrind does not print", not extra, "; ".join(extra[:10]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
