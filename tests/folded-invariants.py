#!/usr/bin/env python3
"""Invariants of --dump-folded, checked on real runs:

1. the folded counts (callgrind_fold's text of the folded tree, or
   callgrind's own text with --dump-folded=text among the options) sum
   exactly to the totals: of the callgrind.out twin for the event;
2. the inclusive cost of every non-recursive function computed from the
   folded file equals callgrind_annotate --inclusive=yes's.

usage: folded-invariants.py VALGRIND NAME [VALGRIND_OPTION...] -- PROGRAM [ARG...]
Prints PASS:/FAIL: lines.
"""
import os
import re
import subprocess
import sys
import tempfile


def folded_lines(path):
    with open(path) as f:
        for line in f:
            stack, count = line.rstrip("\n").rsplit(" ", 1)
            yield stack.split(";"), int(count)


def totals(path, event):
    events, tot = None, None
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("totals:"):
                tot = [int(x) for x in line.split()[1:]]
    return tot[events.index(event)] if event else tot[0]


def annotate_inclusive(annotate, path, event):
    show = ["--show=" + event, "--sort=" + event] if event else []
    out = subprocess.run([annotate, "--inclusive=yes", "--threshold=100"] + show + [path],
                         capture_output=True, text=True, check=True).stdout
    incl, seen = {}, {}
    for line in out.splitlines():
        m = re.match(r"^\s*([\d,]+) \([^)]*\)\s+(?:\* +)?(.*):(.+?)(?: \[.*\])?$", line)
        if not m:
            continue
        fn = m.group(3)
        seen[fn] = seen.get(fn, 0) + 1
        incl[fn] = int(m.group(1).replace(",", ""))
    # a name given to several functions (in several files) is ambiguous
    return {fn: v for fn, v in incl.items() if seen[fn] == 1}


def main(argv):
    valgrind, name = argv[0], argv[1]
    sep = argv.index("--")
    vgopts, prog = argv[2:sep], argv[sep + 1:]
    event, text = None, "--dump-folded=text" in vgopts
    for o in vgopts:
        if o.startswith("--folded-event="):
            event = o.split("=", 1)[1].split(",")[0]
    annotate = os.path.join(os.path.dirname(valgrind), "callgrind_annotate")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        folded = os.path.join(tmp, "cg.folded")
        subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out,
                        "--dump-folded=yes", "--folded-out-file=" + folded] + vgopts + prog,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        if not text:
            tree = folded + ".tree"
            os.rename(folded, tree)
            fold = os.path.join(os.path.dirname(valgrind), "callgrind_fold")
            with open(folded, "w") as f:
                subprocess.run([fold] + (["--event=" + event] if event else []) + [tree],
                               stdout=f, check=True)
        lines = list(folded_lines(folded))
        total = sum(c for _, c in lines)
        expect = totals(out, event)
        if total == expect and total > 0:
            print(f"PASS: {name}: folded sum {total} equals totals")
        else:
            print(f"FAIL: {name}: folded sum {total} != totals {expect}")
            ok = False

        # Recursive functions are left out (callgrind_annotate cannot tell
        # their inclusive cost), and so are the first frames of paths:
        # callgrind.out has no call into a thread's or the program's first
        # function, so callgrind_annotate counts only its called instances.
        inclusive, excluded = {}, set()
        for frames, count in lines:
            for fn in set(frames):
                inclusive[fn] = inclusive.get(fn, 0) + count
            excluded.add(frames[0])
            if len(set(frames)) != len(frames):
                excluded.update(f for f in frames if frames.count(f) > 1)
        annotated = annotate_inclusive(annotate, out, event)
        compared = [fn for fn in inclusive if fn not in excluded and fn in annotated]
        bad = [fn for fn in compared if inclusive[fn] != annotated[fn]]
        if compared and not bad:
            print(f"PASS: {name}: inclusive costs of {len(compared)} functions "
                  f"equal callgrind_annotate's")
        else:
            print(f"FAIL: {name}: inclusive costs differ from callgrind_annotate's "
                  f"({len(compared)} compared)")
            for fn in bad[:10]:
                print(f"  {fn}: folded {inclusive[fn]}, annotate {annotated[fn]}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
