#!/bin/sh
# The Debian package, installed as a user would: `make deb` builds it
# (scripts/make-deb.sh: from the pinned tarball and patches/ alone, lintian
# clean), then `apt-get install ./<deb>` installs it in a throw-away root
# (this machine's root filesystem under a copy-on-write overlay, in a
# private mount namespace: the real system is never changed; Debian's
# valgrind, if installed, is replaced as the package's Conflicts/Replaces
# say).  There the installed /usr/bin/valgrind runs the demo (make demo
# with PREFIX=/usr: examples built against /usr/include/valgrind, profiled,
# folded and drawn by /usr/bin/callgrind_fold), memcheck runs too, `man
# callgrind_fold` shows its page, and `valgrind --version` is the
# package's version.  CodSpeed's runner keeps it: with libc6-dbg removed
# (as on a fresh runner machine), installing the package again brings it
# back (when apt can get it from its cache or the mirror; else those checks
# say SKIP), and every runner release's check of an installed Valgrind
# passes (tests/codspeed-setup-check.py: `valgrind --version`, `dpkg -s
# libc6-dbg`, libc's separate debug file).  Then `apt-get purge` removes
# it, and nothing it installed is left (no file of its own under /usr,
# /etc or /opt in the overlay's upper layer).  Needs root (mount
# namespace, chroot): SKIP otherwise.
. "$(dirname "$0")/lib.sh"

