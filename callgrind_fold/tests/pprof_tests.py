"""Tests of callgrind_fold -f pprof (issue 19), called from run_tests.py.

Two readers check the output: a decoder of our own (gzip and protocol
buffers, stdlib only: the golden test of a small profile, field by
field), and the real one, `go tool pprof` (Debian's golang-go; SKIP when
`go` is missing): on profiles of every flavour made by the real valgrind,
-raw gives per event exactly the profile's totals, and -traces the stacks
of the folded output for that event.
"""
import gzip
import os
import re
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
_T = None


# ---- a protocol buffer decoder ------------------------------------------

def _varint(data, i):
    v = shift = 0
    while True:
        b = data[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return v, i


def decode_message(data):
    """field number -> list of values (ints for varints, bytes otherwise)."""
    fields, i = {}, 0
    while i < len(data):
        key, i = _varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, i = _varint(data, i)
        elif wire == 2:
            n, i = _varint(data, i)
            v, i = data[i:i + n], i + n
        else:
            raise ValueError("wire type %d" % wire)
        fields.setdefault(field, []).append(v)
    return fields


def _packed(values):
    """A repeated number field, packed (bytes) or not (ints)."""
    out = []
    for v in values:
        if isinstance(v, bytes):
            i = 0
            while i < len(v):
                x, i = _varint(v, i)
                out.append(x)
        else:
            out.append(v)
    return out


def decode_profile(raw):
    """A gzipped profile.proto -> a dict of its parts, strings resolved."""
    p = decode_message(gzip.decompress(raw))
    st = [s.decode() for s in p.get(6, [])]
    one = lambda m, f, d=0: m.get(f, [d])[-1]
    vt = lambda b: (st[one(decode_message(b), 1)], st[one(decode_message(b), 2)])
    prof = {"strings0": st[0] if st else None,
            "sample_type": [vt(b) for b in p.get(1, [])],
            "default_sample_type": st[one(p, 14)],
            "period_type": vt(p[11][0]) if 11 in p else None,
            "comments": [st[i] for i in _packed(p.get(13, []))],
            "samples": [], "labels": [], "mappings": {}, "locations": {}, "functions": {}}
    for b in p.get(3, []):
        m = decode_message(b)
        prof["mappings"][one(m, 1)] = {
            "filename": st[one(m, 5)], "has_functions": one(m, 7), "has_filenames": one(m, 8),
            "has_line_numbers": one(m, 9), "has_inline_frames": one(m, 10)}
    for b in p.get(5, []):
        m = decode_message(b)
        prof["functions"][one(m, 1)] = {"name": st[one(m, 2)], "system_name": st[one(m, 3)],
                                        "filename": st[one(m, 4)], "start_line": one(m, 5)}
    for b in p.get(4, []):
        m = decode_message(b)
        lines = [decode_message(l) for l in m.get(4, [])]
        prof["locations"][one(m, 1)] = {"mapping": one(m, 2),
                                        "lines": [(one(l, 1), one(l, 2)) for l in lines]}
    for b in p.get(2, []):
        m = decode_message(b)
        prof["samples"].append((_packed(m.get(1, [])), _packed(m.get(2, []))))
        labels = {}
        for lb in m.get(3, []):
            lm = decode_message(lb)
            labels[st[one(lm, 1)]] = st[one(lm, 2)] if 2 in lm else one(lm, 3)
        prof["labels"].append(labels)
    return prof


def named_samples(prof):
    """{(frame names root first; inlined ones of a location together): values},
    summed over the samples of a stack (one per line of its leaf)."""
    out = {}
    for locs, values in prof["samples"]:
        names = []
        for l in reversed(locs):
            for fid, _ in reversed(prof["locations"][l]["lines"]):
                names.append(prof["functions"][fid]["name"])
        old = out.get(tuple(names), [0] * len(values))
        out[tuple(names)] = [a + b for a, b in zip(old, values)]
    return out


def line_costs(prof):
    """{(function, file, line): values} of the samples' leaves (their
    innermost function's line), summed."""
    out = {}
    for locs, values in prof["samples"]:
        fid, line = prof["locations"][locs[0]]["lines"][0]
        f = prof["functions"][fid]
        key = (f["name"], f["filename"], line)
        out[key] = [a + b for a, b in zip(out.get(key, [0] * len(values)), values)]
    return out


# ---- the tests ----------------------------------------------------------

# The samples of tests/pprof/small.cg: per stack, Ir and sysTime.
SMALL_SAMPLES = {("main",): [11, 0], ("main", "memcpy"): [100, 5000]}

def run(T, binary, tag, golden=None):
    """golden: (valgrind, Golden instance) for the real-profile tests."""
    global _T
    _T = T
    name = lambda n: tag + "pprof/" + n
    work = os.path.join(T.WORK, "pprof")
    os.makedirs(work, exist_ok=True)

    # Golden: a small profile, field by field.
    out = os.path.join(work, "small.pb.gz")
    src = os.path.join(HERE, "pprof", "small.cg")
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, src])
    if T.check(name("golden/runs"), rc == 0 and err == "", err):
        prof = decode_profile(open(out, "rb").read())
        fn = {f["name"]: f for f in prof["functions"].values()}
        problems = []
        want = {
            "strings0": "",
            "sample_type": [("Ir", "count"), ("sysTime", "nanoseconds")],
            "default_sample_type": "Ir",
            "period_type": ("Ir", "count"),
            "comments": ["cmd: ./small --fast", "desc: Trigger: Program termination"],
        }
        for k, v in want.items():
            if prof[k] != v:
                problems.append("%s: %r, not %r" % (k, prof[k], v))
        if named_samples(prof) != SMALL_SAMPLES:
            problems.append("samples %r" % named_samples(prof))
        wantf = {"main": ("small.c", 10), "memcpy": ("memcpy.S", 50)}
        for f, (file, line) in wantf.items():
            got = fn.get(f)
            if not got or (got["filename"], got["start_line"], got["system_name"]) != (file, line, f):
                problems.append("function %s: %r" % (f, got))
        maps = {m["filename"]: m for m in prof["mappings"].values()}
        if sorted(maps) != ["/bin/small", "/lib/libc.so.6"]:
            problems.append("mappings %r" % sorted(maps))
        for m in maps.values():
            if (m["has_functions"], m["has_filenames"], m["has_line_numbers"],
                    m["has_inline_frames"]) != (1, 1, 1, 0):
                problems.append("mapping flags %r" % m)
        # main's own costs at its lines 10 and 11 (leaf locations), as a
        # caller at the line of its call (12); memcpy's at 50. No location
        # names a mapping: without an address, pprof's source views would
        # disassemble the mapping's file around a made-up one.
        want_lines = {("main", 10), ("main", 11), ("main", 12), ("memcpy", 50)}
        for loc in prof["locations"].values():
            f = prof["functions"][loc["lines"][0][0]]
            if len(loc["lines"]) != 1 or loc["mapping"] != 0 or \
                    (f["name"], loc["lines"][0][1]) not in want_lines:
                problems.append("location %r" % loc)
        if line_costs(prof) != {("main", "small.c", 10): [1, 0], ("main", "small.c", 11): [10, 0],
                                ("memcpy", "memcpy.S", 50): [100, 5000]}:
            problems.append("lines %r" % line_costs(prof))
        T.check(name("golden/fields"), not problems, "; ".join(problems))
        # --event picks the default sample type; --part works as for folded.
        rc, _, err = T.fold(binary, ["-f", "pprof", "--event=sysTime", "-o", out, src])
        prof = decode_profile(open(out, "rb").read())
        T.check(name("golden/default-sample-type"),
                rc == 0 and prof["default_sample_type"] == "sysTime" and
                len(prof["sample_type"]) == 2, err)

    # Locations with inlined frames (callgrind's cfni= lines): numbered in
    # order of first use (stacks in order, root first), one id per
    # location in every sample; "outer" alone and "outer" heading each
    # function inlined into it are different locations (the writer keeps
    # one-frame locations' ids per frame, issue 28: ids unchanged).
    cfni = os.path.join(HERE, "cases", "inlined_cfni.cg")
    cfni_out = os.path.join(work, "inlined_cfni.pb.gz")
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", cfni_out, cfni])
    if T.check(name("golden/inlined-locations/runs"), rc == 0, err):
        prof = decode_profile(open(cfni_out, "rb").read())
        fn = {i: f["name"] for i, f in prof["functions"].items()}
        locs = {i: [fn[f] for f, _ in loc["lines"]] for i, loc in prof["locations"].items()}
        # with lines: a leaf's location per line of its innermost
        # function (outer's 10 and 11, sum_squares' 20 and 22 of inl.h),
        # a caller's at the line of its call (main's 2, sum_squares' 22
        # calling kernel), a leaf's at its first line the one without a
        # line, an inlined frame's first line its code's
        want_locs = {1: ["main"], 2: ["main"], 3: ["outer"], 4: ["outer"],
                     5: ["sum_squares", "outer"], 6: ["sum_squares", "outer"],
                     7: ["sum_squares", "outer"], 8: ["kernel"], 9: ["square", "outer"],
                     10: ["other"], 11: ["square", "other"]}
        want_samples = [([1], [5]), ([3, 2], [4]), ([4, 2], [2]), ([5, 2], [30]),
                        ([6, 2], [6]), ([8, 7, 2], [40]), ([9, 2], [20]), ([10], [1]),
                        ([11], [7])]
        T.check(name("golden/inlined-locations/ids"),
                locs == want_locs and prof["samples"] == want_samples,
                "locations %r, samples %r" % (locs, prof["samples"]))
        # the inlined code's lines in its own file (fi=), its Function's
        # file and first line those of its code
        fns = {(f["name"], f["filename"], f["start_line"]) for f in prof["functions"].values()}
        T.check(name("golden/inlined-locations/inlined-functions"),
                ("sum_squares", "inl.h", 20) in fns and ("square", "inl.h", 21) in fns and
                ("other", "prog.c", 40) in fns, repr(fns))
        T.check(name("golden/inlined-locations/lines"), line_costs(prof) == {
            ("main", "prog.c", 1): [5], ("outer", "prog.c", 10): [4],
            ("outer", "prog.c", 11): [2], ("sum_squares", "inl.h", 20): [30],
            ("sum_squares", "inl.h", 22): [6], ("kernel", "prog.c", 30): [40],
            ("square", "inl.h", 21): [27], ("other", "prog.c", 40): [1]},
            repr(line_costs(prof)))

    _lines(T, binary, name, work)
    _lines_one_event(T, binary, name, work)

    # Threads (callgrind --separate-threads=yes, tests/threads/): each
    # sample says its thread in labels "thread" (the thread's frame in
    # the pictures) and "lwpid" (the kernel id), not as a location; per
    # thread every event sums to its sections' totals.
    import thread_tests
    for tsrc in (thread_tests.POOL_TREE, thread_tests.POOL_OUT):
        kind = os.path.splitext(tsrc)[1][1:]
        tout = os.path.join(work, "threads-%s.pb.gz" % kind)
        rc, _, err = T.fold(binary, ["-f", "pprof", "-o", tout, tsrc])
        ok = rc == 0
        if ok:
            prof = decode_profile(open(tout, "rb").read())
            secs = thread_tests.sections([tsrc])
            want, ids = {}, {}
            for sec in secs:
                lab = thread_tests.label(sec)
                ids[lab] = sec["thread"]
                want[lab] = [a + b for a, b in zip(want.get(lab, [0, 0, 0]), sec["totals"])]
            got = {}
            for (_, values), labels in zip(prof["samples"], prof["labels"]):
                lab = labels.get("thread")
                ok &= sorted(labels) == ["lwpid", "thread"] and labels["lwpid"] == ids.get(lab)
                got[lab] = [a + b for a, b in zip(got.get(lab, [0, 0, 0]), values)]
            names = {f["name"] for f in prof["functions"].values()}
            ok &= got == {k: v for k, v in want.items() if any(v)} and not names & set(want)
            err += " %s %s" % (got, want)
        T.check(name("threads/labels-thread-and-lwpid/" + kind), ok, err)
    # one thread per part (--thread): no labels
    rc, _, err = T.fold(binary, ["-f", "pprof", "--thread=pool-1", "-o", tout,
                                 thread_tests.POOL_TREE])
    prof = decode_profile(open(tout, "rb").read()) if rc == 0 else {"labels": [{}]}
    T.check(name("threads/one-thread-no-labels"),
            rc == 0 and prof["labels"] and not any(prof["labels"]), err)

    # A folded tree's event: lines tell units, as callgrind.out's do.
    tree = os.path.join(work, "units.tree")
    with open(tree, "w") as f:
        f.write("# callgrind folded tree\nversion: 1\n"
                "event: sysTime : sysTime (elapsed us)\n"
                "events: Ir sysTime\n\npart: 1\nfn: 2 main\n1 2 7 40\ntotals: 7 40\n")
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, tree])
    prof = decode_profile(open(out, "rb").read()) if rc == 0 else {}
    T.check(name("tree-input/units"),
            rc == 0 and prof["sample_type"] == [("Ir", "count"), ("sysTime", "microseconds")] and
            named_samples(prof) == {("main",): [7, 40]}, err)

    # --cycle-estimation's Ct, Cl and Cb are centi-cycles, in callgrind.out
    # (which has no event: lines for them) as in trees.
    cycles = os.path.join(work, "cycles.cg")
    with open(cycles, "w") as f:
        f.write("version: 1\nevents: Ir Ct Cl Cb\nfn=(1) main\n1 4 100 300 150\n"
                "totals: 4 100 300 150\n")
    for cyc in (cycles, tree.replace("units", "cycles")):
        if cyc.endswith(".tree"):
            with open(cyc, "w") as f:
                f.write("# callgrind folded tree\nversion: 1\nevents: Ir Ct Cl Cb\n\n"
                        "part: 1\nfn: 2 main\n1 2 4 100 300 150\ntotals: 4 100 300 150\n")
        rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, cyc])
        prof = decode_profile(open(out, "rb").read()) if rc == 0 else {}
        T.check(name("cycles-units/" + os.path.basename(cyc)),
                rc == 0 and prof["sample_type"] ==
                [("Ir", "count"), ("Ct", "centicycles"), ("Cl", "centicycles"),
                 ("Cb", "centicycles")] and
                named_samples(prof) == {("main",): [4, 100, 300, 150]}, err)

    # From folded stacks: one sample type, named by --countname.
    folded = os.path.join(work, "small.folded")
    with open(folded, "w") as f:
        f.write("a;b 3\na 2\n")
    for args, want in (([], "samples"), (["--countname=cycles"], "cycles")):
        rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out] + args + [folded])
        prof = decode_profile(open(out, "rb").read()) if rc == 0 else {}
        T.check(name("folded-input/" + want),
                rc == 0 and prof["sample_type"] == [(want, "count")] and
                named_samples(prof) == {("a", "b"): [3], ("a",): [2]}, err)
    # Folded stacks beside a profile of two events, either first: they
    # name no event, so they count for each (as folded output counts them
    # for --event=Ir and for --event=Dr), and the sums stay the events'.
    two = os.path.join(work, "two_events.cg")
    with open(two, "w") as f:
        f.write("events: Ir Dr\nfn=a\n1 4 1\ncfn=b\ncalls=1 1\n1 6 2\nfn=b\n1 6 2\n")
    for order, inputs in (("profile-first", [two, folded]), ("folded-first", [folded, two])):
        for extra in ([], ["--full-stacks"]):
            rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out] + extra + inputs)
            prof = decode_profile(open(out, "rb").read()) if rc == 0 else {}
            T.check(name("folded-and-profile/%s%s" % (order, "".join(extra))),
                    rc == 0 and prof["sample_type"] == [("Ir", "count"), ("Dr", "count")] and
                    named_samples(prof) == {("a",): [4 + 2, 1 + 2], ("a", "b"): [6 + 3, 2 + 3]},
                    "rc %d %s %r" % (rc, err, prof and named_samples(prof)))
    # Standard input, read once as any input.
    p = T.run([binary, "-f", "pprof", "-o", out, "-"], stdin=open(src, "rb"))
    prof = decode_profile(open(out, "rb").read()) if p.returncode == 0 else {}
    T.check(name("stdin-every-event"),
            p.returncode == 0 and prof and
            named_samples(prof) == SMALL_SAMPLES,
            p.stderr.decode())

    # Every event in one pass over the input (issue 28): a named pipe can
    # be read only once, and still gives every event.
    fifo = os.path.join(work, "small.fifo")
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    import threading

    def feed():
        with open(fifo, "wb") as w, open(src, "rb") as r:
            w.write(r.read())
    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    p = T.run([binary, "-f", "pprof", "-o", out, fifo], timeout=60)
    if p.returncode == 124:  # still waiting for a second writer: unblock it
        feed()
    feeder.join(5)
    prof = decode_profile(open(out, "rb").read()) if p.returncode == 0 else {}
    T.check(name("one-pass/named-pipe"),
            p.returncode == 0 and prof and
            named_samples(prof) == SMALL_SAMPLES,
            p.stderr.decode())
    # Inputs with other events: each event's column, 0 where an input
    # lacks it; a part's "totals:" is checked for every event.
    ir = os.path.join(work, "ir.cg")
    irdr = os.path.join(work, "irdr.cg")
    with open(ir, "w") as f:
        f.write("events: Ir\nfn=main\n1 5\ncfn=f\ncalls=1 2\n3 7\nfn=f\n2 7\ntotals: 12\n")
    with open(irdr, "w") as f:
        f.write("events: Ir Dr\nfn=main\n1 1 2\nfn=g\n1 4 8\ntotals: 5 10\n")
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, ir, irdr])
    prof = decode_profile(open(out, "rb").read()) if rc == 0 else {}
    T.check(name("one-pass/events-of-later-inputs"),
            rc == 0 and prof["sample_type"] == [("Ir", "count"), ("Dr", "count")] and
            named_samples(prof) == {("main",): [6, 2], ("main", "f"): [7, 0], ("g",): [4, 8]},
            err or repr(prof.get("sample_type")) + repr(named_samples(prof) if prof else None))
    bad_dr = os.path.join(work, "bad-dr.cg")
    with open(bad_dr, "w") as f:
        f.write("events: Ir Dr\nfn=main\n1 1 2\ntotals: 1 3\n")
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, bad_dr])
    T.check(name("one-pass/totals-of-every-event"),
            rc == 2 and "bad-dr.cg:4: \"totals:\" says 3 but the cost lines sum to 2" in err,
            err)

    # Another event's sums overflowing: found in its own column (the
    # reader adds every event of a line at once, overflow told once).
    for what, text, line, msg in (
            ("self", "events: Ir Dr\nfn=main\n1 1 2\n2 1 9999999999999999999\n"
             "3 1 9999999999999999999\n4 1 1\n", 5, "cost sum overflows 64 bits"),
            ("call", "events: Ir Dr\nfn=main\ncfn=g\ncalls=1 2\n1 1 9999999999999999999\n"
             "cfn=g\ncalls=1 2\n3 1 9999999999999999999\n4 1 1\n", 8,
             "call cost sum overflows 64 bits")):
        path = os.path.join(work, "other-overflow-%s.cg" % what)
        with open(path, "w") as f:
            f.write(text)
        rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, path])
        T.check(name("one-pass/other-event-%s-overflow" % what),
                rc == 2 and err.strip() == "%s:%d: %s" % (path, line, msg), err)

    # The same, and other unusual lines, where the reader's mask path
    # (src/read/callgrind/scan.h) reads every event: it needs LINE_BITS_MAX (64)
    # bytes after a line's start, so valid lines pad the end.  Each line
    # it does not take plainly must give the exact path's message.
    pad = "+1 0 1 2\n" * 12
    head = "positions: instr line\nevents: Ir Dr\nfn=(1) main\n+1 0 1 2\n+2 0 3\n"
    big = "9999999999999999999"
    for what, body, line, msg in (
            ("other-self-sum", "+1 0 1 %s\n+1 0 1 %s\n" % (big, big), 7,
             "cost sum overflows 64 bits"),
            # --event=Dr: the other event (Ir) is not in the columns after
            # the selected one, the layout the reader adds as it reads
            ("other-self-sum-first-column", "+1 0 %s 1\n+1 0 %s 1\n" % (big, big), 7,
             "cost sum overflows 64 bits"),
            ("selected-self-sum", "+1 0 %s 1\n+1 0 %s 1\n" % (big, big), 7,
             "cost sum overflows 64 bits"),
            ("other-call-sum", "cfn=(2) g\ncalls=1 0x10 3\n+1 0 1 %s\ncfn=(2)\n"
             "calls=1 0x10 3\n+1 0 1 %s\n" % (big, big), 11,
             "call cost sum overflows 64 bits"),
            ("too-many-costs", "+1 0 1 2 3\n", 6,
             "more costs than the 2 event(s) of the \"events:\" line"),
            ("bad-byte", "+1 0 1 2x\n", 6, "bad cost \"2x\""),
            ("long-cost", "+1 0 1 99999999999999999999\n", 6,
             "cost \"99999999999999999999\" does not fit in 64 bits")):
        path = os.path.join(work, "mask-%s.cg" % what)
        with open(path, "w") as f:
            f.write(head + body + pad)
        event = ["--event=Dr"] if what.endswith("first-column") else []
        rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out] + event + [path])
        T.check(name("one-pass/mask-path/" + what),
                rc == 2 and err.strip() == "%s:%d: %s" % (path, line, msg), err)
    # A line without costs ("* 0", after "jcnd=") starting a run adds
    # nothing, whatever the line before had: "totals:" checks every event.
    for event in ([], ["--event=Dr"]):
        path = os.path.join(work, "mask-no-costs.cg")
        with open(path, "w") as f:
            f.write(head + "+1 0 1 5\nfl=(2) b.c\n* 0\n" + pad + "totals: 17 31\n")
        rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out] + event + [path])
        prof = decode_profile(open(out, "rb").read()) if rc == 0 else {}
        T.check(name("one-pass/mask-path/no-costs" + "".join(event)),
                rc == 0 and named_samples(prof) == {("main",): [17, 31]},
                err or repr(named_samples(prof)))
    # The "line" subposition followed for each function's first source
    # line, as the exact path does: hex, "*" and signs relative to the
    # last line (which starts again at 0 with each "fn="; -5 wraps, no
    # line, and +9 wraps back to 4), the line after "jump=" not counted.
    path = os.path.join(work, "mask-lines.cg")
    with open(path, "w") as f:
        f.write("positions: line\nevents: Ir Dr\nfn=(1) main\n0x10 1 2\nfn=(2) f\n"
                "* 1 1\nfn=(3) g\n+4 1 1\nfn=(4) h\n-5 1\n+9 1 1\nfn=(5) k\n"
                "jump=3 +9\n+100 1 1\n+7 1 1\nfn=(6) pad\n" + "+1 1 2\n" * 12)
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, path])
    prof = decode_profile(open(out, "rb").read()) if rc == 0 else {}
    lines = {f["name"]: f["start_line"] for f in prof.get("functions", {}).values()}
    T.check(name("one-pass/mask-path/first-lines"),
            rc == 0 and lines == {"main": 16, "f": 0, "g": 4, "h": 4, "k": 7, "pad": 1},
            err or repr(lines))

    # Malformed input: the same error as folded output, nothing written.
    mdir = os.path.join(HERE, "malformed")
    bad = []
    for f in sorted(os.listdir(mdir)):
        if f == "EXPECT":
            continue
        path = os.path.join(mdir, f)
        r1 = T.fold(binary, [path])
        target = os.path.join(work, "malformed.pb.gz")
        if os.path.exists(target):
            os.unlink(target)
        r2 = T.fold(binary, ["-f", "pprof", "-o", target, path])
        r3 = T.fold(binary, ["-f", "pprof", path])
        if r1[0] != 0 and (r2[0] != r1[0] or r2[2] != r1[2] or os.path.exists(target) or
                           r3[1] != "" or r3[0] != r1[0]):
            bad.append(f)
    T.check(name("malformed-unchanged"), not bad, " ".join(bad))

    if golden:
        _real_profiles(T, binary, tag, name, work, *golden)


