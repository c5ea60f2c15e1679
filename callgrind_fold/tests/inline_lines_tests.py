"""--inline with lines (-f pprof): each self cost at the line .debug_line
gives its address, under the innermost inlined frame there; the outer
frames of an inlined chain at the lines they inlined the next one at
(DW_AT_call_line). tests/inline_tests.py runs these with its builds and
profiles; the expected lines come from binutils' addr2line -i, a reader
of the same DWARF independent of libdw and of callgrind_fold.
"""
import html
import os
import re
import shutil
import subprocess

import html_tests
import lines_page_tests
import pprof_tests

SOURCE = "inline_hot.c"  # the hot program's source: its lines are checked


def _self_costs(path):
    """[(object, function, address, cost of the first event)] of the
    self-cost lines of a callgrind.out with "instr" among its positions."""
    return [(ob, fn, where["instr"], int(costs[0]))
            for ob, fn, _, where, _, costs in pprof_tests.self_cost_lines(path)
            if "instr" in where and costs]


def _addr2line(exe, addrs):
    """{address: [(function, file base name, line)] innermost first}, as
    `addr2line -i -f` reads the DWARF."""
    out = {}
    addrs = sorted(set(addrs))
    for k in range(0, len(addrs), 500):
        chunk = addrs[k:k + 500]
        p = subprocess.run(["addr2line", "-a", "-i", "-f", "-e", exe] +
                           ["0x%x" % a for a in chunk], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=300)
        if p.returncode != 0:
            raise RuntimeError("addr2line: " + p.stderr.decode()[-300:])
        cur = None
        rows = p.stdout.decode("utf-8", "replace").splitlines()
        i = 0
        while i < len(rows):
            if re.match(r"0x[0-9a-f]+$", rows[i]):
                cur = int(rows[i], 16)
                out[cur] = []
                i += 1
                continue
            fn, where = rows[i], rows[i + 1] if i + 1 < len(rows) else "??:0"
            where = re.sub(r" \(discriminator \d+\)$", "", where)
            fl, _, ln = where.rpartition(":")
            out[cur].append((fn, os.path.basename(fl), int(ln) if ln.isdigit() else 0))
            i += 2
    return out


def _bias(exe, costs):
    """Written address - ELF address of the program (a PIE's load base):
    hot_loop's first instruction against its symbol."""
    p = subprocess.run(["nm", exe], stdout=subprocess.PIPE, timeout=60)
    sym = [int(l.split()[0], 16) for l in p.stdout.decode().splitlines()
           if l.split()[-1:] == ["hot_loop"]]
    first = [a for ob, fn, a, _ in costs if fn == "hot_loop"]
    if not sym or not first:
        raise RuntimeError("no hot_loop in %s or its profile" % exe)
    return min(first) - sym[0]


def expected_lines(exe, prof):
    """From the profile's self costs by address and addr2line -i: the
    program's source lines {(function, base name, line): self cost} and
    its inlined calls {(outer function, inlined function, call line)}."""
    costs = [c for c in _self_costs(prof) if c[0].endswith("/" + os.path.basename(exe))]
    bias = _bias(exe, costs)
    where = _addr2line(exe, [a - bias for _, _, a, _ in costs])
    leaf, calls = {}, set()
    for _, _, a, cost in costs:
        chain = where.get(a - bias) or []
        if not chain or any(fl != SOURCE for _, fl, _ in chain):
            continue
        leaf[chain[0]] = leaf.get(chain[0], 0) + cost
        for k in range(1, len(chain)):
            calls.add((chain[k][0], chain[k - 1][0], chain[k][2]))
    return {k: v for k, v in leaf.items() if v}, calls


