#!/usr/bin/env bash
# Benchmarks of the patched callgrind against a stock build of the same
# Valgrind, side by side in one run (issue 9).  Called by `make bench`.
#
# Every row of $ROWS runs one workload under stock and under patched
# callgrind, alternating (S P S P ...), and reports the median wall times,
# the ratio patched/stock (median of the paired runs, with min and max),
# peak memory, and for rows marked "same" whether both counted exactly the
# same events (the "totals:" line of callgrind.out).
#
# Output: one markdown table on stdout, also written to
# bench/results/<date>-<short-host>.md and bench/results/latest.md;
# progress on stderr.  Exit status 0, or 1 if a run failed or a row marked
# "same" did not count the same events.
#
# Environment (all optional):
#   BENCH_RUNS=5         measured runs of each build per row (at least 5 for
#                        results worth quoting)
#   BENCH_WARMUP=1       unmeasured S P rounds before the measured ones
#   BENCH_ONLY=REGEX     run only rows whose "workload/config" matches
#                        (extended regex); e.g. BENCH_ONLY='^python/'
#   BENCH_FOLD=auto      auto: run bench/fold.sh if the converter is
#                        installed; no: never
#   BENCH_PATCHED=DIR    patched install   (default: $PREFIX, else <repo>/dist)
#   BENCH_STOCK=DIR      stock install     (default: $BUILD/stock-dist, BUILD
#                        defaulting to <repo>/build)
#   BENCH_PYTHON=EXE     interpreter for the python workload (default: the
#                        real executable behind `python3`)
#   BENCH_WORK=DIR       scratch directory (default: bench/work)
set -euo pipefail
export LC_ALL=C

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
PATCHED=${BENCH_PATCHED:-${PREFIX:-$ROOT/dist}}
STOCK=${BENCH_STOCK:-${BUILD:-$ROOT/build}/stock-dist}
WORK=${BENCH_WORK:-$BENCH/work}
RUNS=${BENCH_RUNS:-5}
WARMUP=${BENCH_WARMUP:-1}
ONLY=${BENCH_ONLY:-}
RESULTS=$BENCH/results

# ---------------------------------------------------------------------------
# Workloads: name | command line, run in $WORK with stdin from /dev/null.
# Words are split on blanks (no quoting); @NAME@ is replaced by the value
# of the shell variable NAME (BENCH, WORK, PY, ...).  Each is sized to run
# a few seconds under callgrind.  python runs with -S: the .pth files of
# site-packages run code at startup whose instruction count varies from
# run to run, which would break the event check.
WORKLOADS='
calls_heavy | ./calls_heavy 15
calls_shallow | ./calls_shallow 1000000
loops       | ./loops_heavy 14
startstop   | ./startstop 3000
threads     | ./threads_turns 30
python      | @PY@ -S @BENCH@/workloads/pywork.py 6
sqlite      | sqlite3 -batch -readonly -init @BENCH@/workloads/sqlite_query.sql bench.db
'

# Rows: workload | config name | events | stock options | patched options
#   events: "same" = the totals of stock and patched must be identical
#           (checked on every run; a mismatch fails the benchmark);
#           "-" = not compared.
#   Options are split on blanks and not glob-expanded; @NAME@ as above.
# Adding a row is adding one line here.
ROWS='
calls_heavy | no new options | same |  |
loops       | no new options | same |  |
python      | no new options | same |  |
python      | --obj-skip     | same |  | --obj-skip=@PYSKIP@
sqlite      | no new options | same |  |
sqlite      | --obj-skip     | same |  | --obj-skip=libsqlite3.so*
calls_heavy | --dump-folded  | same |  | --dump-folded=yes --folded-out-file=@WORK@/out/folded
calls_shallow | no new options | same |  |
calls_shallow | --dump-folded  | same |  | --dump-folded=yes --folded-out-file=@WORK@/out/folded
sqlite      | --dump-folded  | same |  | --dump-folded=yes --folded-out-file=@WORK@/out/folded
startstop   | START/STOP x3000 | same | --instr-atstart=no | --instr-atstart=no
startstop   | START/STOP x3000, --dump-folded | same | --instr-atstart=no | --instr-atstart=no --dump-folded=yes --folded-out-file=@WORK@/out/folded
threads     | --separate-threads | - | --separate-threads=yes --combine-dumps=yes | --separate-threads=yes --combine-dumps=yes
threads     | --separate-threads, --dump-folded | - | --separate-threads=yes --combine-dumps=yes | --separate-threads=yes --combine-dumps=yes --dump-folded=yes --folded-out-file=@WORK@/out/folded
'
# Mark a row "-" in the events column if the check cannot apply to it.
# The --dump-folded rows compare with stock without it; the cost of the
# option is their ratio divided by the "no new options" row's.  The
# threads rows are "-": the main thread's count (its waits in
# pthread_join) changes from run to run, in stock too.

