#!/usr/bin/env python3
"""CodSpeed's runner's checks of an installed Valgrind, per runner release.

Before each run in simulation (instrumentation) mode the runner decides
whether the Valgrind it finds is good enough; when it is not, it installs
its own valgrind .deb with apt-get over whatever is there (unless it runs
with --skip-setup).  What it checks, read from its source
(src/executor/valgrind/setup.rs of CodSpeedHQ/runner, now
CodSpeedHQ/codspeed; notes/codspeed-dropin.md, section 5, has the
details and the commits read):

  1. `which valgrind` succeeds, `valgrind --version` runs and exits 0;
  2. its stdout passes the version test of that release (VERSION_RULES);
  3. on Debian and Ubuntu (os-release ID), the releases that want libc's
     debug information check it: `dpkg -s libc6-dbg` exits 0 (4.17.6 to
     5.1.x), or a separate debug file of /lib/<triplet>/libc.so.6 is found
     by its build id or its .gnu_debuglink (5.2.0 on).

The reimplementation is this file's own; the runner's own test cases of
the version parse are checked first (`cases`), so that a wrong reading
fails too.

Usage:
  codspeed-setup-check.py cases            the runner's test cases
  codspeed-setup-check.py version TEXT     each release's verdict on TEXT
  codspeed-setup-check.py installed [--label L] [--libc-skip REASON]
      the whole check against this system; one PASS:/FAIL:/SKIP: line per
      release (info: for the releases documented to reject us); with
      --libc-skip, the libc checks say SKIP with REASON (their result
      would not be the package's)
Exit status 1 when a line says FAIL or a case fails.
"""
import os
import platform
import re
import struct
import subprocess
import sys
import zlib

# --- semver, as the Rust crate `semver` parses and orders versions ------

NUM = r"(?:0|[1-9][0-9]*)"
IDENT = r"[0-9A-Za-z-]+"
SEMVER = re.compile(r"(%s)\.(%s)\.(%s)(?:-(%s(?:\.%s)*))?(?:\+(%s(?:\.%s)*))?\Z"
                    % (NUM, NUM, NUM, IDENT, IDENT, IDENT, IDENT))


def semver(text):
    """(major, minor, patch, pre, build) or None.  Numeric pre-release
    identifiers may not have leading zeros; build identifiers may."""
    m = SEMVER.match(text)
    if not m:
        return None
    pre = m.group(4) or ""
    if pre and any(p.isdigit() and len(p) > 1 and p[0] == "0" for p in pre.split(".")):
        return None
    nums = [int(m.group(i)) for i in (1, 2, 3)]
    if any(n >= 2 ** 64 for n in nums):
        return None
    return (nums[0], nums[1], nums[2], pre, m.group(5) or "")


def _cmp(a, b):
    return (a > b) - (a < b)


def _cmp_idents(a, b, is_build):
    """Dot-separated identifiers: numbers by value, numbers before words,
    words in ASCII order, a prefix before the longer list."""
    xs, ys = a.split("."), b.split(".")
    for x, y in zip(xs, ys):
        dx, dy = x.isdigit() or x == "", y.isdigit() or y == ""
        if dx and dy:
            if is_build:  # leading zeros: 0 < 00 < 1 < 01
                c = _cmp((len(x.lstrip("0")), x.lstrip("0")), (len(y.lstrip("0")), y.lstrip("0"))) \
                    or _cmp(len(x), len(y))
            else:
                c = _cmp(int(x or 0), int(y or 0))
        elif dx != dy:
            c = -1 if dx else 1
        else:
            c = _cmp(x, y)
        if c:
            return c
    return _cmp(len(xs), len(ys))


def semver_cmp(a, b):
    c = _cmp(a[:3], b[:3])
    if c:
        return c
    if a[3] != b[3]:  # a release sorts after its pre-releases
        if not a[3] or not b[3]:
            return 1 if not a[3] else -1
        c = _cmp_idents(a[3], b[3], False)
        if c:
            return c
    if a[4] == b[4]:
        return 0
    return _cmp_idents(a[4], b[4], True)


# --- the version tests ----------------------------------------------------

def parse_before_codspeed(text):
    """4.3.0 to 4.17.2: the semver before the first ".codspeed", anything
    after it ignored."""
    text = text.strip()
    if ".codspeed" not in text:
        return None
    left = text[:text.index(".codspeed")]
    if left.startswith("valgrind-"):
        left = left[len("valgrind-"):]
    return semver(left)


