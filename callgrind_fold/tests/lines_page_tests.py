"""The HTML report's hot lines (notes/lines.md, "The report page: hot
lines"): each part's hottest functions by self cost, their self cost by
source line in every event, and the lines' text from the sources
(--source-dir), with a note on the page for every source that cannot be
shown as it is.

Goldens: tests/report/lines/CASE.cg rendered from that directory, the
page's hot lines and sources (frame names resolved, paths made relative)
compared with CASE.expected; a normal kernel and one case per kind of bad
input (source not found, shorter than the profile says, line 0 and
absurd lines, not UTF-8, binary, not a regular file or no file, a line
over the length limit, no line positions). Checked besides: the search
order of --source-dir, the 4 MB bound, the limits of functions and
lines, that every function's lines sum to its self cost as the page's
own tree gives it, a real program profiled by VALGRIND (its lines equal
the profile's own, read by pprof_tests.callgrind_line_costs, and the
text equal to the file's), and in Chromium what a person sees: the
lines' text, their costs in aligned monospaced columns, coloured by
colors.c's heat scale, switched by the event selector.

Set CALLGRIND_FOLD_WRITE_GOLDEN=1 to rewrite the goldens (then read the
diff)."""
import json
import os
import re
import shutil
import subprocess
import tempfile

import html_tests
import pprof_tests

HERE = os.path.dirname(os.path.abspath(__file__))
LINES = os.path.join(HERE, "report", "lines")
COLORS_C = os.path.join(os.path.dirname(HERE), "src", "write", "colors.c")
CASES = ["kernel", "missing", "short", "lines0", "latin1", "binary", "nofile", "longline",
         "nolines"]
MAX_BYTES = 4 << 20


def run(cmd, cwd=None, timeout=300):
    try:
        return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, 124, e.stdout or b"", b"(timed out)")


def page(binary, out, args, cwd=None):
    """(meta, trees, error text): -f html of args, decoded."""
    p = run([os.path.abspath(binary), "-f", "html", "-o", out] + args, cwd=cwd)
    if p.returncode != 0:
        return None, None, "rc %d: %s" % (p.returncode, p.stderr.decode(errors="replace"))
    with open(out, "rb") as f:
        data = f.read()
    meta, _, trees = html_tests.decode_page(data)
    return meta, trees, p.stderr.decode(errors="replace")


def normalized(meta, work):
    """The page's hot lines as the goldens hold them: frame names for
    their ids, this checkout's and the work directory's paths made
    LINES/ and WORK/."""
    names = meta["names"]
    parts = []
    for p in meta["parts"]:
        hot = json.loads(json.dumps(p.get("hot")))
        for fn in (hot or {}).get("fns", []):
            fn["f"] = names[fn["f"]]
        parts.append({"name": p["name"], "hot": hot})
    text = readable({"parts": parts, "sources": meta.get("sources"),
                     "hotLimits": meta.get("hotLimits")})
    return text.replace(LINES, "LINES").replace(work, "WORK") + "\n"


def readable(v, indent=""):
    """JSON, a line per key and per list item, lists of scalars on one."""
    inner = indent + " "
    if isinstance(v, dict) and v:
        items = ["%s%s: %s" % (inner, json.dumps(k), readable(v[k], inner)) for k in sorted(v)]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(v, list) and any(isinstance(x, (list, dict)) for x in v):
        return "[\n" + ",\n".join(inner + readable(x, inner) for x in v) + "\n" + indent + "]"
    return json.dumps(v, ensure_ascii=False)


def tree_self(nodes, name, col):
    """A frame's self cost in the page's own tree: its nodes' self counts."""
    return sum(c[col] for path, c in nodes if path and path[-1] == name)


