"""Tests of the pictures (issue 7): -f svg, -f dot/png/svg-graph,
--diff, -f speedscope. Called by run_tests.py once per binary (plain and
sanitizer build); every test prints one PASS:/FAIL:/SKIP: line through
the driver's report()/check().

Expected values come from the test inputs themselves (counts of the
folded lines, a program whose one function does N times the work), never
from earlier output."""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.dom.minidom
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "work", "render")
NPM_DIR = os.path.join(HERE, "work", "npm")
NS = "{http://www.w3.org/2000/svg}"
XPAD, WIDTH = 10.0, 1200.0


def run(cmd, env=None, stdin=None, timeout=300):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=env, stdin=stdin, timeout=timeout)


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return path


def folded_text(stacks):
    return "".join("%s %d\n" % (s, c) for s, c in stacks)


def svg_frames(data):
    """Frames of a flame graph: name, count, geometry, fill."""
    root = ET.fromstring(data)
    group = [g for g in root.iter(NS + "g") if g.get("id") == "frames"][0]
    frames = []
    for g in group.findall(NS + "g"):
        title = g.find(NS + "title").text or ""
        rect = g.find(NS + "rect")
        n = g.get("data-n")
        cut = title.rfind(" (" + n + " ")
        frames.append({"name": title[:cut], "title": title, "n": int(n),
                       "x": float(rect.get("x")), "y": float(rect.get("y")),
                       "w": float(rect.get("width")), "fill": rect.get("fill")})
    return root, frames


def frame_paths(frames, inverted=False):
    """Full path (root excluded) of every frame, from the geometry: the
    frames one row closer to the root whose range contains it."""
    root = frames[0]
    rows = {}
    for f in frames:
        depth = round((f["y"] - root["y"]) / 16) if inverted else round((root["y"] - f["y"]) / 16)
        f["depth"] = depth
        rows.setdefault(depth, []).append(f)
    for f in sorted(frames, key=lambda f: f["depth"]):
        if f["depth"] == 0:
            f["path"] = ()
            continue
        parents = [p for p in rows.get(f["depth"] - 1, [])
                   if p["x"] - 2e-3 <= f["x"] and f["x"] + f["w"] <= p["x"] + p["w"] + 2e-3]
        f["path"] = parents[0]["path"] + (f["name"],) if parents else None
    return rows


def expected_tree(stacks):
    incl = {}
    for s, c in stacks:
        parts = tuple(s.split(";"))
        for k in range(1, len(parts) + 1):
            incl[parts[:k]] = incl.get(parts[:k], 0) + c
    return incl


def random_stacks(seed, lines, names=12, depth=6):
    rnd = random.Random(seed)
    fn = ["f%d" % i for i in range(names)]
    out = {}
    for _ in range(lines):
        d = rnd.randint(1, depth)
        s = ";".join(["main"] + [rnd.choice(fn) for _ in range(d)])
        out[s] = out.get(s, 0) + rnd.randint(1, 1000)
    return sorted(out.items())


# ---- SVG ------------------------------------------------------------------