# tests/pprof/lines.cg's self costs by (function, file, line): Ir, Dr
LINES_COSTS = {("main", "lines.c", 3): [1, 0], ("main", "lines.c", 4): [2, 1],
               ("main", "lines.c", 0): [1, 0], ("mid", "lines.c", 30): [1, 0],
               ("hot", "lines.c", 20): [10, 2], ("hot", "lines.c", 21): [30, 5],
               ("hot", "lines.c", 22): [10, 4], ("hot", "lines.c", 23): [20, 2],
               ("hot", "lines.c", 25): [5, 1], ("hot", "hot.h", 40): [5, 0]}
LINES_COSTS.update({("pad", "lines.c", n): [1, 2] for n in range(1, 13)})


def _lines(T, binary, name, work):
    """Per-line costs (a Location per (function, line) at the leaf): each
    line's cost exact, a function's lines summing to its self cost, each
    stack's samples to its folded count, the folded output the same, the
    fast tiers and the exact reader alike, and go tool pprof -list
    showing them."""
    n = lambda what: name("lines/" + what)
    src = os.path.join(HERE, "pprof", "lines.cg")
    out = os.path.join(work, "lines.pb.gz")
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, src])
    if not T.check(n("runs"), rc == 0, err):
        return
    raw = open(out, "rb").read()
    prof = decode_profile(raw)
    T.check(n("each-line-exact"), line_costs(prof) == LINES_COSTS, repr(line_costs(prof)))
    folded = {}
    for k, ev in enumerate(("Ir", "Dr")):
        r = T.fold(binary, ["--event=" + ev, src])
        for stack, count in T.parse_folded(r[1]):
            folded.setdefault(tuple(stack), [0, 0])[k] += count
    T.check(n("stacks-as-folded"), named_samples(prof) == folded,
            "%r vs %r" % (named_samples(prof), folded))
    # hot: 6 lines, 2 stacks: at most 6 + 2 - 1 samples a column
    hot = [v for locs, v in prof["samples"]
           if prof["functions"][prof["locations"][locs[0]]["lines"][0][0]]["name"] == "hot"]
    T.check(n("samples-at-most-lines-plus-stacks"),
            all(sum(1 for v in hot if v[c]) <= 7 for c in (0, 1)), repr(hot))
    # callers at the lines of their calls: main calls hot at 5 and mid
    # at 6, mid calls hot at 31
    sites = set()
    for locs, _ in prof["samples"]:
        for caller, callee in zip(locs[1:], locs):
            fid, line = prof["locations"][caller]["lines"][0]
            sites.add((prof["functions"][fid]["name"], line, prof["functions"][
                prof["locations"][callee]["lines"][-1][0]]["name"]))
    T.check(n("callers-at-call-sites"),
            sites == {("main", 5, "hot"), ("main", 6, "mid"), ("mid", 31, "hot")}, repr(sites))
    T.check(n("comment-says-lines-are-not-paths"),
            any(c.startswith("lines: ") for c in prof["comments"]), repr(prof["comments"]))
    p = T.run([binary, "-f", "pprof", "-o", out + ".exact", src],
              env=dict(os.environ, CALLGRIND_FOLD_EXACT="1"))
    T.check(n("exact-reader-alike"),
            p.returncode == 0 and open(out + ".exact", "rb").read() == raw, p.stderr.decode())
    # folded and svg do not read lines: the same as from the profile
    # without its line positions
    flat = os.path.join(work, "lines-flat.cg")
    with open(src) as f, open(flat, "w") as g:
        g.write(f.read().replace("positions: line\n", "positions: instr\n"))
    same = True
    for fmt in ([], ["-f", "svg"]):
        a, b = T.fold(binary, fmt + [src]), T.fold(binary, fmt + [flat])
        same &= a[0] == 0 and a[1] == b[1]
    T.check(n("folded-and-svg-unchanged"), same)
    # threads kept apart, compacted and put under thread frames: every
    # (file, line) of every event as the profile's own lines sum it
    import thread_tests
    pool = os.path.join(work, "lines-pool.pb.gz")
    for extra in ([], ["--frame=short"]):
        rc, _, err = T.fold(binary, ["-f", "pprof", "-o", pool] + extra + [thread_tests.POOL_OUT])
        want = callgrind_line_costs([thread_tests.POOL_OUT])
        got = pprof_line_costs(decode_profile(open(pool, "rb").read())) if rc == 0 else {}
        T.check(n("threads-every-line" + "".join(extra)), rc == 0 and got == want,
                err or "%r vs %r" % (got, want))

    cmd, why = _go_pprof()
    if not cmd:
        T.report("SKIP", n("go-tool-pprof-list"), why)
        return
    srcdir = os.path.join(work, "lines-src")
    os.makedirs(srcdir, exist_ok=True)
    for f in ("lines.c", "hot.h"):
        with open(os.path.join(srcdir, f), "w") as g:
            g.write("".join("line %d\n" % i for i in range(1, 50)))
    problems = []
    for k, ev in enumerate(("Ir", "Dr")):
        try:
            text = _pprof(cmd, ["-list=^(main|hot|mid)$", "-sample_index=" + ev,
                                "-source_path=" + srcdir, out])
        except RuntimeError as e:
            problems.append(str(e))
            continue
        got = list_flat(text)
        want = {(fn, fl, ln): v[k] for (fn, fl, ln), v in LINES_COSTS.items()
                if fn != "pad" and ln and v[k]}
        if got != want:
            problems.append("%s: -list %r, want %r" % (ev, got, want))
        # cum at the call sites: the calls' inclusive costs
        cum = list_flat(text, column=2)
        want_cum = {("main", "lines.c", 5): [60, 10][k], ("main", "lines.c", 6): [21, 4][k],
                    ("mid", "lines.c", 31): [20, 4][k]}
        if any(cum.get(key) != v for key, v in want_cum.items()):
            problems.append("%s: -list cum %r" % (ev, cum))
    T.check(n("go-tool-pprof-list"), not problems, "; ".join(problems))


