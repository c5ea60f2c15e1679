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
    # A tree without threads given twice is summed; one whose sections
    # name their threads (and pid) would read each thread twice: refused.
    plain = os.path.join(HERE, "cases", "bench_parts_tree.tree")
    rc, out, err = fold(binary, [plain, plain])
    rc1, once, _ = fold(binary, [plain])
    doubled = "".join("%s %d\n" % (l.rpartition(" ")[0], 2 * int(l.rpartition(" ")[2]))
                      for l in once.splitlines())
    check(tag + "tree/same-tree-twice-doubles", rc == rc1 == 0 and out == doubled, err)
    rc, out, err = fold(binary, [CASE, CASE])
    check(tag + "tree/same-threads-twice-refused",
          rc == 2 and out == "" and err.startswith(CASE + ":11: part 1 has a second section "
                                                   "of thread 1 (the first: " + CASE + ":11)"),
          err)

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


INLINED = os.path.join(HERE, "cases", "tree_inlined.tree")


def test_inlined(binary, tag, check):
    """A tree with inlined frames (callgrind with --read-inline-info=yes;
    tests/cases/tree_inlined.tree, whose folded outputs are golden cases):
    pprof makes each chain of inlined frames lines of the
    location of the frame they are inlined into; the picture and
    speedscope label them as other C++/Rust frames, " [inlined]" kept; --diff pairs the tree's
    benchmark by name; --inline leaves a tree as it is."""
    import pprof_tests
    out = os.path.join(WORK, "inlined.pb.gz")
    rc, _, err = fold(binary, ["-f", "pprof", "-o", out, INLINED])
    ok = rc == 0 and err == ""
    if ok:
        prof = pprof_tests.decode_profile(open(out, "rb").read())
        lines = sorted(len(l["lines"]) for l in prof["locations"].values())
        stacks = pprof_tests.named_samples(prof)
        trim = ("main", "wc::count_words", "wc::normalize",
                "<str>::trim_matches::<wc::normalize::{closure#0}>")
        # normalize and trim_matches inlined into count_words: one location
        # of three lines; rustc_entry called from inlined code: its own
        ok = (lines == [1, 1, 1, 2, 2, 3] and stacks.get(trim) == [200, 10]
              and stacks.get(("main", "wc::count_words", "wc::normalize",
                              "<hashbrown::map::HashMap<alloc::string::String, "
                              "usize>>::rustc_entry")) == [50, 5])
        err = "lines %s, stacks %s" % (lines, stacks)
    check(tag + "tree/inlined/pprof-lines", ok, err)
    rc, svg, err = fold(binary, ["-f", "svg", INLINED])
    check(tag + "tree/inlined/svg-labels",
          rc == 0 and ">wc::normalize [inlined]<" in svg
          and ">str::trim_matches [inlined]<" in svg
          and "&lt;str&gt;::trim_matches::&lt;wc::normalize::{closure#0}&gt; "
              "[inlined] (200 instructions" in svg, err)
    rc, js, err = fold(binary, ["-f", "speedscope", INLINED])
    names = []
    if rc == 0:
        import json
        names = [f["name"] for f in json.loads(js)["shared"]["frames"]]
    check(tag + "tree/inlined/speedscope-names",
          names == ["main", "wc::count_words",
                    "std::_Rb_tree::_M_insert_unique [inlined]",
                    "wc::normalize [inlined]", "HashMap::rustc_entry",
                    "str::trim_matches [inlined]"], err + str(names))
    new = write("inlined_new.tree", open(INLINED).read()
                .replace("\n3 4 300 40\n", "\n3 4 150 40\n")
                .replace("totals: 730 83", "totals: 580 83"))
    rc, md, err = fold(binary, ["--diff", INLINED, new, "-f", "md"])
    check(tag + "tree/inlined/md-diff",
          rc == 0 and "| bench::count | 730 | 580 | -20.5% |" in md, err + md)
    rc, a, err = fold(binary, ["--inline", "--inline-cache=no", INLINED])
    rc2, b, _ = fold(binary, [INLINED])
    check(tag + "tree/inlined/inline-option-leaves-a-tree",
          rc == rc2 == 0 and a == b and a.count("[inlined]") == 5, err)


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


