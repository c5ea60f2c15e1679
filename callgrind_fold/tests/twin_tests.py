"""A folded tree and its callgrind.out given together (twins, src/twins.h):
stacks from the tree, lines from the callgrind.out. Called by run_tests.py
with the patched valgrind (its --dump-folded=yes writes both); every test
prints one PASS:/FAIL:/SKIP: line through the driver.

What is checked, on real runs of tests/progs (calls.c with two dumps,
threads.c with --separate-threads=yes):
  * folded text and svg of tree + callgrind.out (either order) are those
    of the tree alone, byte for byte, every event;
  * -f pprof: each (file, line)'s cost of every event equals the
    callgrind.out's own, summed by pprof_tests.callgrind_line_costs() (a
    reader independent of callgrind_fold); the samples' stacks are the
    tree's folded stacks, every event; no "estimated" note, the note and
    the profile's comment saying where stacks and lines come from;
  * a callgrind.out of another run, or one whose totals differ from its
    tree's, is an error naming both files;
  * a function the tree names otherwise: its lines left out, counted in a
    note, its cost kept;
  * go tool pprof -list per line (SKIP without go)."""
import os
import re

import pprof_tests

_T = None
EVENTS_OF = re.compile(r"^events:\s*(.*)$", re.M)


def _events(tree):
    m = EVENTS_OF.search(open(tree).read())
    return m.group(1).split() if m else []


def _pprof(binary, args, out):
    """(profile or None, stderr) of -f pprof -o out ARGS."""
    rc, _, err = _T.fold(binary, ["-f", "pprof", "-o", out] + args)
    if rc != 0:
        return None, "rc %d: %s" % (rc, err)
    try:
        return pprof_tests.decode_profile(open(out, "rb").read()), err
    except Exception as e:  # noqa: BLE001 - a broken profile is a failure
        return None, "%s: %s" % (type(e).__name__, e)


def _tree_stacks(binary, trees, events):
    """{stack: [count per event]} of the trees alone, folded per event."""
    out = {}
    for k, ev in enumerate(events):
        rc, text, err = _T.fold(binary, ["--event=" + ev] + trees)
        if rc != 0:
            raise RuntimeError("fold --event=%s: %s" % (ev, err))
        for stack, count in _T.parse_folded(text):
            out.setdefault(tuple(stack), [0] * len(events))[k] += count
    return out


def _check_pair(binary, tag, name, trees, outs, work):
    """Every check of one run's tree and callgrind.out files."""
    n = lambda what: tag + "twins/%s/%s" % (name, what)
    events = _events(trees[0])
    if not _T.check(n("written"), trees and outs and events, "trees %r outs %r" % (trees, outs)):
        return
    # formats without lines: the tree's output, byte for byte, either order
    bad = []
    for fmt in ([], ["-f", "svg"]):
        for ev in events if not fmt else events[:1]:
            args = fmt + ["--event=" + ev]
            alone = _T.fold(binary, args + trees)
            for inputs in (trees + outs, outs + trees):
                both = _T.fold(binary, args + inputs)
                if alone[0] != 0 or both[0] != 0 or both[1] != alone[1]:
                    bad.append("%s %s: rc %d/%d %s" % (" ".join(args), inputs[0], alone[0],
                                                       both[0], both[2][-200:]))
                elif "estimated" in both[2]:
                    bad.append("%s: estimated note: %s" % (" ".join(args), both[2]))
    _T.check(n("folded-and-svg-are-the-trees"), not bad, "; ".join(bad[:3]))

    # pprof: lines exact, stacks the tree's
    out = os.path.join(work, "twins-%s.pb.gz" % name)
    prof, err = _pprof(binary, outs + trees, out)
    if not _T.check(n("pprof-runs"), prof is not None, err):
        return
    want = pprof_tests.callgrind_line_costs(outs)
    got = pprof_tests.pprof_line_costs(prof)
    problems = []
    for ev in events:
        if got.get(ev) != want.get(ev):
            diff = set(got.get(ev, {}).items()) ^ set(want.get(ev, {}).items())
            problems.append("%s: lines differ, e.g. %r" % (ev, sorted(diff)[:3]))
    _T.check(n("pprof-every-line-is-the-callgrind.outs"), not problems and want,
             "; ".join(problems))
    types = [t for t, _ in prof["sample_type"]]
    # events of the callgrind.out the tree does not keep (--folded-event):
    # no cost and no line there, the tree's stacks being the stacks
    others = [t for t in types if t not in events]
    _T.check(n("pprof-no-cost-in-events-the-tree-lacks"),
             not any(got.get(t) for t in others) and
             all(v[types.index(t)] == 0 for _, v in prof["samples"] for t in others),
             repr(others))
    try:
        kept = [types.index(t) for t in events]
        stacks = _tree_stacks(binary, trees, events)
        samples = {k: [v[i] for i in kept] for k, v in pprof_tests.named_samples(prof).items()}
        samples = {k: v for k, v in samples.items() if any(v)}
        diff = set((k, tuple(v)) for k, v in samples.items()) ^ \
            set((k, tuple(v)) for k, v in stacks.items())
        ok, detail = not diff, "e.g. %r" % sorted(diff)[:2]
    except RuntimeError as e:
        ok, detail = False, str(e)
    _T.check(n("pprof-stacks-are-the-trees"), ok, detail)
    _T.check(n("pprof-notes"),
             "estimated" not in err and "lines from " + outs[0] in err
             and "stacks from its folded tree " + trees[0] in err,
             err)
    _T.check(n("pprof-comment-exact-stacks"),
             any("stacks are exact" in c and "per function" in c for c in prof["comments"]),
             repr(prof["comments"]))
    return out


