#!/usr/bin/env python3
"""Read a callgrind.out file into a canonical, comparable summary.

An independent reader used by the tests to cross-check callgrind's output
(and callgrind_fold's): it expands name compression and sums costs per
function, so two profiles of the same run compare equal even when name ids
or block order differ.

    cgprofile.py FILE            print the canonical summary
    cgprofile.py --fns FILE      print the function names with cost or calls
    cgprofile.py --totals FILE   print the totals line
    cgprofile.py --events=Ir,Dr FILE   summary restricted to these events
    cgprofile.py --fold-stubs FILE   functions without a symbol or object
                                 (??? 0x...) that have one caller are folded
                                 into it: their own cost is the caller's,
                                 their calls are the caller's

Summary lines (sorted):
    self   OB FN           costs...
    call   OB FN -> COB CFN calls inclusive-costs...
    totals costs...
"""
import re
import sys
from collections import defaultdict

NAME_KINDS = {"ob": "ob", "fl": "fl", "fi": "fl", "fe": "fl", "fn": "fn", "jfi": "fl", "jfn": "fn",
              "cob": "ob", "cfi": "fl", "cfl": "fl", "cfn": "fn"}


def read(path):
    names = {"ob": {}, "fl": {}, "fn": {}}
    selfc = defaultdict(lambda: None)
    calls = {}
    totals = None
    events = None
    ob = fn = cob = cfn = None
    pending_call = None  # (calls, key) waiting for its cost line

    def name(kind, text):
        m = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not m:
            return text
        table = names[NAME_KINDS[kind]]
        if m.group(2) is not None:
            table[m.group(1)] = m.group(2)
        return table[m.group(1)]

    def add(vec, values):
        n = len(events)
        values = values + [0] * (n - len(values))
        if vec is None:
            return values[:n]
        return [a + b for a, b in zip(vec, values[:n])]

    npos = 1
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
                continue
            if line.startswith("positions:"):
                npos = len(line.split()[1:])
                continue
            if line.startswith("totals:"):
                totals = [int(x) for x in line.split()[1:]]
                continue
            m = re.match(r"(ob|fl|fi|fe|fn|cob|cfi|cfl|cfn|jfi|jfn)=(.*)$", line)
            if m:
                kind, val = m.groups()
                v = name(kind, val)
                if kind == "ob":
                    ob = v
                    cob = None
                elif kind == "fn":
                    fn = v
                    cob = None
                elif kind == "cob":
                    cob = v
                elif kind == "cfn":
                    cfn = v
                continue
            if line.startswith("calls="):
                count = int(line[6:].split()[0])
                pending_call = (count, (ob, fn, cob or ob, cfn))
                continue
            if re.match(r"[0-9+*-]", line):
                values = [int(x) for x in line.split()[npos:]]
                if pending_call:
                    count, key = pending_call
                    c, vec = calls.get(key, (0, None))
                    calls[key] = (c + count, add(vec, values))
                    pending_call = None
                    cob = None
                else:
                    selfc[(ob, fn)] = add(selfc[(ob, fn)], values)
    return events, totals, selfc, calls


def fold_stubs(selfc, calls):
    """What --skip-plt=yes does to PLT stubs Valgrind did not know as PLT
    (.plt.sec, .plt.got; see the debuginfo patch): a function named by
    address in no object, called from one function, is folded into it."""
    def add(a, b):
        return [x + y for x, y in zip(a or [0] * len(b), b)]
    stubs = {(ob, fn) for (ob, fn) in selfc if ob == "???" and re.match(r"0x[0-9a-f]+$", fn)}
    stubs |= {(cob, cfn) for (_, _, cob, cfn) in calls if cob == "???" and re.match(r"0x[0-9a-f]+$", cfn)}
    for stub in sorted(stubs):
        callers = [k for k in calls if (k[2], k[3]) == stub]
        if len({(k[0], k[1]) for k in callers}) != 1:
            continue
        caller = (callers[0][0], callers[0][1])
        for k in callers:
            del calls[k]
        if selfc.get(stub):
            selfc[caller] = add(selfc.get(caller), selfc.pop(stub))
        for k in [k for k in calls if (k[0], k[1]) == stub]:
            count, vec = calls.pop(k)
            key = (caller[0], caller[1], k[2], k[3])
            c0, v0 = calls.get(key, (0, None))
            calls[key] = (c0 + count, add(v0, vec))


def main(argv):
    mode = "summary"
    only = None
    stubs = False
    while argv and argv[0].startswith("--"):
        if argv[0].startswith("--events="):
            only = argv[0][len("--events="):].split(",")
        elif argv[0] == "--fold-stubs":
            stubs = True
        else:
            mode = argv[0]
        argv = argv[1:]
    events, totals, selfc, calls = read(argv[0])
    if stubs:
        fold_stubs(selfc, calls)
    if only:
        idx = [events.index(e) for e in only if e in events]
        pick = lambda vec: [vec[i] for i in idx] if vec else vec
        totals = pick(totals)
        selfc = {k: pick(v) for k, v in selfc.items()}
        calls = {k: (c, pick(v)) for k, (c, v) in calls.items()}
    if mode == "--totals":
        print(" ".join(map(str, totals or [])))
        return
    if mode == "--fns":
        fns = {k[1] for k in selfc} | {k[1] for k in calls} | {k[3] for k in calls}
        print("\n".join(sorted(fns)))
        return
    out = []
    for (ob, fn), vec in selfc.items():
        if any(vec):
            out.append("self %s %s %s" % (ob, fn, " ".join(map(str, vec))))
    for (ob, fn, cob, cfn), (count, vec) in calls.items():
        out.append("call %s %s -> %s %s %d %s" % (ob, fn, cob, cfn, count, " ".join(map(str, vec))))
    out.sort()
    out.append("totals " + " ".join(map(str, totals or [])))
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