_NAME_KIND = {"fl": "file", "fi": "file", "fe": "file", "cfi": "file", "cfl": "file",
              "jfi": "file", "fn": "fn", "cfn": "fn", "jfn": "fn", "ob": "ob", "cob": "ob"}


def _one_event_profile(path):
    """A one-event callgrind.out (positions "instr line") whose line
    subpositions take every plain form ("*", "+N", "-N", one digit, many,
    past 2^32, a line with no cost), on runs of one line and on lines that
    change, with "jump=", "fi="/"fe=" code and functions entered twice.
    main calls each leaf from three call lines, two at one line: returns
    {(leaf, line of main): inclusive cost} of the calls."""
    import random
    rnd = random.Random(53)
    forms = lambda: rnd.choice(["*", "*", "*", "+%d" % rnd.randint(1, 9), "-%d" % rnd.randint(1, 3),
                                str(rnd.randint(1, 9)), str(rnd.randint(10, 99999)),
                                "123456789012", "+%d" % rnd.randint(10, 999)])
    out = ["version: 1", "positions: instr line", "events: Ir", "ob=(1) /bin/one", "fl=(1) one.c"]
    totals = {}
    for visit in range(2):
        for leaf in range(1, 7):
            out.append("fn=(%d)%s" % (leaf + 1, "" if visit else " leaf%d" % leaf))
            out.append("0x%x %d %d" % (0x1000 * leaf, 10 * leaf, rnd.randint(1, 9)))
            for k in range(60):
                if k == 20:
                    out.append("jump=3 +16 +2")
                if k == 40:
                    out.append("fi=(2)%s" % ("" if visit or leaf > 1 else " one.h"))
                if k == 50:
                    out.append("fe=(1)")
                cost = rnd.choice(["", " 0", " %d" % rnd.randint(1, 9), " %d" % rnd.randint(10, 99999)])
                out.append("+%d %s%s" % (rnd.randint(1, 7), forms(), cost))
        sites = {}
        out.append("fn=(1)%s" % ("" if visit else " main"))
        out.append("0x100 %d 1" % (3 + visit))
        for leaf in range(1, 7):
            for k, line in enumerate((20 + leaf, 40 + leaf, 20 + leaf)):
                c = rnd.randint(1, 10 ** 6)
                out.append("cfn=(%d)" % (leaf + 1))
                out.append("calls=1 0x%x %d" % (0x1000 * leaf, 10 * leaf))
                out.append("+%d %d %d" % (k + 1, line, c))
                sites[("leaf%d" % leaf, line)] = sites.get(("leaf%d" % leaf, line), 0) + c
                out.append("+1 * %d" % rnd.randint(1, 9))
        for key, c in sites.items():
            totals[key] = totals.get(key, 0) + c
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return totals


