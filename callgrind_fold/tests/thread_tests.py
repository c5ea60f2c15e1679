"""Threads (callgrind --separate-threads=yes): a part is one benchmark,
its sections are its threads. Inputs: tests/threads/ (hand-trimmed real
output of tests/progs/pool.c, see tests/threads/README.md): a combined
callgrind.out and folded tree of two runs (pool*, pool_b*), and one run
written a file per thread and dump (split/).

Every expected number comes from the fixtures' own "totals:" lines, read
here by sections() independently of callgrind_fold; the goldens
(tests/threads/*.expected) are derived by hand in README.md.

Called by run_tests.py once per binary (plain and sanitizer build)."""
import glob
import os
import random
import re
import subprocess

from test_render import svg_frames, frame_paths

HERE = os.path.dirname(os.path.abspath(__file__))
THREADS = os.path.join(HERE, "threads")
WORK = os.path.join(HERE, "work", "thread-tests")
POOL_OUT = os.path.join(THREADS, "pool.out")
POOL_TREE = os.path.join(THREADS, "pool.tree")
POOL_B_OUT = os.path.join(THREADS, "pool_b.out")
POOL_B_TREE = os.path.join(THREADS, "pool_b.tree")
SPLIT_OUT = sorted(glob.glob(os.path.join(THREADS, "split", "pool.out.[0-9]-*")) +
                   glob.glob(os.path.join(THREADS, "split", "pool.out-*")))
SPLIT_TREE = sorted(glob.glob(os.path.join(THREADS, "split", "pool.out.folded*")))
EVENTS = ["Ir", "Dr", "Dw"]


def fold(binary, args):
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def sections(paths):
    """Every section of the inputs, from their header lines: dicts of
    pid, part, thread, name (None), trigger (None), totals (per event)."""
    out = []
    for path in paths:
        pid, cur = None, None
        for line in open(path, encoding="utf-8"):
            key, sep, value = line.rstrip("\n").partition(": ")
            if not sep:
                continue
            if key == "pid":
                pid = int(value)
            elif key == "part":
                cur = {"pid": pid, "part": int(value), "thread": None, "name": None,
                       "trigger": None, "file": path}
            elif key == "thread":
                cur["thread"] = int(value)
            elif key == "desc" and value.startswith("Thread name: "):
                cur["name"] = value[len("Thread name: "):]
            elif key == "desc" and value.startswith("Trigger: "):
                cur["trigger"] = value[len("Trigger: "):]
            elif key == "totals":
                totals = [int(v) for v in value.split()]
                cur["totals"] = totals + [0] * (len(EVENTS) - len(totals))
                out.append(cur)
    return out


def benchmarks(secs):
    """(pid, part) -> its name and the sums of its sections' totals, in
    part order; parts without cost left out, as the reports leave them."""
    parts = {}
    for s in secs:
        key = (s["pid"], s["part"])
        name = s["trigger"][len("Client Request: "):]
        p = parts.setdefault(key, {"name": name, "totals": [0] * len(EVENTS), "threads": []})
        p["totals"] = [a + b for a, b in zip(p["totals"], s["totals"])]
        p["threads"].append(s)
    return [parts[k] for k in sorted(parts) if any(parts[k]["totals"])]


def label(s):
    return s["name"] if s["name"] else "thread %d" % s["thread"]


def md_rows(text):
    """Rows of the first Markdown table: name -> cells (commas dropped)."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| Benchmark") and "---" not in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            name = cells[0].replace("\\_", "_")
            if name in rows:
                break  # the second table
            rows[name] = [c.replace(",", "") for c in cells[1:]]
        elif rows and not line.startswith("|"):
            break
    return rows


def parse_folded(text):
    out = {}
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        out[stack] = int(count)
    return out


def expected_file(name):
    return open(os.path.join(THREADS, name)).read()


# ---- one row per benchmark ---------------------------------------------------

def test_md_rows(binary, tag, check):
    """-f md: one row per benchmark whatever the layout (combined file,
    folded tree, a file per thread in any order), its counts the sums of
    its sections' totals; no "(2)" rows."""
    for name, files in (("combined-out", [POOL_OUT]), ("combined-tree", [POOL_TREE]),
                        ("split-out", SPLIT_OUT), ("split-tree", SPLIT_TREE)):
        want = {b["name"]: [str(v) for v in b["totals"]] for b in benchmarks(sections(files))}
        rc, out, err = fold(binary, ["-f", "md", "--title=pool"] + files)
        check(tag + "threads/md-one-row-per-benchmark/" + name,
              rc == 0 and md_rows(out) == want and len(want) == 2, "%s %s %r" % (want, err, out))
        shuffled = list(files)
        random.Random(7).shuffle(shuffled)
        rc2, out2, err2 = fold(binary, ["-f", "md", "--title=pool"] + shuffled)
        check(tag + "threads/md-inputs-in-any-order/" + name, rc2 == 0 and out2 == out, err2)
    rc, out, err = fold(binary, ["-f", "md", "--title=pool", POOL_OUT])
    check(tag + "threads/md-golden",
          rc == 0 and out == expected_file("pool.md.expected") and err == "", err + out)