def sums_hold(meta, trees):
    """Every hot function's lines (and the rest) sum to its self cost in
    every event its lines are complete in, and that self cost is the one
    of the page's tree; a list of what does not."""
    bad = []
    names = meta["names"]
    for p, nodes in zip(meta["parts"], trees):
        for fn in (p.get("hot") or {}).get("fns", []):
            for e in range(len(meta["events"])):
                lines = sum(l[2 + e] for l in fn["lines"]) + fn["rest"]["cost"][e]
                tree = tree_self(nodes, names[fn["f"]], e)
                if fn["self"][e] != tree or (e not in fn["partial"] and lines != tree):
                    bad.append("%s %s event %d: lines %d self %d tree %d" %
                               (p["name"], names[fn["f"]], e, lines, fn["self"][e], tree))
    return bad


def text_lines(meta):
    """{(file index, line): text} of the page's sources."""
    out = {}
    for i, src in enumerate(meta.get("sources") or []):
        for chunk in src.get("text", []):
            for k, t in enumerate(chunk[1:]):
                out[(i, chunk[0] + k)] = t
    return out


# ---- goldens -----------------------------------------------------------------

def test_goldens(binary, tag, check, work):
    write = os.environ.get("CALLGRIND_FOLD_WRITE_GOLDEN") == "1" and not tag
    for case in CASES:
        name = tag + "lines-page/golden-" + case
        meta, trees, err = page(binary, os.path.join(work, "lines-%s.html" % case),
                                [case + ".cg"], cwd=LINES)
        if not check(name + "/written", meta is not None, err):
            continue
        got = normalized(meta, work)
        golden = os.path.join(LINES, case + ".expected")
        if write:
            with open(golden, "w") as f:
                f.write(got)
        want = open(golden).read() if os.path.exists(golden) else ""
        check(name, got == want, "got:\n%s" % got[:1500])
        bad = sums_hold(meta, trees)
        check(name + "/lines-sum-to-self", not bad, "; ".join(bad[:3]))


def test_kernel_text(binary, tag, check, work):
    """The kernel's lines are the file's, markup and all, and cannot end
    the page's script."""
    out = os.path.join(work, "lines-kernel-text.html")
    meta, _, err = page(binary, out, ["kernel.cg"], cwd=LINES)
    if not check(tag + "lines-page/kernel-text/written", meta is not None, err):
        return
    files = [s["path"] for s in meta["sources"]]
    bad = []
    for (i, n), t in text_lines(meta).items():
        with open(os.path.join(LINES, files[i]), encoding="utf-8") as f:
            real = f.read().split("\n")[n - 1]
        if t != real:
            bad.append("%s:%d %r != %r" % (files[i], n, t, real))
    check(tag + "lines-page/kernel-text-is-the-file", not bad and len(text_lines(meta)) >= 20,
          "; ".join(bad[:3]))
    raw = open(out, "rb").read()
    check(tag + "lines-page/source-cannot-end-the-script",
          b"</script><!--" not in raw and raw.count(b"</script>") == raw.count(b"<script"),
          "markup of kernel.c written raw")


# ---- where sources are found ------------------------------------------------------

def source_of(meta, path):
    for s in meta.get("sources") or []:
        if s["path"] == path:
            return s
    return None