def test_svg(binary, tag, check, report):
    stacks = random_stacks(7, 400)
    path = write("random.folded", folded_text(stacks))
    p = run([binary, "-f", "svg", "--minwidth=0", path])
    ok = p.returncode == 0
    try:
        xml.dom.minidom.parseString(p.stdout)
    except Exception as e:  # noqa: BLE001 - any parse error is the failure
        ok = False
        detail = str(e)
    else:
        detail = p.stderr.decode()[-300:]
    if not check(tag + "svg/well-formed-xml", ok, detail):
        return
    root, frames = svg_frames(p.stdout)
    total = sum(c for _, c in stacks)
    incl = expected_tree(stacks)
    scale = (WIDTH - 2 * XPAD) / total
    frame_paths(frames)
    problems = []
    if frames[0]["name"] != "all" or frames[0]["n"] != total or \
            abs(frames[0]["w"] - (WIDTH - 2 * XPAD)) > 1e-3:
        problems.append("root is %r" % frames[0])
    got = {f["path"]: f for f in frames[1:]}
    if None in got:
        problems.append("a frame has no parent frame")
    if set(got) != set(incl):
        problems.append("paths differ: %d drawn, %d expected" % (len(got), len(incl)))
    for path_, f in got.items():
        if path_ in incl and (f["n"] != incl[path_] or abs(f["w"] - incl[path_] * scale) > 2e-3):
            problems.append("%s: n %d w %.3f, want %d" % (";".join(path_), f["n"], f["w"],
                                                          incl[path_]))
            break
    check(tag + "svg/frames-match-folded-input", not problems and len(frames) == len(incl) + 1,
          "; ".join(problems[:3]))
    rows = frame_paths(frames)
    bad = []
    for f in frames[1:]:
        kids = [k for k in rows.get(f["depth"] + 1, []) if k["path"] and k["path"][:-1] == f["path"]]
        if sum(k["w"] for k in kids) > f["w"] + 2e-3 or any(k["w"] > f["w"] + 1e-3 for k in kids):
            bad.append(f["name"])
    check(tag + "svg/children-within-parent", not bad, str(bad[:5]))

    # Inverted: the same frames, roots at the top.
    p = run([binary, "-f", "svg", "--inverted", "--minwidth=0", path])
    _, inv = svg_frames(p.stdout)
    frame_paths(inv, inverted=True)
    check(tag + "svg/inverted-icicle",
          p.returncode == 0 and len(inv) == len(frames) and inv[1]["y"] > inv[0]["y"] and
          {f["path"] for f in inv[1:]} == set(incl))

    # --minwidth: 2000 tiny callees of "main" and one big one.
    tiny = [("main;big", 1000000)] + [("main;tiny%04d;deeper" % i, 1) for i in range(2000)]
    path = write("tiny.folded", folded_text(tiny))
    p = run([binary, "-f", "svg", "--minwidth=1", path])
    _, fr = svg_frames(p.stdout)
    frame_paths(fr)
    main = [f for f in fr if f["path"] == ("main",)]
    row2 = [f for f in fr if f["depth"] == 2]
    merged = [f for f in row2 if f["name"] == "(merged)"]
    total = 1002000
    ok = (p.returncode == 0 and len(fr) < 10 and len(main) == 1 and len(merged) == 1 and
          merged[0]["n"] == 2000 and "2000 frames" in merged[0]["title"] and
          sum(f["n"] for f in row2) == total and
          abs(sum(f["w"] for f in row2) - main[0]["w"]) < 2e-3 and
          abs(main[0]["w"] - (WIDTH - 2 * XPAD)) < 1e-3)
    check(tag + "svg/minwidth-merges-and-keeps-totals", ok,
          "%d frames: %s" % (len(fr), [(f["name"], f["n"], f["w"]) for f in row2][:4]))

    # Hostile names: markup, quotes, a 100000-character name, bad UTF-8,
    # control characters; all must come back as text.
    long_name = "L" * 100000
    hostile = ["a<b>&c", "q\"uo'te", "x]]>y", "<script>alert(1)</script>", long_name,
               "tab\there", "caf\u00e9 \u2603"]
    data = ("".join("main;%s %d\n" % (n, i + 1) for i, n in enumerate(hostile))).encode()
    data += b"main;bad\xff\xfeutf8\x01ctl 9\n"
    path = write("hostile.folded", data)
    p = run([binary, "-f", "svg", "--minwidth=0", "--title=<T&'\">", path])
    ok = p.returncode == 0
    try:
        xml.dom.minidom.parseString(p.stdout)
        _, fr = svg_frames(p.stdout)
        names = {f["name"] for f in fr}
        ok = ok and all(n in names for n in hostile) and \
            any(n.startswith("bad\ufffd") for n in names) and b"<script>" not in p.stdout
        root = ET.fromstring(p.stdout)
        title = [t for t in root.iter(NS + "text") if t.get("id") == "title"][0].text
        ok = ok and title == "<T&'\">"
        detail = ""
    except Exception as e:  # noqa: BLE001
        ok, detail = False, str(e)
    check(tag + "svg/escapes-hostile-names", ok, detail or p.stderr.decode()[-200:])

    # Count names and colours.
    p1 = run([binary, "-f", "svg", path])
    p2 = run([binary, "-f", "svg", path])
    check(tag + "svg/deterministic", p1.stdout == p2.stdout and p1.returncode == 0)
    spec = os.path.join(HERE, "cases", "spec_example.cg")
    p = run([binary, "-f", "svg", os.path.join(HERE, "cases", "merge_inputs.cg")])  # Ir
    p2 = run([binary, "-f", "svg", "--countname=widgets", "--subtitle=sub", path])
    _, a = svg_frames(p.stdout)
    _, b = svg_frames(p2.stdout)
    check(tag + "svg/countname",
          " instructions, " in a[0]["title"] and " widgets, " in b[0]["title"] and
          b"sub</text>" in p2.stdout and " samples, " in svg_frames(p1.stdout)[1][0]["title"],
          a[0]["title"] + " | " + b[0]["title"])
    # --cycle-estimation's events count hundredths of a cycle, and say so
    cyc = write("cycles.cg", "events: Ir Ct Cl Cb\nfn=main\n1 10 725 2400 650\n")
    said = {}
    for ev in ("Ct", "Cl", "Cb"):
        _, fr = svg_frames(run([binary, "-f", "svg", "--event=" + ev, cyc]).stdout)
        said[ev] = fr[0]["title"] if fr else ""
    check(tag + "svg/countname-cycle-estimates",
          all(" centi-cycles (%s), " % ev in t for ev, t in said.items()), repr(said))
    objs = [("main [prog];work [prog];memcpy [libc.so.6]", 50),
            ("main [prog];helper [prog]", 40),
            ("main [prog];_dl_start [ld-linux-x86-64.so.2]", 30),
            ("main [prog];zlib_fn [libz.so.1]", 30),
            ("other;work [prog]", 20)]
    path = write("objects.folded", folded_text(objs))
    p = run([binary, "-f", "svg", "--colors=obj", path])
    _, fr = svg_frames(p.stdout)
    fill = {}
    for f in fr:
        fill.setdefault(f["name"], set()).add(f["fill"])
    prog = fill["main [prog]"] | fill["work [prog]"] | fill["helper [prog]"]
    others = [fill["memcpy [libc.so.6]"], fill["_dl_start [ld-linux-x86-64.so.2]"],
              fill["zlib_fn [libz.so.1]"]]
    check(tag + "svg/colors-by-object",
          p.returncode == 0 and len(prog) == 1 and
          len(prog | others[0] | others[1] | others[2]) == 4, str(fill))
    p = run([binary, "-f", "svg", path])
    _, fr2 = svg_frames(p.stdout)
    by_name = {}
    for f in fr2:
        by_name.setdefault(f["name"], set()).add(f["fill"])
    # the same name keeps its colour, here and in the earlier picture
    check(tag + "svg/colors-stable-by-name",
          all(len(v) == 1 for v in by_name.values()) and
          by_name["work [prog]"] != by_name["helper [prog]"])


def test_svg_speed(binary, tag, check, report):
    rnd = random.Random(3)
    fn = ["function_%d" % i for i in range(2000)]
    lines = []
    for i in range(200000):
        d = rnd.randint(2, 30)
        lines.append(";".join(["main"] + [fn[(i * 7 + k * 13) % 40] for k in range(2)] +
                              [rnd.choice(fn) for _ in range(d)]) + " %d\n" % rnd.randint(1, 99))
    path = write("speed.folded", "".join(lines))
    start = time.monotonic()
    p = run([binary, "-f", "svg", "-o", os.path.join(WORK, "speed.svg"), path])
    took = time.monotonic() - start
    size = os.path.getsize(os.path.join(WORK, "speed.svg")) if p.returncode == 0 else 0
    check(tag + "svg/200k-lines-under-10s", p.returncode == 0 and took < 10 and size < 20e6,
          "%.2f s, %d bytes, rc %d" % (took, size, p.returncode))
    os.unlink(path)


