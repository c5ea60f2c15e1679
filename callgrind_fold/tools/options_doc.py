#!/usr/bin/env python3
"""callgrind_fold's options, written once: the usage text of src/main.c.

The man page's OPTIONS section and README.md's option list are made from
what `callgrind_fold --help` prints, between marker lines, so an option
is described in one place (the usage text) and shown in three.

usage: options_doc.py --write BINARY    rewrite both blocks from BINARY --help
       options_doc.py --check BINARY    fail if either block differs, or if an
                                        option of main.c's getopt table is
                                        missing from --help
       options_doc.py --self-test BINARY  prove --check can fail

--check prints one "PASS: name" or "FAIL: name -- detail" line per check,
as tests/run_tests.py does, and exits 1 if any failed.  `make options-doc`
runs --write; `make check` runs --check and --self-test.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
MAN = os.path.join(TOP, "callgrind_fold.1")
README = os.path.join(TOP, "README.md")
MAIN_C = os.path.join(TOP, "src", "main.c")

# The usage text's layout: an option line starts "  -", its description
# starts in this column (on the same line, or on the next when the
# option's spelling is long); sections are unindented lines ending in ":".
DESC_COLUMN = 21

MAN_BEGIN = ('.\\" BEGIN OPTIONS: made from `callgrind_fold --help` by '
             'tools/options_doc.py;')
MAN_BEGIN_2 = '.\\" edit the usage text in src/main.c, then run make options-doc.'
MAN_END = '.\\" END OPTIONS'
MD_BEGIN = ("<!-- BEGIN OPTIONS: made from `callgrind_fold --help` by "
            "tools/options_doc.py; edit the usage text in src/main.c, "
            "then run make options-doc. -->")
MD_END = "<!-- END OPTIONS -->"


def option_blocks(help_text):
    """The paragraphs of the usage text that list options: a title line
    ("Options:") followed by option lines; prose paragraphs are left out."""
    blocks = [b.splitlines() for b in re.split(r"\n\s*\n", help_text)]
    return [b for b in blocks
            if len(b) > 1 and b[0].endswith(":") and b[1].startswith("  -")]


def option_sections(help_text):
    """[(section title, [(spelling, [description lines])])]."""
    sections = []
    for block in option_blocks(help_text):
        entries = []
        for line in block[1:]:
            if line.startswith("  -"):
                spelling = re.split(r"\s{2,}", line[2:], maxsplit=1)[0]
                same_line = len(spelling) + 2 < DESC_COLUMN and line[DESC_COLUMN:].strip()
                entries.append((spelling, [line[DESC_COLUMN:].strip()] if same_line else []))
            else:
                entries[-1][1].append(line.strip())
        sections.append((block[0][:-1], entries))
    return sections


def help_block(help_text):
    """The option paragraphs of the usage text, verbatim (README.md)."""
    return "\n\n".join("\n".join(b) for b in option_blocks(help_text))


def roff_text(s):
    s = s.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + s if s[:1] in (".", "'") else s


def roff_spelling(spelling):
    """Option names bold, the values the user supplies (NAME, FILE, N)
    italic."""
    out = []
    for part in re.split(r"(\b[A-Z]+\b)", spelling):
        if not part:
            continue
        if re.fullmatch(r"[A-Z]+", part):
            out.append("\\fI%s\\fR" % part)
        else:
            out.append("\\fB%s\\fR" % roff_text(part))
    return "".join(out)


def man_block(help_text):
    # .nh: option names are not hyphenated across lines
    lines = [MAN_BEGIN, MAN_BEGIN_2, ".SH OPTIONS", ".nh"]
    for i, (title, entries) in enumerate(option_sections(help_text)):
        if i > 0:
            lines.append(".SS " + title)
        for spelling, desc in entries:
            lines += [".TP", roff_spelling(spelling), roff_text(" ".join(desc))]
    lines += [".hy", MAN_END]
    return "\n".join(lines)


def md_block(help_text):
    return "\n".join([MD_BEGIN, "", "```", help_block(help_text), "```", "", MD_END])


def replace_between(text, begin, end, block, path):
    """text with the lines from `begin` to `end` replaced by block."""
    start = text.find(begin)
    stop = text.find(end, start if start >= 0 else 0)
    if start < 0 or stop < 0:
        raise SystemExit("%s: no '%s' ... '%s' lines" % (path, begin[:30], end))
    return text[:start] + block + text[stop + len(end):]


def wanted(help_text, man_text, md_text):
    """Both files with their blocks made from help_text.  A block is found
    by the start of its first line, so a new file needs only the two
    lines '.\\" BEGIN OPTIONS' and '.\\" END OPTIONS' (or <!-- BEGIN
    OPTIONS --> and <!-- END OPTIONS -->) where the options go."""
    return (replace_between(man_text, MAN_BEGIN[:17], MAN_END, man_block(help_text), MAN),
            replace_between(md_text, MD_BEGIN[:18], MD_END, md_block(help_text), README))


def getopt_names(main_c):
    """The long options main.c's getopt table accepts."""
    table = re.search(r"long_options\[\]\s*=\s*\{(.*?)\{NULL", main_c, re.S)
    return re.findall(r'\{"([a-z-]+)"', table.group(1)) if table else []