def test_search_order(binary, tag, check, work):
    d = os.path.join(work, "lines-dirs")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "first"))
    os.makedirs(os.path.join(d, "second", "sub"))
    kernel = open(os.path.join(LINES, "kernel.c")).read()
    with open(os.path.join(d, "second", "sub", "kernel.c"), "w") as f:
        f.write(kernel)
    with open(os.path.join(d, "second", "kernel.c"), "w") as f:
        f.write("/* the base name's: found only after DIR/sub/kernel.c */\n" * 20)
    prof = open(os.path.join(LINES, "kernel.cg")).read()

    def profile(fl):
        path = os.path.join(d, "k-%d.cg" % abs(hash(fl)))
        with open(path, "w") as f:
            f.write(prof.replace("fl=kernel.c", "fl=" + fl))
        return path

    out = os.path.join(d, "page.html")
    name = tag + "lines-page/source-dir/"
    # from elsewhere, no --source-dir: not found, and it says what to do
    meta, _, err = page(binary, out, [os.path.join(LINES, "kernel.cg")], cwd=d)
    s = meta and source_of(meta, "kernel.c")
    check(name + "not-found-says-tried-and-how",
          s is not None and s.get("why", "").startswith("source not found: tried kernel.c") and
          "--source-dir" in s["why"] and "text" not in s, str(s) + err)
    # --source-dir=LINES: DIR/name
    meta, _, err = page(binary, out, ["--source-dir=" + LINES, os.path.join(LINES, "kernel.cg")],
                        cwd=d)
    s = meta and source_of(meta, "kernel.c")
    check(name + "under-dir", s is not None and s.get("found") == os.path.join(LINES, "kernel.c")
          and s["text"][0][1:3] == kernel.split("\n")[3:5], str(s)[:300] + err)
    # a relative name under DIR before the base name under DIR; the
    # second DIR when the first has neither
    meta, _, err = page(binary, out, ["--source-dir", os.path.join(d, "first"),
                                      "--source-dir=" + os.path.join(d, "second"),
                                      profile("sub/kernel.c")], cwd=d)
    s = meta and source_of(meta, "sub/kernel.c")
    check(name + "relative-name-before-base-name",
          s is not None and s.get("found") == os.path.join(d, "second", "sub", "kernel.c"),
          str(s)[:300] + err)
    # an absolute name that is gone: its base name under DIR
    meta, _, err = page(binary, out, ["--source-dir=" + LINES,
                                      profile("/build/gone/src/kernel.c")], cwd=d)
    s = meta and source_of(meta, "/build/gone/src/kernel.c")
    check(name + "absolute-gone-by-base-name",
          s is not None and s.get("found") == os.path.join(LINES, "kernel.c"), str(s)[:300] + err)
    # the path as written comes first
    meta, _, err = page(binary, out, ["--source-dir=" + os.path.join(d, "second"),
                                      profile(os.path.join(LINES, "kernel.c"))], cwd=d)
    s = meta and source_of(meta, os.path.join(LINES, "kernel.c"))
    check(name + "as-written-first", s is not None and "found" not in s and "text" in s,
          str(s)[:300] + err)
    p = run([os.path.abspath(binary), "-f", "html", "--source-dir=", "x.cg"])
    check(name + "empty-is-a-usage-error", p.returncode == 1 and b"--source-dir" in p.stderr,
          p.stderr.decode(errors="replace"))


def test_big_file(binary, tag, check, work):
    """At most 4 MB of a source are read: a line past them gets a note,
    a line before them its text."""
    d = os.path.join(work, "lines-big")
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, "big.c")
    n = 0
    with open(src, "w") as f:
        while f.tell() < MAX_BYTES + 200000:
            n += 1
            f.write("int v%07d = %d;\n" % (n, n))
    late = n - 10  # well past 4 MB
    prof = os.path.join(d, "big.cg")
    with open(prof, "w") as f:
        f.write("# callgrind format\nversion: 1\ncmd: ./big\npositions: line\nevents: Ir\n"
                "fl=%s\nfn=big\n10 50\n%d 50\ntotals: 100\n" % (src, late))
    meta, trees, err = page(binary, os.path.join(d, "big.html"), [prof])
    s = meta and source_of(meta, src)
    lines = text_lines(meta) if meta else {}
    check(tag + "lines-page/source-over-4mb-read-to-4mb",
          s is not None and s["lines"] < late and lines.get((0, 10)) == "int v0000010 = 10;" and
          (0, late) not in lines and
          s["notes"] == ["line %d is past the first 4 MB of the file, which is all that is "
                         "read of a file" % late] and os.path.getsize(os.path.join(d, "big.html")) < 200000,
          str(s)[:400] + err)


# ---- limits -----------------------------------------------------------------------