def _lines_one_event(T, binary, name, work):
    """One event: the fast tiers read lines 64 bytes at a time (costrun.c's
    blocks) too.  Each (file, line) as the profile says, the call sites
    each caller's costliest, the blocks, the line-at-a-time tier and the
    exact reader alike."""
    n = lambda what: name("lines/one-event/" + what)
    src = os.path.join(work, "one-event.cg")
    sites = _one_event_profile(src)
    out = os.path.join(work, "one-event.pb.gz")
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, src])
    if not T.check(n("runs"), rc == 0, err):
        return
    raw = open(out, "rb").read()
    prof = decode_profile(raw)
    got, want = pprof_line_costs(prof), callgrind_line_costs([src])
    T.check(n("each-line-exact"), got == want, "%r vs %r" % (got, want))
    best = {}
    for (leaf, line), c in sites.items():
        if c > best.get(leaf, (0, 0))[1]:
            best[leaf] = (line, c)
    seen = {}
    for locs, _ in prof["samples"]:
        for caller, callee in zip(locs[1:], locs):
            fid, line = prof["locations"][caller]["lines"][0]
            leaf = prof["functions"][prof["locations"][callee]["lines"][-1][0]]["name"]
            if prof["functions"][fid]["name"] == "main":
                seen[leaf] = line
    T.check(n("callers-at-costliest-sites"),
            seen == {leaf: line for leaf, (line, _) in best.items()}, "%r vs %r" % (seen, best))
    alike = True
    for env in ({"CALLGRIND_FOLD_COST_BLOCKS": "0"}, {"CALLGRIND_FOLD_EXACT": "1"}):
        p = T.run([binary, "-f", "pprof", "-o", out + ".other", src], env=dict(os.environ, **env))
        alike &= p.returncode == 0 and open(out + ".other", "rb").read() == raw
    T.check(n("tiers-alike"), alike)