def check(help_text, man_text, md_text, main_c, say):
    ok = True
    new_man, new_md = wanted(help_text, man_text, md_text)
    for name, have, want, path in (("man-page", man_text, new_man, MAN),
                                   ("readme", md_text, new_md, README)):
        diff = "".join(difflib.unified_diff(have.splitlines(True), want.splitlines(True),
                                            path, "from --help", n=0))
        if diff:
            ok = False
            say("FAIL", "options-doc/" + name,
                "%s is not what --help says; run make options-doc:\n%s" % (path, diff))
        else:
            say("PASS", "options-doc/" + name)
    listed = {re.match(r"--([a-z-]+)", s.split(", ")[-1]).group(1)
              for _, entries in option_sections(help_text) for s, _ in entries}
    names = getopt_names(main_c)
    missing = [n for n in names if n not in listed]
    if not names or missing:
        ok = False
        say("FAIL", "options-doc/help-lists-every-option",
            "not in --help: %s" % (", ".join(missing) or "(no getopt table found)"))
    else:
        say("PASS", "options-doc/help-lists-every-option")
    return ok


def say_line(status, name, detail=""):
    line = "%s: %s" % (status, name)
    if detail and status != "PASS":
        line += " -- " + detail
    print(line, flush=True)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def help_of(binary):
    return subprocess.run([binary, "--help"], stdout=subprocess.PIPE, check=True,
                          universal_newlines=True).stdout


def self_test(binary):
    """An option added to the usage text (and to the getopt table) but to
    neither document must fail all three checks; the real files must pass."""
    help_text, man, md, main_c = help_of(binary), read(MAN), read(README), read(MAIN_C)
    extra = "  --brand-new        an option nobody documented\n"
    drifted = help_text.replace("  -h, --help", extra + "  -h, --help", 1)
    new_c = main_c.replace('{"help",', '{"brand-new", no_argument, NULL, 0},\n    {"help",', 1)
    fails = []
    check(drifted, man, md, main_c, lambda s, n, d="": fails.append(n) if s == "FAIL" else None)
    unlisted = []
    check(help_text, man, md, new_c, lambda s, n, d="": unlisted.append(n) if s == "FAIL" else None)
    ok = (fails == ["options-doc/man-page", "options-doc/readme"]
          and unlisted == ["options-doc/help-lists-every-option"])
    say_line("PASS" if ok else "FAIL", "options-doc/self-test",
             "drift found: %s; unlisted option found: %s" % (fails, unlisted))
    return ok


def main():
    ap = argparse.ArgumentParser()
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="BINARY")
    mode.add_argument("--check", metavar="BINARY")
    mode.add_argument("--self-test", metavar="BINARY")
    a = ap.parse_args()
    if a.self_test:
        return 0 if self_test(a.self_test) else 1
    binary = a.write or a.check
    help_text = help_of(binary)
    if a.check:
        return 0 if check(help_text, read(MAN), read(README), read(MAIN_C), say_line) else 1
    new_man, new_md = wanted(help_text, read(MAN), read(README))
    for path, text in ((MAN, new_man), (README, new_md)):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
