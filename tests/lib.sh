# Sourced by the tests in this directory.  check.sh exports top, BUILD,
# TREE, PREFIX and STOCK_PREFIX; defaults let a test run on its own too.
top=${top:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-$top/build}
TREE=${TREE:-$BUILD/valgrind}
PREFIX=${PREFIX:-$top/dist}
STOCK_PREFIX=${STOCK_PREFIX:-$BUILD/stock-dist}
unset MAKEFLAGS MFLAGS MAKELEVEL || true

failures=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# check NAME COMMAND...: PASS when the command succeeds.
check() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
finish() { exit $((failures > 0)); }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cgfold-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Build the example programs (once per check run).
examples() { make -s -C "$top/examples" OUT="$BUILD/examples" PREFIX="$PREFIX" >&2; echo "$BUILD/examples"; }