def pprof_lines(raw, source=SOURCE):
    """The same of a -f pprof profile: its leaves' lines (first sample
    type) in the program's source (None: in every file), and the inlined
    calls its locations' Lines say: (outer, inner, the outer Line's
    line)."""
    prof = pprof_tests.decode_profile(raw)
    fs, locs = prof["functions"], prof["locations"]
    name = lambda fid: (fs[fid]["name"], os.path.basename(fs[fid]["filename"]))
    leaf, calls = {}, set()
    for ids, values in prof["samples"]:
        fid, line = locs[ids[0]]["lines"][0]
        fn, fl = name(fid)
        if (source is None or fl == source) and values[0]:
            leaf[(fn, fl, line)] = leaf.get((fn, fl, line), 0) + values[0]
    for loc in locs.values():
        lines = loc["lines"]  # innermost first
        for k in range(1, len(lines)):
            (outer, fo), (inner, fi) = name(lines[k][0]), name(lines[k - 1][0])
            if source is None or (fo == source and fi == source):
                calls.add((outer, inner, lines[k][1]))
    return leaf, calls


def run(T, name, binary, builds, profile):
    """The checks, names under `name`; `profile(exe)` profiles a build."""
    work = os.path.join(T.WORK, "inline")
    if not shutil.which("addr2line") or not shutil.which("nm"):
        T.report("SKIP", name("lines/hot/against-addr2line"),
                 "addr2line is not installed (Debian: binutils)")
        return

    def pprof(p, tag, env=None, extra=()):
        out = os.path.join(work, "lines-%s.pb.gz" % tag)
        rc, _, err = T.fold(binary, ["-f", "pprof", "--inline", "-o", out] + list(extra) + [p],
                            env=env)
        if rc != 0:
            return None, "rc %d: %s" % (rc, err[-300:])
        return open(out, "rb").read(), err

    # The program, its DWARF 4 build and one with compressed DWARF (read
    # through an inflated image, which keeps .debug_line for lines)
    for variant in ("hot", "dwarf4", "gz"):
        n = lambda what: name("lines/%s/%s" % (variant, what))
        prof = profile(builds[variant])
        want_leaf, want_calls = expected_lines(builds[variant], prof)
        raw, err = pprof(prof, variant)
        if raw is None:
            T.check(n("runs"), False, err)
            continue
        leaf, calls = pprof_lines(raw)
        T.check(n("leaf-lines-as-addr2line"), want_leaf and leaf == want_leaf,
                "differ: %r" % sorted(set(leaf.items()) ^ set(want_leaf.items()))[:6])
        # helper_b inlined into helper_a, helper_a into hot_loop: each at
        # the line of its call
        T.check(n("inlined-at-call-lines-as-addr2line"),
                len(want_calls) >= 2 and calls == want_calls,
                "pprof %r, addr2line %r" % (sorted(calls), sorted(want_calls)))
        if variant in ("hot", "gz"):
            page_lines(T, n, binary, prof, want_leaf, os.path.join(work, "lines-%s.html" % variant))
        if variant == "gz":
            diff_lines_read(T, n, binary, prof, work)
    want_leaf, want_calls = expected_lines(builds["hot"], profile(builds["hot"]))
    # both DIE readers read the call lines alike
    for variant in ("hot", "dwarf4", "cpp", "clang4", "lib"):
        if variant not in builds:
            continue
        p = profile(builds[variant])
        got = {}
        for reader in ("direct", "libdw"):
            r, e = pprof(p, "%s-%s" % (variant, reader),
                         env={"CALLGRIND_FOLD_DIE_READER": reader}, extra=["--inline-cache=no"])
            # (the lines and call lines; how stacks share a function's
            # lines may differ, the order of the file names being another)
            got[reader] = (pprof_lines(r, None), _off_first_line(r) > 0) if r else e
        # and some leaf is at a line of its own, not its function's first
        T.check(name("lines/die-reader/%s/direct-equals-libdw" % variant),
                got["direct"] == got["libdw"] and isinstance(got["direct"], tuple) and
                got["direct"][1],
                "direct %r libdw %r" % (str(got["direct"])[:300], str(got["libdw"])[:300]))
    # go tool pprof -list: each line's flat cost, and at a call line of
    # inlined code the callee's cost in the caller's cum
    pprof_tests._T = T
    cmd, why = pprof_tests._go_pprof()
    if not cmd:
        T.report("SKIP", name("lines/hot/go-tool-pprof-list"), why)
    else:
        path = os.path.join(work, "lines-hot.pb.gz")
        regex = "^(hot_loop|helper_a|helper_b|tally|main)$"
        text = pprof_tests._pprof(cmd, ["-list", regex, path])
        flat = {k: v for k, v in pprof_tests.list_flat(text).items() if k[1] == SOURCE}
        cum = pprof_tests.list_flat(text, column=2)
        problems = []
        if flat != want_leaf:
            problems.append("flat differ: %r" % sorted(set(flat.items()) ^
                                                        set(want_leaf.items()))[:6])
        for outer, inner, line in want_calls:
            inner_self = sum(v for (fn, _, _), v in want_leaf.items() if fn == inner)
            if cum.get((outer, SOURCE, line), 0) < flat.get((outer, SOURCE, line), 0) + inner_self:
                problems.append("%s:%d cum %d, below %s's self cost %d" % (
                    outer, line, cum.get((outer, SOURCE, line), 0), inner, inner_self))
        T.check(name("lines/hot/go-tool-pprof-list"), not problems, "; ".join(problems))
        # -weblist (the source view of -http too), the program's binary
        # where the profile names it: the same flat cost per line
        page = os.path.join(work, "lines-hot-weblist.html")
        p = T.run(cmd + ["-weblist=" + regex, "-output=" + page, path], timeout=600)
        shown = weblist_flat(page) if p.returncode == 0 and os.path.exists(page) else {}
        # helper_b inlines nothing: its listing is its own lines' costs;
        # every other function's own lines are at least theirs
        own = {}
        for (fn, _, line), v in want_leaf.items():
            own.setdefault(fn, {})[line] = v
        T.check(name("lines/hot/go-tool-pprof-weblist"),
                os.path.exists(builds["hot"]) and own.get("helper_b") and
                {l: v for l, v in shown.get("helper_b", {}).items() if v} == own["helper_b"] and
                all(shown.get(fn, {}).get(l, 0) >= v for fn, ls in own.items() for l, v in ls.items()),
                "rc %d %s; weblist %r, addr2line %r" % (p.returncode, p.stderr.decode()[-300:],
                                                         shown, own))
    # Bad or no line tables: a clear run with the sums kept; an object
    # without DWARF as without --inline (no warning per address).
    for variant in ("badline", "badinfo", "nodwarf"):
        if variant not in builds:
            T.report("FAIL", name("lines/%s/runs" % variant), "no build of " + variant)
            continue
        p = profile(builds[variant])
        for reader in ("", "direct", "libdw"):
            r, e = pprof(p, "%s-%s" % (variant, reader or "both"),
                         env={"CALLGRIND_FOLD_DIE_READER": reader}, extra=["--inline-cache=no"])
            ok = r is not None
            if ok:
                prof_ = pprof_tests.decode_profile(r)
                got = sum(v[0] for _, v in prof_["samples"])
                ok = got == T.totals_of([p], "Ir") and len(e.splitlines()) <= 4
            T.check(name("lines/%s/%s/no-crash" % (variant, reader or "both")), ok,
                    (e or "")[-300:])
    p = profile(builds["nodwarf"])
    r, e = pprof(p, "nodwarf-plain")
    out = os.path.join(work, "lines-nodwarf-without.pb.gz")
    rc, _, err = T.fold(binary, ["-f", "pprof", "-o", out, p])
    same = r is not None and rc == 0
    if same:
        a, b = _function_lines(r), _function_lines(open(out, "rb").read())
        same = a == b and a
    T.check(name("lines/nodwarf/program-lines-as-without-inline"), same, (e or "") + err)