skip() { echo "SKIP: deb ($*)"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip "installing a package in a throw-away root needs root"
for tool in dpkg-buildpackage dh lintian unshare chroot apt-get; do
    command -v "$tool" > /dev/null 2>&1 || skip "$tool is not installed (make deps-check lists it)"
done
grep -qw overlay /proc/filesystems || modprobe overlay 2> /dev/null || true
grep -qw overlay /proc/filesystems || skip "the kernel has no overlay filesystem"

start=$(date +%s)
# DEB=path: test that package instead of building one (for development)
if [ -n "${DEB:-}" ]; then
    deb=$DEB
    echo "make-deb: $(basename "$deb") (given)" > "$scratch/make-deb.err"
elif ! deb=$(BUILD=$BUILD KEEP_SOURCE=$scratch/src sh "$top/scripts/make-deb.sh" "$scratch/deb" \
               2> "$scratch/make-deb.err"); then
    cat "$scratch/make-deb.err"
    fail "deb: make deb builds the package"
    finish
fi
pass "deb: make deb builds $(basename "$deb") with Debian's tools, lintian clean"
echo "  info: make deb: $(($(date +%s) - start)) s; $(sed -n 's/^make-deb: //p' "$scratch/make-deb.err" | tail -n 1)"
version=$(dpkg-deb -f "$deb" Version)
check "deb: the package's version $version is the series' valgrind's (upstream, +fold, .codspeedN)" \
    sh -c "[ '$("$PREFIX/bin/valgrind" --version)' = 'valgrind-$version' ] && expr '$version' : '3\.27\.1+fold[0-9]*\.codspeed[0-9]*$' > /dev/null \
           && [ '$(dpkg-deb -f "$deb" Package)' = callgrind-fold ]"
check "deb: Provides valgrind, Conflicts and Replaces it" \
    sh -c "dpkg-deb -f '$deb' Provides | grep -q '^valgrind (= 1:$version)' \
           && dpkg-deb -f '$deb' Conflicts | grep -qx valgrind && dpkg-deb -f '$deb' Replaces | grep -qx valgrind"
check "deb: depends on libdw, zlib and libc6-dbg (CodSpeed's runner wants it), recommends graphviz" \
    sh -c "dpkg-deb -f '$deb' Depends | grep -q libdw1 && dpkg-deb -f '$deb' Depends | grep -q zlib1g \
           && dpkg-deb -f '$deb' Depends | tr ',' '\n' | grep -q '^ *libc6-dbg\( \|\$\)' \
           && dpkg-deb -f '$deb' Recommends | grep -q graphviz"
check "deb: holds valgrind.h, callgrind.h, callgrind_fold and its man page, every tool" \
    sh -c "dpkg-deb -c '$deb' > '$scratch/contents' && for f in ./usr/include/valgrind/valgrind.h \
           ./usr/include/valgrind/callgrind.h ./usr/bin/callgrind_fold ./usr/bin/callgrind_annotate \
           ./usr/share/man/man1/callgrind_fold.1.gz ./usr/libexec/valgrind/memcheck-amd64-linux \
           ./usr/libexec/valgrind/callgrind-amd64-linux ./usr/libexec/valgrind/cachegrind-amd64-linux \
           ./usr/libexec/valgrind/helgrind-amd64-linux ./usr/libexec/valgrind/massif-amd64-linux \
           ./usr/share/doc/callgrind-fold/README.md.gz; do grep -q \" \$f\$\" '$scratch/contents' || \
           { echo \"missing \$f\"; exit 1; }; done"

# The series stands alone: the tree the package was built from (pristine
# tarball + patches/, nothing else) passes every callgrind regtest.
if [ -d "$scratch/src/valgrind" ]; then
    v=$scratch/src/valgrind
    if { make -s -C "$v/tests" check TESTS= && make -s -C "$v/callgrind/tests" check TESTS= \
             && make -s -C "$v/memcheck/tests" bug445235_ada_demangle; } > "$scratch/tests-build.log" 2>&1; then
        (cd "$v" && perl tests/vg_regtest callgrind) > "$scratch/regtest.out" 2>&1
        bad=$(sed -n 's/^\*\*\* \([^ ]*\) failed.*/\1/p' "$scratch/regtest.out" | sort -u | tr '\n' ' ')
        check "deb: the tree built from the tarball and patches/ alone passes every callgrind regtest ($(grep -c '^[a-z0-9_-]*: ' "$scratch/regtest.out") run)" \
            [ -z "$bad" ] || echo "  failed: $bad"
    else
        tail -n 20 "$scratch/tests-build.log"
        fail "deb: building the regtests' programs in the tree built from the tarball and patches/"
    fi
fi

# The throw-away root: / read-only below, writes to a tmpfs above.
ovl=$scratch/ovl
mkdir -p "$ovl"
cat > "$scratch/inside.sh" <<EOF
set -u
r=$ovl/root
mount -t tmpfs tmpfs "$ovl" -o size=2g || exit 90
mkdir -p "$ovl/upper" "$ovl/work" "\$r"
mount -t overlay overlay -o lowerdir=/,upperdir=$ovl/upper,workdir=$ovl/work "\$r" || exit 91
mount --rbind /proc "\$r/proc" && mount --rbind /dev "\$r/dev" && mount --rbind /sys "\$r/sys" || exit 92
cp "$scratch/steps.sh" "\$r/tmp/deb-steps.sh"
cp "$deb" "\$r/tmp/"
chroot "\$r" sh /tmp/deb-steps.sh "/tmp/$(basename "$deb")" "$top" "$version"
rc=\$?
# what the package left behind: regular files of the upper layer outside
# dpkg's and apt's state, logs and caches, and the test's own files
(cd "$ovl/upper" && find . -type f ! -path './var/*' ! -path './tmp/*' ! -path '.$top/*' \
    ! -path './root/*' ! -path './etc/ld.so.cache' | sort) > "$scratch/left"
exit \$rc
EOF
cat > "$scratch/steps.sh" <<'EOF'
# Inside the throw-away root, as a user would: install, use, remove.
deb=$1 top=$2 version=$3
ok() { echo "PASS: deb: $*"; }
no() { echo "FAIL: deb: $*"; }
export DEBIAN_FRONTEND=noninteractive
if apt-get install -y -q "$deb" > /tmp/apt-install.log 2>&1; then
    ok "apt-get install ./$(basename "$deb")"
else
    tail -n 15 /tmp/apt-install.log; no "apt-get install ./$(basename "$deb")"; exit 1
fi
[ "$(/usr/bin/valgrind --version)" = "valgrind-$version" ] \
    && ok "/usr/bin/valgrind --version is valgrind-$version" \
    || no "/usr/bin/valgrind --version: $(/usr/bin/valgrind --version 2>&1)"
/usr/bin/valgrind -q --tool=memcheck --error-exitcode=3 /bin/true \
    && ok "memcheck runs /bin/true cleanly" || no "memcheck runs /bin/true cleanly"
cd "$top" && rm -rf demo build/examples
if sh scripts/demo.sh /usr > /tmp/demo.log 2>&1 && [ -s demo/calls.folded ] && [ -s demo/calls.svg ]; then
    ok "the demo runs with the installed valgrind and callgrind_fold (folded stacks, SVG)"
else
    tail -n 15 /tmp/demo.log; no "the demo runs with the installed valgrind and callgrind_fold"
fi
sum=$(awk '{s += $NF} END {print s}' demo/calls.folded)
tot=$(sed -n 's/^totals: \([0-9]*\).*/\1/p' demo/calls.callgrind.out)
[ -n "$sum" ] && [ "$sum" = "$tot" ] && ok "the demo's folded stacks sum to the profile's totals ($tot)" \
    || no "the demo's folded stacks sum to $sum, totals $tot"
MANPAGER=cat MANWIDTH=80 man callgrind_fold 2> /dev/null | grep -q 'callgrind_fold' \
    && ok "man callgrind_fold shows its page" || no "man callgrind_fold shows its page"
# CodSpeed's runner on a machine without libc6-dbg, as GitHub's are:
# libc6-dbg of every architecture removed (with what depends on it, as apt
# does), then the package installed again must bring it back.  Only when
# apt can give it back (from its cache or the mirror): else the runner's
# libc checks say SKIP.
arch=$(dpkg --print-architecture)
libc_skip=
dbg=$(dpkg-query -W -f='${binary:Package} ${db:Status-Status}\n' 'libc6-dbg:*' 2>/dev/null | awk '$2 == "installed" { print $1 }')
if [ "$(echo "$dbg" | grep -c .)" -gt 1 ]; then
    echo "  info: libc6-dbg is installed for more than one architecture here ($(echo $dbg)): \`dpkg -s libc6-dbg\` is ambiguous and fails, so CodSpeed's runners 4.17.6-5.1.x would reinstall their valgrind at every run over any other"
fi
if apt-get install -y -q --reinstall --download-only "libc6-dbg:$arch" > /tmp/apt-dbg.log 2>&1; then
    # shellcheck disable=SC2086 # one word per package
    if apt-get purge -y -q $dbg > /tmp/apt-purge-dbg.log 2>&1 && apt-get install -y -q "$deb" > /tmp/apt-install2.log 2>&1; then
        apt-mark showauto "libc6-dbg:$arch" | grep -q . \
            && ok "on a machine without libc6-dbg, apt-get install ./$(basename "$deb") brings it" \
            || no "on a machine without libc6-dbg, apt-get install ./$(basename "$deb") leaves it out"
    else
        tail -n 15 /tmp/apt-purge-dbg.log /tmp/apt-install2.log
        no "removing libc6-dbg, then installing the package again"
    fi
else
    libc_skip="libc6-dbg cannot be downloaded here ($(tail -n 1 /tmp/apt-dbg.log)): whether the package brings it is not tested"
    echo "SKIP: deb: the package brings libc6-dbg ($libc_skip)"
fi
python3 "$top/tests/codspeed-setup-check.py" installed --label "deb: " --libc-skip "$libc_skip"
dpkg -L callgrind-fold | sort > /tmp/pkg-files
# with libc6-dbg when it came with the package, as apt-get autoremove would
if apt-get purge -y -q callgrind-fold $([ -n "$libc_skip" ] || echo "libc6-dbg:$arch") > /tmp/apt-purge.log 2>&1; then
    ok "apt-get purge callgrind-fold"
else
    tail -n 15 /tmp/apt-purge.log; no "apt-get purge callgrind-fold"
fi
left=$(while read -r f; do [ -d "$f" ] || [ ! -e "$f" ] || echo "$f"; done < /tmp/pkg-files)
[ -z "$left" ] && ok "every file of the package is gone" || no "files left: $left"
[ ! -e /usr/bin/valgrind ] && ok "no valgrind left on PATH" || no "/usr/bin/valgrind is still there"
EOF
unshare -m --propagation private sh "$scratch/inside.sh" > "$scratch/inside.log" 2>&1
rc=$?
cat "$scratch/inside.log"
case $rc in
    90|91|92) skip "cannot make a throw-away root here (mount failed: $(tail -n 1 "$scratch/inside.log"))" ;;
esac
grep -q '^FAIL: ' "$scratch/inside.log" && failures=$((failures + 1))
grep -q '^PASS: deb: apt-get purge' "$scratch/inside.log" || fail "deb: the steps inside the throw-away root ran (status $rc)"
check "deb: nothing left behind under /usr, /etc or /opt after the purge" [ ! -s "$scratch/left" ] \
    || sed 's/^/  left: /' "$scratch/left"
finish
