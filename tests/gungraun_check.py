#!/usr/bin/env python3
"""gungraun's handling of the files in a benchmark's directory, as its
runner does it, on the files a run left there: which ones it takes as its
callgrind profiles, which it renames, which it deletes, and what becomes
of the folded trees of --dump-folded=yes beside them.

The filters are gungraun's own (gungraun/gungraun,
gungraun-runner/src/runner/tool/path.rs, ToolOutputPath):
  - sanitize: a file whose name after the prefix "callgrind.<name>" fits
    CALLGRIND_ORIG_FILENAME_RE is the tool's; an empty one is deleted,
    the others renamed "callgrind.<name>[.<pid>][.t<thread>][.p<part>]
    .out|.log" (the pid, thread and part only where there are several);
  - sanitized_paths_in (the files the parsers and the summary read): the
    prefix, and a suffix ending in ".out";
  - clear_temp_files, when the next run of the benchmark shifts the old
    files: every "callgrind.<name>.*.#*".
Prints one PASS:/FAIL: line per check; exits 1 if any failed.
Usage: gungraun_check.py LABEL DIR NAME
"""
import fnmatch
import os
import re
import sys

# path.rs, CALLGRIND_ORIG_FILENAME_RE (Rust regex; the same in Python)
CALLGRIND_ORIG_FILENAME_RE = re.compile(
    r"^(?P<type>[.](out|log))(?P<base>[.](old|base@[^.-]+))?"
    r"(?P<pid>[.][#][0-9]+)?(?P<part>[.][0-9]+)?(?P<thread>-[0-9]+)?$")

failures = 0


def check(label, ok, detail=""):
    global failures
    print("%s: %s%s" % ("PASS" if ok else "FAIL", label, "" if ok else " -- " + detail))
    failures += not ok


def header(path):
    """pid, thread and part of a callgrind.out, from its header (as
    callgrind::parser::parse_header reads them)."""
    pid = thread = part = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("pid:"):
                pid = int(line.split()[1])
            elif line.startswith("thread:"):
                thread = int(line.split()[1])
            elif line.startswith("part:"):
                part = int(line.split()[1])
            elif line.startswith(("fn=", "ob=", "fl=")):
                break
    return pid, thread, part


def sanitize(d, prefix):
    """gungraun's sanitize_callgrind: returns {old name: new name} of the
    files renamed, and the names deleted (empty ones)."""
    groups, deleted = {}, []
    for name in sorted(os.listdir(d)):
        if not name.startswith(prefix):
            continue
        m = CALLGRIND_ORIG_FILENAME_RE.match(name[len(prefix):])
        if not m:
            continue
        path = os.path.join(d, name)
        if os.path.getsize(path) == 0:
            deleted.append(name)
            continue
        if m.group("base") == ".old":
            continue
        kind = m.group("type")
        if kind == ".out":
            pid, thread, part = header(path)
        else:
            pid, thread, part = int(m.group("pid")[2:]) if m.group("pid") else None, None, None
        groups.setdefault((kind, m.group("base")), {}).setdefault(pid, {}) \
            .setdefault(thread, []).append((name, part))
    renamed = {}
    for (kind, base), pids in groups.items():
        for pid, threads in pids.items():
            for thread, parts in threads.items():
                for name, part in parts:
                    new = prefix
                    if len(pids) > 1 and pid is not None:
                        new += ".%d" % pid
                    if len(threads) > 1 and thread is not None:
                        new += ".t%0*d" % (len(str(len(threads))), thread)
                    if len(parts) > 1 and part is not None:
                        new += ".p%0*d" % (len(str(len(parts))), part)
                    new += kind + (base or "")
                    renamed[name] = new
    return renamed, deleted


def main():
    label, d, name = sys.argv[1:4]
    prefix = "callgrind." + name
    before = sorted(os.listdir(d))
    trees = [f for f in before if f.startswith(prefix) and ".folded" in f]
    check("%s: callgrind wrote the trees beside gungraun's files (%s)" % (label, " ".join(trees)),
          len(trees) >= 1 and all(re.fullmatch(re.escape(prefix) + r"\.out\.#\d+\.folded(-\d+)?", t)
                                  for t in trees), " ".join(before))
    renamed, deleted = sanitize(d, prefix)
    picked = set(renamed) | set(deleted)
    check("%s: gungraun's sanitizer leaves the trees alone" % label,
          not any(t in picked for t in trees) and
          any(n.endswith(".out") for n in renamed.values()),
          "renamed %s, deleted %s" % (renamed, deleted))
    for old, new in renamed.items():
        os.rename(os.path.join(d, old), os.path.join(d, new))
    for old in deleted:
        os.unlink(os.path.join(d, old))
    after = sorted(os.listdir(d))
    # sanitized_paths_in(Out): what gungraun's parsers read
    read = [f for f in after if f.startswith(prefix) and f[len(prefix):].endswith(".out")]
    check("%s: gungraun reads its callgrind.out only (%s)" % (label, " ".join(read)),
          read == [prefix + ".out"] and all(t in after for t in trees), " ".join(after))
    # the next run's shift: clear_temp_files on the benchmark directory
    doomed = [f for f in after if fnmatch.fnmatchcase(f, prefix + ".*.#*")]
    check("%s: the trees last until the benchmark's next run, which clears them" % label,
          sorted(doomed) == sorted(trees), "%s vs %s" % (doomed, trees))
    print("TREES %s" % " ".join(os.path.join(d, t) for t in trees))
    print("PROFILE %s" % os.path.join(d, prefix + ".out"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