def self_cost_lines(path):
    """Each self-cost line of a callgrind.out, read independently of
    callgrind_fold: (object, function, file, {position: value}, events,
    cost tokens). Positions are relative to the function's last
    self-cost line (call lines and the line after "jump=" do not move
    them); a relative one wraps as an unsigned 64-bit number."""
    names, events, positions = {}, [], ["line"]
    ob = fn = fname = ""
    last, pending = [], None
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("latin-1").rstrip("\r\n")
            m = re.match(r"([a-z]+)=\s*(?:\((\d+)\))?\s*(.*)$", line)
            if m and m.group(1) in _NAME_KIND:
                key = (_NAME_KIND[m.group(1)], m.group(2))
                name = m.group(3) if m.group(3) or not m.group(2) else names[key]
                if m.group(2):
                    names[key] = name
                if m.group(1) in ("fl", "fi", "fe"):
                    fname = name
                elif m.group(1) == "ob":
                    ob = name
                elif m.group(1) == "fn":
                    fn, last = name, [0] * len(positions)
                continue
            if m and m.group(1) in ("calls", "jump", "jcnd"):
                pending = m.group(1)
                continue
            h = re.match(r"(positions|events):\s*(.*)$", line)
            if h:
                if h.group(1) == "positions":
                    positions = h.group(2).split()
                else:
                    events = h.group(2).split()
                last = [0] * len(positions)
                continue
            if not line[:1] or line[0] not in "0123456789+-*":
                continue
            tokens = line.split()
            values = []
            for i, t in enumerate(tokens[:len(positions)]):
                if t == "*":
                    v = last[i]
                elif t[0] in "+-":
                    v = (last[i] + (1 if t[0] == "+" else -1) * int(t[1:], 0)) % 2 ** 64
                else:
                    v = int(t, 0)
                values.append(v)
            was, pending = pending, None
            if was == "calls":
                continue
            if was is None:
                last = values
            yield ob, fn, fname, dict(zip(positions, values)), events, tokens[len(positions):]