def _go_list(binary, tag, profile, outs, srcdir):
    """go tool pprof -list per line: each calls.c line's flat cost of every
    event is the callgrind.out's."""
    n = tag + "twins/go-tool-pprof-list"
    cmd, why = pprof_tests._go_pprof()
    if not cmd:
        _T.report("SKIP", n, why)
        return
    want = pprof_tests.callgrind_line_costs(outs)
    problems = []
    for ev in want:
        exp = {(os.path.basename(f), ln): v for (f, ln), v in want[ev].items()
               if os.path.basename(f) == "calls.c"}
        if not exp:
            continue  # no cost of calls.c in this event: nothing to list
        try:
            text = pprof_tests._pprof(cmd, ["-list=^(main|phase_a|phase_b|shared|helper|leaf)$",
                                            "-sample_index=" + ev, "-source_path=" + srcdir,
                                            profile])
        except RuntimeError as e:
            problems.append(str(e))
            continue
        got = {}
        for (_, fl, ln), v in pprof_tests.list_flat(text).items():
            got[(fl, ln)] = got.get((fl, ln), 0) + v
        if got != exp:
            problems.append("%s: -list %r, want %r" % (ev, sorted(got.items())[:4],
                                                       sorted(exp.items())[:4]))
    _T.check(n, not problems and want, "; ".join(problems))


def _check_mismatch(binary, tag, tree, out, other_out, work):
    """Files that are not twins: an error naming both, no output."""
    n = lambda what: tag + "twins/not-twins/" + what
    target = os.path.join(work, "twins-mismatch.pb.gz")
    for fmt in ([], ["-f", "pprof", "-o", target]):
        rc, text, err = _T.fold(binary, fmt + [tree, other_out])
        _T.check(n("another-run" + ("-pprof" if fmt else "")),
                 rc != 0 and text == "" and other_out in err and tree in err, err)
    # same pid, part and thread, but a total changed (cost lines and totals:)
    body = open(out).read()
    # a self-cost line: the line after a calls= line is a call's inclusive cost
    first = next((m for m in re.finditer(r"(?m)^(\d+) (\d+)((?: \d+)*)$", body)
                  if not body[:m.start()].rstrip("\n").rsplit("\n", 1)[-1].startswith("calls=")),
                 None)
    totals = re.search(r"(?m)^totals: (\d+)", body)
    if not (first and totals):
        _T.check(n("totals-differ"), False, "no cost line in " + out)
        return
    changed = (body[:first.start()] + "%s %d%s" % (first.group(1), int(first.group(2)) + 1,
                                                  first.group(3)) + body[first.end():])
    changed = changed.replace(totals.group(0), "totals: %d" % (int(totals.group(1)) + 1), 1)
    bad = os.path.join(work, "twins-changed.out")
    with open(bad, "w") as f:
        f.write(changed)
    rc, text, err = _T.fold(binary, [bad, tree])
    _T.check(n("totals-differ"), rc != 0 and "not the twin" in err and bad in err and tree in err,
             "rc %d %s" % (rc, err))