def test_diff(binary, tag, check):
    """--diff OLD NEW of two runs (other thread ids, the main thread's
    own cost 11% apart): each benchmark pairs with itself, its sum within
    1%, every event; the golden table."""
    for name, old, new in (("out", POOL_OUT, POOL_B_OUT), ("tree", POOL_TREE, POOL_B_TREE)):
        rc, out, err = fold(binary, ["--diff", old, new, "-f", "md", "--title=diff"])
        rows = md_rows(out)
        changes = [float(r[2].rstrip("%")) for r in rows.values()] if rc == 0 else []
        other = [line for line in out.splitlines() if line.startswith("| bench")][len(rows):]
        other_changes = [float(c.strip().rstrip("%")) for line in other
                         for c in line.strip("|").split("|")[1:]]
        check(tag + "threads/diff-md-every-benchmark-within-1%/" + name,
              rc == 0 and sorted(rows) == ["bench_hash", "bench_sort"] and
              all(abs(c) < 1 for c in changes + other_changes) and len(other_changes) == 4,
              "%s %s %s" % (rows, other_changes, err))
    rc, out, err = fold(binary, ["--diff", POOL_OUT, POOL_B_OUT, "-f", "md", "--title=diff"])
    check(tag + "threads/diff-md-golden", rc == 0 and out == expected_file("pool.diff.md.expected"),
          err + out)
    # the main thread alone does change: what the table no longer shows
    main = [s for s in sections([POOL_OUT, POOL_B_OUT]) if s["part"] == 2 and not s["name"]]
    check(tag + "threads/diff-fixture-main-thread-wobbles",
          len(main) == 2 and abs(main[1]["totals"][0] / main[0]["totals"][0] - 1) > 0.05, main)


def test_diff_svg(binary, tag, check):
    """--diff -f svg: the old run's threads drawn as the new one's (the
    unnamed main thread paired by order, its id differing)."""
    rc, out, err = fold(binary, ["--diff=" + POOL_TREE, "-f", "svg", POOL_B_TREE])
    roots, titles = [], {}
    if rc == 0:
        _, frames = svg_frames(out.encode())
        frame_paths(frames)
        roots = [f["name"] for f in frames if f.get("depth") == 1]
        titles = {f["name"]: f["title"] for f in frames if f.get("depth") == 1}
    new = {label(s) for s in sections([POOL_B_TREE]) if any(s["totals"])}
    old_main = sum(s["totals"][0] for s in sections([POOL_TREE]) if not s["name"])
    check(tag + "threads/diff-svg-threads-paired",
          rc == 0 and sorted(roots) == sorted(new) and "thread 1167" not in out and
          ", before %d," % old_main in titles.get("thread 1171", ""), "%s %s" % (titles, err))


# ---- --thread, --thread-frames ---------------------------------------------------

