#!/usr/bin/env python3
"""Every relative link of the Markdown files given resolves.

usage: check-doc-links.py FILE.md...

A link `[text](path)` or `![alt](path)` that is not a URL must name a
file or directory relative to the Markdown file; `path#anchor` and
`#anchor` must also name a heading of that Markdown file, by the anchor
GitHub makes of it (lower case, punctuation but `-` and `_` dropped,
spaces as `-`, `-1`, `-2` ... for repeats).  Links inside code (fenced
blocks and `backquotes`) are not links.  Prints each broken link as
FILE:LINE: message and exits 1 if there was one.
"""
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks, with
    inline code blanked out.  A link's text may wrap, so a line is joined
    with the next before links are looked for."""
    fenced = False
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced or line.startswith("    ") and not line.lstrip().startswith(("-", "*", "|")):
                out.append((n, ""))
                continue
            out.append((n, re.sub(r"`[^`]*`", "``", line.rstrip("\n"))))
    return out


def anchors(path, cache={}):
    if path not in cache:
        seen, slugs = {}, set()
        for _, line in prose_lines(path):
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            # the heading's text as GitHub sees it: code spans keep their text
            text = raw_heading(path, m.group(1))
            slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            slugs.add(slug if n == 0 else "%s-%d" % (slug, n))
        cache[path] = slugs
    return cache[path]


def raw_heading(path, blanked):
    """The heading line of path whose code-blanked text is `blanked`, with
    its code spans' text put back (backquotes removed)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line.rstrip("\n"))
            if m and re.sub(r"`[^`]*`", "``", m.group(1)) == blanked:
                return m.group(1).replace("`", "")
    return blanked


def check(path):
    errors = []
    lines = prose_lines(path)
    for i, (n, line) in enumerate(lines):
        joined = line + " " + (lines[i + 1][1] if i + 1 < len(lines) else "")
        for m in LINK.finditer(joined):
            if m.start() >= len(line):
                continue  # starts on the next line: found there
            target = m.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # a URL
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            if not os.path.exists(dest):
                errors.append("%s:%d: %s: no such file" % (path, n, target))
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                errors.append("%s:%d: %s: no such heading in %s" % (path, n, target, dest))
    return errors


def main():
    errors = [e for path in sys.argv[1:] for e in check(path)]
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
