"""Code without a symbol named by its object, in every output (called
from run_tests.py).

Callgrind names such code by its offset in its object
("0x000000000001ab70"); the reader of callgrind.out names it by the
object's base name and the offset ("ld-linux-x86-64.so.2+0x1ab70"), so
every writer shows that name: folded text (the golden cases
tests/cases/addr_names*.cg), and here the flame graph (also
--full-stacks), the HTML report and its share of unknown code, speedscope,
pprof, the call graph, --diff in each of its formats, --inline.  Folded
trees and folded text, which callgrind writes with such names
themselves, are read as they are.
"""
import json
import os
import re
import subprocess

from html_tests import decode_page
from pprof_tests import decode_profile
from test_render import svg_frames

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
WORK = os.path.join(HERE, "work", "addrname")
PROFILE = os.path.join(CASES, "addr_names.cg")
TREE = os.path.join(CASES, "addr_names_tree.tree")

# addr_names.cg's code without a symbol, by object; and what no object
# knows, which stays.
NAMED = {"ld-linux-x86-64.so.2+0x1ab70", "libc.so.6+0x1030 [PLT]", "prog+0x1030 [PLT]",
         "prog+0x11a0"}
UNKNOWN = {"0x0000000000000400", "0x0000000004a3f000"}
# A name by offset of a function whose object the profile gives.
RAW_OF_KNOWN = re.compile(r"^0x0*(1ab70|1030|11a0)\b", re.I)


def run(binary, args):
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def svg_names(data):
    return {f["name"] for f in svg_frames(data)[1]}


def html_names(data):
    return set(decode_page(data)[0]["names"])


def speedscope_names(data):
    return {f["name"] for f in json.loads(data.decode())["shared"]["frames"]}


def pprof_names(data):
    return {f["name"] for f in decode_profile(data)["functions"].values()}


def dot_names(data):
    return set(re.findall(r'label="((?:[^"\\]|\\[^n])*)\\n', data.decode()))


def named_as_expected(names, named=NAMED, unknown=UNKNOWN):
    """"" when the output names code by its object, else what is wrong."""
    wrong = sorted(n for n in names if RAW_OF_KNOWN.match(n))
    missing = sorted((named | unknown) - names)
    if wrong or missing:
        return "by offset: %s; missing: %s" % (wrong, missing)
    return ""


def output(binary, fmt, args):
    """The bytes of -f FMT (pprof: from a file), or None with the error."""
    path = os.path.join(WORK, "out." + fmt)
    rc, out, err = run(binary, ["-f", fmt, "-o", path] + args)
    if rc != 0:
        return None, "rc %d: %s" % (rc, err)
    with open(path, "rb") as f:
        return f.read(), err


def test_every_writer(binary, tag, check):
    readers = (("svg", svg_names), ("html", html_names), ("speedscope", speedscope_names),
               ("pprof", pprof_names), ("dot", dot_names))
    for fmt, names_of in readers:
        for extra in ([], ["--full-stacks"]) if fmt in ("svg", "html") else ([],):
            data, err = output(binary, fmt, extra + [PROFILE])
            why = err if data is None else named_as_expected(names_of(data))
            check(tag + "addrname/%s%s" % (fmt, "".join("/" + a.lstrip("-") for a in extra)),
                  data is not None and why == "", why)
    # raw names in pprof too (its default), and with --frame=fn+obj
    data, err = output(binary, "pprof", ["--frame=fn+obj", PROFILE])
    names = pprof_names(data) if data else set()
    check(tag + "addrname/pprof/frame=fn+obj",
          "ld-linux-x86-64.so.2+0x1ab70 [ld-linux-x86-64.so.2]" in names and
          "0x0000000004a3f000 [???]" in names, err + " " + str(sorted(names)))


def test_unknown_share(binary, tag, check):
    """The report's share of unknown code: stacks ending in code no object
    and no map knows, not code of the loader or a PLT."""
    for name, path, want in (("callgrind.out", PROFILE, [1 + 6]), ("tree", TREE, [6]),
                             ("hostile", os.path.join(CASES, "addr_names_hostile.cg"),
                              [2 + 18 + 7 + 8 + 10])):
        data, err = output(binary, "html", [path])
        got = decode_page(data)[0]["parts"][0]["unknown"] if data else None
        check(tag + "addrname/html-unknown-share/" + name, got == want,
              "unknown %s, want %s %s" % (got, want, err))