def test_limits(binary, tag, check, work):
    """At most 10 functions, each of at least 1% of the part, hottest
    first; at most 100 lines a function, the others summed (still exact)."""
    prof = os.path.join(work, "lines-limits.cg")
    body = ["# callgrind format", "version: 1", "cmd: ./limits", "positions: line",
            "events: Ir Dr", "fl=many.c"]
    total_ir = total_dr = 0
    for i in range(15):  # f0 the hottest; 15 functions of 5-6% each
        body.append("fn=f%d" % i)
        cost = 700 - 10 * i
        body.append("%d %d %d" % (10 * i + 1, cost, i))
        total_ir += cost
        total_dr += i
    body.append("fn=wide")  # 150 lines: 1 .. 150 Ir, line k at 2000 + k
    for k in range(1, 151):
        body.append("%d %d 1" % (2000 + k, k))
        total_ir += k
        total_dr += 1
    body.append("fn=crumb")  # under 1%
    body.append("1 50 0")
    total_ir += 50
    body.append("totals: %d %d" % (total_ir, total_dr))
    with open(prof, "w") as f:
        f.write("\n".join(body) + "\n")
    meta, trees, err = page(binary, os.path.join(work, "lines-limits.html"), [prof])
    if not check(tag + "lines-page/limits/written", meta is not None, err):
        return
    fns = meta["parts"][0]["hot"]["fns"]
    names = [meta["names"][fn["f"]] for fn in fns]
    check(tag + "lines-page/at-most-10-functions-hottest-first",
          names == ["wide"] + ["f%d" % i for i in range(9)], str(names))
    wide = fns[0]
    kept = [l[1] - 2000 for l in wide["lines"]]
    check(tag + "lines-page/at-most-100-lines-the-costliest-rest-summed",
          kept == list(range(51, 151)) and wide["rest"] == {"n": 50, "cost": [sum(range(1, 51)), 50]}
          and wide["self"] == [sum(range(1, 151)), 150], "%s %s" % (kept[:5], wide["rest"]))
    bad = sums_hold(meta, trees)
    check(tag + "lines-page/limits-lines-sum-to-self", not bad, "; ".join(bad[:3]))


def test_other_inputs(binary, tag, check, work):
    """Folded stacks have no lines: the page says so. --diff pages have no
    hot lines (the md diff shows lines that changed)."""
    folded = os.path.join(work, "lines-folded.folded")
    with open(folded, "w") as f:
        f.write("main;work 5\n")
    meta, _, err = page(binary, os.path.join(work, "lines-folded.html"), [folded])
    check(tag + "lines-page/folded-input-says-no-lines",
          meta is not None and "no line costs" in meta["parts"][0]["hot"].get("why", ""),
          str(meta and meta["parts"][0].get("hot")) + err)
    kernel = os.path.join(LINES, "kernel.cg")
    meta, _, err = page(binary, os.path.join(work, "lines-diff.html"),
                        ["--diff", kernel, kernel])
    check(tag + "lines-page/diff-page-has-none",
          meta is not None and "sources" not in meta and
          all("hot" not in p for p in meta["parts"]), err)


# ---- a real program ----------------------------------------------------------------

PROGRAM = r"""
#include <stdlib.h>

static double weights[4096];

__attribute__((noinline)) static double dot(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * weights[i];
    return s;
}

__attribute__((noinline)) static void fill(double *a, int n, int seed)
{
    for (int i = 0; i < n; i++)
        a[i] = (double)((seed * 31 + i * 7) % 101);
}

int main(void)
{
    double *a = malloc(sizeof(double) * 4096), total = 0;
    for (int i = 0; i < 4096; i++)
        weights[i] = i % 13;
    for (int round = 0; round < 40; round++) {
        fill(a, 4096, round);
        total += dot(a, 4096);
    }
    free(a);
    return total < 0;
}
"""


