#!/usr/bin/env python3
"""Checks of a benchmark harness's profile (callgrind.out + its
--dump-folded=yes twin), shared by tests/harness-node.sh and
tests/harness-python.sh.  Prints PASS:/FAIL: lines and "info:" lines.

usage: harness-check.py [options] CALLGRIND_OUT TWIN
  --fold PATH             callgrind_fold to run on the twin
  --label TEXT            prefix of every check's name
  --file NAME             the benchmark file's name, contained in every uri
  --bench NAME            a benchmark (repeatable): exactly one part whose
                          trigger is "Client Request: <uri>", the uri
                          containing --file and ending in "::NAME"
  --skip-obj PATH         an object hidden with --obj-skip/ADD_OBJ_SKIP
                          (repeatable): none of its functions may appear
  --expect-fn NAME=REGEX  a frame matching REGEX must be in the stacks of
                          benchmark NAME (repeatable)
  --root-frame NAME       look for this frame in each benchmark's stacks;
                          informational when the part's frames are
                          anonymous, a failure when they are not
  --root-frame-info       only informational (an interpreter whose frames
                          cannot be native)
  --root-frame-required   a failure whenever a benchmark's stacks do not
                          run through the root frame (JIT frames named)
  --own-frame NAME=REGEX  more than half of benchmark NAME's cost sits
                          below a frame matching REGEX (its own function),
                          itself below the root frame if one is given
                          (repeatable)
  --map-frame NAME=REGEX  a frame matching REGEX in benchmark NAME's stacks
                          is a function named from the perf map (object
                          --perf-map in callgrind.out) (repeatable)
  --repeat NAME=REGEX:N   a stack of benchmark NAME holds at least N frames
                          matching REGEX (recursion); REGEX:=N: at most
                          N, and one stack N (repeatable)
  --parent NAME=CHILD=PARENT  in every stack of benchmark NAME holding a
                          frame matching CHILD, the frame right above the
                          outermost such frame matches PARENT (repeatable)
  --max-anon-leaf PCT     under PCT% of each benchmark's cost (first event)
                          in leaf frames named by an address (0x...)
  --perf-map FILE         /tmp/perf-<pid>.map: names anonymous 0x... frames
                          in the informational lines; the object of the
                          functions callgrind named from it (--map-frame)
  --maps FILE             /proc/self/maps of the profiled process: frames
                          callgrind names by their address (object ???)
                          must not lie in a skipped object's mapping
  --min-ir N              each benchmark part costs more than N of the
                          first event (default 10000)
"""
import argparse
import bisect
import collections
import os
import re
import subprocess
import sys

failures = 0


def report(ok, name, detail=""):
    """A PASS:/FAIL: line; detail explains a failure, or is an info line."""
    global failures
    if not ok:
        failures += 1
    print(("PASS: " if ok else "FAIL: ") + name + (" (%s)" % detail if detail and not ok else ""))
    if detail and ok:
        print("  info: " + detail)


def info(text):
    print("  info: " + text)


# ---------------------------------------------------------------- readers

Part = collections.namedtuple("Part", "number descs events summary totals")


