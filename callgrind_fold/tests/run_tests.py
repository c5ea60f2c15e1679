#!/usr/bin/env python3
"""Test driver for callgrind_fold.

Prints exactly one "PASS: name", "FAIL: name" or "SKIP: name" line per test
and exits 1 if any test failed. Golden inputs are produced here, at test
time, by running small programs (tests/progs) under the given valgrind;
expected stacks are facts about those programs' call structure, not copies
of earlier output.

Environment: VALGRIND, CALLGRIND_ANNOTATE, VALGRIND_INCLUDE (callgrind.h),
CC, CLANG, CHECK_FUZZ_SECONDS, MAKE.  VALGRIND is expected to be this
project's patched build: a capability of the patches it lacks is a FAIL
(golden/valgrind-is-patched says so first).  SKIP is for a program this
machine lacks (a compiler, go, chromium ...), named in the line; a program
given as a path that is not there is a FAIL.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

import folded_tree

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = os.path.join(HERE, "work")
failures = 0


def report(status, name, detail=""):
    global failures
    if status == "FAIL":
        failures += 1
    line = "%s: %s" % (status, name)
    if detail and status != "PASS":
        line += " -- " + detail.replace("\n", " | ")[:400]
    print(line, flush=True)


def check(name, ok, detail=""):
    report("PASS" if ok else "FAIL", name, detail)
    return ok


def missing(name, program, what):
    """The test name cannot run without program (as given: a path or a
    name looked up in PATH), which is not there.  A name not on PATH is
    this machine's lack: SKIP.  A path is a build the caller said is
    there (VALGRIND=dist/bin/valgrind): FAIL."""
    if os.sep in program:
        report("FAIL", name, "%s: no such program (%s)" % (program, what))
    else:
        report("SKIP", name, "%s is not installed (no %s on PATH)" % (what, program))


def patched_valgrind(valgrind):
    """golden/valgrind-is-patched: the golden tests profile with our
    patched callgrind (dist/bin/valgrind); one line saying so when
    VALGRIND is another, before the tests of its options fail."""
    p = run([valgrind, "--tool=callgrind", "--help"])
    text = p.stdout.decode("utf-8", "replace")
    return check("golden/valgrind-is-patched", "--dump-folded=" in text,
                 "%s --tool=callgrind --help lists no --dump-folded: not this project's "
                 "build (set VALGRIND to its dist/bin/valgrind)" % valgrind)


def run(cmd, timeout=600, **kw):
    """A hang is a failure (status 124), not a stuck test run."""
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, 124, e.stdout or b"",
                                           (e.stderr or b"") + b"\n(timed out)")


# The runs of callgrind_fold to make again with the exact scanners alone
# (test_exact()), when a list: (args, name) of each run without env.
recorded_runs = None


def fold(binary, args, env=None, name=None):
    """Run callgrind_fold; returns (exit code, stdout text, stderr text).
    env: variables to set (None as a value: to unset).  name: the test's,
    for recorded_runs."""
    if recorded_runs is not None and not env:
        recorded_runs.append((list(args), name))
    full = None
    if env:
        full = dict(os.environ)
        for k, v in env.items():
            if v is None:
                full.pop(k, None)
            else:
                full[k] = v
    p = run([binary] + args, env=full)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def parse_folded(text):
    """Folded lines -> list of (frames, count); raises on a bad line."""
    out = []
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit() or int(count) == 0:
            raise ValueError("bad folded line %r" % line)
        out.append((stack.split(";"), int(count)))
    return out


def well_formed(text):
    """Output must be sorted by bytes, unique, without zero counts."""
    lines = text.encode().splitlines()
    if lines != sorted(lines):
        return "not sorted"
    if len({l.rpartition(b" ")[0] for l in lines}) != len(lines):
        return "duplicate stacks"
    try:
        parse_folded(text)
    except ValueError as e:
        return str(e)
    return None


def totals_of(paths, event, part=None):
    """Sum of the event's column of every part's "totals:" line, read
    independently of callgrind_fold."""
    total = 0
    for path in paths:
        events, number, ordinal = [], None, 0
        in_body = False
        with open(path, "rb") as f:
            for raw in f:
                line = raw.decode("latin-1").rstrip("\n")
                m = re.match(r"([a-z]+):\s*(.*)", line)
                if m and m.group(1) not in ("totals", "summary") and in_body:
                    in_body, number = False, None
                if m and m.group(1) == "part":
                    number = int(m.group(2))
                elif m and m.group(1) == "events":
                    events = m.group(2).split()
                    ordinal += 1
                elif m and m.group(1) == "totals":
                    values = [int(v) for v in m.group(2).split()]
                    idx = events.index(event)
                    this = number if number is not None else ordinal
                    if part is None or part == this:
                        total += values[idx] if idx < len(values) else 0
                elif line[:1].isdigit() or "=" in line[:5]:
                    in_body = True
    return total


def dump_files(name):
    """The files callgrind writes for output name: itself and with its
    dump (.N) and thread (-NN) suffixes."""
    return sorted(f for f in glob.glob(glob.escape(name) + "*")
                  if re.fullmatch(re.escape(name) + r"(\.\d+)?(-\d+)?", f))


def frames_of(stacks):
    return {f for s, _ in stacks for f in s}


def count_where(stacks, pred):
    return sum(c for s, c in stacks if pred(s))


def follows(stacks, child, parents):
    """Every occurrence of frame `child` sits directly below one of `parents`."""
    for s, _ in stacks:
        for i, f in enumerate(s):
            if f == child and (i == 0 or s[i - 1] not in parents):
                return False
    return True


def is_leaf(stacks, name):
    return all(name not in s[:-1] for s, _ in stacks)


# ---- hand-written inputs ------------------------------------------------

def test_cases(binary, tag, env=None):
    """tests/cases/NAME.cg or NAME.tree (+ NAME.args) must fold to
    NAME.expected; each NAME.why says how its numbers follow from the
    input. Variants of one input: NAME.VARIANT.args -> NAME.VARIANT.expected.
    Exact inputs (the folded trees) must print nothing on stderr.
    env: as fold()'s."""
    inputs_found = glob.glob(os.path.join(HERE, "cases", "*.cg")) + \
        glob.glob(os.path.join(HERE, "cases", "*.tree"))
    if not tag and env is None:
        check_cases_classified(inputs_found)
    for path in sorted(inputs_found):
        base = os.path.splitext(path)[0]
        name = os.path.basename(base)
        inputs = [path]
        extra = base + ".more"
        if os.path.exists(extra):
            inputs.append(extra)
        variants = [""] if os.path.exists(base + ".expected") else []
        variants += sorted(os.path.basename(f)[len(name) + 1:-len(".expected")]
                           for f in glob.glob(base + ".*.expected"))
        for variant in variants:
            stem = base + ("." + variant if variant else "")
            args = open(stem + ".args").read().split() if os.path.exists(stem + ".args") else []
            case = "case/" + name + ("/" + variant if variant else "")
            rc, out, err = fold(binary, args + inputs, env, case)
            want = open(stem + ".expected").read()
            quiet = not path.endswith(".tree") or err == ""
            check(tag + case,
                  rc == 0 and out == want and quiet,
                  "rc %d, stderr %s, got %r" % (rc, err.strip(), out))