def real_profile(valgrind, cc, work):
    """(program's source path, callgrind.out path), or (None, why)."""
    d = os.path.join(work, "lines-real")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "src"))
    src = os.path.join(d, "src", "weights.c")
    with open(src, "w") as f:
        f.write(PROGRAM)
    exe = os.path.join(d, "weights")
    p = run([cc, "-g", "-O0", "-o", exe, src])
    if p.returncode != 0:
        return None, "cc: " + p.stderr.decode(errors="replace")[-300:]
    out = os.path.join(d, "callgrind.out")
    p = run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out, exe], timeout=300)
    if p.returncode != 0:
        return None, "valgrind: " + p.stderr.decode(errors="replace")[-300:]
    return src, out


def test_real_program(binary, tag, check, report, work, real):
    name = tag + "lines-page/real-program"
    if real is None:
        report("SKIP", name, "no VALGRIND (the patched one: dist/bin/valgrind)")
        return
    src, prof = real
    if src is None:
        check(name + "/profiled", False, prof)
        return
    # moved away from where it was built: found by --source-dir's base name
    moved = os.path.join(os.path.dirname(prof), "moved")
    os.makedirs(moved, exist_ok=True)
    if os.path.exists(src):
        shutil.move(src, os.path.join(moved, "weights.c"))
    meta, trees, err = page(binary, os.path.join(os.path.dirname(prof), "page.html"),
                            ["--source-dir=" + moved, prof], cwd=os.path.dirname(prof))
    if not check(name + "/written", meta is not None, err):
        return
    hot = meta["parts"][0]["hot"]
    fns = {meta["names"][fn["f"]]: fn for fn in hot.get("fns", [])}
    check(name + "/hot-functions", "dot" in fns and "fill" in fns, str(list(fns)))
    bad = sums_hold(meta, trees)
    check(name + "/lines-sum-to-self", not bad, "; ".join(bad[:3]))
    # each line of the program's functions as the profile itself says
    want = pprof_tests.callgrind_line_costs([prof])
    files = meta["sources"]
    wrong, seen = [], 0
    for fname in ("dot", "fill"):
        for l in fns.get(fname, {}).get("lines", []):
            path = files[l[0]]["path"]
            for e, ev in enumerate(meta["events"]):
                if want.get(ev[0], {}).get((path, l[1]), 0) != l[2 + e]:
                    wrong.append("%s %s:%d %s page %d profile %s" % (
                        fname, path, l[1], ev[0], l[2 + e], want.get(ev[0], {}).get((path, l[1]))))
            seen += 1
    check(name + "/line-costs-equal-the-profile", seen >= 4 and not wrong,
          "%d lines; %s" % (seen, "; ".join(wrong[:3])))
    lines = PROGRAM.split("\n")
    text = text_lines(meta)
    shown = [(i, n, t) for (i, n), t in text.items() if files[i]["path"] == src]
    check(name + "/text-from-source-dir",
          shown and all(t == lines[n - 1] for _, n, t in shown) and
          any(files[i].get("found") == os.path.join(moved, "weights.c") for i, _, _ in shown) and
          any("s += a[i] * weights[i];" in t for _, _, t in shown),
          str(shown[:3]))


# ---- in Chromium --------------------------------------------------------------------

def heat_stops():
    """colors.c's color_heat stops, read from its source."""
    text = open(COLORS_C).read()
    body = text[text.index("struct rgb color_heat"):]
    table = body[body.index("stop[] = {"):body.index("};")]
    return [tuple(int(x) for x in m) for m in re.findall(r"\{(\d+),\s*(\d+),\s*(\d+)\}", table)]


def heat(f, stops):
    """color_heat(f), as colors.c computes it."""
    f = min(1.0, max(0.0, f)) ** 0.5
    pos = f * (len(stops) - 1)
    i = int(pos)
    if i >= len(stops) - 1:
        return stops[-1]
    t = pos - i
    return tuple(int(a + t * (b - a) + 0.5) for a, b in zip(stops[i], stops[i + 1]))


def fmt(n):
    return "{:,}".format(n)