# ---- DOT ------------------------------------------------------------------

def test_dot(binary, tag, check, report):
    spec = os.path.join(HERE, "cases", "mutual_recursion.cg")
    stacks = random_stacks(11, 200)
    folded = write("graph.folded", folded_text(stacks))
    dot = shutil.which("dot")
    for name, inp in (("callgrind", spec), ("folded", folded)):
        p = run([binary, "-f", "dot", inp])
        text = p.stdout.decode()
        if not dot:
            report("SKIP", tag + "dot/%s-accepted-by-graphviz" % name, "graphviz is not installed (no dot on PATH)")
            continue
        q = run([dot, "-Tsvg"], stdin=open(write("g.dot", p.stdout), "rb"))
        ok = p.returncode == 0 and q.returncode == 0 and text.startswith("digraph") and \
            "->" in text and "total " in text and "self " in text
        if name == "callgrind":
            ok = ok and re.search(r"\\n\d+ calls?\"", text) is not None
        else:
            ok = ok and "call counts unknown" in text and " call" not in text.split("\n", 3)[3]
        try:
            ET.fromstring(q.stdout)
        except ET.ParseError:
            ok = False
        check(tag + "dot/%s-accepted-by-graphviz" % name, ok,
              (p.stderr + q.stderr).decode()[-300:])
    # thresholds prune nodes and edges
    full = run([binary, "-f", "dot", "--node-thres=0", "--edge-thres=0", folded]).stdout.decode()
    few = run([binary, "-f", "dot", "--node-thres=60", "--edge-thres=20", folded]).stdout.decode()
    count = lambda t, pat: len(re.findall(pat, t))  # noqa: E731
    check(tag + "dot/thresholds-prune",
          count(full, r"\n  n\d+ \[") == 13 and 0 < count(few, r"\n  n\d+ \[") < 13 and
          count(few, " -> ") < count(full, " -> "),
          "%d/%d nodes" % (count(full, r"\n  n\d+ \["), count(few, r"\n  n\d+ \[")))
    # images through graphviz (library or dot), and the message without it
    p = run([binary, "-f", "png", spec])
    check(tag + "dot/png", p.returncode == 0 and p.stdout[:8] == b"\x89PNG\r\n\x1a\n",
          p.stderr.decode()[-300:])
    p = run([binary, "-f", "svg-graph", spec])
    try:
        ok = p.returncode == 0 and ET.fromstring(p.stdout).tag == NS + "svg"
    except ET.ParseError:
        ok = False
    check(tag + "dot/svg-graph", ok, p.stderr.decode()[-300:])
    env = dict(os.environ, CALLGRIND_FOLD_NO_GVC="1", PATH="/nonexistent")
    p = run([binary, "-f", "png", spec], env=env)
    check(tag + "dot/no-graphviz-message",
          p.returncode == 3 and "graphviz" in p.stderr.decode() and "dot" in p.stderr.decode(),
          "rc %d %s" % (p.returncode, p.stderr.decode()))
    if dot:
        env = dict(os.environ, CALLGRIND_FOLD_NO_GVC="1")
        p = run([binary, "-f", "png", spec], env=env)
        check(tag + "dot/png-through-dot-program",
              p.returncode == 0 and p.stdout[:4] == b"\x89PNG", p.stderr.decode()[-300:])


# ---- diff -----------------------------------------------------------------