# ---------------------------------------------------------------------------
say() { printf '%s\n' "$*" >&2; }
die() { say "bench: error: $*"; exit 1; }

case $RUNS in ''|*[!0-9]*|0) die "BENCH_RUNS must be a positive integer" ;; esac
case $WARMUP in ''|*[!0-9]*) die "BENCH_WARMUP must be a non-negative integer" ;; esac
[ "$RUNS" -ge 5 ] || say "bench: note: BENCH_RUNS=$RUNS (< 5): a quick check, not results to quote"

for d in "$PATCHED" "$STOCK"; do
    [ -x "$d/bin/valgrind" ] && [ -d "$d/libexec/valgrind" ] ||
        die "no Valgrind installed in $d (run 'make' and 'make stock')"
done

# Tools the benchmark needs (scripts/deps.sh bench does the same for make).
need=
[ -x /usr/bin/time ] || need="$need time"
command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3"
if [ -n "$need" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        say "bench: installing$need"
        # shellcheck disable=SC2086  # $need is a list of package names
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need >&2 ||
            { apt-get update -q >&2 &&
              DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need >&2; } ||
            die "could not install$need"
    else
        die "missing$need: apt-get install$need"
    fi
fi
command -v python3 >/dev/null 2>&1 || die "python3 is needed for the statistics"

# The python workload's interpreter: the real executable (python3 may be a
# launcher script, e.g. pyenv's shim).  Its runtime is skipped in the
# --obj-skip row: libpython if the interpreter links it, else the
# executable itself (Debian's /usr/bin/python3.11 contains the runtime).
PY=${BENCH_PYTHON:-$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null || true)}
[ -n "$PY" ] || PY=/usr/bin/python3
PY=$(readlink -f "$PY")
[ -x "$PY" ] || die "no python interpreter at $PY"
# shellcheck disable=SC2034  # PYSKIP is used through @PYSKIP@
if pylib=$(ldd "$PY" 2>/dev/null | awk '$1 ~ /^libpython/ { print $3; exit }') && [ -n "$pylib" ]; then
    PYSKIP=$(basename "$(readlink -f "$pylib")")
else
    PYSKIP=$(basename "$PY")
fi

# ---------------------------------------------------------------------------
mkdir -p "$WORK" "$WORK/out" "$WORK/home" "$RESULTS"
say "bench: building workloads in $WORK"
make -s -C "$BENCH" WORK="$WORK" >&2

# Both builds must give the client the same environment.  Valgrind puts
# $VALGRIND_LIB into the client's LD_PRELOAD (and leaves VALGRIND_LIB set),
# so the length of the lib directory's path changes the client's
# instruction count: use two symlinks of equal length.
ln -sfn "$STOCK/libexec/valgrind" "$WORK/libS"
ln -sfn "$PATCHED/libexec/valgrind" "$WORK/libP"
# The client environment: nothing else, same for every run.
CLIENT_ENV=(PATH=/usr/local/bin:/usr/bin:/bin HOME="$WORK/home" LANG=C LC_ALL=C
            PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1)