def check_cases_classified(inputs):
    """Every file of tests/cases belongs to a case that runs: an input
    with its .why and at least one .expected, or a NAME[.VARIANT].args,
    .expected or .more of such an input.  Anything else would be a test
    that silently never runs."""
    names = {os.path.splitext(os.path.basename(p))[0] for p in inputs}
    stray, unexplained = [], []
    for f in sorted(os.listdir(os.path.join(HERE, "cases"))):
        name, _, rest = f.partition(".")
        variant, _, kind = rest.rpartition(".")
        if name not in names or kind not in ("cg", "tree", "why", "more", "args", "expected") \
                or (kind == "args" and not os.path.exists(os.path.join(
                    HERE, "cases", f[:-len("args")] + "expected"))) \
                or (variant and kind not in ("args", "expected")):
            stray.append(f)
    for name in sorted(names):
        base = os.path.join(HERE, "cases", name)
        if not os.path.exists(base + ".why") or not glob.glob(base + "*.expected"):
            unexplained.append(name)
    check("case/every-file-belongs-to-a-case", not stray, "not run: " + " ".join(stray))
    check("case/every-input-has-why-and-expected", not unexplained, " ".join(unexplained))


def test_malformed(binary, tag, env=None, generated=True, listed=True):
    """With `listed`, every file in tests/malformed must be rejected with
    exit status 2 and a FILE:LINE: message naming the expected line; with
    `generated`, also big and odd inputs made here, and bad usage.  env:
    as fold()'s."""
    mdir = os.path.join(HERE, "malformed")
    if listed and not tag and env is None:
        # a file of tests/malformed that EXPECT does not list never runs
        listed_names = {l.split()[0] for l in open(os.path.join(mdir, "EXPECT"))
                        if l.strip() and not l.startswith("#")}
        unlisted = sorted(set(os.listdir(mdir)) - listed_names - {"EXPECT"})
        check("malformed/every-file-listed-in-EXPECT", not unlisted, " ".join(unlisted))
    for line in open(os.path.join(mdir, "EXPECT")) if listed else ():
        if not line.strip() or line.startswith("#"):
            continue
        fname, lineno = line.split()[:2]
        message = line.partition(" ~ ")[2].strip()
        path = os.path.join(mdir, fname)
        rc, out, err = fold(binary, [path], env, "malformed/" + fname)
        ok = rc == 2 and err.startswith("%s:%s: " % (path, lineno)) and out == ""
        ok = ok and message in err and len(err.splitlines()) == 1
        check("%smalformed/%s" % (tag, fname), ok, "rc %d, stderr %r" % (rc, err[:200]))
    if not generated:
        return

    os.makedirs(WORK, exist_ok=True)
    # Generated here rather than stored: big or odd inputs.
    big_name = os.path.join(WORK, "megabyte_name.cg")
    with open(big_name, "w") as f:
        f.write("events: Ir\nfn=" + "x" * (3 << 20) + "\n1 7\n")
    rc, out, err = fold(binary, [big_name])
    check("%smalformed/megabyte-name-accepted" % tag,
          rc == 0 and out == "x" * (3 << 20) + " 7\n", "rc %d %s" % (rc, err[:200]))

    junk = os.path.join(WORK, "megabyte_junk.cg")
    with open(junk, "wb") as f:
        f.write(b"events: Ir\nfn=a\n1 1\n" + b"\xff\x01 " * (2 << 20) + b"\n")
    rc, out, err = fold(binary, [junk])
    check("%smalformed/megabyte-junk-line" % tag,
          rc == 2 and err.startswith(junk + ":4: "), "rc %d %s" % (rc, err[:200]))

    huge = os.path.join(WORK, "over_64mib_line.cg")
    with open(huge, "wb") as f:
        f.write(b"events: Ir\nfn=a\n1 1\n")
        chunk = b"9" * (1 << 20)
        for _ in range(65):
            f.write(chunk)
        f.write(b"\n")
    rc, out, err = fold(binary, [huge])
    check("%smalformed/line-over-64MiB" % tag,
          rc == 2 and err.startswith(huge + ":4: "), "rc %d %s" % (rc, err[:200]))
    os.unlink(huge)

    rc, out, err = fold(binary, [os.path.join(WORK, "does-not-exist.cg")])
    check("%smalformed/missing-file" % tag,
          rc == 2 and "does-not-exist.cg: cannot open" in err, "rc %d %s" % (rc, err))
    rc, out, err = fold(binary, [WORK])
    check("%smalformed/directory" % tag, rc == 2 and err.startswith(WORK + ":"),
          "rc %d %s" % (rc, err))

    spec = os.path.join(HERE, "cases", "spec_example.cg")
    rc, out, err = fold(binary, ["--event=NoSuchEvent", spec])
    check("%susage/unknown-event" % tag,
          rc == 2 and re.match(re.escape(spec) + r":\d+: .*NoSuchEvent", err) is not None,
          err)
    for args, name in ((["--bogus"], "unknown-option"), (["--part=x"], "bad-part"),
                       (["--frame=xyz"], "bad-frame"), (["--resolution=-1"], "bad-resolution"),
                       (["--inline", "--inline-cache="], "empty-inline-cache"),
                       (["--inline", "--debug-dir="], "empty-debug-dir")):
        rc, out, err = fold(binary, args + [spec])
        check("%susage/%s" % (tag, name), rc == 1 and "callgrind_fold:" in err,
              "rc %d %s" % (rc, err))
    rc, out, err = fold(binary, [spec, "--event"])
    check("%susage/missing-value" % tag, rc == 1 and "needs a value" in err, err)
    rc, out, err = fold(binary, ["--part=7", spec])
    check("%susage/no-such-part" % tag, rc == 2 and "no part 7" in err, err)
    rc, out, err = fold(binary, ["--help"])
    check("%susage/help" % tag, rc == 0 and "--dump-folded=yes" in out and "--frame" in out)
    rc, out, err = fold(binary, ["--version"])
    check("%susage/version" % tag, rc == 0 and out.startswith("callgrind_fold "))
    # stdin, and "-o": the same stacks either way.
    p = subprocess.run([binary, "-"], stdin=open(spec), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    outfile = os.path.join(WORK, "o.folded")
    rc, out, err = fold(binary, ["-o", outfile, spec])
    check("%susage/stdin-and-output-file" % tag,
          p.returncode == 0 and rc == 0 and out == "" and
          open(outfile).read() == p.stdout.decode(), err)


# ---- golden tests on real callgrind runs ----------------------------------

class Golden:
    def __init__(self, binary, valgrind, include, cc):
        self.binary, self.valgrind, self.include, self.cc = binary, valgrind, include, cc
        self.bins = {}
        self.runs = {}

    def program(self, name):
        if name not in self.bins:
            src = os.path.join(HERE, "progs", name + ".c")
            exe = os.path.join(WORK, name)
            cmd = [self.cc, "-O0", "-g", "-o", exe, src, "-pthread"]
            if self.include:
                cmd.insert(1, "-I" + self.include)
            p = run(cmd)
            if p.returncode != 0:
                raise RuntimeError("cannot compile %s: %s" % (name, p.stderr.decode()))
            self.bins[name] = exe
        return self.bins[name]

    def profile(self, prog, opts, args=(), clean=()):
        """Run prog under callgrind with opts; returns the output files.
        clean: names of other outputs (--folded-out-file's), whose files
        of an earlier run are deleted first."""
        key = (prog, tuple(opts), tuple(args))
        if key not in self.runs:
            tag = re.sub(r"[^A-Za-z0-9]+", "_", prog + "_" + "_".join(opts) + "_".join(args))
            base = os.path.join(WORK, "cg_" + tag + ".out")
            for old in glob.glob(base + "*") + [f for c in clean for f in dump_files(c)]:
                os.unlink(old)
            p = run([self.valgrind, "--tool=callgrind", "--callgrind-out-file=" + base] +
                    list(opts) + [self.program(prog)] + list(args))
            # --separate-threads=yes also leaves an empty base file.
            files = sorted(f for f in glob.glob(base + "*") if os.path.getsize(f) > 0)
            if p.returncode != 0 or not files:
                raise RuntimeError("valgrind failed: %s" % p.stderr.decode()[-500:])
            self.runs[key] = files
        return self.runs[key]


CALLS_VARIANTS = [
    ("default", []),
    ("compress-strings=no", ["--compress-strings=no"]),
    ("compress-pos=no", ["--compress-pos=no"]),
    ("dump-instr=yes", ["--dump-instr=yes"]),
    ("dump-line=no", ["--dump-line=no", "--dump-instr=yes"]),
    ("dump-instr+line", ["--dump-instr=yes", "--dump-line=yes"]),
    ("collect-jumps=yes", ["--collect-jumps=yes", "--dump-instr=yes"]),
    ("collect-jumps-line", ["--collect-jumps=yes"]),
    ("dump-bbs=yes", ["--dump-bbs=yes"]),
    ("all-uncompressed", ["--compress-strings=no", "--compress-pos=no", "--dump-instr=yes"]),
]


def calls_facts(stacks, exact):
    """Facts of tests/progs/calls.c that hold for exact and estimated stacks."""
    problems = []
    for fn, parents in (("phase_a", {"main"}), ("phase_b", {"main"}),
                        ("helper", {"shared"}), ("shared", {"phase_a", "phase_b"})):
        if not follows(stacks, fn, parents):
            problems.append("%s not always below %s" % (fn, "/".join(sorted(parents))))
    if not is_leaf(stacks, "leaf"):
        problems.append("leaf has callees")
    if not any(s[-2:] == ["phase_b", "leaf"] for s, _ in stacks):
        problems.append("no phase_b;leaf stack (direct call)")
    if not any(s[-4:] == ["phase_a", "shared", "helper", "leaf"] for s, _ in stacks):
        problems.append("no phase_a;shared;helper;leaf stack")
    # helper runs leaf(50000), phase_b's calls run leaf 3100 times: the
    # phase_a subtree must weigh well over ten times phase_b's.
    a = count_where(stacks, lambda s: "phase_a" in s)
    b = count_where(stacks, lambda s: "phase_b" in s)
    if not a > 10 * b > 0:
        problems.append("phase_a subtree %d vs phase_b %d" % (a, b))
    if exact:
        if any("helper" in s and "phase_a" not in s for s, _ in stacks):
            problems.append("helper outside phase_a in exact mode")
        if any(f.count("'") for f in frames_of(stacks) & CALLS_FUNCS):
            problems.append("clone suffix left in a frame")
    return problems


CALLS_FUNCS = {"main", "phase_a", "phase_b", "shared", "helper", "leaf"}


def test_golden(g, binary, tag, results):
    """results caches outputs per variant to compare formats."""
    def fold_files(name, files, args=(), event="Ir", part=None, want_rc=0):
        rc, out, err = fold(binary, list(args) + files, name=name)
        if rc != want_rc:
            check(tag + name, False, "rc %d: %s" % (rc, err.strip()))
            return None, err
        problem = well_formed(out)
        if problem:
            check(tag + name + "/well-formed", False, problem)
            return None, err
        stacks = parse_folded(out)
        want = totals_of(files, event, part)
        check(tag + name + "/sum-equals-totals", sum(c for _, c in stacks) == want,
              "folded %d, totals %d" % (sum(c for _, c in stacks), want))
        return stacks, err

    # 1. calls.c in every format variant: invariant, facts, and the very
    # same stacks as the default format (the program is deterministic).
    default_out = None
    for vname, opts in CALLS_VARIANTS:
        files = g.profile("calls", opts)
        name = "golden/calls/" + vname
        stacks, err = fold_files(name, files)
        if stacks is None:
            continue
        problems = calls_facts(stacks, exact=False)
        check(tag + name + "/facts", not problems, "; ".join(problems))
        if vname == "default":
            default_out = stacks
            check(tag + name + "/estimate-note",
                  "estimated" in err and "--dump-folded=yes" in err and
                  len(err.strip().splitlines()) == 1, err)
        elif default_out is not None:
            check(tag + name + "/same-stacks-as-default", stacks == default_out,
                  "differs from the default format's stacks")
        if vname == "collect-jumps=yes":
            text = "".join(open(f).read() for f in files)
            check(tag + name + "/has-jump-lines", "jump=" in text or "jcnd=" in text)

    # 2. Exactness: deep --separate-callers contexts reach the root, so
    # helper (called by shared only for phase_a) appears only under phase_a.
    for vname, opts in (("separate-callers=40", ["--separate-callers=40"]),
                        ("separate-callers=40-compress-mangled",
                         ["--separate-callers=40", "--compress-mangled=yes"])):
        files = g.profile("calls", opts)
        name = "golden/calls/" + vname
        stacks, err = fold_files(name, files)
        if stacks is None:
            continue
        problems = calls_facts(stacks, exact=True)
        check(tag + name + "/exact-helper-only-under-phase_a", not problems,
              "; ".join(problems))
        ours = [f for f in CALLS_FUNCS if f in err]
        check(tag + name + "/no-estimate-note-for-program", not ours, err)
        rc, out, err2 = fold(binary, ["--keep-clones"] + files)
        check(tag + name + "/keep-clones",
              rc == 0 and any(f.startswith("helper'shared'phase_a")
                              for f in frames_of(parse_folded(out))), err2)
    # The estimate, by contrast, cannot tell the callers of shared apart
    # and spreads helper's cost over both: the reason exact mode matters.
    if default_out:
        check(tag + "golden/calls/estimate-spreads-helper",
              any("helper" in s and "phase_b" in s for s, _ in default_out))
    # Shallow contexts do not reach the root: still facts and invariant.
    files = g.profile("calls", ["--separate-callers=2"])
    stacks, err = fold_files("golden/calls/separate-callers=2", files)
    if stacks is not None:
        problems = calls_facts(stacks, exact=False)
        check(tag + "golden/calls/separate-callers=2/facts", not problems, "; ".join(problems))

    # 3. Several events: every event's stacks sum to its totals.
    files = g.profile("calls", ["--cache-sim=yes"])
    text = open(files[0]).read()
    events = re.search(r"^events:\s*(.*)$", text, re.M).group(1).split()
    for ev in events:
        fold_files("golden/calls/cache-sim/event=" + ev, files, ["--event=" + ev], event=ev)
    stacks, _ = fold_files("golden/calls/cache-sim/default-event", files, [], event=events[0])
    if stacks is not None and default_out is not None:
        check(tag + "golden/calls/cache-sim/Ir-same-as-default", stacks == default_out)

    # 4. Parts: dumps combined in one file, or one file per dump.
    comb = g.profile("calls", ["--combine-dumps=yes"], ["dump"])
    sep = g.profile("calls", [], ["dump"])
    check(tag + "golden/calls/dumps/two-files", len(sep) == 2, str(sep))
    all_comb, _ = fold_files("golden/calls/combine-dumps/all", comb)
    all_sep, _ = fold_files("golden/calls/separate-dumps/all", sep)
    if all_comb is not None and all_sep is not None:
        check(tag + "golden/calls/dumps/combined-equals-separate", all_comb == all_sep)
        problems = calls_facts(all_comb, exact=False)
        check(tag + "golden/calls/combine-dumps/facts", not problems, "; ".join(problems))
    p1, _ = fold_files("golden/calls/combine-dumps/part=1", comb, ["--part=1"], part=1)
    p2, _ = fold_files("golden/calls/combine-dumps/part=2", comb, ["--part=2"], part=2)
    if p1 is not None and p2 is not None:
        # The dump comes after phase_a returned and before phase_b starts.
        check(tag + "golden/calls/combine-dumps/phases-split",
              any("phase_a" in s for s, _ in p1) and not any("phase_b" in s for s, _ in p1)
              and any("phase_b" in s for s, _ in p2)
              and not any("phase_a" in s for s, _ in p2))

    # 5. Threads, one file each: workers' stacks never contain main.
    files = g.profile("threads", ["--separate-threads=yes"])
    check(tag + "golden/threads/one-file-per-thread", len(files) >= 2, str(files))
    # --separate-threads=yes leaves the base file empty: skipped, said once.
    empty = [f for f in glob.glob(files[0].rsplit("-", 1)[0] + "*") if os.path.getsize(f) == 0]
    rc, out, err = fold(binary, empty + files)
    check(tag + "golden/threads/empty-base-file-skipped",
          len(empty) == 1 and rc == 0 and "skipped 1 empty input" in err,
          "empty files %s: %s" % (empty, err))
    stacks, _ = fold_files("golden/threads/separate-threads", files)
    if stacks is not None:
        ok = (any("worker" in s for s, _ in stacks) and
              not any("worker" in s and "main" in s for s, _ in stacks) and
              follows(stacks, "main_work", {"main"}) and is_leaf(stacks, "spin"))
        check(tag + "golden/threads/facts", ok)
    files = g.profile("threads", [])
    fold_files("golden/threads/one-file", files)
    # A pool of named threads: a part is one benchmark, its sections its
    # threads (tests/thread_tests.py).
    import thread_tests
    try:
        thread_tests.golden(g, binary, tag, check, report)
    except RuntimeError as e:  # one failed run; the other golden tests go on
        report("FAIL", tag + "threads/golden", str(e))

    # 6. Recursion: cycles folded without losing cost.
    for vname, opts in (("default", []), ("separate-recs=1", ["--separate-recs=1"]),
                        ("separate-recs=20", ["--separate-recs=20"]),
                        ("separate-callers=3", ["--separate-callers=3"])):
        files = g.profile("recurse", opts)
        name = "golden/recurse/" + vname
        stacks, err = fold_files(name, files)
        if stacks is None:
            continue
        ok = (follows(stacks, "is_odd", {"is_even"}) and
              follows(stacks, "is_even", {"main", "is_odd"}) and
              follows(stacks, "fib", {"main", "fib"}) and is_leaf(stacks, "work") and
              all(f.count("'") == 0 for f in frames_of(stacks)))
        check(tag + name + "/facts", ok)
        check(tag + name + "/estimate-note", "estimated" in err, err)

    # 7. Inlined code (fi=/fe=) stays in the function it was inlined into.
    files = g.profile("inlined", [])
    stacks, _ = fold_files("golden/inlined/fi-fe", files)
    if stacks is not None:
        text = open(files[0]).read()
        first = count_where(stacks, lambda s: s[-1] == "first")
        second = count_where(stacks, lambda s: s[-1] == "second")
        check(tag + "golden/inlined/facts",
              "fi=" in text and "mix" not in frames_of(stacks) and second > 2 * first > 0,
              "first %d second %d" % (first, second))

    # 8. Frame decoration with the object's base name.
    files = g.profile("calls", [])
    rc, out, err = fold(binary, ["--frame=fn+obj"] + files)
    frames = frames_of(parse_folded(out)) if rc == 0 else set()
    check(tag + "golden/calls/frame=fn+obj",
          "main [calls]" in frames and "phase_a [calls]" in frames and
          any(re.search(r" \[libc[^]]*\]$", f) for f in frames), err)

    # 8b. --frame=short leaves a C program's names as they are (it has no
    # perf-map names, and C names are kept as callgrind wrote them).
    rc, out, err = fold(binary, ["--frame=short"] + files)
    check(tag + "golden/calls/frame=short-keeps-c-names",
          rc == 0 and default_out is not None and parse_folded(out) == default_out, err)

    # 9. Several inputs and folded input: merged by summing equal stacks.
    rc, out, err = fold(binary, files + files)
    doubled = parse_folded(out) if rc == 0 else []
    check(tag + "golden/calls/same-file-twice-doubles",
          default_out is not None and doubled == [(s, 2 * c) for s, c in default_out])
    folded_path = os.path.join(WORK, "calls.folded")
    rc1, out1, _ = fold(binary, ["-o", folded_path] + files)
    rc, out, err = fold(binary, [folded_path, folded_path])
    check(tag + "golden/calls/folded-input-merged",
          rc == 0 and rc1 == 0 and parse_folded(out) == [(s, 2 * c) for s, c in default_out]
          and err == "", err)

    # 10. callgrind --dump-folded (our patched callgrind): "yes" writes
    # the folded tree, exact stacks of every event; "text" folded stacks,
    # passed through.  A valgrind without the option fails here (and in
    # golden/valgrind-is-patched, which says why).
    for mode, kind in (("yes", "tree"), ("text", "stacks")):
        name = "golden/calls/dump-folded=" + mode
        folded = os.path.join(WORK, "calls.folded." + mode)
        try:
            files = g.profile("calls", ["--dump-folded=" + mode, "--folded-out-file=" + folded],
                              clean=[folded])
        except RuntimeError as e:
            report("FAIL", tag + name, str(e))
            continue
        check_dump_folded(binary, tag + name, files, folded, kind)
    golden_trees(g, binary, tag)

    # 11. Self cost per function agrees with callgrind_annotate.
    annotate = os.environ.get("CALLGRIND_ANNOTATE", "callgrind_annotate")
    if not shutil.which(annotate):
        missing(tag + "golden/calls/self-cost-matches-callgrind_annotate", annotate,
                "callgrind_annotate (Valgrind's)")
    else:
        f = g.profile("calls", [])[0]
        p = run([annotate, "--threshold=100", "--inclusive=no", f])
        theirs = {}
        for line in p.stdout.decode("utf-8", "replace").splitlines():
            m = re.match(r"\s*([\d,]+)\s+\([\d. ]+%\)\s+[^:]*:(.*?)(?: \[[^]]*\])?$", line)
            if m and "PROGRAM TOTALS" not in line:
                fn = m.group(2).split("'")[0]
                theirs[fn] = theirs.get(fn, 0) + int(m.group(1).replace(",", ""))
        ours = {}
        for s, c in default_out or []:
            ours[s[-1]] = ours.get(s[-1], 0) + c
        mine = {k: v for k, v in ours.items() if k in CALLS_FUNCS}
        them = {k: v for k, v in theirs.items() if k in CALLS_FUNCS}
        # no line read is a failure: callgrind_annotate or this reading of it broke
        check(tag + "golden/calls/self-cost-matches-callgrind_annotate", them and mine == them,
              "ours %s theirs %s (%s exit %d)" % (mine, them, annotate, p.returncode))


def check_dump_folded(binary, name, files, folded, kind):
    """What callgrind --dump-folded wrote next to the callgrind.out files,
    a folded tree or folded stacks as kind says: a folded tree must fold
    to exact stacks of calls.c, for every event summing to the
    callgrind.out's totals; folded stacks are passed through unchanged."""
    rc, out, err = fold(binary, [folded])
    with open(folded, "rb") as f:
        written = f.read().decode("utf-8", "replace")
    is_tree = written.startswith(folded_tree.MARKER + "\n")
    if not check(name + "/writes-" + kind, is_tree == (kind == "tree"),
                 "first line %r" % written.partition("\n")[0][:80]):
        return
    if kind == "stacks":
        total = sum(c for _, c in parse_folded(written))
        check(name + "/passthrough",
              rc == 0 and well_formed(out) is None and "estimated" not in err
              and parse_folded(out) == parse_folded(written)
              and total == totals_of(files, "Ir"), err)
        return
    stacks = parse_folded(out) if rc == 0 and well_formed(out) is None else []
    problems = calls_facts(stacks, exact=True) if stacks else ["rc %d %s" % (rc, err)]
    check(name + "/tree-exact-stacks", not problems and err == "", "; ".join(problems))
    header = re.search(r"^events:\s*(.*)$", written, re.M)
    for event in header.group(1).split() if header else ["(none)"]:
        rc, out, err = fold(binary, ["--event=" + event, folded])
        ref, total = folded_tree.fold(written, event)
        got = sum(c for _, c in parse_folded(out)) if rc == 0 else -1
        try:
            want = totals_of(files, event)
        except ValueError:  # not an event of the callgrind.out files
            want = -1
        check(name + "/tree-event=%s-sums-to-totals" % event,
              rc == 0 and out == folded_tree.folded_lines(ref) and got == total == want,
              "rc %d, folded %d, tree totals %d, callgrind.out %d %s"
              % (rc, got, total, want, err))


def golden_trees(g, binary, tag):
    """Folded trees of real runs with several parts, events and threads:
    every --part and --event folds as the reference reader does and sums
    to the callgrind.out's totals of that part and event."""
    tree = os.path.join(WORK, "calls.tree.dumps")
    try:
        files = g.profile("calls", ["--dump-folded=yes", "--cache-sim=yes", "--combine-dumps=yes",
                                    "--folded-out-file=" + tree], ["dump"], clean=[tree])
    except RuntimeError as e:
        report("FAIL", tag + "golden/tree/setup", str(e))
        return
    text = open(tree).read()
    header = re.search(r"^events:\s*(.*)$", text, re.M)
    if not check(tag + "golden/tree/is-a-folded-tree",
                 text.startswith(folded_tree.MARKER + "\n") and header is not None,
                 "%s: first line %r" % (tree, text.partition("\n")[0][:80])):
        return
    events = header.group(1).split()
    bad = []
    for part in (None, 1, 2):
        for event in events:
            args = ["--event=" + event] + (["--part=%d" % part] if part else [])
            rc, out, err = fold(binary, args + [tree])
            ref, total = folded_tree.fold(text, event, part)
            got = sum(c for _, c in parse_folded(out)) if rc == 0 else -1
            if rc or err or out != folded_tree.folded_lines(ref) or \
                    not got == total == totals_of(files, event, part):
                bad.append("%s: rc %d, sum %d, tree %d, callgrind.out %d %s" % (
                    args, rc, got, total, totals_of(files, event, part), err.strip()))
    check(tag + "golden/tree/cache-sim-two-dumps-every-part-and-event",
          len(events) > 1 and not bad, "; ".join(bad[:3]))
    rc, out, err = fold(binary, ["--part=2", tree])
    p2 = parse_folded(out) if rc == 0 else []
    check(tag + "golden/tree/part-2-is-phase_b",
          any("phase_b" in s for s, _ in p2) and not any("phase_a" in s for s, _ in p2), err)

    # --separate-threads=yes: a file per thread, as callgrind.out; and
    # combined, one file with a section per thread under one part number.
    for vname, opts in (("separate-threads", []), ("separate-threads-combined",
                                                   ["--combine-dumps=yes"])):
        base = os.path.join(WORK, "threads.tree." + vname)
        try:
            files = g.profile("threads", ["--dump-folded=yes", "--separate-threads=yes",
                                          "--folded-out-file=" + base] + opts, clean=[base])
        except RuntimeError as e:
            report("FAIL", tag + "golden/tree/%s/facts-and-totals" % vname, str(e))
            continue
        trees = [f for f in dump_files(base) if os.path.getsize(f) > 0]
        if not check(tag + "golden/tree/%s/written" % vname, trees, base + "*: none"):
            continue
        rc, out, err = fold(binary, ["--part=1"] + trees)
        stacks = parse_folded(out) if rc == 0 else []
        ok = (any("worker" in s for s, _ in stacks) and
              not any("worker" in s and "main" in s for s, _ in stacks) and
              follows(stacks, "main_work", {"main"}) and is_leaf(stacks, "spin"))
        check(tag + "golden/tree/%s/facts-and-totals" % vname,
              ok and err == "" and sum(c for _, c in stacks) == totals_of(files, "Ir") and
              (len(trees) > 1 or open(trees[0]).read().count("\nthread: ") > 1),
              "rc %d, %d tree file(s) %s" % (rc, len(trees), err))


def test_short_frames(binary, tag):
    """--frame=short end to end (tests/cases/perfmap_short.* has the exact
    stacks; names: tests/shortnames.txt, read by the unit tests): frames
    merge, the counts still sum to the profile's total, and --diff's base
    gets the same short names, so a profile against itself is unchanged."""
    path = os.path.join(HERE, "cases", "perfmap_short.cg")
    total = totals_of([path], "Ir")
    rc, raw, _ = fold(binary, [path])
    for option in ("--frame=short", "--frame=short-templates"):
        name = "%sshort/%s" % (tag, option[2:])
        rc, out, err = fold(binary, [option, path])
        problem = well_formed(out) if rc == 0 else "rc %d: %s" % (rc, err)
        stacks = parse_folded(out) if problem is None else []
        frames = frames_of(stacks)
        check(name + "/sums-to-total", problem is None and sum(c for _, c in stacks) == total,
              problem or "sum %d, total %d" % (sum(c for _, c in stacks), total))
        check(name + "/merged-and-no-paths",
              0 < len(stacks) < len(parse_folded(raw)) and
              not any("/tmp/cc" in f or ":13" in f for f in frames), out)
    test_short_pprof(binary, tag, path)
    rc, out, err = fold(binary, ["--frame=short", "--diff=" + path, path])
    lines = [l.rsplit(" ", 2) for l in out.splitlines()]
    check(tag + "short/diff-shares-the-names",
          rc == 0 and lines and all(len(l) == 3 and l[1] == l[2] != "0" for l in lines)
          and not any("/tmp/cc" in l[0] for l in lines), out + err)


def test_short_pprof(binary, tag, path):
    """-f pprof keeps raw names by default; --frame=short gives short
    function names with the raw ones as system_name, every event's sums
    kept (a second event, Dr = 2 Ir, added to perfmap_short.cg)."""
    import pprof_tests
    text = open(path).read().replace("events: Ir", "events: Ir Dr")
    text = re.sub(r"(?m)^1 (\d+)$", lambda m: "1 %s %d" % (m.group(1), 2 * int(m.group(1))), text)
    two = os.path.join(WORK, "perfmap_short_two_events.cg")
    with open(two, "w") as f:
        f.write(text.replace("totals: 176", "totals: 176 352"))
    got = {}
    for args in ([], ["--frame=short"]):
        p = run([binary, "-f", "pprof"] + args + [two])
        try:
            prof = pprof_tests.decode_profile(p.stdout) if p.returncode == 0 else None
        except Exception as e:  # noqa: BLE001 - a broken profile is a failure
            prof, err = None, str(e)
        else:
            err = p.stderr.decode()
        got[tuple(args)] = prof, err
    raw, err_raw = got[()]
    short, err_short = got[("--frame=short",)]
    funcs = lambda prof: {f["name"]: f["system_name"] for f in prof["functions"].values()}  # noqa: E731
    sums = lambda prof: [sum(v[i] for _, v in prof["samples"]) for i in range(2)]  # noqa: E731
    check(tag + "short/pprof-raw-by-default",
          raw is not None and sums(raw) == [176, 352] and
          funcs(raw).get("JS:~fib /tmp/cc/bench/workloads/jswork.js:9:13") ==
          "JS:~fib /tmp/cc/bench/workloads/jswork.js:9:13", err_raw)
    check(tag + "short/pprof-short-names-raw-system-names",
          short is not None and sums(short) == [176, 352] and
          funcs(short).get("fib  workloads/jswork.js:9", "").startswith("3 names: JS:~fib ") and
          funcs(short).get("main") == "main" and len(short["samples"]) < len(raw["samples"]),
          err_short + str(short and funcs(short)))


def test_exact(binary, runs):
    """Each run again with CALLGRIND_FOLD_EXACT=1, every fast tier of the
    readers off (src/read/tiers.h): the exact scanners alone must give
    byte for byte the same output, messages and exit status."""
    seen, labels = set(), {}
    for args, name in runs:
        key = tuple(args)
        if key in seen or "-o" in args or any(a.startswith("--output") for a in args):
            continue  # once each; files written are other tests' to check
        seen.add(key)
        fast = run([binary] + args)
        exact = run([binary] + args, env=dict(os.environ, CALLGRIND_FOLD_EXACT="1"))
        same = (fast.returncode, fast.stdout, fast.stderr) == \
            (exact.returncode, exact.stdout, exact.stderr)
        label = name or " ".join(os.path.basename(a) for a in args)[:100]
        labels[label] = labels.get(label, 0) + 1
        if labels[label] > 1:
            label += " #%d" % labels[label]
        check("exact:" + label, same,
              "rc %d/%d, stderr %r / %r" % (fast.returncode, exact.returncode,
                                            fast.stderr[:200], exact.stderr[:200]))


def test_embed():
    """tools/embed.sh makes a script or style a C string: the string must
    hold the file's bytes exactly (its opening comment left out), whatever
    awk the build finds, with backslashes, quotes and "??" (trigraphs)."""
    cc = os.environ.get("CC", "cc") or "cc"
    if not shutil.which(cc):
        missing("embed/bytes-kept", cc, "a C compiler")
        return
    d = os.path.join(WORK, "embed")
    os.makedirs(d, exist_ok=True)
    header = "/* the file's own header,\n * left out */\n"
    body = ('var re = /a\\/b\\d+/, s = "x\\\\y\\n\\"q\\"";\n'
            "// what??! and ??= and \\\n"
            "  'tab\there' % 100;\n")
    src = os.path.join(d, "sample.js")
    with open(src, "w") as f:
        f.write(header + body)
    p = run(["sh", os.path.join(ROOT, "tools", "embed.sh"), "sample", src])
    if not check("embed/script-runs", p.returncode == 0, p.stderr.decode()):
        return
    prog = os.path.join(d, "show")
    with open(prog + ".c", "w") as f:
        f.write(p.stdout.decode() + "#include <stdio.h>\n"
                "int main(void) { fputs(sample, stdout); return 0; }\n")
    p = run([cc, "-std=c11", "-Wall", "-Werror", "-o", prog, prog + ".c"])
    if not check("embed/compiles", p.returncode == 0, p.stderr.decode()):
        return
    out = run([prog]).stdout.decode()
    check("embed/bytes-kept", out == body, "got %r, want %r" % (out, body))


def test_fuzz(seconds):
    clang = os.environ.get("CLANG", "clang")
    if not shutil.which(clang):
        missing("fuzz/libfuzzer-%ss" % seconds, clang, "clang (libFuzzer)")
        return
    make = os.environ.get("MAKE", "make")
    p = run([make, "-C", ROOT, "fuzz-check", "FUZZ_SECONDS=%s" % seconds])
    out, err = p.stdout.decode(), p.stderr.decode()[-600:]
    # One line per target ("PASS: fuzz-dwarf-20s"); make stops at a failure.
    results = [l.split(": ", 1) for l in out.splitlines() if re.match(r"(PASS|FAIL): fuzz-", l)]
    for status, what in results:
        report(status, "fuzz/" + what, err)
    if p.returncode == 0:
        check("fuzz/every-target-ran", len(results) == 3, out[-600:])
    elif not any(status == "FAIL" for status, _ in results):
        check("fuzz/libfuzzer-%ss" % seconds, False, err)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--unit")
    ap.add_argument("--san-bin")
    ap.add_argument("--san-unit")
    ap.add_argument("--html-demo")
    ap.add_argument("--san-html-demo")
    ap.add_argument("--fuzz", action="store_true")
    ap.add_argument("--no-golden", action="store_true")
    a = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    # --inline keeps inflated debug files in a cache (default under
    # $XDG_CACHE_HOME): the tests' own, not the user's.
    os.environ["XDG_CACHE_HOME"] = os.path.join(WORK, "xdg-cache")
    # Debug files from disk only: libdw would ask debuginfod servers for
    # those it does not find (slow, and not the same on every machine).
    os.environ.pop("DEBUGINFOD_URLS", None)

    for unit, tag in ((a.unit, ""), (a.san_unit, "asan+ubsan/")):
        if unit:
            p = run([os.path.abspath(unit), os.path.join(HERE, "shortnames.txt"),
                     os.path.join(HERE, "rust_symbols.txt")])
            for line in p.stdout.decode().splitlines():
                status, _, rest = line.partition(": ")
                report(status, tag + rest.split(": ")[0],
                       rest.partition(": ")[2] if status == "FAIL" else "")
            if p.returncode not in (0, 1):
                report("FAIL", tag + "unit/crash", p.stderr.decode()[-400:])

    test_embed()

    binaries = [(os.path.abspath(a.bin), "")]
    if a.san_bin:
        binaries.append((os.path.abspath(a.san_bin), "asan+ubsan/"))
    global recorded_runs
    for binary, tag in binaries:
        recorded_runs = [] if not tag else None
        test_cases(binary, tag)
        test_malformed(binary, tag, generated=False)
        if not tag:
            # the same cases with the exact scanners alone: exact:<case>
            test_exact(binary, recorded_runs)
        recorded_runs = None
        test_malformed(binary, tag, generated=True, listed=False)
        test_short_frames(binary, tag)
    # The same inputs read a line at a time, without the one-event
    # reader's 64-byte blocks (src/read/callgrind/costblocks.h): what CPUs without
    # AVX2 run, and what the blocks must agree with.
    lines_only = {"CALLGRIND_FOLD_COST_BLOCKS": "0"}
    test_cases(binaries[0][0], "lines-only/", lines_only)
    test_malformed(binaries[0][0], "lines-only/", lines_only, generated=False)

    # Pictures (issue 7): flame graph SVG, DOT, --diff, speedscope; the
    # browser test once, with the plain build. See tests/test_render.py.
    import test_render
    for binary, tag in binaries:
        test_render.run_all(binary, tag, report, check, browser=not tag)

    # The HTML report (issue 29): tests/html_tests.py, pages of several
    # parts made by the writer's harness (tests/html_demo.c) of each build.
    import html_tests
    demos = {"": a.html_demo, "asan+ubsan/": a.san_html_demo}
    for binary, tag in binaries:
        demo = demos.get(tag)
        html_tests.run_all(binary, os.path.abspath(demo) if demo else None, tag, report, check,
                           browser=not tag)
    # Parts kept apart, -f md, --diff OLD NEW, rooted pictures (issue 29)
    import report_tests
    for binary, tag in binaries:
        report_tests.run_all(binary, tag, check, WORK)
    # -f md --diff's lines that changed: tests/md_lines_tests.py (its
    # real runs with the golden tests, below)
    import md_lines_tests
    for binary, tag in binaries:
        md_lines_tests.run_all(binary, tag, check, WORK)

    # The html report's hot lines: tests/lines_page_tests.py (a real
    # program profiled by VALGRIND when there is one)
    import lines_page_tests
    vg = None if a.no_golden else shutil.which(os.environ.get("VALGRIND", "valgrind") or "valgrind")
    for binary, tag in binaries:
        lines_page_tests.run_all(binary, tag, report, check, WORK, vg,
                                 os.environ.get("CC", "cc") or "cc", browser=not tag)

    # Threads of --separate-threads=yes: a part is a benchmark, its
    # sections its threads (tests/thread_tests.py, fixtures tests/threads/)
    import thread_tests
    for binary, tag in binaries:
        thread_tests.run_all(binary, tag, check)

    # Code without a symbol named by its object, in every output
    import addrname_tests
    for binary, tag in binaries:
        addrname_tests.run_all(binary, tag, check)

    # The folded tree of callgrind --dump-folded=yes: tests/tree_tests.py
    import tree_tests
    for binary, tag in binaries:
        tree_tests.run_all(binary, tag, report, check)

    if not a.no_golden:
        named = os.environ.get("VALGRIND", "valgrind") or "valgrind"
        valgrind = shutil.which(named)
        if not valgrind:
            missing("golden", named, "Valgrind")
            missing("md-lines/real-runs", named, "Valgrind")
            import pprof_tests
            for binary, tag in binaries:
                pprof_tests.run(sys.modules[__name__], binary, tag)
        else:
            include = os.environ.get("VALGRIND_INCLUDE", "")
            if include.endswith("callgrind.h"):
                # -I must name the directory that holds valgrind/callgrind.h
                d = os.path.dirname(include)
                include = os.path.dirname(d) if os.path.basename(d) == "valgrind" else None
                if include is None:
                    # source tree layout: make a valgrind/ directory for it
                    inc = os.path.join(WORK, "include")
                    os.makedirs(os.path.join(inc, "valgrind"), exist_ok=True)
                    for h in ("callgrind.h", "valgrind.h"):
                        src = os.path.join(d, h)
                        if not os.path.exists(src):
                            src = os.path.join(os.path.dirname(d), "include", h)
                        if os.path.exists(src):
                            shutil.copy(src, os.path.join(inc, "valgrind", h))
                    include = inc
            patched_valgrind(valgrind)
            g = Golden(None, valgrind, include, os.environ.get("CC", "cc") or "cc")
            for binary, tag in binaries:
                g.binary = binary
                recorded_runs = [] if not tag else None
                try:
                    test_golden(g, binary, tag, {})
                except RuntimeError as e:
                    report("FAIL", tag + "golden/setup", str(e))
                if not tag:
                    # the golden profiles with the exact scanners alone
                    test_exact(binary, recorded_runs)
                recorded_runs = None
            # -f md --diff's lines of two real runs: tests/md_lines_tests.py
            import md_lines_tests
            md_lines_tests.run_real(binaries, valgrind, g.cc, report, check, WORK)
            # --inline (issue 8): tests/inline_tests.py
            import inline_tests
            for binary, tag in binaries:
                inline_tests.run(sys.modules[__name__], valgrind, g.cc, binary, tag)
            # -f pprof (issue 19): tests/pprof_tests.py; go tool pprof reads
            # the real profiles once, with the plain build.
            import pprof_tests
            for binary, tag in binaries:
                g.binary = binary
                pprof_tests.run(sys.modules[__name__], binary, tag,
                                None if tag else (valgrind, g))
            # a folded tree and its callgrind.out together: tests/twin_tests.py
            import twin_tests
            for binary, tag in binaries:
                g.binary = binary
                twin_tests.run(sys.modules[__name__], binary, tag, g, WORK)

    if a.fuzz:
        test_fuzz(os.environ.get("CHECK_FUZZ_SECONDS", "20"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