def test_thread_option(binary, tag, check):
    """--thread by name and by kernel id: only that thread's sections,
    summing to their totals; several values; a value matching no thread
    is an error."""
    secs = sections([POOL_TREE])
    pool1 = [s for s in secs if s["name"] == "pool-1"]
    want = expected_file("pool.thread-pool-1.expected")
    for how, args in (("name", ["--thread=pool-1"]), ("lwpid", ["--thread=%d" % pool1[0]["thread"]])):
        rc, out, err = fold(binary, args + [POOL_TREE])
        check(tag + "threads/thread-by-%s-golden" % how, rc == 0 and out == want and err == "",
              err + out)
    for event in range(len(EVENTS)):
        rc, out, err = fold(binary, ["--thread=pool-1", "--event=" + EVENTS[event], POOL_TREE])
        total = sum(parse_folded(out).values()) if rc == 0 else -1
        check(tag + "threads/thread-sums-to-its-totals/" + EVENTS[event],
              total == sum(s["totals"][event] for s in pool1), "%d %s" % (total, err))
    main = [s for s in secs if not s["name"]][0]["thread"]
    rc1, a, _ = fold(binary, ["--thread=pool-1,%d" % main, POOL_TREE])
    rc2, b, _ = fold(binary, ["--thread=%d" % main, "--thread=pool-1", POOL_TREE])
    total = sum(parse_folded(a).values()) if rc1 == 0 else -1
    check(tag + "threads/thread-several",
          rc1 == rc2 == 0 and a == b and
          total == sum(s["totals"][0] for s in secs if s["name"] == "pool-1" or not s["name"]),
          a)
    # (the tree's part 3 is the main thread's alone)
    for args in (["--thread=pool-9"], ["--thread=pool-1,77"], ["--thread=pool-1", "--part=3"]):
        rc, out, err = fold(binary, args + [POOL_TREE])
        check(tag + "threads/thread-matching-nothing-is-an-error/" + "_".join(args),
              rc == 2 and out == "" and "--thread=" in err and "no thread" in err, err)
    rc, out, err = fold(binary, ["--thread="])
    check(tag + "threads/thread-empty-is-usage-error", rc == 1 and "--thread" in err, err)
    # in the reports: one row per benchmark, that thread's counts only
    rc, out, err = fold(binary, ["-f", "md", "--thread=pool-1", POOL_OUT])
    want_rows = {b["name"]: [str(v) for v in b["totals"]]
                 for b in benchmarks([s for s in sections([POOL_OUT]) if s["name"] == "pool-1"])}
    check(tag + "threads/thread-md", rc == 0 and md_rows(out) == want_rows, out + err)
    # folded text names no thread: --thread leaves it out
    text = os.path.join(WORK, "plain.folded")
    with open(text, "w") as f:
        f.write("main;work 5\n")
    rc, out, err = fold(binary, ["--thread=pool-1", POOL_TREE, text])
    check(tag + "threads/thread-leaves-out-folded-text", rc == 0 and out == want, err + out)


def test_thread_frames(binary, tag, check):
    """--thread-frames: every stack under its thread's frame (golden);
    each thread frame's stacks sum to its sections' totals, every event;
    without it folded output sums the threads, no frame."""
    rc, out, err = fold(binary, ["--thread-frames", POOL_TREE])
    check(tag + "threads/thread-frames-golden",
          rc == 0 and out == expected_file("pool.thread-frames.expected") and err == "", err + out)
    secs = sections([POOL_TREE])
    bad = []
    for e, event in enumerate(EVENTS):
        rc, out, err = fold(binary, ["--thread-frames", "--event=" + event, POOL_TREE])
        sums = {}
        for stack, count in parse_folded(out).items():
            sums[stack.split(";")[0]] = sums.get(stack.split(";")[0], 0) + count
        want = {}
        for s in secs:
            if s["totals"][e]:
                want[label(s)] = want.get(label(s), 0) + s["totals"][e]
        if rc != 0 or sums != want:
            bad.append("%s: %s != %s %s" % (event, sums, want, err))
    check(tag + "threads/thread-frames-sum-per-thread", not bad, "; ".join(bad))
    rc, out, err = fold(binary, [POOL_TREE])
    check(tag + "threads/folded-default-no-thread-frames",
          rc == 0 and not any(l.startswith(("pool-", "thread ")) for l in out.splitlines()) and
          sum(parse_folded(out).values()) == sum(s["totals"][0] for s in secs), out)
    # the frames, part by part: exact per part and thread
    for part in (1, 2):
        rc, out, err = fold(binary, ["--thread-frames", "--part=%d" % part, POOL_OUT])
        sums = {}
        for stack, count in parse_folded(out).items():
            sums[stack.split(";")[0]] = sums.get(stack.split(";")[0], 0) + count
        want = {label(s): s["totals"][0] for s in sections([POOL_OUT])
                if s["part"] == part and s["totals"][0]}
        check(tag + "threads/thread-frames-part-%d-out" % part, rc == 0 and sums == want,
              "%s %s" % (sums, want))