def parse_with_iteration(text):
    """4.17.3 on: (semver, iteration or None); the whole text after the
    first ".codspeed" must be empty or a u32 (Rust's parse, '+' allowed)."""
    text = text.strip()
    if text.startswith("valgrind-"):
        text = text[len("valgrind-"):]
    if ".codspeed" not in text:
        return None
    left, right = text.split(".codspeed", 1)
    v = semver(left)
    if v is None:
        return None
    if right == "":
        return v, None
    if not re.fullmatch(r"\+?[0-9]+", right) or int(right) >= 2 ** 32:
        return None
    return v, int(right)


def verdict(rule, stdout):
    """None when accepted, else why not (the runner's words where it has them)."""
    kind, pin, iteration = rule
    if kind == "contains":
        return None if pin + ".codspeed" in stdout else \
            "does not contain %s.codspeed" % pin
    if ".codspeed" not in stdout:
        return "not a CodSpeed build"
    want = semver(pin)
    if kind == "before":
        v = parse_before_codspeed(stdout)
        if v is None:
            return "could not parse version"
        return "version too old, expecting %s.codspeed or higher" % pin \
            if semver_cmp(v, want) < 0 else None
    p = parse_with_iteration(stdout)
    if p is None:
        return "could not parse version"
    v, it = p
    c = semver_cmp(v, want) or _cmp(it or 0, iteration)
    return "version too old, expecting %s.codspeed%d or higher" % (pin, iteration) if c < 0 else None


# Per release: the version test (kind, pinned version, pinned iteration)
# and the libc check ("", "dpkg" everywhere, "dpkg-apt" on Debian/Ubuntu,
# "debugfile" on Debian/Ubuntu, "debugfile+" also beside libc without a
# debug root).  Releases with identical checks share a row.
RELEASES = [
    ("4.0.0-4.2.1", ("contains", "3.24.0", 0), ""),
    ("4.3.0-4.3.1", ("before", "3.25.1", 0), ""),
    ("4.3.2-4.17.2", ("before", "3.26.0", 0), ""),
    ("4.17.3-4.17.5", ("iteration", "3.26.0", 3), ""),
    ("4.17.6", ("iteration", "3.26.0", 3), "dpkg"),
    ("4.18.0-4.18.2", ("iteration", "3.26.0", 4), "dpkg-apt"),
    ("4.18.3", ("iteration", "3.26.0", 5), "dpkg-apt"),
    ("4.18.4-5.1.x", ("iteration", "3.26.0", 6), "dpkg-apt"),
    ("5.2.0-5.2.1", ("iteration", "3.26.0", 7), "debugfile"),
    ("later (debug_file.rs@a6a180a)", ("iteration", "3.26.0", 7), "debugfile+"),
]
# Documented to reject every version but their own pin: not our failure.
REJECTS_US = {"4.0.0-4.2.1"}


# --- libc's separate debug file -------------------------------------------

