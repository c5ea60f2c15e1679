"""-f md --diff OLD NEW's lines that changed (write/mdlines.c, md.c),
called from run_tests.py.

- md-lines/golden: tests/mdlines/{old,new}.cg (hand-written, numbers in
  tests/mdlines/README) -> tests/mdlines/diff.expected.
- md-lines/moved-line: a line that moved is a removed and an added line,
  and the note under the tables says so.
- md-lines/no-lines-*: the same profiles without line positions, and
  folded trees, give today's output byte for byte (goldens written by the
  build before lines: diff-no-lines.expected, diff-tree.expected), which
  is the lines output without its section.
- md-lines/values-*: every listed before and after is the profile's own
  cost of that line, summed by pprof_tests.callgrind_line_costs(), a
  reader independent of callgrind_fold, per benchmark part, per event.
- md-lines/limits-*: generated profiles of 7 changed benchmarks of 5
  functions of 5 changed lines each: 5 benchmarks, 3 functions, 3 lines,
  the ones of the largest changes (computed here from the generated
  costs), and the count of benchmarks left out.
- md-lines/real-*: two versions of one function of tests/progs/mdlines.c
  compiled -g, run under the real valgrind: the line the second version
  added is the one listed first.
"""
import os
import re
import subprocess

import pprof_tests

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "mdlines")
LINES_HEADING = "\n### Lines that changed most\n"
NOTE = "Lines pair by function, file name and line number: a line that moved"


def fold(binary, args):
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def listed(md):
    """{benchmark: [(function, file base name, line, before, after)]} of
    the lines section ("(no line)" is line 0), and the header's event."""
    out, bench, fn, event = {}, None, None, None
    _, _, section = md.partition(LINES_HEADING)
    for line in section.splitlines():
        m = re.match(r"\*\*(.*)\*\*$", line)
        if m:
            bench = m.group(1).replace("\\", "")
            out[bench] = []
            continue
        m = re.match(r"\| Function \| Line \| (\S+) before \|", line)
        if m:
            event = m.group(1)
            continue
        cells = [re.sub(r"\\(.)", r"\1", c.strip()) for c in line.strip("|").split(" | ")] \
            if line.startswith("| ") else None
        if not cells or len(cells) != 5 or cells[0].startswith(":---"):
            continue
        if cells[0]:
            fn = re.sub(r" \(self [+-]?[\d,]+\)$", "", cells[0])
        place = re.match(r"(.*?)(?::(\d+)| \(no line\))$", cells[1])
        count = lambda c: int(c.replace(",", ""))
        out[bench].append((fn, place.group(1) if place else cells[1],
                           int(place.group(2) or 0) if place else None,
                           count(cells[2]), count(cells[3])))
    return out, event


def split_parts(path, work):
    """One file per part of a callgrind.out, {benchmark name: path}: the
    file's header, the name definitions of the parts before (names are
    compressed across parts), then the part."""
    text = open(path, encoding="latin-1").read().split("\n")
    header, parts, cur = [], [], None
    for line in text:
        if line.startswith("part:"):
            cur = []
            parts.append(cur)
        (cur if cur is not None else header).append(line)
    out, names = {}, []
    for i, part in enumerate(parts):
        desc = [l for l in part if l.startswith("desc: Trigger: Client Request: ")]
        name = desc[0].split(": ", 3)[3] if desc else "part %d" % (i + 1)
        p = os.path.join(work, "%s.part%d" % (os.path.basename(path), i + 1))
        with open(p, "w", encoding="latin-1") as f:
            f.write("\n".join(header + names + part) + "\n")
        out[name] = p
        names += [l for l in part if re.match(r"(fl|fi|fe|fn|ob)=\(\d+\) ", l)]
    return out


def base_costs(path, event):
    """{(file base name, line): cost of event} of one part's file."""
    costs = {}
    for (f, ln), v in pprof_tests.callgrind_line_costs([path]).get(event, {}).items():
        key = (os.path.basename(f), ln)
        costs[key] = costs.get(key, 0) + v
    return costs


def check_values(name, md, old_parts, new_parts, check):
    rows, event = listed(md)
    bad = []
    for bench, lines in rows.items():
        old = base_costs(old_parts[bench], event)
        new = base_costs(new_parts[bench], event)
        for fn, base, ln, before, after in lines:
            # code without debug information ("???", no line) is many
            # functions' to a reader of lines alone
            if not ln or base == "???":
                continue
            want = (old.get((base, ln), 0), new.get((base, ln), 0))
            if (before, after) != want:
                bad.append("%s %s %s:%s %s != %s" % (bench, fn, base, ln, (before, after), want))
    n = sum(len(v) for v in rows.values())
    check(name, n > 0 and not bad, "%d rows; %s" % (n, "; ".join(bad[:4]) or md[-600:]))