# ---- the reader's fast paths (src/read/treescan.h) ------------------------
#
# Most node lines are read 8 bytes at a time and summed in lanes; a line
# in any other form goes back to the exact reader.  The bad lines below
# come before padding, so that the fast path sees them with bytes after
# them in the buffer (as in a big file), and each must give the exact
# reader's message.  The messages are those of callgrind_fold before the
# fast paths.

EVENTS13 = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
            "Bc", "Bcm", "Bi", "Bim")
HEAD13 = ("# callgrind folded tree\nversion: 1\nevents: %s\npart: 1\nfn: 1 main\n"
          "fn: 2 work\n1 1 1 2 3 4 5 6 7 8 9 10 11 12 13\n" % " ".join(EVENTS13))
PAD13 = "2 2 1 0 0 2 0 0 0 1 1 0 0 0 1\n" * 40


def test_fast_path_errors(binary, tag, check):
    cases = [
        ("overflow-unwanted-column", b"2 2 1 2 3 4 18446744073709551616 6\n",
         b'cost "18446744073709551616" does not fit in 64 bits'),
        ("overflow-last-column", b"2 2 1 2 3 4 5 6 7 8 9 10 11 12 99999999999999999999\n",
         b'cost "99999999999999999999" does not fit in 64 bits'),
        ("too-many-columns", b"2 2 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n",
         b'more costs than the 13 event(s) of the "events:" line'),
        ("too-many-one-digit", b"2 2 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n",
         b'more costs than the 13 event(s) of the "events:" line'),
        ("bad-byte", b"2 2 1 2 3x 4\n", b'bad cost "3x"'),
        ("high-byte", b"2 2 1 2 \xff 4\n", b'bad cost "\xff"'),
        ("bad-byte-in-run", b"2 2 1 2 3 4 5 6 7 8 9 1 1 1 1x\n", b'bad cost "1x"'),
        ("negative", b"2 2 1 -4 2\n", b'bad cost "-4"'),
        ("depth-jump", b"4 2 1 2\n", b"depth 4 after depth 2: a path grows by one frame at a time"),
        ("undefined-id", b"2 9 1 2\n", b'function id 9 is used before any "fn: 9 NAME" line'),
        ("bad-id", b"2 2x 1 2\n", b'bad function id "2x"'),
        ("id-overflow", b"2 18446744073709551617 1\n",
         b'function id "18446744073709551617" does not fit in 64 bits'),
    ]
    bad = []
    for name, line, message in cases:
        # the bad line comes third in the part, after two good ones
        text = HEAD13.encode() + b"2 2 5 5 5\n" + line + PAD13.encode() + b"totals: 0\n"
        path = write("fast_%s.tree" % name, text)
        p = subprocess.run([binary, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        want = path.encode() + b":9: " + message + b"\n"
        if p.returncode != 2 or p.stderr != want or p.stdout:
            bad.append("%s: rc %d %r" % (name, p.returncode, p.stderr[-160:]))
    check(tag + "tree/fast-path-errors-exact", not bad, "; ".join(bad))

    # A node line without its '\n' at the end of the file: the part has no
    # totals, whatever path read the line.
    text = HEAD13 + PAD13 + "2 2 1 2 3"
    path = write("fast_no_newline.tree", text)
    rc, out, err = fold(binary, [path])
    check(tag + "tree/fast-path-node-line-without-newline",
          rc == 2 and err == path + ":48: part ends without its \"totals:\" line"
          " (truncated file?)\n", "rc %d %r" % (rc, err))
    sums = [sum(c) for c in zip(*([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]] +
                                  [[1, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0, 0, 1]] * 40))]
    path = write("fast_totals_without_newline.tree",
                 HEAD13 + PAD13 + "totals: " + " ".join(map(str, sums)))
    rc, out, err = fold(binary, ["--event=Bim", path])
    check(tag + "tree/fast-path-totals-without-newline",
          rc == 0 and out == "main 13\nmain;work 40\n" and err == "", "rc %d %r" % (rc, err))


def test_fast_path_sum_overflow(binary, tag, check):
    """A sum that overflows 64 bits is reported at the very line, also
    when the costs before it were summed in lanes (which may add 28 * 260
    lines of 7-digit costs before the sums are checked again)."""
    top = (1 << 64) - 1
    lane_max = 28 * 260 * 9999999
    bad = []
    for name, start, cost in (("at-lane-limit", top - lane_max, 9999999),
                              ("below-lane-limit", top - lane_max - 1, 9999999),
                              ("above-lane-limit", top - lane_max + 1, 9999999),
                              ("near-top", top - 5, 1)):
        lines = ["# callgrind folded tree", "events: Ir Dr", "part: 1", "fn: 1 main",
                 "fn: 2 work", "1 1 1 %d" % start]
        k = (top - start) // cost + 1  # the line of that many costs overflows
        lines += ["2 2 1 %d" % cost] * (k + 50) + ["totals: 0 0", ""]
        path = write("fast_sum_%s.tree" % name, "\n".join(lines))
        rc, out, err = fold(binary, [path])
        want = "%s:%d: cost sum overflows 64 bits\n" % (path, 6 + k)
        if rc != 2 or err != want:
            bad.append("%s: rc %d %r, want line %d" % (name, rc, err[-120:], 6 + k))
    check(tag + "tree/fast-path-sum-overflow-line", not bad, "; ".join(bad))


def random_number_text(rng):
    """A cost as a tree may write it: mostly short, sometimes 8 to 19
    digits, sometimes with leading zeros up to 20 and more digits."""
    r = rng.random()
    if r < 0.5:
        v = rng.randrange(10)
    elif r < 0.9:
        v = rng.randrange(10 ** rng.randrange(1, 8))
    else:
        v = rng.randrange(10 ** rng.randrange(8, 15))
    text = str(v)
    if rng.random() < 0.03:
        text = "0" * rng.randrange(1, 18) + text
    return v, text


def test_fast_path_forms(binary, tag, check):
    """Node lines of every form the exact reader accepts (tabs, runs of
    blanks, trailing blanks, CR, leading zeros, long numbers, missing
    trailing costs) give, for each of 13 events, the reference reader's
    stacks: the fast paths take some, the exact reader the others."""
    import random
    rng = random.Random(28)
    lines = [HEAD13.rstrip("\n").rsplit("\n", 1)[0]]
    lines += ["fn: %d f%d" % (i, i) for i in range(3, 40)] + ["fn: 123456 deep_id"]
    totals = [0] * 13
    depth = 0
    for _ in range(4000):
        depth = rng.randrange(1, depth + 2) if depth else 1
        ident = rng.choice((1, 2, 3, 17, 39, 123456)) if depth > 1 else 1
        n = rng.choice((13, 13, 13, 12, 5, 1, 0))
        sep = lambda: rng.choice((" ",) * 30 + ("\t", "  ", " \t"))
        text = "%s%s%d" % ("0" * (rng.random() < 0.01) + str(depth), sep(), ident)
        for i in range(n):
            v, t = random_number_text(rng)
            totals[i] += v
            text += sep() + t
        if rng.random() < 0.02:
            text += rng.choice((" ", "\t", "  "))
        if rng.random() < 0.02:
            text += "\r"
        lines.append(text)
    lines += ["totals: " + " ".join(map(str, totals)), ""]
    text = "\n".join(lines)
    path = write("fast_forms.tree", text)
    against_reference(binary, tag, check, "fast-path-forms-vs-reference", path, text,
                      (None,), EVENTS13)


# ---- output order (src/stacks/order.c) ---------------------------------------

# Frames whose lines sort in surprising orders: prefixes of each other,
# bytes below ' ' and ';' ('!', '"', '#', '(', tab, \x01), spaces, and
# digits after a space (which meet the count's digits).
ORDER_FRAMES = ["a", "a b", "a!", 'a"', "a#", "a(", "a\tb", "a\x01", "ab", "a 1", "a 10",
                "b", "(", "!", "a b c", "a:b"]


def sorted_by_sort_command(text):
    """LC_ALL=C sort of the lines, or None without sort(1)."""
    try:
        p = subprocess.run(["sort"], input=text.encode(), stdout=subprocess.PIPE,
                           env=dict(os.environ, LC_ALL="C"))
    except OSError:
        return None
    return p.stdout.decode() if p.returncode == 0 else None


def test_byte_order(binary, tag, check):
    """Lines come out in the byte order of the whole lines, as LC_ALL=C
    sort puts them, from folded text and from a tree."""
    import random
    rng = random.Random(5)
    stacks = {}
    for _ in range(3000):
        stack = ";".join(rng.choice(ORDER_FRAMES) for _ in range(rng.randrange(1, 5)))
        stacks[stack] = stacks.get(stack, 0) + rng.choice((1, 5, 10, 15, 100, 1234))
    lines = ["%s %d" % kv for kv in stacks.items()]
    rng.shuffle(lines)
    path = write("order.folded", "".join(l + "\n" for l in lines))
    rc, out, err = fold(binary, [path])
    by_sort = sorted_by_sort_command(out)
    check(tag + "tree/order-folded-text-like-sort",
          rc == 0 and sorted(out.splitlines()) == sorted(lines) and
          out == folded_tree.folded_lines(stacks) and (by_sort is None or out == by_sort),
          "rc %d %s" % (rc, err) if rc else "order differs")

    # The same frames as function names of a tree: siblings under one
    # parent, at several depths, some only carrying children.
    names = [n for n in ORDER_FRAMES]
    tree = ["# callgrind folded tree", "events: Ir", "part: 1"]
    tree += ["fn: %d %s" % (i + 1, n) for i, n in enumerate(names)]
    total = 0
    depth = 0
    used = [set()]
    for _ in range(3000):
        depth = rng.randrange(1, min(depth, 5) + 2) if depth else 1
        del used[depth:]
        free = [i for i in range(len(names)) if i not in used[depth - 1]]
        if not free:
            depth = 1
            del used[1:]
            used[0] = set()
            free = list(range(len(names)))
        fn = rng.choice(free)
        used[depth - 1].add(fn)
        used.append(set())
        cost = rng.choice((0, 1, 5, 10, 15, 100))
        total += cost
        tree.append("%d %d %d" % (depth, fn + 1, cost))
    tree += ["totals: %d" % total, ""]
    text = "\n".join(tree)
    path = write("order.tree", text)
    rc, out, err = fold(binary, [path])
    want = folded_tree.folded_lines(folded_tree.fold(text)[0])
    by_sort = sorted_by_sort_command(out)
    check(tag + "tree/order-tree-like-sort",
          rc == 0 and out == want and (by_sort is None or out == by_sort),
          "rc %d %s" % (rc, err) if rc else "order differs")


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
             ("inlined", lambda: test_inlined(binary, tag, check)),
             ("deep", lambda: test_deep(binary, tag, check)),
             ("fast-path-errors", lambda: test_fast_path_errors(binary, tag, check)),
             ("fast-path-sum-overflow", lambda: test_fast_path_sum_overflow(binary, tag, check)),
             ("fast-path-forms", lambda: test_fast_path_forms(binary, tag, check)),
             ("byte-order", lambda: test_byte_order(binary, tag, check))]
    if not tag:  # timing means nothing under the sanitizers
        tests.append(("speed", lambda: test_speed(binary, tag, check)))
    for name, test in tests:
        try:
            test()
        except Exception as e:  # noqa: BLE001 - a broken output must not stop the run
            report("FAIL", tag + "tree/" + name + "/crashed", "%s: %s" % (type(e).__name__, e))