def test_pictures(binary, tag, check):
    """svg and speedscope say which thread a stack ran on: thread frames
    at the root, one per thread, each as wide as its sections' totals."""
    secs = sections([POOL_TREE])
    want = {}
    for s in secs:
        if s["totals"][0]:
            want[(label(s),)] = want.get((label(s),), 0) + s["totals"][0]
    rc, out, err = fold(binary, ["-f", "svg", POOL_TREE])
    got = {}
    if rc == 0:
        _, frames = svg_frames(out.encode())
        frame_paths(frames)
        got = {f["path"]: f["n"] for f in frames if f.get("depth") == 1}
    check(tag + "threads/svg-thread-frames", rc == 0 and got == want, "%s %s %s" % (got, want, err))
    rc, out, err = fold(binary, ["-f", "speedscope", POOL_TREE])
    ok = False
    if rc == 0:
        import json
        doc = json.loads(out)
        names = [f["name"] for f in doc["shared"]["frames"]]
        prof = doc["profiles"][0]
        roots = {}
        for sample, weight in zip(prof["samples"], prof["weights"]):
            roots[(names[sample[0]],)] = roots.get((names[sample[0]],), 0) + weight
        ok = roots == want
    check(tag + "threads/speedscope-thread-frames", ok, err)
    # one thread per part (--thread): no thread frame
    rc, out, err = fold(binary, ["-f", "svg", "--thread=pool-2", POOL_TREE])
    check(tag + "threads/svg-one-thread-no-frame", rc == 0 and ">pool-2 (" not in out, err)


# ---- threads sharing a name, metadata of several threads --------------------------

def shared_tree(pid, first):
    """A tree of one benchmark run by an unnamed thread and two threads
    named alike, "worker" (a pool's threads often are), ids from
    `first`; then CodSpeed's zero-cost metadata part, one section per
    thread."""
    def section(part, thread, name, trigger, body):
        return ("\npart: %d\nthread: %d\n%sdesc: Trigger: %s\n%s" %
                (part, thread, "desc: Thread name: %s\n" % name if name else "", trigger, body))
    text = ("# callgrind folded tree\nversion: 1\npid: %d\ncmd: ./shared\nevents: Ir\n" % pid)
    text += section(1, first, None, "Client Request: Metadata: harness 1.0", "totals: 0\n")
    text += section(1, first + 1, "worker", "Client Request: Metadata: harness 1.0",
                    "totals: 0\n")
    bench = "Client Request: crunch"
    text += section(2, first, None, bench, "fn: 1 main\n1 1 5\ntotals: 5\n")
    workers = [section(2, first + 1, "worker", bench, "fn: 2 work\n1 2 100\ntotals: 100\n"),
               section(2, first + 2, "worker", bench, "fn: 2 work\n1 2 300\ntotals: 300\n")]
    text += "".join(workers)
    return text


def test_shared_names(binary, tag, check):
    """Threads sharing a name are told apart by their ids, and in a
    --diff paired by their order among themselves; a metadata part's
    text is said once however many threads wrote it."""
    old, new = os.path.join(WORK, "shared_old.tree"), os.path.join(WORK, "shared_new.tree")
    with open(old, "w") as f:
        f.write(shared_tree(100, 100))
    with open(new, "w") as f:
        f.write(shared_tree(200, 200))
    rc, out, err = fold(binary, ["--thread-frames", old])
    check(tag + "threads/shared-name-told-apart",
          rc == 0 and out == "thread 100;main 5\nworker (thread 101);work 100\n"
          "worker (thread 102);work 300\n", err + out)
    rc, out, err = fold(binary, ["--thread-frames", "--diff=" + old, new])
    check(tag + "threads/shared-name-diff-paired-by-order",
          rc == 0 and out == "thread 200;main 5 5\nworker (thread 201);work 100 100\n"
          "worker (thread 202);work 300 300\n", err + out)
    rc, out, err = fold(binary, ["-f", "md", old])
    check(tag + "threads/metadata-said-once",
          rc == 0 and out.count("harness 1.0") == 1 and "| crunch | 405 |" in out,
          err + out)


def test_file_per_thread_order(binary, tag, check):
    """From a file per thread, given in any order, a part's threads are
    in the order of their ids (the main thread's, the pid, first)."""
    want = [["thread 1176", "pool-0", "pool-1", "pool-2"]] * 2
    import html_tests
    for files in (SPLIT_TREE, SPLIT_TREE[::-1]):
        page = os.path.join(WORK, "split.html")
        rc, out, err = fold(binary, ["-f", "html", "-o", page] + files)
        got = None
        if rc == 0:
            meta, _, _ = html_tests.decode_page(open(page, "rb").read())
            got = [p["threads"] for p in meta["parts"]]
        check(tag + "threads/file-per-thread-in-id-order/" +
              ("sorted" if files == SPLIT_TREE else "reversed"), got == want, "%s %s" % (got, err))