def browser_page(tools, page_path, shot):
    import test_render
    os.makedirs(test_render.WORK, exist_ok=True)  # its drivers' user directories
    out, why = test_render.browser_driver(tools, "hotlines_browser_check.js", page_path, shot)
    return out or {"errors": [why]}


def shown_rows(fn_view):
    return [r for t in fn_view["tables"] for r in t["rows"]]


def test_browser(binary, check, report, work):
    import test_render
    names = ["lines-page/chromium-kernel", "lines-page/chromium-event-switch",
             "lines-page/chromium-bad-input-notes"]
    tools = test_render.browser_tools(names, report)
    if not tools:
        return
    stops = heat_stops()
    out_page = os.path.join(work, "lines-browser-kernel.html")
    meta, _, err = page(binary, out_page, ["kernel.cg"], cwd=LINES)
    if not check(names[0] + "/written", meta is not None, err):
        return
    shot = os.path.join(work, "lines-browser-kernel.png")
    out = browser_page(tools, out_page, shot)
    problems = list(out.get("errors") or [])
    if out.get("requests") not in ([], ["file://" + out_page]):
        problems.append("requests %s" % out.get("requests"))
    text = text_lines(meta)
    total = meta["parts"][0]["totals"]
    views = (out.get("before") or [{}])[0].get("fns") or []
    hot = meta["parts"][0]["hot"]["fns"]
    if len(views) != len(hot):
        problems.append("%d functions shown, %d in the data" % (len(views), len(hot)))
    for fn, view in zip(hot, views):
        rows = shown_rows(view)
        costs = {l[1]: l for l in fn["lines"]}
        hot_rows = [r for r in rows if r["kind"] == "cf-hotline"]
        if [int(r["line"]) for r in hot_rows] != sorted(costs) and len(view["files"]) == 1:
            problems.append("%s: hot rows %s" % (view["head"], [r["line"] for r in hot_rows]))
        for r in rows:
            if r["kind"] == "cf-gap":
                continue
            n = int(r["line"])
            fidx = costs[n][0] if n in costs else None
            # the text of the line, whichever file the row is of
            cands = [t for (i, k), t in text.items() if k == n and (fidx is None or i == fidx)]
            if r["code"] not in cands:
                problems.append("line %d shows %r" % (n, r["code"]))
            if "monospace" not in r["codeFont"] or "monospace" not in r["costFont"] or \
                    r["whiteSpace"] != "pre" or float(r["codeSize"][:-2]) < 11:
                problems.append("line %d font %s %s %s" % (n, r["codeFont"], r["whiteSpace"],
                                                          r["codeSize"]))
            if n in costs:
                c = costs[n][2]
                want_bg = "rgb(%d, %d, %d)" % heat(c / total[0], stops)
                if r["cost"] != fmt(c) or r["bg"] != want_bg or r["align"] != "right":
                    problems.append("line %d cost %r bg %s (want %s, %s)" % (n, r["cost"], r["bg"],
                                                                            want_bg, fmt(c)))
                rgb = [int(x) for x in re.findall(r"\d+", r["bg"])]
                lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
                if r["color"] != ("rgb(0, 0, 0)" if lum > 140 else "rgb(255, 255, 255)"):
                    problems.append("line %d text %s on %s" % (n, r["color"], r["bg"]))
        for t in view["tables"]:
            rights = {round(r["costRight"], 1) for r in t["rows"] if r["kind"] != "cf-gap"}
            if len(rights) != 1:
                problems.append("%s: cost columns not aligned: %s" % (view["head"], rights))
    heading = (out.get("before") or [{}])[0].get("heading")
    if heading != "Hot lines: self cost by line, all callers":
        problems.append("heading %r" % heading)
    check(names[0], not problems and os.path.getsize(shot) > 1000, "; ".join(problems[:4]))
    print("  lines-page: screenshot of the kernel's hot lines: %s" % shot, flush=True)
    # the event selector: Dr's costs in the same rows
    problems = []
    after = (out.get("after") or [{}])[0]
    if out.get("switched") != 1 or after.get("event") != 1:
        problems.append("not switched: %s" % out.get("switched"))
    for fn, view in zip(hot, after.get("fns") or []):
        costs = {l[1]: l for l in fn["lines"]}
        for r in shown_rows(view):
            if r["kind"] == "cf-hotline" and r["line"] != "-" and int(r["line"]) in costs:
                c = costs[int(r["line"])][3]
                if r["cost"] != fmt(c) or (c and r["bg"] != "rgb(%d, %d, %d)" % heat(c / total[1], stops)):
                    problems.append("line %s Dr %r want %s" % (r["line"], r["cost"], fmt(c)))
        if "Dr" not in view["head"]:
            problems.append("heading %r" % view["head"])
    check(names[1], not problems and after.get("fns"), "; ".join(problems[:4]))
    # bad input: the notes shown, and what is shown instead of text
    problems = []
    expect = {
        "missing": ["No source text: source not found: tried nowhere/gone.c"],
        "short": ["Source: the file has 4 lines and the profile names line 40"],
        "lines0": ["10 Ir on line 0: code the profile gives no line for",
                   "line 3000000000 is beyond any source file"],
        "latin1": ["Source: not UTF-8: bytes that are not valid UTF-8 are shown as \ufffd"],
        "binary": ["No source text: binary.c is a binary file"],
        "nofile": ["No source text: source not readable: /dev/null: not a regular file",
                   "No source text: the profile names no source file"],
        "longline": ["Source: lines longer than 1000 bytes are cut"],
    }
    for case, notes in sorted(expect.items()):
        p = os.path.join(work, "lines-browser-%s.html" % case)
        meta, _, err = page(binary, p, [case + ".cg"], cwd=LINES)
        if meta is None:
            problems.append(case + ": " + err)
            continue
        out = browser_page(tools, p, p[:-5] + ".png")
        views = (out.get("before") or [{}])[0].get("fns") or []
        shown = [n for v in views for n in v["notes"]]
        for want in notes:
            if not any(s.startswith(want) for s in shown):
                problems.append("%s: no note %r in %s" % (case, want, shown))
        if out.get("errors"):
            problems.append("%s: %s" % (case, out["errors"]))
        rows = [r for v in views for r in shown_rows(v)]
        if case == "short" and not any(r["line"] == "40" and r["code"] == "(no text)" for r in rows):
            problems.append("short: line 40 not shown without text")
        if case == "lines0" and not any(r["line"] == "-" and r["code"] == "(no line)" for r in rows):
            problems.append("lines0: line 0 not shown as no line")
        if case == "latin1" and not any("caf\ufffd" in r["code"] for r in rows):
            problems.append("latin1: %s" % [r["code"] for r in rows])
    check(names[2], not problems, "; ".join(problems[:4]))


def run_all(binary, tag, report, check, work, valgrind=None, cc=None, browser=False):
    real = None
    if valgrind and not tag:
        real = real_profile(valgrind, cc or "cc", work)
    tests = [("golden", lambda: test_goldens(binary, tag, check, work)),
             ("kernel-text", lambda: test_kernel_text(binary, tag, check, work)),
             ("search", lambda: test_search_order(binary, tag, check, work)),
             ("big", lambda: test_big_file(binary, tag, check, work)),
             ("limits", lambda: test_limits(binary, tag, check, work)),
             ("other", lambda: test_other_inputs(binary, tag, check, work))]
    if not tag:
        tests.append(("real", lambda: test_real_program(binary, tag, check, report, work, real)))
    if browser:
        tests.append(("browser", lambda: test_browser(binary, check, report, work)))
    for name, test in tests:
        try:
            test()
        except Exception as e:  # noqa: BLE001 - one broken case must not stop the run
            report("FAIL", tag + "lines-page/" + name + "/crashed", "%s: %s" % (type(e).__name__, e))
