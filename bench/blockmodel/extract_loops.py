#!/usr/bin/env python3
"""The loop of every kernel k_NAME in a binary: the innermost backward
conditional branch whose body holds no other branch.  Output JSON:
{name: {"start": addr, "insns": [[addr, hex bytes, text], ...]}}
(AT&T syntax, as objdump -d prints it; the last instruction is the branch).
Usage: extract_loops.py BINARY > loops.json"""
import json, re, subprocess, sys

def functions(binary):
    out = subprocess.run(["objdump", "-d", "-w", binary], capture_output=True,
                         text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <(\S+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = re.match(r"^\s+([0-9a-f]+):\t([0-9a-f ]+)\t(.*)$", line)
        if m and cur is not None:
            text = re.sub(r"\s+", " ", re.sub(r"\s*#.*$", "", m.group(3))).strip()
            cur.append((int(m.group(1), 16), m.group(2).strip(), text))
    return funcs

BRANCH = re.compile(r"^(j\w+|call|ret|loop\w*)\b")

def loop_of(insns):
    loops = []
    for i, (a, b, t) in enumerate(insns):
        m = re.match(r"^(j(?!mp)\w+) ([0-9a-f]+)", t)
        if not m:
            continue
        tgt = int(m.group(2), 16)
        if tgt > a:
            continue
        body = [x for x in insns if tgt <= x[0] <= a]
        if body[0][0] != tgt:
            continue
        if any(BRANCH.match(x[2]) for x in body[:-1]):
            continue
        loops.append(body)
    return loops

def main():
    funcs = functions(sys.argv[1])
    res = {}
    for name, insns in sorted(funcs.items()):
        if not name.startswith("k_"):
            continue
        loops = loop_of(insns)
        if len(loops) != 1:
            print("%s: %d single-block loops" % (name, len(loops)), file=sys.stderr)
            if not loops:
                continue
        body = loops[0]
        res[name[2:]] = {"start": "%x" % body[0][0],
                         "insns": [["%x" % a, b, t] for a, b, t in body]}
    json.dump(res, sys.stdout, indent=1)

if __name__ == "__main__":
    main()