# ---- malformed: a part split across files ----------------------------------------

def test_split_disagreeing(binary, tag, check):
    """Files of one part that disagree on its name (their desc: Trigger:)
    or both hold one thread: FILE:LINE: message, status 2."""
    os.makedirs(WORK, exist_ok=True)
    src = [f for f in SPLIT_OUT if f.endswith(".1-03")][0]
    text = open(src).read()
    bad = os.path.join(WORK, "pool.out.1-03")
    with open(bad, "w") as f:
        f.write(text.replace("Client Request: bench_hash", "Client Request: bench_other"))
    line = text.splitlines().index("desc: Trigger: Client Request: bench_hash") + 1
    others = [f for f in SPLIT_OUT if f != src]
    rc, out, err = fold(binary, ["-f", "md"] + others + [bad])
    check(tag + "threads/split-files-disagree-on-the-name",
          rc == 2 and out == "" and err.startswith("%s:%d: part 1's \"desc: Trigger:\"" % (bad, line))
          and "one part, two names" in err and len(err.splitlines()) == 1, err)
    rc, out, err = fold(binary, SPLIT_OUT + [src])
    tline = text.splitlines().index("thread: 1178") + 1
    check(tag + "threads/split-file-twice",
          rc == 2 and out == "" and
          err.startswith("%s:%d: part 1 has a second section of thread 1178" % (src, tline)), err)


# ---- real runs ----------------------------------------------------------------

def golden(g, binary, tag, check, report):
    """tests/progs/pool.c profiled now, twice (run_tests.Golden g): one
    row per benchmark equal to the sums of its sections' totals, in the
    callgrind.out and the folded tree, every event; the two runs' every
    benchmark within 1%; per-thread files as the combined one."""
    opts = ["--instr-atstart=no", "--separate-threads=yes", "--combine-dumps=yes",
            "--dump-folded=yes"]
    runs = [g.profile("pool", opts, args) for args in ((), ("again",))]
    outs = [[f for f in files if not f.endswith(".folded")] for files in runs]
    trees = [[f for f in files if f.endswith(".folded")] for files in runs]
    # Thread names are our patches' (desc: Thread name:): without them
    # nothing below can tell benchmarks apart.
    if not check(tag + "threads/golden/threads-named",
                 "desc: Thread name: pool-0" in open(outs[0][0]).read(),
                 "%s has no \"desc: Thread name: pool-0\" line" % outs[0][0]):
        return
    for kind, files in (("out", outs[0]), ("tree", trees[0])):
        want = {b["name"]: [str(v) for v in b["totals"][:1]] for b in benchmarks(sections(files))}
        rc, out, err = fold(binary, ["-f", "md", "--title=pool"] + files)
        check(tag + "threads/golden/md-rows-are-sums/" + kind,
              rc == 0 and md_rows(out) == want and sorted(want) == ["bench_hash", "bench_sort"],
              "%s %s %s" % (want, md_rows(out), err))
        rc, out, err = fold(binary, ["--diff"] + ([outs[0][0]] if kind == "out" else trees[0]) +
                            (outs[1] if kind == "out" else trees[1]) + ["-f", "md"])
        rows = md_rows(out)
        check(tag + "threads/golden/diff-two-runs-within-1%/" + kind,
              rc == 0 and len(rows) == 2 and
              all(abs(float(r[2].rstrip("%"))) < 1 for r in rows.values()), out + err)
    split = g.profile("pool", [o for o in opts if o != "--combine-dumps=yes"])
    split = [f for f in split if ".folded" not in f]
    want = {b["name"]: [str(v) for v in b["totals"][:1]] for b in benchmarks(sections(split))}
    rc, out, err = fold(binary, ["-f", "md", "--title=pool"] + split[::-1])
    check(tag + "threads/golden/md-rows-are-sums/file-per-thread",
          rc == 0 and md_rows(out) == want and len(split) > 4, "%s %s %s" % (split, out, err))


def run_all(binary, tag, check):
    os.makedirs(WORK, exist_ok=True)
    test_md_rows(binary, tag, check)
    test_diff(binary, tag, check)
    test_diff_svg(binary, tag, check)
    test_thread_option(binary, tag, check)
    test_thread_frames(binary, tag, check)
    test_pictures(binary, tag, check)
    test_split_disagreeing(binary, tag, check)
    test_shared_names(binary, tag, check)
    test_file_per_thread_order(binary, tag, check)