def test_diff(binary, tag, check, report, valgrind, cc, include):
    before = write("before.folded", "main;a 10\nmain;b 5\nmain;c;d 7\n")
    after = write("after.folded", "main;a 10\nmain;b 9\nmain;e 3\n")
    p = run([binary, "--diff", before, after])
    check(tag + "diff/folded-two-counts",
          p.returncode == 0 and p.stdout.decode() ==
          "main;a 10 10\nmain;b 5 9\nmain;c;d 7 0\nmain;e 0 3\n", p.stdout.decode())
    p = run([binary, "--diff=" + before, "-f", "svg", "--minwidth=0", after])
    check(tag + "diff/svg-red-grows-blue-shrinks", _diff_svg_ok(p), p.stderr.decode()[-300:])
    # shrinking is blue: the same files the other way round
    p = run([binary, "--diff=" + after, "-f", "svg", "--minwidth=0", before])
    ok = p.returncode == 0
    if ok:
        _, fr = svg_frames(p.stdout)
        fill = {f["name"]: tuple(int(v) for v in re.findall(r"\d+", f["fill"])) for f in fr}
        ok = fill["b"][2] == 255 and fill["b"][0] < 235 and "e" not in fill and \
            fill["d"][0] == 255 and fr[0]["n"] == 22
    check(tag + "diff/svg-blue-when-shrinking", ok, p.stderr.decode()[-300:])
    p = run([binary, "--diff", before, "-f", "dot", after])
    check(tag + "diff/usage-other-formats", p.returncode == 1)

    if not valgrind:
        named = valgrind_named()
        if os.sep in named:  # a build said to be there (dist/bin/valgrind)
            report("FAIL", tag + "diff/program-before-after", "%s: no such program" % named)
        else:
            report("SKIP", tag + "diff/program-before-after",
                   "Valgrind is not installed (no %s on PATH)" % named)
        return
    src = os.path.join(HERE, "progs", "diffwork.c")
    exe = os.path.join(WORK, "diffwork")
    if not os.path.exists(exe):
        r = run([cc, "-O1", "-g", "-o", exe, src])
        if r.returncode != 0:
            check(tag + "diff/program-before-after", False, r.stderr.decode())
            return
    outs = []
    for n in ("1", "4"):
        out = os.path.join(WORK, "diffwork.%s.out" % n)
        if not os.path.exists(out):
            r = run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out, exe, n])
            if r.returncode != 0:
                check(tag + "diff/program-before-after", False, r.stderr.decode()[-300:])
                return
        outs.append(out)
    p = run([binary, "--diff", outs[0], outs[1]])
    delta, base = {}, {}
    for line in p.stdout.decode().splitlines():
        stack, b, a = line.rsplit(" ", 2)
        fn = stack.split(";")[-1]
        delta[fn] = delta.get(fn, 0) + int(a) - int(b)
        base[fn] = base.get(fn, 0) + int(b)
    grow, steady = delta.get("grow", 0), delta.get("steady", None)
    others = sum(abs(v) for k, v in delta.items() if k not in ("grow", "steady"))
    # grow does 4x the work: its change is about 3x its cost before
    ok = (p.returncode == 0 and steady is not None and abs(steady) <= base["steady"] // 100 and
          2.5 * base["grow"] < grow < 3.5 * base["grow"] and others < grow // 100)
    check(tag + "diff/program-before-after", ok,
          "grow %+d (before %d), steady %s, others %d" % (grow, base.get("grow", 0), steady,
                                                        others))
    p = run([binary, "--diff", outs[0], "-f", "svg", outs[1]])
    ok = p.returncode == 0
    if ok:
        _, fr = svg_frames(p.stdout)
        g = [f for f in fr if f["name"] == "grow"]
        s = [f for f in fr if f["name"] == "steady"]
        ok = bool(g and s) and g[0]["fill"].startswith("rgb(255,") and \
            "before" in g[0]["title"] and "+" in g[0]["title"]
    check(tag + "diff/program-svg", ok, p.stderr.decode()[-300:])


def _diff_svg_ok(p):
    """Sized by the new profile (22 in all); b grew: red; a and main (22
    before and after) neutral; c is gone: not drawn; e is new: red."""
    if p.returncode != 0:
        return False
    _, fr = svg_frames(p.stdout)
    fill = {f["name"]: tuple(int(v) for v in re.findall(r"\d+", f["fill"])) for f in fr}
    return (fill["b"][0] == 255 and fill["b"][1] < 235 and
            fill["a"][0] == fill["a"][1] == fill["a"][2] and
            fill["main"][0] == fill["main"][1] == fill["main"][2] and
            "c" not in fill and fill["e"][0] == 255 and fr[0]["n"] == 22 and
            "before 22" in fr[0]["title"])


# ---- speedscope -----------------------------------------------------------

def npm_package(name):
    """Fetch an npm package into tests/work/npm once; its directory or None."""
    os.makedirs(NPM_DIR, exist_ok=True)
    target = os.path.join(NPM_DIR, "node_modules", name)
    if os.path.isdir(target):
        return target
    npm = shutil.which("npm")
    if not npm:
        return None
    try:
        run([npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", NPM_DIR, name],
            timeout=180)
    except subprocess.TimeoutExpired:
        return None
    return target if os.path.isdir(target) else None


class SchemaError(Exception):
    pass


def validate(value, schema, root, where="$"):
    """The part of JSON schema (draft 7) that speedscope's schema uses."""
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/"):
            raise SchemaError("unsupported $ref " + ref)
        target = root
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        validate(value, target, root, where)
    types = schema.get("type")
    if types is not None:
        names = types if isinstance(types, list) else [types]
        checks = {"object": lambda v: isinstance(v, dict),
                  "array": lambda v: isinstance(v, list),
                  "string": lambda v: isinstance(v, str),
                  "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
                  "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
                  "boolean": lambda v: isinstance(v, bool),
                  "null": lambda v: v is None}
        if not any(checks[t](value) for t in names):
            raise SchemaError("%s: %r is not %s" % (where, value if not isinstance(value, (list, dict)) else type(value).__name__, types))
    if "const" in schema and value != schema["const"]:
        raise SchemaError("%s: %r is not %r" % (where, value, schema["const"]))
    if "enum" in schema and value not in schema["enum"]:
        raise SchemaError("%s: %r not in %r" % (where, value, schema["enum"]))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                raise SchemaError("%s: missing %r" % (where, key))
        props = schema.get("properties", {})
        for key, v in value.items():
            if key in props:
                validate(v, props[key], root, where + "." + key)
            elif schema.get("additionalProperties") is False:
                raise SchemaError("%s: unexpected %r" % (where, key))
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            validate(v, schema["items"], root, "%s[%d]" % (where, i))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            ok = 0
            errors = []
            for sub in schema[key]:
                try:
                    validate(value, sub, root, where)
                    ok += 1
                except SchemaError as e:
                    errors.append(str(e))
            if ok == 0 or (key == "oneOf" and ok > 1):
                raise SchemaError("%s: %s fails (%s)" % (where, key, "; ".join(errors)[:300]))
    for sub in schema.get("allOf", []):
        validate(value, sub, root, where)
    known = {"$ref", "type", "const", "enum", "required", "properties", "additionalProperties",
             "items", "anyOf", "oneOf", "allOf", "title", "description", "$schema",
             "definitions"}
    unknown = set(schema) - known
    if unknown:
        raise SchemaError("validator does not know " + ", ".join(sorted(unknown)))


def speedscope_schema():
    pkg = npm_package("speedscope")
    if not pkg:
        return None
    for dirpath, _, files in os.walk(pkg):
        if "file-format-schema.json" in files:
            with open(os.path.join(dirpath, "file-format-schema.json")) as f:
                return json.load(f)
    return None


def test_speedscope(binary, tag, check, report, schema):
    stacks = random_stacks(5, 100) + [("main;we\"ird\\name\x01", 3), ("main;caf\u00e9", 4)]
    path = write("ss.folded", folded_text(stacks))
    p = run([binary, "-f", "speedscope", path])
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        check(tag + "speedscope/json", False, str(e))
        return
    prof = doc["profiles"][0]
    frames = [f["name"] for f in doc["shared"]["frames"]]
    got = sorted((";".join(frames[i] for i in s), w) for s, w in zip(prof["samples"], prof["weights"]))
    want = sorted(stacks)  # JSON escapes even control characters exactly
    check(tag + "speedscope/samples-match-input",
          p.returncode == 0 and got == want and prof["endValue"] == sum(c for _, c in stacks) and
          prof["type"] == "sampled", str(got[:3]) + " vs " + str(want[:3]))
    if schema is None:
        report("SKIP", tag + "speedscope/schema", "speedscope (npm package): npm is not "
               "installed or could not fetch it")
        return
    try:
        validate(doc, {"$ref": schema["$ref"]}, schema)
        ok, detail = True, ""
    except SchemaError as e:
        ok, detail = False, str(e)
    # the validator must also reject what the schema forbids
    bad = json.loads(json.dumps(doc))
    bad["profiles"][0]["unit"] = "furlongs"
    try:
        validate(bad, {"$ref": schema["$ref"]}, schema)
        ok, detail = False, "validator accepted a bad unit"
    except SchemaError:
        pass
    check(tag + "speedscope/schema", ok, detail)
    spec = os.path.join(HERE, "cases", "spec_example.cg")
    p = run([binary, "-f", "speedscope", spec])
    try:
        validate(json.loads(p.stdout), {"$ref": schema["$ref"]}, schema)
        ok, detail = p.returncode == 0, ""
    except (SchemaError, ValueError) as e:
        ok, detail = False, str(e)
    check(tag + "speedscope/schema-callgrind-input", ok, detail)


# ---- browser --------------------------------------------------------------

def browser_tools(names, report):
    """(node, playwright-core's directory, chromium), or None after a SKIP
    of each test of `names` (one name, or a list) saying what is missing."""
    names = [names] if isinstance(names, str) else names
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    node = shutil.which("node")
    if not chromium or not node:
        why = "%s not installed (apt-get install chromium nodejs)" \
            % " and ".join(n for n, p in (("chromium", chromium), ("node", node)) if not p)
        for name in names:
            report("SKIP", name, why)
        return None
    pw = npm_package("playwright-core")
    if not pw:
        for name in names:
            report("SKIP", name, "playwright-core (npm package): npm is not installed or "
                   "could not fetch it")
        return None
    return node, pw, chromium


def browser_driver(tools, script, page, shot, extra=()):
    """Runs a driver (SCRIPT MODULE_DIR CHROMIUM PAGE SCREENSHOT USERDIR
    EXTRA...) with a user directory of its own: (its JSON line, None), or
    (None, what went wrong)."""
    node, pw, chromium = tools
    userdir = tempfile.mkdtemp(prefix="chromium-", dir=WORK)
    try:
        r = run([node, os.path.join(HERE, script), os.path.dirname(pw), chromium, page, shot,
                 userdir] + list(extra), timeout=90)
        return json.loads(r.stdout.decode().strip().splitlines()[-1]), None
    except (subprocess.TimeoutExpired, ValueError, IndexError) as e:
        return None, "driver: %s" % e
    finally:
        shutil.rmtree(userdir, ignore_errors=True)


def test_browser(binary, check, report):
    name = "svg/chromium-renders-and-zooms"
    tools = browser_tools([name, "svg/chromium-screenshot"], report)
    if not tools:
        return
    chromium = tools[2]
    stacks = random_stacks(21, 300, names=20, depth=8)
    # the widest frame, zoomed into: a perf-map name, drawn short
    stacks.append(("JS:~hot /tmp/b/work.js:9:13;leaf", sum(c for _, c in stacks)))
    folded = write("browser.folded", folded_text(stacks))
    svg = os.path.join(WORK, "browser.svg")
    p = run([binary, "-f", "svg", "--title=callgrind_fold browser test", "-o", svg, folded])
    if p.returncode != 0:
        check(name, False, p.stderr.decode())
        return
    shot = os.path.join(WORK, "browser.png")
    if os.path.exists(shot):
        os.unlink(shot)
    out, problem = browser_driver(tools, "browser_check.js", svg, shot)
    if problem:
        check(name, False, problem)
        return
    res = out.get("result") or {}
    ok = (not out["errors"] and os.path.exists(shot) and os.path.getsize(shot) > 1000 and
          abs(res.get("after", 0) - res.get("full", -1)) < 0.01 and res["before"] < res["after"] and
          res["hidden"] > 0 and res["unzoomShown"] and res["name"] == "hot  work.js:9" and
          res["zoomLabel"] == res["name"] and
          res["details"].startswith(res["raw"] + " (") and res["raw"] == "JS:~hot /tmp/b/work.js:9:13" and
          res["share"] > 0 and "Matched:" in res["matched"] and
          abs(res["restored"] - res["before"]) < 0.01)
    check(name, ok, json.dumps(out)[:400])
    # the same through chromium's own --screenshot (no driver): must render
    shot2 = os.path.join(WORK, "browser-cli.png")
    userdir = tempfile.mkdtemp(prefix="chromium-", dir=WORK)
    try:
        r = run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--user-data-dir=" + userdir, "--screenshot=" + shot2,
                 "--window-size=1200,800", "file://" + svg], timeout=60)
        check("svg/chromium-screenshot", os.path.exists(shot2) and os.path.getsize(shot2) > 1000,
              r.stderr.decode()[-300:])
    except subprocess.TimeoutExpired:
        check("svg/chromium-screenshot", False, "timeout")
    finally:
        shutil.rmtree(userdir, ignore_errors=True)