def callgrind_line_costs(paths):
    """{event: {(file, line): self cost}} of callgrind.out files, every
    part summed (self_cost_lines), a line out of 1 .. 2^32 - 2 as 0."""
    out = {}
    for path in paths:
        for _, _, fname, where, events, costs in self_cost_lines(path):
            ln = where.get("line", 0)
            ln = ln if 0 < ln <= 2 ** 32 - 2 else 0
            for ev, cost in zip(events, costs):
                d = out.setdefault(ev, {})
                d[(fname, ln)] = d.get((fname, ln), 0) + int(cost)
    return {ev: {k: v for k, v in d.items() if v} for ev, d in out.items()}


def pprof_line_costs(prof):
    """{event: {(file, line): value}} of a decoded profile's leaves."""
    out = {ev: {} for ev, _ in prof["sample_type"]}
    for locs, values in prof["samples"]:
        fid, line = prof["locations"][locs[0]]["lines"][0]
        key = (prof["functions"][fid]["filename"], line)
        for (ev, _), v in zip(prof["sample_type"], values):
            out[ev][key] = out[ev].get(key, 0) + v
    return {ev: {k: v for k, v in d.items() if v} for ev, d in out.items()}


def list_flat(text, column=1):
    """go tool pprof -list: {(function, file base name, line): flat} (cum
    with column 2), lines with a cost in that column only."""
    out, fn, fl = {}, None, None
    for line in text.splitlines():
        m = re.match(r"ROUTINE =+ (\S+) in (.*)$", line)
        if m:
            fn, fl = m.group(1), os.path.basename(m.group(2).strip())
            continue
        m = re.match(r"\s*(\S+)\s+(\S+)\s+(\d+):", line)
        if m and fn and m.group(column) != ".":
            out[(fn, fl, int(m.group(3)))] = int(m.group(column))
    return out