def page_lines(T, n, binary, prof, want_leaf, out):
    """-f html --inline: the page's hot functions, the inlined ones
    among them, at the lines addr2line gives their self costs, and
    summing to the page's own tree."""
    rc, _, err = T.fold(binary, ["-f", "html", "--inline", "-o", out, prof])
    if not T.check(n("html/runs"), rc == 0, err[-300:]):
        return
    meta, _, trees = html_tests.decode_page(open(out, "rb").read())
    got, shown = {}, set()
    for fn in (meta["parts"][0].get("hot") or {}).get("fns", []):
        name = meta["names"][fn["f"]].replace(" [inlined]", "")
        shown.add(name)
        for l in fn["lines"]:
            base = os.path.basename(meta["sources"][l[0]]["path"])
            if base == SOURCE:
                got[(name, base, l[1])] = l[2]
    want = {k: v for k, v in want_leaf.items() if k[0] in shown}
    T.check(n("html/inlined-lines-as-addr2line"),
            "helper_b" in shown and got == want,
            "shown %r; differ: %r" % (sorted(shown), sorted(set(got.items()) ^
                                                            set(want.items()))[:6]))
    bad = lines_page_tests.sums_hold(meta, trees)
    T.check(n("html/lines-sum-to-self"), not bad, "; ".join(bad[:3]))


