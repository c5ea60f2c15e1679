#!/bin/sh
# The patched build says it is ours and passes CodSpeed's runner's check;
# the stock build is plain 3.27.1.
#
# The runner's check, reimplemented from its source (CodSpeedHQ/codspeed,
# src/executor/valgrind/setup.rs; docs/notes-codspeed-dropin.md): stdout
# of `valgrind --version`, trimmed, must contain ".codspeed"; without an
# optional "valgrind-" prefix it is split at the first ".codspeed": the
# left part must be a semver version, the right part empty (iteration 0)
# or a whole u32; accepted when (version, iteration) >= the pinned
# (3.26.0, 7).  Its own test cases are checked first, so a wrong
# reimplementation fails here too.
. "$(dirname "$0")/lib.sh"
want=valgrind-3.27.1+fold1.codspeed7
got=$("$PREFIX/bin/valgrind" --version)
check "patched valgrind --version is $want" [ "$got" = "$want" ]
check "stock valgrind --version is valgrind-3.27.1" \
    [ "$("$STOCK_PREFIX/bin/valgrind" --version)" = valgrind-3.27.1 ]

python3 - "$got" > "$scratch/runner" <<'PY'
import re, sys

SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
                    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)"
                    r"(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
                    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$")
PINNED, ITERATION = (3, 26, 0), 7

def semver(s):
    """(major, minor, patch, pre-release) of a semver string, or None."""
    m = SEMVER.match(s)
    return (int(m[1]), int(m[2]), int(m[3]), m[4]) if m else None

def parse(text):
    """(version, iteration or None) as the runner parses it, or None."""
    text = text.strip()
    if ".codspeed" not in text:
        return None
    if text.startswith("valgrind-"):
        text = text[len("valgrind-"):]
    left, right = text.split(".codspeed", 1)
    v = semver(left)
    if v is None:
        return None
    if right == "":
        return v, None
    if not re.fullmatch(r"\+?\d+", right) or int(right) > 2**32 - 1:
        return None
    return v, int(right)

def older(a, b):
    """semver precedence: a < b (a pre-release sorts before its release)."""
    if a[:3] != b[:3]:
        return a[:3] < b[:3]
    return a[3] is not None and b[3] is None

def installed(text):
    p = parse(text)
    if p is None:
        return False
    (v, it), pin = p, PINNED + (None,)
    return older(pin, v) or (v[:3] == pin[:3] and not older(v, pin) and (it or 0) >= ITERATION)

cases = [
    (parse("valgrind-3.25.1.codspeed"), ((3, 25, 1, None), None)),
    (parse("3.25.1.codspeed"), ((3, 25, 1, None), None)),
    (parse("valgrind-3.25.2.codspeed"), ((3, 25, 2, None), None)),
    (parse("valgrind-3.25.1.codspeed\n"), ((3, 25, 1, None), None)),
    (parse("valgrind-3.25.1"), None),
    (parse("valgrind-3.25.codspeed"), None),
    ([parse("valgrind-3.26.0.codspeed%s" % s)[1] for s in ("", "1", "2")], [None, 1, 2]),
    (installed("valgrind-3.26.0.codspeed2"), False),
    (installed("valgrind-3.26.0.codspeed"), False),
    (installed("valgrind-3.26.0.codspeed7"), True),
    (installed("valgrind-3.26.0.codspeed8"), True),
    (installed("valgrind-3.99.0.codspeed"), True),
    (installed("valgrind-3.26.0"), False),
    # what a suffix after the iteration does
    (installed("valgrind-3.27.1.codspeed7-fold1"), False),
]
bad = [i for i, (got, want) in enumerate(cases) if got != want]
print("runner's own cases: %s" % ("all pass" if not bad else "cases %s fail" % bad))
print("ours: %s" % ("installed" if installed(sys.argv[1]) else "rejected"))
PY
cat "$scratch/runner"
check "the runner's parse (reimplemented) passes the runner's own test cases" \
    grep -q "^runner's own cases: all pass" "$scratch/runner"
check "CodSpeed's runner takes $got as its Valgrind (no reinstall)" \
    grep -q "^ours: installed" "$scratch/runner"
finish