def _go_pprof():
    """The argv prefix of `go tool pprof`, or (None, why)."""
    go = shutil.which("go")
    if not go:
        return None, "no go command (Debian: apt-get install golang-go)"
    p = _T.run([go, "tool", "pprof", "-h"], timeout=300)
    text = (p.stdout + p.stderr).decode("utf-8", "replace")
    if "usage" not in text.lower():
        return None, "go tool pprof does not run: " + text[-200:]
    return [go, "tool", "pprof"], None


def _pprof(cmd, args):
    p = _T.run(cmd + args, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("pprof %s: %s" % (" ".join(args), p.stderr.decode()[-300:]))
    return p.stdout.decode("utf-8", "replace")


def raw_totals(text):
    """-raw: sample types and the sum of every value column."""
    lines = text.splitlines()
    i = lines.index("Samples:")
    types = [t.split("/")[0] for t in lines[i + 1].split()]
    sums = [0] * len(types)
    for line in lines[i + 2:]:
        m = re.match(r"\s*([\d\s]+):", line)
        if not m:
            break
        for k, v in enumerate(m.group(1).split()):
            sums[k] += int(v)
    return dict(zip(types, sums)), lines[i + 1]


def traces(text):
    """-traces: {stack (root first): value}, zero values left out."""
    out = {}
    for block in text.split("-----------+")[1:]:
        rows = [l for l in block.splitlines()[1:] if l.strip()]
        if not rows:
            continue
        # -unit=ns: whole numbers, with "ns" for the time events
        m = re.match(r"\s*(\d+)(?:ns)?\s+(.*)$", rows[0])
        if not m:
            raise RuntimeError("pprof -traces: unexpected line %r" % rows[0])
        value = int(m.group(1))
        frames = [m.group(2)] + [r.strip() for r in rows[1:]]
        frames = [re.sub(r" \(inline\)$", "", f) for f in frames]
        if value:
            key = tuple(reversed(frames))
            out[key] = out.get(key, 0) + value
    return out


def _real_profiles(T, binary, tag, name, work, valgrind, g):
    cmd, why = _go_pprof()
    if not cmd:
        T.report("SKIP", name("go-tool-pprof"), why)
        return
    # Each flavour: (name, input files, callgrind_fold options, totals known)
    flavours = []
    calls = lambda opts: g.profile("calls", opts)
    flavours.append(("plain", calls([]), [], True))
    flavours.append(("dump-instr", calls(["--dump-instr=yes"]), [], True))
    flavours.append(("cache-sim", calls(["--cache-sim=yes", "--branch-sim=yes"]), [], True))
    flavours.append(("separate-callers", calls(["--separate-callers=8"]), [], True))
    combined = g.profile("calls", ["--combine-dumps=yes"], args=["dump"])
    flavours.append(("combined-parts", combined, [], True))
    flavours.append(("combined-part2", combined, ["--part=2"], True))
    flavours.append(("systime", calls(["--collect-systime=nsec"]), [], True))
    tree = os.path.join(work, "calls.tree")
    try:  # our patched callgrind's folded tree: a valgrind without it fails here
        g.profile("calls", ["--cache-sim=yes", "--dump-folded=yes",
                            "--folded-out-file=" + tree], clean=[tree])
        flavours.append(("folded-tree", T.dump_files(tree), [], False))
    except RuntimeError as e:
        T.report("FAIL", name("real/folded-tree"), str(e))
    try:
        import inline_tests
        inline_tests._T = T
        hot = inline_tests._builds_for(g.cc, T.WORK)["hot"]
        prof = inline_tests._profile(valgrind, T.WORK, hot, ["--dump-instr=yes"])
        flavours.append(("inline", [prof], ["--inline"], True))
        # --inline with several events: every event's costs split by
        # address in the same pass, each as its own --event's fold.
        events = inline_tests._profile(valgrind, T.WORK, hot,
                                       ["--dump-instr=yes", "--cache-sim=yes"])
        flavours.append(("inline-events", [events], ["--inline"], True))
        # callgrind's own "cfni=" frames with several events: the other
        # events' costs of inlined code, read in the same pass.
        cfni = inline_tests._profile(valgrind, T.WORK, hot,
                                     ["--read-inline-info=yes", "--cache-sim=yes"])
        flavours.append(("cfni-events", [cfni], [], True))
    except RuntimeError as e:
        T.report("FAIL", name("real/inline-setup"), str(e))

    for fl, files, opts, have_totals in flavours:
        n = lambda what: name("real/%s/%s" % (fl, what))
        out = os.path.join(work, fl + ".pb.gz")
        rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out] + opts + files)
        if not T.check(n("runs"), rc == 0, err):
            continue
        try:
            sums, header = raw_totals(_pprof(cmd, ["-raw", out]))
            problems = []
            part = None
            for o in opts:
                if o.startswith("--part="):
                    part = int(o[7:])
            for ev, total in sums.items():
                if have_totals:
                    want = T.totals_of(files, ev, part)
                else:
                    r = T.fold(binary, opts + ["--event=" + ev] + files)
                    want = sum(c for _, c in T.parse_folded(r[1]))
                if total != want:
                    problems.append("%s: pprof %d, totals %d" % (ev, total, want))
                # -traces per event: the folded output's stacks.
                r = T.fold(binary, opts + ["--event=" + ev] + files)
                folded = {}
                for s, c in T.parse_folded(r[1]):
                    key = tuple(re.sub(r" \[inlined\]$", "", f) for f in s)
                    folded[key] = folded.get(key, 0) + c
                got = traces(_pprof(cmd, ["-traces", "-unit=ns", "-sample_index=" + ev, out]))
                if got != folded:
                    diff = set(got.items()) ^ set(folded.items())
                    problems.append("%s: traces differ from folded, e.g. %r" %
                                    (ev, sorted(diff)[:2]))
            if fl == "cache-sim":
                if len(sums) < 9 or "[dflt]" not in header.split()[0]:
                    problems.append("sample types: " + header)
            if fl == "systime" and "sysTime/nanoseconds" not in header:
                problems.append("sample types: " + header)
            # per-line costs: each (file, line)'s, every event, as the
            # profile's own lines sum them (--inline: below)
            if not opts and fl != "folded-tree":
                want = callgrind_line_costs(files)
                got = pprof_line_costs(decode_profile(open(out, "rb").read()))
                for ev in want:
                    if got.get(ev) != want[ev]:
                        diff = set(got.get(ev, {}).items()) ^ set(want[ev].items())
                        problems.append("%s: lines differ, e.g. %r" % (ev, sorted(diff)[:3]))
            # --inline: lines from DWARF, each as callgrind's own for the
            # program's source (paths written differently: by base name;
            # Valgrind reads some rows of libc's tables, where several
            # start at one address, otherwise than libdw and binutils)
            if "--inline" in opts:
                own = lambda d: {(os.path.basename(f), l): v for (f, l), v in d.items()
                                 if os.path.basename(f) == "inline_hot.c"}
                want = callgrind_line_costs(files)
                got = pprof_line_costs(decode_profile(open(out, "rb").read()))
                if not own(want.get("Ir", {})):
                    problems.append("no costs at lines of inline_hot.c")
                for ev in want:
                    w, g_ = own(want[ev]), own(got.get(ev, {}))
                    if g_ != w:
                        diff = set(g_.items()) ^ set(w.items())
                        problems.append("%s: inline_hot.c lines differ, e.g. %r" %
                                        (ev, sorted(diff)[:3]))
            T.check(n("totals-and-traces"), not problems and sums, "; ".join(problems))
        except RuntimeError as e:
            T.check(n("totals-and-traces"), False, str(e))