# ---- short names in pictures ----------------------------------------------

def folded_total(binary, args):
    p = run([binary] + args)
    return sum(int(l.rsplit(" ", 1)[1]) for l in p.stdout.decode().splitlines())



def same_raw_names(got, want):
    """A merged frame's raw text, "N names: A | B | ...": the same names,
    in whatever order the frames were first seen."""
    if got is None:
        return False
    head_g, _, rest_g = got.partition(": ")
    head_w, _, rest_w = want.partition(": ")
    return head_g == head_w and sorted(rest_g.split(" | ")) == sorted(rest_w.split(" | "))

def test_short_pictures(binary, tag, check, report):
    """Pictures show short names by default (tests/cases/perfmap_short.why),
    the raw ones in tooltips; --frame=fn restores the raw names everywhere;
    every picture's total is the folded one."""
    path = os.path.join(HERE, "cases", "perfmap_short.cg")
    total = folded_total(binary, [path])
    fib_raw = "3 names: JS:~fib /tmp/cc/bench/workloads/jswork.js:9:13 | " \
              "JS:^fib /tmp/cc/bench/workloads/jswork.js:9:13 | " \
              "JS:*fib /tmp/cc/bench/workloads/jswork.js:9:13"
    anon_raw = "Function: file:///tmp/cc/bench/bench.mjs:9:36"
    # SVG: labels (data-l, the drawn text) short, titles raw
    p = run([binary, "-f", "svg", path])
    root, frames = svg_frames(p.stdout)
    groups = [g for g in root.iter(NS + "g") if g.get("class") == "f"]
    by_label = {g.get("data-l") or frames[i]["name"]: frames[i] for i, g in enumerate(groups)}
    texts = [g.find(NS + "text").text or "" for g in groups]
    ok = p.returncode == 0 and \
        same_raw_names(by_label.get("fib  workloads/jswork.js:9", {}).get("name"), fib_raw) \
        and by_label.get("(anonymous)  bench.mjs:9", {}).get("name") == anon_raw \
        and by_label.get("main", {}).get("name") == "main" \
        and any(g.get("data-l") == "(anonymous)  bench.mjs:9" for g in groups) \
        and not any("/tmp/cc" in t for t in texts) \
        and root.find(NS + "g[@id='cfconfig']").get("data-total") == str(total)
    check(tag + "short/svg-short-labels-raw-titles", ok, p.stderr.decode() + str(list(by_label)))
    # --diff svg: the same names on both sides
    p = run([binary, "-f", "svg", "--diff=" + path, path])
    root, frames = svg_frames(p.stdout)
    check(tag + "short/diff-svg", p.returncode == 0 and
          any(same_raw_names(f["name"], fib_raw) for f in frames) and
          b'data-l="fib  workloads/jswork.js:9"' in p.stdout and
          all(", +0 " in f["title"] for f in frames), p.stderr.decode())
    # DOT: labels short, tooltips raw; the totals are the folded ones
    p = run([binary, "-f", "dot", "--node-thres=0", "--edge-thres=0", path])
    text = p.stdout.decode()
    fib = re.search(r'label="fib  workloads/jswork.js:9\\ntotal [0-9.]+% \((\d+)\)[^"]*", '
                    r'tooltip="([^"]*)"', text)
    check(tag + "short/dot-short-labels-raw-tooltips",
          p.returncode == 0 and fib is not None and fib.group(2) == fib_raw and
          "/tmp/cc" not in "".join(re.findall(r'label="([^"]*)"', text)) and
          ("\\ntotal %d " % total) in text and 'label="main\\n' in text and
          'n0 [label="main\\ntotal 100.00%% (%d)\\nself 2.84%% (5)", fillcolor' % total in text,
          text[-600:] + p.stderr.decode())
    # speedscope: names short, raw names as the frames' "file"
    p = run([binary, "-f", "speedscope", path])
    doc = json.loads(p.stdout.decode())
    named = {f["name"]: f.get("file") for f in doc["shared"]["frames"]}
    check(tag + "short/speedscope",
          p.returncode == 0 and named.get("fib  workloads/jswork.js:9") == fib_raw and
          "file" not in [f for f in doc["shared"]["frames"] if f["name"] == "main"][0] and
          sum(doc["profiles"][0]["weights"]) == total, str(named))
    # --frame=fn: the raw names everywhere, no data-l, no tooltip, no file
    p = run([binary, "-f", "svg", "--frame=fn", path])
    root, frames = svg_frames(p.stdout)
    texts = [t.text or "" for t in root.iter(NS + "text")]
    check(tag + "short/frame-fn-restores-raw-svg",
          p.returncode == 0 and b"data-l=" not in p.stdout and
          any(f["name"] == "JS:*fib /tmp/cc/bench/workloads/jswork.js:9:13" for f in frames) and
          any(t.startswith("Function: file:///tmp/cc") for t in texts), p.stderr.decode())
    p = run([binary, "-f", "dot", "--frame=fn", path])
    q = run([binary, "-f", "speedscope", "--frame=fn", path])
    check(tag + "short/frame-fn-restores-raw-dot-speedscope",
          p.returncode == q.returncode == 0 and b"tooltip=" not in p.stdout and
          b"JS:~fib /tmp/cc/bench" in p.stdout and b'"file"' not in q.stdout and
          b'"JS:~fib /tmp/cc/bench' in q.stdout, (p.stderr + q.stderr).decode())
    # folded output stays raw by default
    p = run([binary, path])
    check(tag + "short/folded-stays-raw", p.returncode == 0 and b"JS:~fib /tmp/cc" in p.stdout,
          p.stderr.decode())
    # C names read the same: no tooltip or data-l at all
    spec = os.path.join(HERE, "cases", "mutual_recursion.cg")
    p = run([binary, "-f", "svg", spec])
    q = run([binary, "-f", "dot", spec])
    check(tag + "short/c-names-unchanged",
          p.returncode == q.returncode == 0 and b"data-l=" not in p.stdout and
          b"tooltip=" not in q.stdout and p.stdout == run([binary, "-f", "svg", "--frame=fn",
                                                           spec]).stdout, "")


