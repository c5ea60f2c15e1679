"""Parts kept apart (issue 29): -f md, --diff OLD NEW, pictures rooted at
the user's code. Goldens of -f md are tests/cases/bench_parts*.md.* (run
by run_tests.test_cases); here: --diff OLD NEW's golden
(tests/report/diff.*), its command line, and the re-rooted flame graph of
a folded tree with parts. -f html is written by write/html.c, tested with
it."""
import os
import subprocess

from test_render import svg_frames, frame_paths

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
REPORT = os.path.join(HERE, "report")


def fold(binary, args):
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def test_diff_md(binary, tag, check):
    old = os.path.join(CASES, "bench_parts.cg")
    new = os.path.join(REPORT, "new.cg")
    want = open(os.path.join(REPORT, "diff.expected")).read()
    rc, out, err = fold(binary, ["--diff", old, new, "-f", "md", "--title=Diff"])
    check(tag + "report/diff-md-golden", rc == 0 and out == want and err == "",
          "rc %d %s %r" % (rc, err, out))
    # --diff=OLD is the same option; the operand may come first
    rc2, out2, _ = fold(binary, [new, "--diff=" + old, "-f", "md", "--title=Diff"])
    check(tag + "report/diff-md-operand-anywhere", rc2 == 0 and out2 == want, out2)
    rc, out, err = fold(binary, ["--diff", old, new, new, "-f", "md"])
    check(tag + "report/diff-md-wants-one-new", rc == 1 and out == "" and "one NEW" in err, err)
    # a run against itself: every benchmark 0.0%, none added or removed
    rc, out, err = fold(binary, ["--diff", new, new, "-f", "md"])
    rows = [l for l in out.splitlines() if l.startswith("| bench.mjs")]
    check(tag + "report/diff-md-itself",
          rc == 0 and len(rows) == 2 * 3 and all(l.endswith(" 0.0% |") for l in rows),
          out)

    # no --title: headed by what the runs ran, once when it is the same
    # (both cmd: lines run benches/bench.mjs), "OLD → NEW" when not
    rc, out, err = fold(binary, ["--diff", old, new, "-f", "md"])
    check(tag + "report/diff-md-heading-what-ran",
          rc == 0 and out.startswith("## benches/bench.mjs\n\n"), out[:200])
    small = os.path.join(HERE, "pprof", "small.cg")
    rc, out, err = fold(binary, ["--diff", old, small, "-f", "md"])
    check(tag + "report/diff-md-heading-old-to-new",
          rc == 0 and out.startswith("## benches/bench.mjs \u2192 small --fast\n\n"), out[:200])


def test_diff_md_estimate(binary, tag, check):
    """--cycle-estimation's Cb: estimated cycles beside the --event in
    --diff's table (goldens tests/report/cycles_diff*); a NEW without Cb
    gives the table of any other profile."""
    cb = os.path.join(CASES, "cycles_cb.cg")
    no_cb = os.path.join(CASES, "cycles_ct.cg")
    new = os.path.join(REPORT, "cycles_new.cg")
    for old, golden, more in ((cb, "cycles_diff", []), (no_cb, "cycles_diff_no_cb", []),
                              (cb, "cycles_diff_event_cb", ["--event=Cb"])):
        want = open(os.path.join(REPORT, golden + ".expected")).read()
        rc, out, err = fold(binary, ["--diff", old, new, "-f", "md", "--title=Diff"] + more)
        check(tag + "report/" + golden.replace("_", "-") + "-md-golden",
              rc == 0 and out == want and err == "", "rc %d %s %r" % (rc, err, out))
    rc, out, err = fold(binary, ["--diff", new, no_cb, "-f", "md", "--title=Diff"])
    head = out.split("\n| Benchmark |", 1)[1].split("\n", 1)[0] if "| Benchmark |" in out else ""
    check(tag + "report/diff-md-new-without-cb-plain",
          rc == 0 and head == " Ir before | Ir after | Change |" and "estimated" not in out and
          "| bench.mjs::sum4 | 1,001 | 1,001 | 0.0% |\n" in out, out)


def picture(binary, args):
    rc, out, err = fold(binary, ["-f", "svg"] + args)
    if rc != 0:
        return None, err
    _, frames = svg_frames(out.encode())
    frame_paths(frames)
    return {f["path"]: f["n"] for f in frames if f["path"] is not None}, err