def test_diff(binary, tag, check):
    """Both sides named alike: --diff pairs the frames of code without a
    symbol."""
    with open(PROFILE) as f:
        text = f.read()
    # the same program with a slower loader entry: 3 -> 13 (and totals)
    new = os.path.join(WORK, "new.cg")
    with open(new, "w") as f:
        f.write(text.replace("fn=(1) 0x000000000001ab70\n1 3\n",
                             "fn=(1) 0x000000000001ab70\n1 13\n").replace("totals: 109",
                                                                          "totals: 119"))
    rc, out, err = run(binary, ["--diff", PROFILE, new])
    lines = out.decode().splitlines()
    check(tag + "addrname/diff-folded-pairs",
          rc == 0 and "ld-linux-x86-64.so.2+0x1ab70 3 13" in lines and
          "ld-linux-x86-64.so.2+0x1ab70;(below main);main;prog+0x11a0 8 8" in lines and
          not any(RAW_OF_KNOWN.match(l) for l in lines), err + " " + str(lines[:4]))
    data, err = output(binary, "svg", ["--diff", PROFILE, new])
    why = err if data is None else named_as_expected(svg_names(data))
    check(tag + "addrname/diff-svg", data is not None and why == "", why)
    data, err = output(binary, "html", ["--diff", PROFILE, new])
    why = err if data is None else named_as_expected(html_names(data))
    check(tag + "addrname/diff-html", data is not None and why == "", why)
    rc, out, err = run(binary, ["--diff", PROFILE, new, "-f", "md"])
    check(tag + "addrname/diff-md", rc == 0 and "| 109 | 119 |" in out.decode(),
          out.decode() + err)


def test_inline(binary, tag, check):
    """--inline (an arm64 profile with addresses; its objects are not on
    this machine: left unexpanded, named alike)."""
    arm = os.path.join(CASES, "addr_names_arm64.cg")
    rc, out, err = run(binary, ["--inline", "--inline-cache=no", arm])
    with open(os.path.join(CASES, "addr_names_arm64.expected"), "rb") as f:
        want = f.read()
    check(tag + "addrname/inline-arm64", rc == 0 and out == want, err + repr(out[:300]))


def test_named_inputs(binary, tag, check):
    """Trees and folded text with callgrind's names by object: '+' is no
    markup anywhere."""
    folded = os.path.join(WORK, "named.folded")
    with open(folded, "w") as f:
        f.write("ld-linux-x86-64.so.2+0x1ab70;main;libc.so.6+0x26040 [PLT] 5\n"
                "ld-linux-x86-64.so.2+0x1ab70;main;0x0000000004a3f000 2\n")
    named = {"ld-linux-x86-64.so.2+0x1ab70", "libc.so.6+0x26040 [PLT]"}
    for name, path in (("tree", TREE), ("folded", folded)):
        for fmt, names_of in (("svg", svg_names), ("html", html_names),
                              ("speedscope", speedscope_names), ("pprof", pprof_names)):
            data, err = output(binary, fmt, [path])
            why = err if data is None else named_as_expected(names_of(data), named,
                                                             {"0x0000000004a3f000"})
            check(tag + "addrname/%s-input/%s" % (name, fmt), data is not None and why == "",
                  why)
    data, _ = output(binary, "svg", [TREE])
    check(tag + "addrname/tree-input/svg-text-as-is",
          data is not None and b"<title>libc.so.6+0x26040 [PLT] (6 " in data and
          b"<title>my+lib.so+0x10 (1 " in data, "")


def run_all(binary, tag, check):
    os.makedirs(WORK, exist_ok=True)
    test_every_writer(binary, tag, check)
    test_unknown_share(binary, tag, check)
    test_diff(binary, tag, check)
    test_inline(binary, tag, check)
    test_named_inputs(binary, tag, check)