# ---- C++ and Rust labels in every picture ---------------------------------

BUMP = "text::Counter::bump [clone .isra.0]"
BUMP_RAWS = {"text::Counter<int>::bump(int const&) [clone .isra.0]",
             "text::Counter<std::__cxx11::basic_string<char, std::char_traits<char>, "
             "std::allocator<char> > >::bump(std::__cxx11::basic_string<char, "
             "std::char_traits<char>, std::allocator<char> > const&) [clone .isra.0]"}
SYMBOL_LABELS = ("std::__introsort_loop [clone .isra.0]", "std::_Rb_tree::_M_insert_unique",
                 "Index::add", "wc::count_words", "HashMap::rustc_entry", "Adapter::write_str",
                 "<[T]>::sort_by", "OnceLock::initialize", "std::rt::lang_start::{{closure}}")


def test_symbol_pictures(binary, tag, check, report):
    """C++ and Rust frames read as a person names the function in every
    picture (tests/cases/cxx_rust_labels.why), raw names in tooltips; two
    functions whose labels read alike stay two frames there, each with its
    raw name; the totals are the folded ones."""
    import html_tests
    import pprof_tests
    path = os.path.join(HERE, "cases", "cxx_rust_labels.cg")
    total = folded_total(binary, [path])
    name = lambda n: tag + "labels/" + n
    # SVG, and --diff's: labels in data-l, raw names in the titles
    for what, args in (("svg", []), ("diff-svg", ["--diff=" + path])):
        p = run([binary, "-f", "svg"] + args + [path])
        root, frames = svg_frames(p.stdout)
        groups = [g for g in root.iter(NS + "g") if g.get("class") == "f"]
        labels = [g.get("data-l") or frames[i]["name"] for i, g in enumerate(groups)]
        bumps = {frames[i]["name"] for i, g in enumerate(groups) if g.get("data-l") == BUMP}
        drops = [l for l in labels if l == "core::ptr::drop_in_place"]
        check(name(what),
              p.returncode == 0 and all(l in labels for l in SYMBOL_LABELS) and
              bumps == BUMP_RAWS and len(drops) == 2 and
              root.find(NS + "g[@id='cfconfig']").get("data-total") == str(total) and
              (what == "svg" or all(", +0 " in f["title"] for f in frames[1:])),
              p.stderr.decode() + repr(sorted(set(l for l in labels if l)))[:600])
    # HTML report: the names shown, the raw ones beside them
    p = run([binary, "-f", "html", path])
    meta, _, trees = html_tests.decode_page(p.stdout)
    ids = [i for i, n in enumerate(meta["names"]) if n == BUMP]
    check(name("html"),
          p.returncode == 0 and all(l in meta["names"] for l in SYMBOL_LABELS) and
          len(ids) == 2 and {meta["raw"].get(str(i)) for i in ids} == BUMP_RAWS and
          sum(sum(c[0] for _, c in t) for t in trees) == total,
          p.stderr.decode() + repr(meta["names"])[:600])
    # speedscope: the label as the name, the raw name as its "file"
    p = run([binary, "-f", "speedscope", path])
    doc = json.loads(p.stdout.decode())
    fr = doc["shared"]["frames"]
    check(name("speedscope"),
          p.returncode == 0 and all(any(f["name"] == l for f in fr) for l in SYMBOL_LABELS) and
          {f.get("file") for f in fr if f["name"] == BUMP} == BUMP_RAWS and
          sum(doc["profiles"][0]["weights"]) == total, repr(fr)[:600])
    # DOT: node labels, raw tooltips
    p = run([binary, "-f", "dot", "--node-thres=0", "--edge-thres=0", path])
    text = p.stdout.decode()
    tips = set(re.findall(r'label="' + re.escape(BUMP) + r'\\ntotal[^"]*", tooltip="([^"]*)"',
                          text))
    check(name("dot"),
          p.returncode == 0 and all('label="%s\\ntotal' % l.replace('"', '\\"') in text
                                    for l in SYMBOL_LABELS) and
          tips == {t.replace('"', '\\"') for t in BUMP_RAWS}, text[-600:])
    # pprof keeps the raw names; with --frame=short, labels and system names
    for args, want_short in (([], False), (["--frame=short"], True)):
        out = os.path.join(WORK, "labels.pb.gz")
        p = run([binary, "-f", "pprof", "-o", out] + args + [path])
        prof = pprof_tests.decode_profile(open(out, "rb").read()) if p.returncode == 0 else None
        fns = list(prof["functions"].values()) if prof else []
        if want_short:
            ok = all(any(f["name"] == l for f in fns) for l in SYMBOL_LABELS) and \
                {f["system_name"] for f in fns if f["name"] == BUMP} == BUMP_RAWS
        else:
            ok = {f["name"] for f in fns} >= BUMP_RAWS and not any(f["name"] == BUMP for f in fns)
        check(name("pprof" + ("-frame=short" if want_short else "-raw")), ok, repr(fns)[:600])
    # --frame=fn: raw names in the pictures too
    p = run([binary, "-f", "svg", "--frame=fn", path])
    root, frames = svg_frames(p.stdout)
    check(name("frame=fn-raw-svg"), p.returncode == 0 and b"data-l=" not in p.stdout and
          BUMP_RAWS <= {f["name"] for f in frames}, p.stderr.decode())


