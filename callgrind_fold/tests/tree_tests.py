"""Tests of the folded tree input (callgrind --dump-folded=yes,
docs/folded-tree.md). Called by run_tests.py once per binary (plain and
sanitizer build); every test prints one PASS:/FAIL:/SKIP: line through the
driver's report()/check().

Expected stacks come from tests/folded_tree.py's reference reader, an
independent implementation of the format, and from the trees' own
"totals:" lines; hand-written cases are in tests/cases/tree_*.tree and
the malformed ones in tests/malformed/tree_*.tree."""
import os
import subprocess
import sys
import time

import folded_tree

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "work", "tree")
CASE = os.path.join(HERE, "cases", "tree_threads.tree")
EVENTS = ("Ir", "Dr", "Dw")


def run(cmd, stdin=None, timeout=300):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=stdin, timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, b"", "(timed out)"


def fold(binary, args):
    rc, out, err = run([binary] + args)
    return rc, out.decode("utf-8", "replace"), err


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return path


def generated(name, **kw):
    """A random tree (folded_tree.generate) and its text, made once."""
    path = os.path.join(WORK, name + ".tree")
    folded = kw.pop("folded", None)
    with open(path, "w") as out:
        fout = open(os.path.join(WORK, folded), "w") if folded else None
        folded_tree.generate(out, folded=fout, **kw)
        if fout:
            fout.close()
    return path, open(path).read()


def against_reference(binary, tag, check, name, path, text, parts, events,
                      keep_clones=False):
    """callgrind_fold's output for each part and event equals the reference
    reader's, sums to the totals: lines, and comes without any note."""
    bad = []
    for part in parts:
        for event in events:
            args = ["--event=" + event] + (["--part=%d" % part] if part else [])
            if keep_clones:
                args.append("--keep-clones")
            rc, out, err = fold(binary, args + [path])
            stacks, total = folded_tree.fold(text, event, part, keep_clones)
            got = sum(int(l.rpartition(" ")[2]) for l in out.splitlines())
            if rc != 0 or err:
                bad.append("%s: rc %d %s" % (args, rc, err.strip()))
            elif out != folded_tree.folded_lines(stacks):
                bad.append("%s: stacks differ from the reference" % args)
            elif got != total:
                bad.append("%s: sum %d, totals %d" % (args, got, total))
    check(tag + "tree/" + name, not bad, "; ".join(bad))


def test_reference(binary, tag, check):
    text = open(CASE).read()
    against_reference(binary, tag, check, "case-vs-reference-and-totals", CASE, text,
                      (None, 1, 2), EVENTS)
    against_reference(binary, tag, check, "case-keep-clones", CASE, text,
                      (None, 1), ("Ir",), keep_clones=True)
    # Random trees: many functions (ids up to 5000, sparse), few (names
    # such as "a;b" and "fib'2" often, clones under one parent), deep.
    for seed, kw in ((1, {}), (2, {"functions": 40}), (3, {"functions": 5000, "depth": 60})):
        path, text = generated("random%d" % seed, nodes=6000, parts=3, threads=2,
                               events=EVENTS, seed=seed, **kw)
        against_reference(binary, tag, check, "random%d-vs-reference" % seed, path, text,
                          (None, 1, 3), EVENTS)
    path, text = generated("random2", nodes=6000, parts=3, threads=2, events=EVENTS,
                           seed=2, functions=40)
    against_reference(binary, tag, check, "random2-keep-clones", path, text, (None,),
                      ("Dr",), keep_clones=True)