def _check_left_out(binary, tag, tree, outs, work):
    """A function the tree names otherwise: its lines are left out (one
    note counts it), the others' lines and every cost kept."""
    n = lambda what: tag + "twins/left-out/" + what
    text = open(tree).read()
    renamed = re.sub(r"(?m)^(fn: \d+) helper$", r"\1 helper_renamed", text)
    if not _T.check(n("renamed"), renamed != text, "no helper in " + tree):
        return
    path = os.path.join(work, "twins-renamed.tree")
    with open(path, "w") as f:
        f.write(renamed)
    prof, err = _pprof(binary, [path] + outs, os.path.join(work, "twins-renamed.pb.gz"))
    if not _T.check(n("runs"), prof is not None, err):
        return
    _T.check(n("note-counts-it"), "the lines of 1 function(s)" in err, err)
    want = pprof_tests.callgrind_line_costs(outs)
    got = pprof_tests.pprof_line_costs(prof)
    ev = prof["sample_type"][0][0]
    samples = pprof_tests.named_samples(prof)
    helper = sum(v[0] for k, v in samples.items() if k[-1] == "helper_renamed")
    total = sum(v[0] for v in samples.values())
    # helper's cost at a location without a line (no file); every other
    # line as the callgrind.out says, and the lines missing are helper's
    kept = {k: v for k, v in got.get(ev, {}).items() if k[0] != ""}
    missing = {k: v for k, v in want[ev].items() if k not in kept}
    _T.check(n("cost-kept-lines-of-others"),
             helper > 0 and total == _T.totals_of(outs, ev) and
             all(want[ev].get(k) == v for k, v in kept.items()) and
             sum(missing.values()) == helper,
             "helper %d, total %d, missing %r" % (helper, total, sorted(missing.items())[:4]))


def run(T, binary, tag, g, work):
    global _T
    _T = T
    pprof_tests._T = T
    tree = os.path.join(work, "twins-calls.tree")
    try:
        # two dumps (CALLGRIND_DUMP_STATS between the phases): files .1, .2
        outs = g.profile("calls", ["--dump-folded=yes", "--cache-sim=yes",
                                   "--folded-out-file=" + tree], ["dump"], clean=[tree])
        other = g.profile("calls", ["--dump-folded=yes",
                                    "--folded-out-file=" + tree + ".other"],
                          clean=[tree + ".other"])
    except RuntimeError as e:
        T.report("FAIL", tag + "twins/setup", str(e))
        return
    trees = [f for f in T.dump_files(tree) if os.path.getsize(f) > 0]
    T.check(tag + "twins/calls/two-dumps", len(trees) == 2 and len(outs) == 2,
            "trees %r outs %r" % (trees, outs))
    profile = _check_pair(binary, tag, "calls", trees, outs, work)
    if profile:
        _go_list(binary, tag, profile, outs, os.path.join(T.HERE, "progs"))
    # one file of several parts
    combined = tree + ".combined"
    try:
        couts = g.profile("calls", ["--dump-folded=yes", "--combine-dumps=yes",
                                    "--folded-out-file=" + combined], ["dump"],
                          clean=[combined])
        _check_pair(binary, tag, "combine-dumps", [combined], couts, work)
    except RuntimeError as e:
        T.report("FAIL", tag + "twins/combine-dumps/setup", str(e))
    # the tree keeps one event of the callgrind.out's nine
    one = tree + ".one-event"
    try:
        oouts = g.profile("calls", ["--dump-folded=yes", "--cache-sim=yes", "--folded-event=Ir",
                                    "--folded-out-file=" + one], clean=[one])
        if T.check(tag + "twins/folded-event/tree-has-one", _events(one) == ["Ir"],
                   repr(_events(one))):
            _check_pair(binary, tag, "folded-event", [one], oouts, work)
    except RuntimeError as e:
        T.report("FAIL", tag + "twins/folded-event/setup", str(e))
    # a section per thread, in files per thread
    ttree = os.path.join(work, "twins-threads.tree")
    try:
        touts = g.profile("threads", ["--dump-folded=yes", "--separate-threads=yes",
                                      "--folded-out-file=" + ttree], clean=[ttree])
        ttrees = [f for f in T.dump_files(ttree) if os.path.getsize(f) > 0]
        T.check(tag + "twins/separate-threads/files", len(ttrees) > 1 and len(touts) > 1,
                "trees %r outs %r" % (ttrees, touts))
        _check_pair(binary, tag, "separate-threads", ttrees, touts, work)
    except RuntimeError as e:
        T.report("FAIL", tag + "twins/separate-threads/setup", str(e))
    _check_mismatch(binary, tag, trees[0], outs[0], other[0], work)
    # dump 1 has helper (phase_a); both lists sorted alike: base, .1
    first = [i for i, t in enumerate(trees) if re.search(r"(?m)^fn: \d+ helper$",
                                                          open(t).read())]
    if T.check(tag + "twins/left-out/dump-with-helper", len(first) == 1 and len(outs) == 2,
               repr(trees)):
        _check_left_out(binary, tag, trees[first[0]], [outs[first[0]]], work)