def test_labels_browser(binary, check, report):
    """The report of C++ and Rust frames in headless Chromium: the labels
    drawn, two frames for the two functions labelled alike, and the
    tooltip of each with its label and raw name (a screenshot with one
    shown in tests/work/labels.png)."""
    name = "labels/chromium-labels-and-tooltips"
    tools = browser_tools(name, report)
    if not tools:
        return
    page = os.path.join(WORK, "labels.html")
    p = run([binary, "-f", "html", "-o", page, os.path.join(HERE, "cases", "cxx_rust_labels.cg")])
    if p.returncode != 0:
        check(name, False, p.stderr.decode())
        return
    shot = os.path.join(WORK, "labels.png")
    out, problem = browser_driver(tools, "labels_browser_check.js", page, shot,
                                  [BUMP, "Index::add", "Adapter::write_str"])
    if problem:
        check(name, False, problem)
        return
    labels, tips = out.get("labels", {}), out.get("tips", {})
    raw_of = lambda tip: tip.split("\n")[1][len("raw: "):] if tip.count("\n") >= 2 else None
    ok = (not out["errors"] and all(labels.get(l) for l in SYMBOL_LABELS) and
          labels.get(BUMP) == 2 and {raw_of(t) for t in tips.get(BUMP, [])} == BUMP_RAWS and
          all(t.startswith(BUMP + "\n") for t in tips.get(BUMP, [])) and
          [raw_of(t) for t in tips.get("Index::add", [])] ==
          ["Index::add(std::__cxx11::basic_string<char, std::char_traits<char>, "
           "std::allocator<char> > const&)"] and
          os.path.exists(shot) and os.path.getsize(shot) > 1000)
    check(name, ok, json.dumps(out)[:600])