def test_inputs(binary, tag, check):
    """A tree reads like the folded stacks it stands for, from a file,
    from stdin, with CRLF lines, and summed with any other input."""
    path, _ = generated("equiv", nodes=5000, parts=2, threads=1, events=("Ir", "Dr"),
                        seed=7, functions=50, folded="equiv.folded")
    folded = os.path.join(WORK, "equiv.folded")
    rc1, tree_out, err1 = fold(binary, [path])
    rc2, text_out, err2 = fold(binary, [folded])
    check(tag + "tree/same-stacks-as-folded-text",
          rc1 == rc2 == 0 and tree_out == text_out and tree_out and err1 == "",
          "%d %d %s %s" % (rc1, rc2, err1, err2))
    with open(path, "rb") as f:
        rc, out, err = run([binary, "-"], stdin=f)
    check(tag + "tree/stdin", rc == 0 and out.decode() == tree_out, err)
    crlf = write("crlf.tree", open(path).read().replace("\n", "\r\n"))
    rc, out, err = fold(binary, [crlf])
    check(tag + "tree/crlf-lines", rc == 0 and out == tree_out, err)

    # Summed with a callgrind profile and folded stacks: each stack's count
    # is the sum of its counts in the inputs read alone.
    others = [os.path.join(HERE, "cases", "merge_inputs.cg"),
              os.path.join(HERE, "cases", "merge_inputs.more"), CASE]
    want = {}
    for p in [path] + others:
        rc, out, err = fold(binary, [p])
        for line in out.splitlines():
            s, _, c = line.rpartition(" ")
            want[s] = want.get(s, 0) + int(c)
    rc, out, err = fold(binary, [path] + others)
    check(tag + "tree/summed-with-callgrind-and-folded",
          rc == 0 and out == folded_tree.folded_lines(want), "rc %d %s" % (rc, err))
    rc, out, err = fold(binary, [CASE, CASE])
    rc1, once, _ = fold(binary, [CASE])
    doubled = "".join("%s %d\n" % (l.rpartition(" ")[0], 2 * int(l.rpartition(" ")[2]))
                      for l in once.splitlines())
    check(tag + "tree/same-tree-twice-doubles", rc == rc1 == 0 and out == doubled, err)

    # A part without nodes (a dump with no cost) is fine.
    empty = write("empty_part.tree", "# callgrind folded tree\nversion: 1\nevents: Ir\n"
                  "part: 1\ntotals: 0\npart: 2\nfn: 1 main\n1 1 5\ntotals: 5\n")
    rc, out, err = fold(binary, ["--part=1", empty])
    rc2, out2, err2 = fold(binary, [empty])
    check(tag + "tree/part-without-nodes",
          rc == 0 and out == "" and rc2 == 0 and out2 == "main 5\n", err + err2)
    # Sparse, huge function ids (a hash map, not an array).
    sparse = write("sparse_ids.tree", "# callgrind folded tree\nevents: Ir\npart: 1\n"
                   "fn: 18446744073709551615 a\nfn: 4194304 b\n"
                   "1 18446744073709551615 1\n2 4194304 2\ntotals: 3\n")
    rc, out, err = fold(binary, [sparse])
    check(tag + "tree/huge-function-ids", rc == 0 and out == "a 1\na;b 2\n", err)


def test_options(binary, tag, check):
    rc, out, err = fold(binary, ["--event=Bogus", CASE])
    check(tag + "tree/unknown-event-lists-events",
          rc == 2 and out == "" and err.startswith(CASE + ":6: ") and "Bogus" in err and
          "Ir Dr Dw" in err, "rc %d %s" % (rc, err))
    rc, out, err = fold(binary, ["--part=9", CASE])
    check(tag + "tree/no-such-part", rc == 2 and out == "" and "no part 9" in err, err)
    rc1, plain, _ = fold(binary, [CASE])
    rc, out, err = fold(binary, ["--frame=fn+obj", CASE])
    check(tag + "tree/frame=fn+obj-no-brackets",
          rc == rc1 == 0 and out == plain and "[" not in out, err)
    rc, out, err = fold(binary, ["--inline", CASE])
    check(tag + "tree/inline-passed-through-with-warning",
          rc == 0 and out == plain and "passed through unexpanded" in err and
          len(err.splitlines()) == 1, err)


def test_writers(binary, tag, check):
    """Every writer draws a tree as it draws the equivalent folded stacks
    (the count name fixed: folded stacks have none of their own). The
    pictures with --full-stacks: by default a tree's parts are rooted at
    the user's code and folded stacks are drawn as they are."""
    path, _ = generated("writers", nodes=3000, parts=1, threads=1, events=("Ir",),
                        seed=11, functions=80, folded="writers.folded")
    folded = os.path.join(WORK, "writers.folded")
    base, _ = generated("writers_base", nodes=3000, parts=1, threads=1, events=("Ir",),
                        seed=12, functions=80, folded="writers_base.folded")
    base_folded = os.path.join(WORK, "writers_base.folded")
    full = "--full-stacks"
    for name, args in (("svg", ["-f", "svg", full]),
                       ("svg-inverted", ["-f", "svg", "--inverted", full]),
                       ("dot", ["-f", "dot"]), ("speedscope", ["-f", "speedscope"]),
                       ("colors=obj", ["-f", "svg", "--colors=obj", full]),
                       ("diff", ["--diff=BASE"]),
                       ("diff-svg", ["--diff=BASE", "-f", "svg", full])):
        def go(inp, b):
            return fold(binary, ["--countname=units"] +
                        [a.replace("BASE", b) for a in args] + [inp])
        rc1, a, err1 = go(path, base)
        rc2, b, err2 = go(folded, base_folded)
        # speedscope names the profile after the input
        a = a.replace(os.path.basename(path), "INPUT")
        b = b.replace(os.path.basename(folded), "INPUT")
        check(tag + "tree/writer-" + name, rc1 == rc2 == 0 and a == b and len(a) > 100,
              "rc %d %d %s %s" % (rc1, rc2, err1, err2))
    # The count name comes from the tree's event, as for callgrind.out.
    rc, out, err = fold(binary, ["-f", "svg", CASE])
    check(tag + "tree/svg-countname-from-event", rc == 0 and "instructions" in out, err)
    rc, out, err = fold(binary, ["-f", "dot", "--event=Dr", CASE])
    check(tag + "tree/dot-without-call-counts",
          rc == 0 and "data reads" in out and "call counts unknown" in out, err)


