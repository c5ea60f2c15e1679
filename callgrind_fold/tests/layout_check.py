#!/usr/bin/env python3
"""The source layout's two rules, checked on the built objects.

  layout/max-lines  no .c or .h file under src/ over 1,000 lines
  layout/no-cycles  no two files call each other: if a.c uses a function
                    (or global data) defined in b.c, then b.c must not use,
                    directly or through other files, anything defined in a.c

usage: layout_check.py [--self-test] [--allow FILE] [OBJDIR SRCDIR]

The file graph is read from the objects make built (OBJDIR/x/y.o from
SRCDIR/x/y.c; gen/ objects skipped): `nm -g` gives each object's defined
and undefined global symbols (static functions are file-local and do not
count), an edge a.c -> b.c for every symbol a.c uses that b.c defines.
Strongly connected components (Tarjan) of more than one file are cycles.

Prints one "PASS: name", "FAIL: name: detail" or "SKIP: name (reason)"
line per check, as tests/run_tests.py does, and exits 1 if any failed.
A known cycle (or file over the limit) listed in the allow-list
(tests/layout_allow.txt by default) is printed as "XFAIL: ..." and does
not fail the run while it is still there; a listed one that is gone is a
FAIL asking for its line to be removed, so the list cannot go stale.
--self-test first proves the check can fail: two tiny C files that call
each other (built with $CC) must be found a cycle, a file of 1,001 lines
too long, and a stale allow-list line a failure.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import run_tests

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_LINES = 1000
SKIP_DIRS = ("gen", "tests", "fuzz", "bench")


def report(status, name, detail=""):
    """run_tests.py's report(), "FAIL: name: detail" as unit tests print."""
    if detail and status != "SKIP":
        name, detail = "%s: %s" % (name, detail), ""
    run_tests.report(status, name, detail)


def objects(objdir, srcdir):
    """{source path relative to srcdir's parent: object path} for every
    object built from a source file of srcdir, and the sources without
    one."""
    found, missing = {}, []
    top = os.path.basename(os.path.normpath(srcdir))
    for dirpath, dirnames, filenames in os.walk(srcdir):
        rel = os.path.relpath(dirpath, srcdir)
        if rel.split(os.sep)[0] in SKIP_DIRS:
            dirnames[:] = []
            continue
        dirnames.sort()
        for f in sorted(filenames):
            if not f.endswith(".c"):
                continue
            stem = os.path.normpath(os.path.join(rel, f[:-2]))
            obj = os.path.join(objdir, stem + ".o")
            src = os.path.join(top, stem + ".c")
            if os.path.exists(obj):
                found[src] = obj
            else:
                missing.append(src)
    return found, missing