def test_cycles_browser(binary, check, report):
    """A report of --cycle-estimation's events in headless Chromium: their
    hundredths of a cycle shown as cycles in the benchmark table, the
    part's summary, the tooltips and the search total; Ir as counted."""
    name = "html/chromium-cycle-events-as-cycles"
    tools = browser_tools(name, report)
    if not tools:
        return
    cyc = write("cycles-page.cg", "events: Ir Ct Cl Cb\nfn=main\n1 4 5 6 7\n"
                "cfn=work\ncalls=1 0\n1 10 725 2400 650\nfn=work\n1 10 725 2400 650\n")
    page = os.path.join(WORK, "cycles.html")
    p = run([binary, "-f", "html", "-o", page, cyc])
    if p.returncode != 0:
        check(name, False, p.stderr.decode())
        return
    out, problem = browser_driver(tools, "cycles_browser_check.js", page,
                                  os.path.join(WORK, "cycles.png"), ["work"])
    if problem:
        check(name, False, problem)
        return
    # totals: Ir 14, Ct 730 (7.30 cycles), Cl 2406, Cb 657; work's 10, 725, 2400, 650
    head, row, tips = out.get("head", []), out.get("row", []), out.get("tips", {})
    cells = dict(zip(head, row))
    want_tips = {"Ir": "Ir 10 ", "Ct": "Ct 7.25 ", "Cl": "Cl 24.00 ", "Cb": "Cb 6.50 "}
    ok = (not out.get("errors") and cells.get("Ir") == "14" and cells.get("Ct") == "7.30" and
          cells.get("Cl") == "24.06" and cells.get("Cb") == "6.57" and
          "Ct (estimated cycles, throughput)" in out.get("titles", []) and
          " 6.57 estimated cycles" in out.get("summary", "") and
          all(want in tips.get(ev, "") for ev, want in want_tips.items()) and
          out.get("matched", {}).get("Ct", "").startswith("Matched: 7.30 ") and
          out.get("matched", {}).get("Ir", "").startswith("Matched: 14 "))
    check(name, ok, json.dumps(out)[:800])


def test_usage(binary, tag, check):
    spec = os.path.join(HERE, "cases", "spec_example.cg")
    for args, name in ((["-f", "jpeg"], "bad-format"), (["--colors=rainbow"], "bad-colors"),
                       (["--width=abc"], "bad-width"), (["--node-thres=200"], "bad-thres")):
        p = run([binary] + args + [spec])
        check(tag + "usage/render-" + name, p.returncode == 1 and b"callgrind_fold:" in p.stderr,
              p.stderr.decode())
    p = run([binary, "--help"])
    out = p.stdout.decode()
    check(tag + "usage/help-render-options",
          all(o in out for o in ("--format", "--minwidth", "--diff", "--colors", "--node-thres",
                                 "speedscope", "--countname", "--inverted")))


def valgrind_named():
    """VALGRIND as given: a path, or a name looked up in PATH."""
    return os.environ.get("VALGRIND", "valgrind") or "valgrind"


def run_all(binary, tag, report, check, browser=False):
    os.makedirs(WORK, exist_ok=True)
    valgrind = shutil.which(valgrind_named())
    cc = os.environ.get("CC", "cc") or "cc"
    tests = [("usage", lambda: test_usage(binary, tag, check)),
             ("svg", lambda: test_svg(binary, tag, check, report)),
             ("dot", lambda: test_dot(binary, tag, check, report)),
             ("diff", lambda: test_diff(binary, tag, check, report, valgrind, cc, None)),
             ("short", lambda: test_short_pictures(binary, tag, check, report)),
             ("labels", lambda: test_symbol_pictures(binary, tag, check, report)),
             ("speedscope", lambda: test_speedscope(binary, tag, check, report,
                                                    speedscope_schema()))]
    if not tag:  # timing means nothing under the sanitizers
        tests.append(("svg-speed", lambda: test_svg_speed(binary, tag, check, report)))
    if browser:
        tests.append(("browser", lambda: test_browser(binary, check, report)))
        tests.append(("labels-browser", lambda: test_labels_browser(binary, check, report)))
        tests.append(("cycles-browser", lambda: test_cycles_browser(binary, check, report)))
    for name, test in tests:
        try:
            test()
        except Exception as e:  # noqa: BLE001 - a broken output must not stop the run
            report("FAIL", tag + name + "/crashed", "%s: %s" % (type(e).__name__, e))