subst() {  # replace @NAME@ by $NAME in "$1"
    local s=$1 name
    while [[ $s =~ @([A-Za-z_][A-Za-z_0-9]*)@ ]]; do
        name=${BASH_REMATCH[1]}
        s=${s//@$name@/${!name-}}
    done
    printf '%s' "$s"
}
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

workload_cmd() {  # the command line of workload $1, or nothing
    local line name cmd
    while IFS= read -r line; do
        [[ $line == *'|'* ]] || continue
        name=$(trim "${line%%|*}")
        cmd=$(trim "${line#*|}")
        [ "$name" = "$1" ] && { subst "$cmd"; return 0; }
    done <<< "$WORKLOADS"
    return 1
}

# A checksum of both builds' callgrind binaries: if either is reinstalled
# while the benchmark runs, the report says so.
tools_sum() {
    cat "$STOCK"/libexec/valgrind/*callgrind* "$PATCHED"/libexec/valgrind/*callgrind* \
        2>/dev/null | cksum | cut -d' ' -f1
}

RAW=$WORK/raw.tsv
: > "$RAW"
META=$WORK/meta.txt
stock_version=$("$STOCK/bin/valgrind" --version)
patched_version=$("$PATCHED/bin/valgrind" --version)
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
{
    echo "date=$(date '+%Y-%m-%d %H:%M:%S %z')"
    echo "host=$(uname -n)"
    echo "cpu=${cpu:-unknown} ($(nproc) cpus)"
    echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "stock=$stock_version ($STOCK)"
    echo "patched=$patched_version ($PATCHED)"
    echo "commit=$commit"
    echo "runs=$RUNS"
    echo "warmup=$WARMUP"
    echo "python=$PY"
    echo "tools_start=$(tools_sum)"
} > "$META"

# run_one ROWID BUILD(S|P) PASS(warm|run) INDEX OPTIONS... -- COMMAND...
# Appends one line to $RAW: row, build, pass, index, wall s, max RSS KB,
# totals, exit status, CPU s (user + system).
run_one() {
    local row=$1 b=$2 pass=$3 idx=$4; shift 4
    local vg opts=() out log tf t0 t1 rc totals rss usr sys cpu
    [ "$b" = S ] && vg=$STOCK/bin/valgrind || vg=$PATCHED/bin/valgrind
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    out=$WORK/out/$row.$b.callgrind.out
    log=$WORK/out/$row.$b.log
    tf=$WORK/out/$row.$b.time
    rm -f "$out" "$out".* "$log" "$tf"
    t0=$EPOCHREALTIME
    rc=0
    (cd "$WORK" &&
     exec /usr/bin/time -f '%M %U %S' -o "$tf" \
        env -i "${CLIENT_ENV[@]}" VALGRIND_LIB="$WORK/lib$b" \
        "$vg" --tool=callgrind "${opts[@]}" \
        --callgrind-out-file="$out" --log-file="$log" \
        "$@" < /dev/null > "$WORK/out/$row.$b.stdout" 2> "$WORK/out/$row.$b.stderr") || rc=$?
    t1=$EPOCHREALTIME
    totals=$(awk '/^totals:/ { $1 = ""; sub(/^ /, ""); print; exit }' "$out" 2>/dev/null || true)
    [ -n "$totals" ] || totals=-
    # last line of $tf: max RSS KB, user s, system s
    read -r rss usr sys < <(tail -n 1 "$tf" 2>/dev/null || true) || true
    case $rss in ''|*[!0-9]*) rss=0 ;; esac
    cpu=$(awk -v u="${usr:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.2f", u + s }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$row" "$b" "$pass" "$idx" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')" \
        "$rss" "$totals" "$rc" "$cpu" >> "$RAW"
    LAST_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    if [ "$rc" -ne 0 ]; then
        say "bench: $row: $b run failed (exit $rc); see $log and $WORK/out/$row.$b.stderr"
        return 1
    fi
}

# ---------------------------------------------------------------------------
ROWDEFS=$WORK/rows.tsv
: > "$ROWDEFS"
R_ID=() R_WL=() R_CFG=() R_SOPT=() R_POPT=()
nrows=0
while IFS= read -r line; do
    [[ $line == *'|'* ]] || continue
    IFS='|' read -r wl cfg ev sopt popt <<< "$line"
    wl=$(trim "$wl") cfg=$(trim "$cfg") ev=$(trim "$ev")
    sopt=$(trim "$(subst "$sopt")") popt=$(trim "$(subst "$popt")")
    if [ -n "$ONLY" ] && ! [[ "$wl/$cfg" =~ $ONLY ]]; then continue; fi
    workload_cmd "$wl" > /dev/null || die "row '$wl | $cfg': unknown workload '$wl'"
    nrows=$((nrows + 1))
    R_ID+=("$(printf 'r%02d' "$nrows")") R_WL+=("$wl") R_CFG+=("$cfg")
    R_SOPT+=("$sopt") R_POPT+=("$popt")
    printf 'r%02d\t%s\t%s\t%s\t%s\t%s\n' "$nrows" "$wl" "$cfg" "$ev" "$sopt" "$popt" >> "$ROWDEFS"
done <<< "$ROWS"
[ "$nrows" -gt 0 ] || [[ "fold" =~ $ONLY ]] || die "no row matches BENCH_ONLY='$ONLY'"

# (Options such as --obj-skip=lib*.so reach valgrind unexpanded: they
# are only ever split by read -a and passed quoted.)
failed=0
for ((n = 0; n < nrows; n++)); do
    row=${R_ID[n]} wl=${R_WL[n]} cfg=${R_CFG[n]}
    read -r -a CMD <<< "$(workload_cmd "$wl")"
    read -r -a SOPT <<< "${R_SOPT[n]}"
    read -r -a POPT <<< "${R_POPT[n]}"
    say "bench: [$((n + 1))/$nrows] $wl, $cfg: $WARMUP warm-up + $RUNS measured rounds (S P)"
    total=$((WARMUP + RUNS))
    for ((i = 1; i <= total; i++)); do
        if [ "$i" -le "$WARMUP" ]; then pass=warm idx=$i; else pass=run idx=$((i - WARMUP)); fi
        run_one "$row" S "$pass" "$idx" "${SOPT[@]}" -- "${CMD[@]}" || { failed=1; break; }
        ws=$LAST_WALL
        run_one "$row" P "$pass" "$idx" "${POPT[@]}" -- "${CMD[@]}" || { failed=1; break; }
        say "bench:   $pass $idx: stock ${ws}s, patched ${LAST_WALL}s"
    done
done

# Converter rows (bench/fold.sh), once callgrind_fold is installed.
FOLDRAW=$WORK/fold.tsv
rm -f "$FOLDRAW"
if [ "${BENCH_FOLD:-auto}" != no ] && [ -x "$PATCHED/bin/callgrind_fold" ] &&
   { [ -z "$ONLY" ] || [[ "fold" =~ $ONLY ]]; }; then
    BENCH_RUNS=$RUNS BENCH_WARMUP=$WARMUP BENCH_WORK=$WORK BENCH_PATCHED=$PATCHED \
        "$BENCH/fold.sh" "$FOLDRAW" || failed=1
elif [ ! -x "$PATCHED/bin/callgrind_fold" ]; then
    say "bench: $PATCHED/bin/callgrind_fold not installed: no converter rows"
fi

echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$META"
echo "tools_end=$(tools_sum)" >> "$META"

# ---------------------------------------------------------------------------
report=$WORK/report.md
rc=0
python3 "$BENCH/report.py" "$META" "$ROWDEFS" "$RAW" "$FOLDRAW" > "$report" || rc=$?
[ "$rc" -le 1 ] || die "report.py failed"

# callgrind_fold's renderer against flamegraph.pl (render-bench.sh: a
# table; BENCH_RENDER_BEFORE adds a row for another build) and the
# --inline rows (inline-bench.sh: result lines; see bench/README.md).
if [ "${BENCH_FOLD:-auto}" != no ] && [ -x "$PATCHED/bin/callgrind_fold" ] &&
   { [ -z "$ONLY" ] || [[ "fold" =~ $ONLY ]]; }; then
    say "bench: SVG rendering of 1,000,000 folded lines against flamegraph.pl; --inline against no --inline"
    {
        echo
        echo "## callgrind_fold: SVG rendering and --inline"
        echo
        BENCH_WORK=$WORK BENCH_RUNS=$RUNS BENCH_WARMUP=$WARMUP \
            "$BENCH/render-bench.sh" "$PATCHED/bin/callgrind_fold" || failed=1
        echo
        echo '```'
        BENCH_WORK=$WORK "$BENCH/inline-bench.sh" 2>&1 | tail -n 8
        echo '```'
    } >> "$report" || failed=1
fi
cat "$report"
host=$(uname -n); host=${host%%.*}
cp "$report" "$RESULTS/$(date +%Y-%m-%d)-$host.md"
cp "$report" "$RESULTS/latest.md"
say "bench: written $RESULTS/$(date +%Y-%m-%d)-$host.md and $RESULTS/latest.md"
if [ "$rc" -ne 0 ]; then
    say "bench: FAILED: a row marked 'same' counted different events (see 'same events')"
    failed=1
fi
[ "$failed" -eq 0 ] || { say "bench: FAILED"; exit 1; }