def symbols(nm, obj):
    """(defined, undefined) global symbols of one object."""
    out = subprocess.run([nm, "-g", "-P", obj], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        (undefined if kind in ("U", "w", "v") else defined).add(name)
    return defined, undefined


def file_graph(nm, objs):
    """{a: {b: [symbols a uses that b defines]}} over the given objects."""
    syms = {src: symbols(nm, obj) for src, obj in objs.items()}
    owner = {}
    for src in sorted(syms):
        for s in syms[src][0]:
            owner.setdefault(s, src)
    graph = {src: {} for src in syms}
    for a, (_, undefined) in syms.items():
        for s in undefined:
            b = owner.get(s)
            if b is not None and b != a:
                graph[a].setdefault(b, []).append(s)
    for edges in graph.values():
        for used in edges.values():
            used.sort()
    return graph


def tarjan(graph):
    """Strongly connected components, each a sorted list of files
    (iterative: no recursion limit to meet)."""
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                scc = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    scc.append(w)
                    if w == v:
                        break
                sccs.append(sorted(scc))
    return sccs


def shortest_path(graph, members, a, b):
    """Files from a to b (both ends included; back to a if b is a) inside
    one component, by breadth-first search."""
    prev, queue = {a: None}, [a]
    for v in queue:
        for w in sorted(graph[v]):
            if w not in members:
                continue
            if w == b:
                path = [b]
                while v is not None:
                    path.append(v)
                    v = prev[v]
                return path[::-1]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    raise ValueError("%s does not reach %s" % (a, b))


def describe(graph, scc):
    """A closed walk through every file of a component, and every symbol
    that ties its files together."""
    members = set(scc)
    walk = [scc[0]]
    for target in scc[1:]:
        if target not in walk:
            walk += shortest_path(graph, members, walk[-1], target)[1:]
    walk += shortest_path(graph, members, walk[-1], scc[0])[1:]
    ties = ["%s->%s: %s" % (a, b, ", ".join(graph[a][b]))
            for a in scc for b in sorted(graph[a]) if b in members]
    return " -> ".join(walk), "; ".join(ties)


def long_files(srcdir):
    """[(file, lines)] of the .c and .h files over MAX_LINES lines."""
    top = os.path.basename(os.path.normpath(srcdir))
    out = []
    for dirpath, dirnames, filenames in os.walk(srcdir):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith((".c", ".h")):
                path = os.path.join(dirpath, f)
                with open(path, "rb") as fh:
                    n = fh.read().count(b"\n")
                if n > MAX_LINES:
                    rel = os.path.join(top, os.path.relpath(path, srcdir))
                    out.append((os.path.normpath(rel), n))
    return out


def read_allow(path):
    """{(rule, tuple(sorted files)): line number} from the allow-list:
    "no-cycles: FILE FILE..." (a cycle's files) or "max-lines: FILE"."""
    allow = {}
    if not path or not os.path.exists(path):
        return allow
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            rule, _, files = line.partition(":")
            allow[(rule.strip(), tuple(sorted(files.split())))] = n
    return allow


def judge(out, name, rule, found, allow, where, bad=0):
    """One rule's findings [(files, text)] against the allow-list: each a
    FAIL, or an XFAIL if listed; a listed one not found a FAIL; PASS if
    nothing failed (bad: failures already reported)."""
    listed = {files: n for (r, files), n in allow.items() if r == rule}
    for files, text in found:
        if files in listed:
            out("XFAIL", name, "%s -- known, %s:%d" % (text, where, listed.pop(files)))
        else:
            out("FAIL", name, text)
            bad += 1
    for files, n in sorted(listed.items(), key=lambda kv: kv[1]):
        out("FAIL", name, "%s no longer breaks %s: remove line %d of %s"
            % (" ".join(files), rule, n, where))
        bad += 1
    if not bad:
        out("PASS", name)


def check(nm, objdir, srcdir, allow_path, name="layout", out=None):
    """Both rules on one tree; every line through out(status, name, detail)."""
    allow = read_allow(allow_path)
    where = os.path.relpath(allow_path) if allow_path else ""
    for rule, files in allow:
        if rule not in ("no-cycles", "max-lines"):
            out("FAIL", name + "/allow-list", "%s:%d: unknown rule %r"
                % (where, allow[(rule, files)], rule))

    objs, missing = objects(objdir, srcdir)
    for src in missing:
        out("FAIL", name + "/no-cycles", "no object for %s in %s (build first)" % (src, objdir))
    graph = file_graph(nm, objs)
    cycles = []
    for scc in tarjan(graph):
        if len(scc) > 1:
            cycles.append((tuple(scc), "%s (symbols: %s)" % describe(graph, scc)))
    judge(out, name + "/no-cycles", "no-cycles", cycles, allow, where, len(missing))
    judge(out, name + "/max-lines", "max-lines",
          [((path,), "%s %d lines" % (path, n)) for path, n in long_files(srcdir)],
          allow, where)


def self_test(nm, cc):
    """The check run on a tiny tree of its own, where it must fail."""
    name = "layout/self-test"
    cc = shlex.split(cc)
    if not cc or not shutil.which(cc[0]):
        report("SKIP", name, "the C compiler %s is not installed" % " ".join(cc))
        return
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = os.path.join(tmp, "src"), os.path.join(tmp, "obj")
        files = {
            # a.c and sub/b.c call each other; c.c only calls a.c (no cycle);
            # d.c calls a static function of its own named like b.c's.
            "a.c": "int b_get(void);\nint a_twice(int x) { return 2 * x + b_get(); }\n",
            "sub/b.c": "int a_twice(int);\nint b_value = 3;\n"
                       "int b_get(void) { return b_value; }\n"
                       "int b_use(void) { return a_twice(b_value); }\n",
            "c.c": "int a_twice(int);\nint c_main(void) { return a_twice(1); }\n",
            "d.c": "static int b_get(void) { return 4; }\nint d_main(void) { return b_get(); }\n",
            "long.h": "/* x */\n" * (MAX_LINES + 1),
            "edge.h": "/* x */\n" * MAX_LINES,
        }
        for f, text in files.items():
            path = os.path.join(src, f)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(text)
            if f.endswith(".c"):
                o = os.path.join(obj, f[:-2] + ".o")
                os.makedirs(os.path.dirname(o), exist_ok=True)
                p = subprocess.run(cc + ["-c", "-o", o, path],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                if p.returncode:
                    report("FAIL", name + "/build", p.stdout.decode()[-300:])
                    return

        def run(allow_text):
            allow = os.path.join(tmp, "allow.txt")
            with open(allow, "w") as fh:
                fh.write(allow_text)
            lines = []
            check(nm, obj, src, allow, "t", lambda s, n, d="": lines.append((s, n, d)))
            return lines

        lines = run("")
        fails = [(n, d) for s, n, d in lines if s == "FAIL"]
        want_cycle = ("t/no-cycles", "src/a.c -> src/sub/b.c -> src/a.c (symbols: "
                      "src/a.c->src/sub/b.c: b_get; src/sub/b.c->src/a.c: a_twice)")
        want_long = ("t/max-lines", "src/long.h %d lines" % (MAX_LINES + 1))
        report("PASS" if fails == [want_cycle, want_long] else "FAIL", name + "/finds",
               "" if fails == [want_cycle, want_long] else "expected %r, got %r"
               % ([want_cycle, want_long], lines))

        # Allowed, both are XFAIL and the rules pass; a stale line fails.
        lines = run("# known\nno-cycles: src/sub/b.c src/a.c\nmax-lines: src/long.h\n"
                    "no-cycles: src/c.c src/a.c\n")
        got = sorted((s, n) for s, n, d in lines)
        want = sorted([("XFAIL", "t/no-cycles"), ("XFAIL", "t/max-lines"),
                       ("FAIL", "t/no-cycles"), ("PASS", "t/max-lines")])
        stale = [d for s, n, d in lines if s == "FAIL"]
        ok = got == want and len(stale) == 1 and "remove line 4" in stale[0]
        report("PASS" if ok else "FAIL", name + "/allow-list",
               "" if ok else "expected %r, got %r" % (want, lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--allow", default=os.path.join(HERE, "layout_allow.txt"))
    ap.add_argument("objdir", nargs="?")
    ap.add_argument("srcdir", nargs="?")
    a = ap.parse_args()
    if a.objdir and not a.srcdir:
        ap.error("give both OBJDIR and SRCDIR")
    nm = os.environ.get("NM") or "nm"
    if not shutil.which(nm):
        for test in (["layout/self-test"] if a.self_test else []) + \
                    (["layout/no-cycles", "layout/max-lines"] if a.objdir else []):
            report("SKIP", test, "%s is not installed (binutils)" % nm)
        return 0
    if a.self_test:
        self_test(nm, os.environ.get("CC") or "cc")
    if a.objdir:
        check(nm, a.objdir, a.srcdir, a.allow, out=report)
    return 1 if run_tests.failures else 0


if __name__ == "__main__":
    sys.exit(main())