def read_callgrind_out(path):
    """Parts (in file order) and the (object, function) pairs named by
    fn=/cfn= lines, names expanded when compressed."""
    parts = []
    names = {"ob": {}, "fn": {}}
    pairs = set()
    objects = set()
    cur = None
    ob = cob = None

    def name(kind, text):
        m = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not m:
            return text
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), text)

    def new_part(number):
        return {"number": number, "descs": [], "events": None, "summary": None, "totals": None}

    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            key, sep, val = line.partition("=") if "=" in line[:5] else ("", "", "")
            if line.startswith("part:"):
                if cur is not None and cur["totals"] is not None:
                    parts.append(cur)
                cur = new_part(int(line.split(":", 1)[1]))
                ob = cob = None
                continue
            if cur is None and (line.startswith("desc:") or line.startswith("events:")):
                cur = new_part(1)  # a file without part: headers
            if line.startswith("desc:"):
                cur["descs"].append(line[5:].strip())
            elif line.startswith("events:"):
                cur["events"] = line.split()[1:]
            elif line.startswith("summary:"):
                cur["summary"] = [int(x) for x in line.split()[1:]]
            elif line.startswith("totals:"):
                cur["totals"] = [int(x) for x in line.split()[1:]]
            elif key == "ob":
                ob = name("ob", val)
                objects.add(ob)
            elif key == "cob":
                cob = name("ob", val)
                objects.add(cob)
            elif key == "fn":
                pairs.add((ob, name("fn", val)))
                cob = None
            elif key == "cfn":  # a cob= line holds for the next cfn= only
                pairs.add((cob if cob is not None else ob, name("fn", val)))
                cob = None
    if cur is not None and cur["totals"] is not None:
        parts.append(cur)
    out = []
    for p in parts:
        n = len(p["events"] or [])
        pad = lambda v: (v or []) + [0] * (n - len(v or []))
        out.append(Part(p["number"], p["descs"], p["events"], pad(p["summary"]) if p["summary"] is not None else None,
                        pad(p["totals"])))
    return out, pairs, objects


def twin_names(path):
    names = set()
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("fn: "):
                names.add(line.rstrip("\n").split(" ", 2)[2])
    return names


def fold(fold_path, tree, part, event=None):
    """callgrind_fold's stacks of one part: [(frames, count)], or an error text."""
    cmd = [fold_path, "--part=%d" % part] + (["--event=" + event] if event else []) + [tree]
    r = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if r.returncode != 0:
        return "%s exited %d: %s" % (os.path.basename(fold_path), r.returncode,
                                     (r.stderr.strip().splitlines() or ["?"])[0])
    stacks = []
    for line in r.stdout.splitlines():
        stack, _, count = line.rpartition(" ")
        stacks.append((stack.split(";"), int(count)))
    return stacks


def object_symbols(path):
    """Demangled names of the functions an ELF object defines (nm)."""
    syms = set()
    for extra in ([], ["-D"]):
        r = subprocess.run(["nm", "-C", "--defined-only"] + extra + [path], capture_output=True, text=True,
                           errors="replace")
        for line in r.stdout.splitlines():
            p = line.split(" ", 2)
            if len(p) == 3 and p[1] in "TtWwi":
                syms.add(p[2])
    return syms


def read_maps(path):
    """[(start, end, file offset, path)] of /proc/<pid>/maps."""
    maps = []
    if not path or not os.path.exists(path):
        return maps
    with open(path, errors="replace") as f:
        for line in f:
            p = line.split(None, 5)
            if len(p) < 5:
                continue
            lo, _, hi = p[0].partition("-")
            maps.append((int(lo, 16), int(hi, 16), int(p[2], 16), p[5].strip() if len(p) > 5 else ""))
    return maps


_sections = {}


def section_at(path, offset):
    """The name of the ELF section of <path> holding file offset <offset>."""
    if path not in _sections:
        secs = []
        r = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True, errors="replace")
        for line in r.stdout.splitlines():
            m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
            if m and m.group(1) != "NULL":
                secs.append((int(m.group(2), 16), int(m.group(3), 16), m.group(1)))
        _sections[path] = secs
    for off, size, name in _sections[path]:
        if off <= offset < off + size and name != ".tbss":
            return name
    return "?"


def perf_short(name):
    """A perf map name ("Function:fib file:///x/bench.mjs:13:13") as a
    short frame ("fib", "(anonymous bench.mjs:7:31)"); other names as
    they are."""
    m = re.match(r"([A-Za-z]+):(?!:)(\S*) (\S*:\d+:\d+)$", name)
    if not m:
        return name
    return m.group(2) or "(anonymous %s)" % os.path.basename(m.group(3))