def measured(cmd, sanitized, timeout=120):
    """Exit status, seconds, peak memory (KB) and the frames per output
    line of cmd run alone, killed beyond 1.5 GB (a regression must fail
    the test, not exhaust the machine)."""
    probe = ("import resource, subprocess, sys, time\n"
             "limit = 1536 << 20\n"
             "pre = None if sys.argv[1] == 'san' else (lambda: resource.setrlimit(\n"
             "    resource.RLIMIT_AS, (limit, limit)))\n"
             "t = time.time()\n"
             "try:\n"
             "    p = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE,\n"
             "                       stderr=subprocess.DEVNULL, preexec_fn=pre,\n"
             "                       timeout=%d)\n"
             "    rc, out = p.returncode, p.stdout.split(b'\\n')\n"
             "except subprocess.TimeoutExpired:\n"
             "    rc, out = 124, []\n"
             "print(rc, time.time() - t,\n"
             "      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,\n"
             "      ' '.join(str(l.count(b';') + 1) for l in out if l))\n" % timeout)
    env = dict(os.environ, ASAN_OPTIONS="hard_rss_limit_mb=1536")
    p = subprocess.run([sys.executable, "-c", probe, "san" if sanitized else "plain"] + cmd,
                       stdout=subprocess.PIPE, env=env, timeout=timeout + 60)
    rc, secs, rss, *frames = p.stdout.decode().split()
    return int(rc), float(secs), int(rss), [int(f) for f in frames]


def test_deep(binary, tag, check):
    """1,000,000 nested nodes: no recursion, and memory linear in the
    depth (the nodes without cost add no stack)."""
    path = os.path.join(WORK, "deep.tree")
    n = 1000000
    with open(path, "w") as f:
        f.write("# callgrind folded tree\nversion: 1\nevents: Ir\npart: 1\nfn: 1 f\nfn: 2 g\n")
        f.write("".join("%d %d%s\n" % (i, 1 + i % 2, " 5" if i == n else
                                        " 3" if i == n // 2 else "")
                        for i in range(1, n + 1)))
        f.write("totals: 8\n")
    rc, secs, rss, frames = measured([binary, path], sanitized=bool(tag))
    check(tag + "tree/million-deep",
          rc == 0 and sorted(frames) == [n // 2, n] and secs < 60 and rss < 400000,
          "rc %d, %.1f s, %d KB, frames per line %s" % (rc, secs, rss, frames))


def test_speed(binary, tag, check):
    """Reading a tree costs O(nodes) plus the stacks it adds: not more
    than reading the folded stacks text of the same profile."""
    path, _ = generated("speed", nodes=300000, depth=40, parts=1, threads=1,
                        events=("Ir", "Dr"), seed=5, functions=5000, folded="speed.folded")
    folded = os.path.join(WORK, "speed.folded")

    def best(inp):
        times = []
        for _ in range(3):
            t = time.time()
            rc, _, _ = run([binary, "-o", os.devnull, inp])
            times.append(time.time() - t if rc == 0 else 1e9)
        return min(times)
    t_tree, t_text = best(path), best(folded)
    check(tag + "tree/speed-300k-nodes",
          t_tree < 10 and t_tree <= 1.2 * t_text + 0.05,
          "tree %.3f s, folded text %.3f s" % (t_tree, t_text))


def run_all(binary, tag, report, check):
    os.makedirs(WORK, exist_ok=True)
    tests = [("reference", lambda: test_reference(binary, tag, check)),
             ("inputs", lambda: test_inputs(binary, tag, check)),
             ("options", lambda: test_options(binary, tag, check)),
             ("writers", lambda: test_writers(binary, tag, check)),
             ("deep", lambda: test_deep(binary, tag, check))]
    if not tag:  # timing means nothing under the sanitizers
        tests.append(("speed", lambda: test_speed(binary, tag, check)))
    for name, test in tests:
        try:
            test()
        except Exception as e:  # noqa: BLE001 - a broken output must not stop the run
            report("FAIL", tag + "tree/" + name + "/crashed", "%s: %s" % (type(e).__name__, e))