def test_rooted_svg(binary, tag, check):
    tree = os.path.join(CASES, "bench_parts_tree.tree")
    for event, total in (("Ir", 143), ("Dr", 15)):
        rooted, err = picture(binary, ["--event=" + event, tree])
        full, err2 = picture(binary, ["--event=" + event, "--full-stacks", tree])
        ok = rooted is not None and full is not None
        check(tag + "report/svg-rooted-totals-" + event,
              ok and rooted[()] == full[()] == total, "%s %s %s %s" % (rooted, full, err, err2))
    rooted, err = picture(binary, [tree])
    want = {(): 143, ("node",): 143, ("node", "fib"): 100, ("node", "parse"): 40,
            ("node", "main"): 3}
    check(tag + "report/svg-rooted-at-benchmark", rooted == want, "%s %s" % (rooted, err))
    full, err = picture(binary, ["--full-stacks", tree])
    want = {(): 143, ("main",): 143, ("main", "__codspeed_root_frame__"): 140,
            ("main", "__codspeed_root_frame__", "fib"): 100,
            ("main", "__codspeed_root_frame__", "parse"): 40}
    check(tag + "report/svg-full-stacks", full == want, "%s %s" % (full, err))
    # folded output never changes
    rc, out, err = fold(binary, [tree])
    check(tag + "report/folded-not-rooted",
          rc == 0 and out == "main 3\nmain;__codspeed_root_frame__;fib 100\n"
          "main;__codspeed_root_frame__;parse 40\n", out + err)


# A whole program: process start below main, and a thread.
WHOLE_PROGRAM = """# callgrind format
cmd: /opt/bin/prog --fast
part: 1
desc: Trigger: Program termination
events: Ir
fn=0x000000000001ab70
1 1
cfn=(below main)
calls=1 0
1 60
fn=(below main)
cfn=__libc_start_main
calls=1 0
1 60
fn=__libc_start_main
cfn=main
calls=1 0
1 60
fn=main
1 10
cfn=f
calls=1 0
1 50
fn=f
1 50
fn=clone3
cfn=start_thread
calls=1 0
1 30
fn=start_thread
cfn=worker
calls=1 0
1 30
fn=worker
1 30
totals: 91
"""


def test_rooted_program(binary, tag, check, work):
    path = os.path.join(work, "whole_program.cg")
    with open(path, "w") as f:
        f.write(WHOLE_PROGRAM)
    rooted, err = picture(binary, [path])
    want = {(): 91, ("prog",): 91, ("prog", "main"): 60, ("prog", "main", "f"): 50,
            ("prog", "worker"): 30, ("prog", "0x000000000001ab70"): 1}
    check(tag + "report/svg-rooted-at-main-and-thread", rooted == want, "%s %s" % (rooted, err))


def test_malformed_kept_apart(binary, tag, check):
    """Parts kept apart read bad input as folded output does: the same
    FILE:LINE: message, exit status 2, nothing leaked (the sanitizer
    build) when a part is cut short."""
    mdir = os.path.join(HERE, "malformed")
    bad = []
    for line in open(os.path.join(mdir, "EXPECT")):
        if not line.strip() or line.startswith("#"):
            continue
        fname, lineno = line.split()[:2]
        path = os.path.join(mdir, fname)
        for fmt in ("md", "svg"):
            rc, out, err = fold(binary, ["-f", fmt, path])
            if rc != 2 or out != "" or not err.startswith("%s:%s: " % (path, lineno)) or \
                    len(err.splitlines()) != 1:
                bad.append("%s -f %s: rc %d %r" % (fname, fmt, rc, err[:200]))
    check(tag + "report/malformed-same-message", not bad, "; ".join(bad[:3]))


def test_md_grouped_counts(binary, tag, check, work):
    """-f md writes counts with thousands separators, exactly."""
    path = os.path.join(work, "md_big.folded")
    with open(path, "w") as f:
        f.write("main;work 1234567\nmain 89\n")
    rc, out, err = fold(binary, ["-f", "md", "--title=Big", path])
    check(tag + "report/md-grouped-counts",
          rc == 0 and "| 1,234,656 |" in out and "1234656" not in out, out + err)


def test_output_dash(binary, tag, check, work):
    """-o - writes to standard output, not to a file named "-"."""
    folded = os.path.join(work, "dash.folded")
    with open(folded, "w") as f:
        f.write("main;work 5\n")
    here = os.path.join(work, "dash-cwd")
    os.makedirs(here, exist_ok=True)
    p = subprocess.run([os.path.abspath(binary), "-f", "md", "-o", "-", folded], cwd=here,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    check(tag + "report/output-dash-is-stdout",
          p.returncode == 0 and b"| 5 |" in p.stdout and not os.path.exists(os.path.join(here, "-")),
          p.stderr.decode(errors="replace"))


def run_all(binary, tag, check, work):
    test_output_dash(binary, tag, check, work)
    test_md_grouped_counts(binary, tag, check, work)
    test_malformed_kept_apart(binary, tag, check)
    test_diff_md(binary, tag, check)
    test_diff_md_estimate(binary, tag, check)
    test_rooted_svg(binary, tag, check)
    test_rooted_program(binary, tag, check, work)