class PerfMap:
    def __init__(self, path):
        self.entries = []
        if path and os.path.exists(path):
            with open(path, errors="replace") as f:
                for line in f:
                    p = line.rstrip("\n").split(" ", 2)
                    try:
                        self.entries.append((int(p[0], 16), int(p[1], 16), p[2] if len(p) > 2 else "?"))
                    except (ValueError, IndexError):
                        pass

    def short(self, frame):
        """A frame as shown in the info lines: JS function names short,
        anonymous frames the perf map knows by its name."""
        return perf_short(self.lookup(frame) or frame)

    def lookup(self, frame):
        """The perf map's name for an anonymous frame "0x..." (the last
        entry covering it wins), or None."""
        if not frame.startswith("0x"):
            return None
        try:
            a = int(frame, 16)
        except ValueError:
            return None
        for start, size, name in reversed(self.entries):
            if start <= a < start + size:
                return name
        return None


# ---------------------------------------------------------------- checks

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fold", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--file", required=True)
    ap.add_argument("--bench", action="append", default=[])
    ap.add_argument("--skip-obj", action="append", default=[])
    ap.add_argument("--expect-fn", action="append", default=[])
    ap.add_argument("--root-frame")
    ap.add_argument("--root-frame-info", action="store_true")
    ap.add_argument("--root-frame-required", action="store_true")
    ap.add_argument("--own-frame", action="append", default=[])
    ap.add_argument("--map-frame", action="append", default=[])
    ap.add_argument("--repeat", action="append", default=[])
    ap.add_argument("--parent", action="append", default=[])
    ap.add_argument("--max-anon-leaf", type=float)
    ap.add_argument("--perf-map")
    ap.add_argument("--maps")
    ap.add_argument("--min-ir", type=int, default=10000)
    ap.add_argument("out")
    ap.add_argument("tree")
    a = ap.parse_args()
    L = a.label + ": " if a.label else ""

    parts, pairs, objects = read_callgrind_out(a.out)
    info("triggers in %s:" % os.path.basename(a.out))
    for p in parts:
        trig = [d for d in p.descs if d.startswith("Trigger:")]
        info("  part %d: %s  (%s %d)" % (p.number, trig[0] if trig else "(no trigger)",
                                         p.events[0] if p.events else "?", p.totals[0] if p.totals else 0))

    # 1. one part per benchmark, named by its uri
    def uri_of(p):
        for d in p.descs:
            m = re.match(r"Trigger: Client Request: (.*)$", d)
            if m:
                return m.group(1)
        return None

    bench_parts = {}
    problems = []
    for b in a.bench:
        found = [p for p in parts if uri_of(p) and a.file in uri_of(p) and uri_of(p).endswith("::" + b)]
        if len(found) != 1:
            problems.append("%s: %d parts" % (b, len(found)))
        else:
            bench_parts[b] = found[0]
    others = [uri_of(p) for p in parts
              if uri_of(p) and "::" in uri_of(p) and p not in bench_parts.values()]
    if others:
        problems.append("other benchmark parts: " + ", ".join(others))
    report(not problems, L + "one part per benchmark, its trigger naming the uri",
           "; ".join(problems) if problems else
           ", ".join("part %d = %s" % (p.number, uri_of(p)) for p in bench_parts.values()))

    # 2. summary: equals totals: in every part, for every event
    bad = []
    for p in parts:
        if p.summary != p.totals:
            bad.append("part %d: summary %s, totals %s" % (p.number, " ".join(map(str, p.summary or ["-"])),
                                                           " ".join(map(str, p.totals))))
    report(not bad, L + "summary: equals totals: in every part, every event", "; ".join(bad[:3]) +
           (" (and %d more)" % (len(bad) - 3) if len(bad) > 3 else "") if bad else "")

    # 3. the twin's stacks of each benchmark part sum to its totals, every event
    stacks_ir = {}
    for b, p in bench_parts.items():
        bad = []
        for i, ev in enumerate(p.events):
            st = fold(a.fold, a.tree, p.number, ev if i else None)
            if isinstance(st, str):
                bad.append(st)
                break
            if i == 0:
                stacks_ir[b] = st
            s = sum(c for _, c in st)
            if s != p.totals[i]:
                bad.append("%s: stacks %d, totals %d" % (ev, s, p.totals[i]))
        report(not bad, L + "%s: callgrind_fold --part=%d sums to the part's totals, every event (%s)"
               % (b, p.number, " ".join(p.events)), "; ".join(bad))

    # 4. no frame of the skipped objects
    twin = twin_names(a.tree)
    for obj in a.skip_obj:
        real = os.path.realpath(obj)
        named = sorted(fn for ob, fn in pairs if ob in (obj, real))
        ok = real not in objects and obj not in objects
        report(ok, L + "callgrind.out: no function under ob=%s" % real,
               "" if ok else "%d functions, e.g. %s" % (len(named), ", ".join(named[:5])))
        syms = object_symbols(real)
        elsewhere = {fn for ob, fn in pairs if ob not in (obj, real)}
        leaked = sorted((twin & syms) - elsewhere)
        shared = twin & syms & elsewhere
        report(bool(syms) and not leaked, L + "twin: no frame of %s" % os.path.basename(real),
               ("%d of its functions, e.g. %s" % (len(leaked), ", ".join(leaked[:5]))) if leaked else
               ("nm lists no function of %s" % real) if not syms else
               "%d names of the twin are also defined by it, all of them callgrind.out's functions of other "
               "objects (%s)" % (len(shared), ", ".join(sorted(shared)[:4])) if shared else "")

    # frames named by their address, outside any known object: where are they?
    if a.maps:
        maps = read_maps(a.maps)
        skipped = {os.path.realpath(o) for o in a.skip_obj}
        where = collections.defaultdict(set)
        leaks = []
        for ob, fn in pairs:
            m = re.match(r"0x([0-9a-f]+)(?:'.*)?$", fn)
            if ob != "???" or not m or fn.split("'")[0] not in twin:
                continue
            addr = int(m.group(1), 16)
            hit = [mp for mp in maps if mp[0] <= addr < mp[1]]
            if not hit:
                where["(no mapping)"].add(fn)
                continue
            lo, _, off, path = hit[0]
            place = path or "[anonymous]"
            if path.startswith("/") and os.path.exists(path):
                place = "%s %s" % (os.path.basename(path), section_at(path, addr - lo + off))
                if os.path.realpath(path) in skipped:
                    leaks.append("%s (%s)" % (fn, place))
            where[place].add(fn)
        for place, fns in sorted(where.items(), key=lambda x: -len(x[1])):
            info("frames of object ??? named by address, in %s: %d (%s)" % (
                place, len(fns), ", ".join(sorted(fns)[:3]) + (", ..." if len(fns) > 3 else "")))
        leaked = {x.split(" ")[0] for x in leaks}
        share = []
        for b, p in bench_parts.items():
            st = fold(a.fold, a.tree, p.number)
            if leaked and not isinstance(st, str):
                below = sum(c for s_, c in st if leaked & set(s_))
                share.append("%s %.1f%%" % (b, 100.0 * below / (sum(c for _, c in st) or 1)))
        report(bool(maps) and not leaks, L + "twin: no frame named by an address inside a skipped object",
               "no maps" if not maps else "" if not leaks else "%d frames: %s; part of Ir below them: %s" % (
                   len(leaks), ", ".join(sorted(leaks)[:4]) + (", ..." if len(leaks) > 4 else ""),
                   ", ".join(share) or "-"))

    # 5. the benchmark's own work is visible
    pm = PerfMap(a.perf_map)
    for b, p in bench_parts.items():
        report(p.totals[0] > a.min_ir, L + "%s: measured cost %d %s > %d" % (b, p.totals[0], p.events[0], a.min_ir))
    root_rx = None
    if a.root_frame:
        # also "Function:NAME file:..." (V8) and "py::f.<locals>.NAME:file" (CPython)
        rx = root_rx = re.compile(r"(^|[:\s.])%s(:|\s|$)" % re.escape(a.root_frame))
        for b, st in stacks_ir.items():
            total = sum(c for _, c in st) or 1
            with_root = sum(c for s_, c in st if any(rx.search(fr) for fr in s_))
            if with_root:
                report(True, L + "%s: stacks under %s" % (b, a.root_frame),
                       "%.1f%% of %s below it" % (100.0 * with_root / total, bench_parts[b].events[0]))
                continue
            anonymous = {fr for s_, _ in st for fr in s_ if re.match(r"0x[0-9a-f]+$", fr)}
            # anonymous frames: which 0x... frame does the perf map call so?
            named = {fr for fr in anonymous if rx.search(pm.lookup(fr) or "")}
            under = sum(c for s_, c in st if named & set(s_))
            text = "%s: no frame named %s (%d anonymous 0x... frames;%s)" % (
                b, a.root_frame, len(anonymous),
                " the perf map names %s so, %.1f%% of Ir below it" % (", ".join(sorted(named)), 100.0 * under / total)
                if named else " the perf map names none of them so" if pm.entries else " no perf map")
            if not a.root_frame_required and (a.root_frame_info or anonymous):
                info(text)
            else:
                report(False, L + "%s: stacks under %s" % (b, a.root_frame), text)

    # 6. native functions of the benchmarks
    for spec in a.expect_fn:
        b, _, rx = spec.partition("=")
        st = stacks_ir.get(b)
        if st is None:
            report(False, L + "%s: a frame matching /%s/" % (b, rx), "no stacks for this benchmark")
            continue
        r = re.compile(rx)
        hit = [(s, c) for s, c in st if any(r.search(fr) for fr in s)]
        cost = sum(c for _, c in hit)
        total = sum(c for _, c in st) or 1
        frames = sorted({fr for s, _ in hit for fr in s if r.search(fr)})
        report(bool(hit), L + "%s: native frames matching /%s/ in its stacks" % (b, rx),
               "%s: %.1f%% of Ir below them" % (", ".join(frames[:6]), 100.0 * cost / total) if hit else
               "none in %d stacks" % len(st))

    # 7. JIT frames named from the perf map
    def spec_of(spec, option):
        b, _, rest = spec.partition("=")
        if b not in stacks_ir:
            report(False, L + "%s: %s %s" % (b, option, rest), "no stacks for this benchmark")
            return None, None, None
        return b, rest, stacks_ir[b]

    def share(st, cost):
        return 100.0 * cost / (sum(c for _, c in st) or 1)

    for spec in a.own_frame:
        b, rx, st = spec_of(spec, "--own-frame")
        if st is None:
            continue
        r = re.compile(rx)
        below = 0
        for s, c in st:
            own = next((i for i, fr in enumerate(s) if r.search(fr)), None)
            root = next((i for i, fr in enumerate(s) if root_rx.search(fr)), None) if root_rx else -1
            if own is not None and root is not None and root < own:
                below += c
        frames = sorted({fr for s, _ in st for fr in s if r.search(fr)})
        report(share(st, below) > 50.0, L + "%s: more than 50%% of its cost below its own frame /%s/%s" % (
            b, rx, " under %s" % a.root_frame if root_rx else ""),
            "%.1f%% of %s below %s" % (share(st, below), bench_parts[b].events[0],
                                       ", ".join(frames[:3]) if frames else "no such frame"))

    map_fns = {re.sub(r"'\d+$", "", fn) for ob, fn in pairs if a.perf_map and ob == a.perf_map}
    for spec in a.map_frame:
        b, rx, st = spec_of(spec, "--map-frame")
        if st is None:
            continue
        r = re.compile(rx)
        frames = sorted({fr for s, _ in st for fr in s if r.search(fr)})
        named = [fr for fr in frames if fr in map_fns]
        cost = sum(c for s, c in st if set(named) & set(s))
        report(bool(named), L + "%s: frames /%s/ named from the perf map" % (b, rx),
               "%s in object %s: %.1f%% of %s below them" % (", ".join(named[:3]), a.perf_map, share(st, cost),
                                                          bench_parts[b].events[0]) if named else
               "frames %s, %d functions of object %s in callgrind.out" % (
                   ", ".join(frames[:3]) or "none", len(map_fns), a.perf_map or "(no --perf-map)"))

    for spec in a.repeat:
        b, rest, st = spec_of(spec, "--repeat")
        if st is None:
            continue
        rx, _, n = rest.rpartition(":")
        r = re.compile(rx)
        deepest = max((sum(1 for fr in s if r.search(fr)) for s, _ in st), default=0)
        if n.startswith("="):   # exactly: one frame per call
            report(deepest == int(n[1:]), L + "%s: recursion shows as repeated frames /%s/, exactly %s deep" % (b, rx, n[1:]),
                   "deepest stack holds %d of them" % deepest)
        else:
            report(deepest >= int(n), L + "%s: recursion shows as repeated frames /%s/, %s deep or more" % (b, rx, n),
                   "deepest stack holds %d of them" % deepest)

    for spec in a.parent:
        b, rest, st = spec_of(spec, "--parent")
        if st is None:
            continue
        child, _, parent = rest.partition("=")
        rc, rp = re.compile(child), re.compile(parent)
        seen, wrong, cost = 0, collections.Counter(), 0
        for s, c in st:
            i = next((i for i, fr in enumerate(s) if rc.search(fr)), None)
            if i is None:
                continue
            seen += 1
            cost += c
            above = s[i - 1] if i > 0 else "(none)"
            if not rp.search(above):
                wrong["%s above %s" % (above, s[i])] += c
        report(seen > 0 and not wrong, L + "%s: frames /%s/ right below a frame /%s/" % (b, child, parent),
               "%d stacks, %.1f%% of %s" % (seen, share(st, cost), bench_parts[b].events[0]) if seen and not wrong
               else "no frame matching /%s/" % child if not seen else
               "%d stacks otherwise: %s" % (len(wrong), "; ".join("%s (%d)" % x for x in wrong.most_common(3))))

    if a.max_anon_leaf is not None:
        for b, st in stacks_ir.items():
            leaves = collections.Counter()
            for s, c in st:
                if re.match(r"0x[0-9a-f]+('\d+)?$", s[-1]):
                    leaves[s[-1]] += c
            pct = share(st, sum(leaves.values()))
            report(pct < a.max_anon_leaf, L + "%s: under %g%% of its cost in leaf frames named 0x..." % (
                b, a.max_anon_leaf), "%.2f%% in %d such frames%s" % (
                pct, len(leaves), " (%s)" % ", ".join("%s %d" % x for x in leaves.most_common(3)) if leaves else ""))

    # the profiles as a user sees them
    for b, st in stacks_ir.items():
        total = sum(c for _, c in st) or 1
        anon = sum(c for s, c in st if s[-1].startswith("0x"))
        named_by_map = sum(c for s, c in st if s[-1].startswith("0x") and pm.lookup(s[-1]))
        info("%s: %d stacks, %d %s; self cost in anonymous 0x... frames %.1f%%%s" % (
            b, len(st), total, bench_parts[b].events[0], 100.0 * anon / total,
            " (%.1f%% named by the perf map)" % (100.0 * named_by_map / total) if pm.entries else ""))
        selfc = collections.Counter()
        for s, c in st:
            selfc[s[-1]] += c
        for fr, c in selfc.most_common(6):
            name = pm.lookup(fr)
            info("  %5.1f%% self  %s%s" % (100.0 * c / total, perf_short(fr)[:100],
                                           "  = perf map: " + perf_short(name)[:100] if name else ""))
        for s, c in sorted(st, key=lambda x: -x[1])[:3]:
            shown = [pm.short(fr) for fr in s]
            text = ";".join(shown)
            info("  stack %5.1f%%  %s" % (100.0 * c / total, text if len(text) < 240 else "..." + text[-237:]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