def test_golden(binary, tag, check, work):
    old, new = os.path.join(DATA, "old.cg"), os.path.join(DATA, "new.cg")
    rc, out, err = fold(binary, ["--diff", old, new, "-f", "md"])
    want = open(os.path.join(DATA, "diff.expected")).read()
    check(tag + "md-lines/golden", rc == 0 and out == want and err == "",
          "rc %d %s %r" % (rc, err, out))
    rows, event = listed(out)
    moved = rows.get("bench::moved", [])
    check(tag + "md-lines/moved-line",
          moved == [("step", "step.c", 32, 0, 45), ("step", "step.c", 30, 40, 0)]
          and out.rstrip("\n").split("\n")[-1].startswith(NOTE), "%r" % moved)
    # unchanged to the table (0.0%): no lines, though their lines differ
    check(tag + "md-lines/only-changed-benchmarks",
          set(rows) == {"bench::many", "bench::work", "bench::moved"}, sorted(rows))
    check(tag + "md-lines/paths-paired-by-base-name",
          ("work", "work.c", 12, 100, 300) in rows.get("bench::work", []), rows)
    for ev in ("Ir", "Dr"):
        rc, out, err = fold(binary, ["--diff", old, new, "-f", "md", "--event=" + ev])
        check_values(tag + "md-lines/values-" + ev, out, split_parts(old, work),
                     split_parts(new, work), check)
    # without line positions: today's output, the section left out
    plain = []
    for p in (old, new):
        q = os.path.join(work, "instr-" + os.path.basename(p))
        with open(p) as f, open(q, "w") as g:
            g.write(f.read().replace("positions: line\n", "positions: instr\n"))
        plain.append(q)
    rc, out, err = fold(binary, ["--diff"] + plain + ["-f", "md"])
    want = open(os.path.join(DATA, "diff-no-lines.expected")).read()
    check(tag + "md-lines/no-lines-byte-identical", rc == 0 and out == want, out)
    lines_out = open(os.path.join(DATA, "diff.expected")).read()
    check(tag + "md-lines/no-lines-is-the-table-alone",
          lines_out.partition(LINES_HEADING)[0] == want and LINES_HEADING not in want,
          want)
    tree_old = os.path.join(HERE, "cases", "bench_parts_tree.tree")
    tree_new = os.path.join(DATA, "new.tree")
    rc, out, err = fold(binary, ["--diff", tree_old, tree_new, "-f", "md"])
    want = open(os.path.join(DATA, "diff-tree.expected")).read()
    check(tag + "md-lines/no-lines-folded-trees", rc == 0 and out == want, out)