def diff_lines_read(T, n, binary, prof, work):
    """--diff with compressed DWARF: md shows lines, so it inflates
    .debug_line (an image kept as *-lines); an html diff page shows none,
    so it does not."""
    kept = {}
    for fmt in ("md", "html"):
        cache = os.path.join(work, "diff-cache-" + fmt)
        shutil.rmtree(cache, ignore_errors=True)
        rc, _, err = T.fold(binary, ["-f", fmt, "--inline", "--inline-cache=" + cache,
                                     "-o", os.path.join(work, "diff-lines." + fmt),
                                     "--diff", prof, prof])
        kept[fmt] = (rc, sorted(os.listdir(cache)) if os.path.isdir(cache) else [], err[-200:])
    T.check(n("diff/lines-read-only-where-shown"),
            kept["md"][0] == 0 and kept["html"][0] == 0 and
            any(f.endswith("-lines") for f in kept["md"][1]) and kept["html"][1] and
            not any(f.endswith("-lines") for f in kept["html"][1]), repr(kept))


def weblist_flat(page):
    """{function: {line: flat cost}} of SOURCE's lines on a go tool pprof
    -weblist page: each function's listing (<h2>FUNCTION</h2><p
    class="filename">FILE</p>, then a row per line: number, flat, cum,
    text). A call line of inlined code carries the inlined cost in the
    listing of the function it is in."""
    text = html.unescape(open(page, encoding="utf-8", errors="replace").read())
    out, fn = {}, None
    for row in text.splitlines():
        f = re.search(r'<h2>([^<]*)</h2><p class="filename">([^<]*)</p>', row)
        if f:
            fn = f.group(1) if os.path.basename(f.group(2)) == SOURCE else None
            if fn:
                out.setdefault(fn, {})
        m = re.match(r"<span class=line>\s*(\d+)</span> <span class=\w+>\s*(\d+)\s", row)
        if m and fn:
            out[fn][int(m.group(1))] = int(m.group(2))
    return out


def _off_first_line(raw):
    """How many samples' leaves are at another line than their function's
    first (pprof's start_line): none when a profile has no lines."""
    prof = pprof_tests.decode_profile(raw)
    fs, locs = prof["functions"], prof["locations"]
    return sum(1 for ids, _ in prof["samples"]
               if locs[ids[0]]["lines"][0][1] != fs[locs[ids[0]]["lines"][0][0]]["start_line"])


def _function_lines(raw, functions=("hot_loop", "main", "tally")):
    """{(function, file, line): cost} of the leaves in those functions."""
    prof = pprof_tests.decode_profile(raw)
    fs, locs, out = prof["functions"], prof["locations"], {}
    for ids, values in prof["samples"]:
        fid, line = locs[ids[0]]["lines"][0]
        if fs[fid]["name"] in functions:
            key = (fs[fid]["name"], fs[fid]["filename"], line)
            out[key] = out.get(key, 0) + values[0]
    return out