def elf_notes_and_debuglink(path):
    """(build id bytes or None, (debuglink name, crc) or None) of an ELF file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2):
        return None, None
    is64, end = data[4] == 2, "<" if data[5] == 1 else ">"
    if is64:
        shoff, = struct.unpack_from(end + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3A)
    else:
        shoff, = struct.unpack_from(end + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x2E)
    secs = []
    for i in range(shnum):
        o = shoff + i * shentsize
        if is64:
            name, typ, _, _, off, size, _, _, align = struct.unpack_from(end + "IIQQQQIIQ", data, o)
        else:
            name, typ, _, _, off, size, _, _, align = struct.unpack_from(end + "IIIIIIIII", data, o)
        secs.append((name, typ, off, size, 8 if align == 8 else 4))
    strtab = secs[shstrndx][2] if shstrndx < len(secs) else 0

    def secname(n):
        e = data.index(b"\0", strtab + n)
        return data[strtab + n:e].decode("latin-1")

    build_id = link = None
    def up(n, a):
        return (n + a - 1) // a * a

    for name, typ, off, size, align in secs:
        if typ == 7 and build_id is None:  # SHT_NOTE
            p = off
            while p + 12 <= off + size:
                nsz, dsz, ntype = struct.unpack_from(end + "III", data, p)
                nm = data[p + 12:p + 12 + nsz]
                d0 = p + up(12 + nsz, align)
                if ntype == 3 and nm.rstrip(b"\0") == b"GNU":  # NT_GNU_BUILD_ID
                    build_id = data[d0:d0 + dsz]
                    break
                p = d0 + up(dsz, align)
        elif secname(name) == ".gnu_debuglink":
            raw = data[off:off + size]
            nm = raw[:raw.index(b"\0")]
            crc, = struct.unpack_from(end + "I", raw, up(len(nm) + 1, 4))
            link = (nm.decode("latin-1"), crc)
    return build_id, link


DEBUG_ROOTS = ["/usr/lib/debug", "/run/current-system/sw/lib/debug"]


def find_debug_file(binary, roots=None, beside_without_root=False):
    """The separate debug file of BINARY the runner would find, or None:
    in each existing debug root, <root>/.build-id/xx/rest.debug, then the
    .gnu_debuglink name beside the binary, in its .debug/ or under
    <root>/<its directory>, with a matching CRC32."""
    build_id, link = elf_notes_and_debuglink(binary)
    roots = [r for r in (roots if roots is not None else DEBUG_ROOTS) if os.path.exists(r)]
    d = os.path.dirname(binary)

    def by_link(root):
        if not link:
            return None
        cands = [os.path.join(d, link[0]), os.path.join(d, ".debug", link[0])]
        if root is not None:
            cands.append(os.path.join(root, d.lstrip("/"), link[0]))
        for c in cands:
            try:
                with open(c, "rb") as f:
                    if zlib.crc32(f.read()) & 0xFFFFFFFF == link[1]:
                        return c
            except OSError:
                pass
        return None

    for root in roots:
        if build_id:
            h = build_id.hex()
            p = os.path.join(root, ".build-id", h[:2], h[2:] + ".debug")
            if os.path.exists(p):
                return p
        found = by_link(root)
        if found:
            return found
    return by_link(None) if beside_without_root else None


# --- the system -----------------------------------------------------------

def os_release_id():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("ID="):
                    return line[3:].strip().strip('"')
    except OSError:
        pass
    return ""


def run(argv):
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        return 127, "", str(e)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def libc_check(kind, apt_system):
    """None when the libc check of that kind passes (or does not apply),
    else why not."""
    if not kind or (kind != "dpkg" and not apt_system):
        return None
    if kind.startswith("dpkg"):
        rc, _, err = run(["dpkg", "-s", "libc6-dbg"])
        return None if rc == 0 else "dpkg -s libc6-dbg exits %d: %s" % (rc, err.strip().splitlines()[0] if err.strip() else "")
    triplet = {"x86_64": "x86_64-linux-gnu", "aarch64": "aarch64-linux-gnu"}.get(platform.machine())
    if not triplet:
        return "no multiarch triplet for %s" % platform.machine()
    libc = "/lib/%s/libc.so.6" % triplet
    try:
        found = find_debug_file(libc, beside_without_root=kind.endswith("+"))
    except (OSError, ValueError, struct.error) as e:
        return "cannot read %s: %s" % (libc, e)
    return None if found else "no separate debug file of %s (build id or .gnu_debuglink)" % libc


def installed(label, libc_skip):
    bad = 0
    rc, _, _ = run(["which", "valgrind"])
    if rc != 0:
        print("FAIL: %sCodSpeed's runner finds no valgrind on PATH (which valgrind)" % label)
        return 1
    rc, out, err = run(["valgrind", "--version"])
    if rc != 0:
        print("FAIL: %svalgrind --version exits %d: %s" % (label, rc, err.strip()))
        return 1
    apt_system = os_release_id() in ("debian", "ubuntu")
    print("  info: valgrind --version: %s; os-release ID %s (%s)"
          % (out.strip(), os_release_id() or "?", "apt system" if apt_system else "no libc check on it"))
    for name, rule, libc in RELEASES:
        why = verdict(rule, out)
        what = "runner %s (%s%s)" % (name, describe(rule), ", " + LIBC_WORDS[libc] if libc else "")
        if name in REJECTS_US:
            print("  info: %s%s: %s (expected: it accepts only its own pin)"
                  % (label, what, "rejects ours: " + why if why else "accepts ours"))
            continue
        if why:
            print("FAIL: %s%s accepts the installed valgrind: %s" % (label, what, why))
            bad += 1
            continue
        applies = libc == "dpkg" or (libc and apt_system)
        libc_why = libc_check(libc, apt_system)
        if applies and libc_skip:
            print("SKIP: %s%s accepts the installed valgrind (version accepted; libc check not ours to pass: %s)"
                  % (label, what, libc_skip))
        elif libc_why:
            print("FAIL: %s%s accepts the installed valgrind: %s" % (label, what, libc_why))
            bad += 1
        else:
            print("PASS: %s%s accepts the installed valgrind" % (label, what))
    return 1 if bad else 0


def describe(rule):
    kind, pin, it = rule
    return {"contains": "stdout contains %s.codspeed" % pin,
            "before": "semver before .codspeed >= %s" % pin,
            "iteration": "(semver, N) >= (%s, %d)" % (pin, it)}[kind]


LIBC_WORDS = {"dpkg": "dpkg -s libc6-dbg", "dpkg-apt": "dpkg -s libc6-dbg on Debian/Ubuntu",
              "debugfile": "libc's debug file under /usr/lib/debug",
              "debugfile+": "libc's debug file, also beside it"}


# --- the runner's own test cases ------------------------------------------

def cases():
    """The unit tests of the runner's setup.rs (4.3.0: the parse; 4.17.3
    on: the parse with iterations and the classification against the pin),
    plus what a suffix after N does."""
    pinned = ("iteration", "3.26.0", 7)
    v = semver
    checks = [
        ("old parse, with prefix", parse_before_codspeed("valgrind-3.25.1.codspeed"), v("3.25.1")),
        ("old parse, without prefix", parse_before_codspeed("3.25.1.codspeed"), v("3.25.1")),
        ("old parse, higher patch", parse_before_codspeed("valgrind-3.25.2.codspeed"), v("3.25.2")),
        ("old parse, newline", parse_before_codspeed("valgrind-3.25.1.codspeed\n"), v("3.25.1")),
        ("old parse, no suffix", parse_before_codspeed("valgrind-3.25.1"), None),
        ("old parse, invalid", parse_before_codspeed("valgrind-3.25.codspeed"), None),
        ("parse, with prefix", parse_with_iteration("valgrind-3.25.1.codspeed"), (v("3.25.1"), None)),
        ("parse, without prefix", parse_with_iteration("3.25.1.codspeed"), (v("3.25.1"), None)),
        ("parse, higher patch", parse_with_iteration("valgrind-3.25.2.codspeed"), (v("3.25.2"), None)),
        ("parse, newline", parse_with_iteration("valgrind-3.25.1.codspeed\n"), (v("3.25.1"), None)),
        ("parse, no suffix", parse_with_iteration("valgrind-3.25.1"), None),
        ("parse, invalid", parse_with_iteration("valgrind-3.25.codspeed"), None),
        ("parse, iterations", [parse_with_iteration("valgrind-3.26.0.codspeed" + s)[1] for s in ("", "1", "2")],
         [None, 1, 2]),
        ("older iteration rejected", verdict(pinned, "valgrind-3.26.0.codspeed2") is None, False),
        ("legacy suffix at the pin rejected", verdict(pinned, "valgrind-3.26.0.codspeed") is None, False),
        ("pinned iteration accepted", verdict(pinned, "valgrind-3.26.0.codspeed7"), None),
        ("newer iteration accepted", verdict(pinned, "valgrind-3.26.0.codspeed8"), None),
        ("newer semver, legacy suffix accepted", verdict(pinned, "valgrind-3.99.0.codspeed"), None),
        ("not a CodSpeed build rejected", verdict(pinned, "valgrind-3.26.0"), "not a CodSpeed build"),
        # beyond the runner's tests: a suffix after N, build metadata
        ("a suffix after N rejected", verdict(pinned, "valgrind-3.27.1.codspeed7-fold1"),
         "could not parse version"),
        ("build metadata sorts after the plain release",
         semver_cmp(v("3.27.1+fold1"), v("3.27.1")), 1),
        ("a pre-release sorts before its release", semver_cmp(v("3.27.1-fold1"), v("3.27.1")), -1),
    ]
    bad = [name for name, got, want in checks if got != want]
    print("runner's own cases: %s" % ("all pass" if not bad else "failing: " + "; ".join(bad)))
    return 1 if bad else 0


def main(argv):
    if argv[:1] == ["cases"]:
        return cases()
    if argv[:1] == ["version"] and len(argv) == 2:
        for name, rule, _ in RELEASES:
            why = verdict(rule, argv[1])
            print("%s: %s" % (name, "accepts" if why is None else "rejects: " + why))
        return 0
    if argv[:1] == ["installed"]:
        label = libc_skip = ""
        rest = argv[1:]
        while rest:
            if rest[0] == "--label" and len(rest) > 1:
                label, rest = rest[1], rest[2:]
            elif rest[0] == "--libc-skip" and len(rest) > 1:
                libc_skip, rest = rest[1], rest[2:]
            else:
                break
        if not rest:
            return installed(label, libc_skip)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