def write_profile(path, benches):
    """benches: [(name, {function: {line: cost}})], one event."""
    out = ["# callgrind format", "version: 1", "cmd: ./gen"]
    for i, (name, fns) in enumerate(benches):
        out += ["part: %d" % (i + 1), "desc: Trigger: Client Request: " + name,
                "positions: line", "events: Ir", "ob=/bin/gen", "fl=/src/gen.c"]
        total = 0
        for fn, lines in fns.items():
            out.append("fn=" + fn)
            for ln, cost in sorted(lines.items()):
                if cost:
                    out.append("%d %d" % (ln, cost))
                    total += cost
        out.append("totals: %d" % total)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def test_limits(binary, tag, check, work):
    """7 changed benchmarks (and one unchanged), 5 functions each, every
    line of a different change: only the largest are listed."""
    old, new = [], []
    for b in range(8):
        fo, fn = {}, {}
        for k in range(5):
            name = "b%d_f%d" % (b, k)
            # line l of function k of benchmark b: distinct changes, some
            # negative, the first benchmark unchanged
            fo[name] = {10 * k + l: 1000 + 37 * l for l in range(1, 6)}
            fn[name] = {ln: c + (0 if b == 0 else (b + 1) * (((k * 5 + l) * 13) % 23 + 1)
                                 * (-1 if (k + l) % 3 == 0 else 1))
                        for l, (ln, c) in enumerate(sorted(fo[name].items()), 1)}
        old.append(("bench%d" % b, fo))
        new.append(("bench%d" % b, fn))
    po, pn = os.path.join(work, "limits-old.cg"), os.path.join(work, "limits-new.cg")
    write_profile(po, old)
    write_profile(pn, new)
    rc, out, err = fold(binary, ["--diff", po, pn, "-f", "md"])
    rows, _ = listed(out)
    table = [l.split(" | ")[0][2:] for l in out.partition(LINES_HEADING)[0].splitlines()
             if l.startswith("| bench")]
    changed = [b for b in table if not any(
        l.startswith("| %s |" % b) and l.endswith(" 0.0% |") for l in out.splitlines())]
    check(tag + "md-lines/limits-five-benchmarks",
          rc == 0 and list(rows) == changed[:5] and len(changed) == 7
          and "\n2 more benchmarks changed; their lines are not listed.\n" in out,
          "%s %s" % (list(rows), changed))
    bad = []
    for bench, lines in rows.items():
        fo, fn = dict(old)[bench], dict(new)[bench]
        self_change = {f: abs(sum(fn[f].values()) - sum(fo[f].values())) for f in fo}
        top = sorted(self_change, key=lambda f: (-self_change[f], f))[:3]
        want = []
        for f in top:
            d = {ln: (fo[f].get(ln, 0), fn[f].get(ln, 0)) for ln in fo[f]}
            best = sorted(d, key=lambda ln: (-abs(d[ln][1] - d[ln][0]), ln))[:3]
            want += [(f, "gen.c", ln) + d[ln] for ln in best]
        if lines != want or len(lines) > 9:
            bad.append("%s: %s != %s" % (bench, lines, want))
    check(tag + "md-lines/limits-largest-changes", rows and not bad, "; ".join(bad[:2]))


def run_all(binary, tag, check, work):
    work = os.path.join(work, "md-lines" + ("-" + tag.strip("/") if tag else ""))
    os.makedirs(work, exist_ok=True)
    test_golden(binary, tag, check, work)
    test_limits(binary, tag, check, work)


def run_real(binaries, valgrind, cc, report, check, work):
    """Two builds of tests/progs/mdlines.c under valgrind, once; each
    binary's md diff of them checked."""
    work = os.path.join(work, "md-lines-real")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(HERE, "progs", "mdlines.c")
    outs = []
    for v, flags in (("v1", []), ("v2", ["-DV2"])):
        # one name for both builds, as a CI job's: code without a symbol
        # is named by its object and pairs too
        os.makedirs(os.path.join(work, v), exist_ok=True)
        exe = os.path.join(work, v, "mdlines")
        out = os.path.join(work, "callgrind.out." + v)
        p = subprocess.run([cc, "-O0", "-g"] + flags + ["-o", exe, src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        if p.returncode:
            check("md-lines/real-build", False, p.stdout.decode(errors="replace")[-400:])
            return
        p = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out, exe],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        if p.returncode or not os.path.exists(out):
            check("md-lines/real-valgrind", False, p.stdout.decode(errors="replace")[-400:])
            return
        outs.append(out)
    text = open(src).read().split("\n")
    v2_lines = {i + 1 for i, l in enumerate(text) if "/* v2 */" in l}
    begin = next(i + 1 for i, l in enumerate(text) if "compute-begin" in l)
    end = next(i + 1 for i, l in enumerate(text) if "compute-end" in l)
    old = base_costs(outs[0], "Ir")
    new = base_costs(outs[1], "Ir")
    # compute()'s lines, by the independent reader: the one that changed most
    changes = {ln: abs(new.get(("mdlines.c", ln), 0) - old.get(("mdlines.c", ln), 0))
               for ln in range(begin, end + 1)}
    most = max(changes, key=lambda ln: (changes[ln], -ln))
    for binary, tag in binaries:
        rc, out, err = fold(binary, ["--diff", outs[0], outs[1], "-f", "md"])
        rows, _ = listed(out)
        lines = [r for rs in rows.values() for r in rs]
        first = lines[0] if lines else None
        check(tag + "md-lines/real-changed-line-listed",
              rc == 0 and first is not None and first[0] == "compute"
              and first[1:3] == ("mdlines.c", most) and most in v2_lines,
              "first %s, want compute at mdlines.c:%d (v2 lines %s) %s" %
              (first, most, sorted(v2_lines), out[-800:] + err))
        check_values(tag + "md-lines/real-values", out, {b: outs[0] for b in rows},
                     {b: outs[1] for b in rows}, check)
        steady = [r for r in lines if r[0] == "steady"]
        check(tag + "md-lines/real-unchanged-function-not-listed", lines and not steady, steady)
