#!/bin/sh
# Build callgrind-fold's Debian binary package with Debian's tools, then
# check it with lintian.
#
# Usage: make-deb.sh OUTDIR      (make deb: OUTDIR = the checkout)
# Prints the path of the .deb on stdout; the build's logs are in
# $BUILD/deb/ (build.log, lintian.log).
#
# The package is built from what a user of the series gets, not from the
# development tree: the pinned upstream tarball with patches/ applied in
# series order by patch(1), callgrind_fold's sources and the docs, in a
# fresh source directory $BUILD/deb/src.*/callgrind-fold-VERSION/ with
# packaging/debian/ as its debian/ directory; dpkg-buildpackage -b builds
# it (debian/rules: configure --prefix=/usr, make, make install).
# VERSION is Valgrind's version as the series sets it (configure.ac:
# 3.27.1+fold1.codspeed7: upstream, our series, the CodSpeed level), the
# package's version too.  lintian runs on the .deb; any error or warning
# not explained in packaging/debian/callgrind-fold.lintian-overrides fails
# the build.  Environment: JOBS (default 2), BUILD, CACHE, KEEP_SOURCE=DIR
# (keep the built source directory there, for tests/deb.sh's regtests),
# ARCH (the Debian architecture to build for: this machine's by default;
# arm64 cross-builds it here, dpkg-buildpackage -a arm64).
set -eu

die() { echo "make-deb: error: $*" >&2; exit 1; }
say() { echo "make-deb: $*" >&2; }

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
BUILD=${BUILD:-$top/build}
CACHE=${CACHE:-$BUILD/cache}
JOBS=${JOBS:-2}
arch=${ARCH:-$(dpkg --print-architecture)}
out=$1
logs=$BUILD/deb
mkdir -p "$out" "$logs"
out=$(cd "$out" && pwd)
logs=$(cd "$logs" && pwd)

for tool in dpkg-buildpackage dh fakeroot lintian patch; do
    command -v "$tool" > /dev/null 2>&1 || die "$tool is missing (scripts/deps.sh deb installs it)"
done

tarball=$("$top/scripts/fetch-upstream.sh" "$CACHE")

# The source directory, from scratch every time.
work=$(mktemp -d "$logs/src.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar --no-same-owner -C "$work" -xjf "$tarball"
mv "$work"/valgrind-* "$work/valgrind"
for p in $(series_files); do
    patch -s -p1 -d "$work/valgrind" < "$p" > "$work/patch.log" 2>&1 \
        || { cat "$work/patch.log" >&2; die "$(basename "$p") does not apply to upstream valgrind"; }
done

ver_part() { sed -n "s/^m4_define(\[v_$1\], \[\(.*\)\])$/\1/p" "$work/valgrind/configure.ac"; }
upstream=$(ver_part major_ver).$(ver_part minor_ver).$(ver_part micro_ver)
version=$upstream$(ver_part fold_ver)
case $version in
    [0-9]*.[0-9]*.[0-9]*) ;;
    *) die "cannot read the version from configure.ac (got '$version')" ;;
esac

src=$work/callgrind-fold-$version
mkdir -p "$src/docs"
mv "$work/valgrind" "$src/valgrind"
# callgrind_fold's sources: what git tracks (no build outputs)
(cd "$top" && git ls-files -z callgrind_fold | tar --null -T - -cf -) | tar -C "$src" -xf - \
    || die "copying callgrind_fold's sources"
cp "$top/README.md" "$src/"
cp "$top"/docs/*.md "$src/docs/"
cp -r "$top/packaging/debian" "$src/debian"
cat > "$src/debian/changelog" <<EOF
callgrind-fold ($version) unstable; urgency=medium

  * Valgrind $upstream with the callgrind-fold series ($(grep -vc '^#' "$top/patches/series") patches,
    patches/series) and callgrind_fold.

 -- callgrind-fold maintainers <maintainers@users.noreply.a-seed-e4905827.example>  $(date -R -d @"$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)")
EOF

say "building callgrind-fold $version in $src"
(cd "$src" && DEB_BUILD_OPTIONS="parallel=$JOBS" dpkg-buildpackage -b -a "$arch" -us -uc -rfakeroot) \
    > "$logs/build.log" 2>&1 || { tail -n 30 "$logs/build.log" >&2; die "dpkg-buildpackage failed (log: $logs/build.log)"; }

deb=$work/callgrind-fold_${version}_${arch}.deb
[ -f "$deb" ] || die "dpkg-buildpackage made no $(basename "$deb")"
rm -f "$out"/callgrind-fold_*_"$arch".deb
mv "$deb" "$out/"
deb=$out/$(basename "$deb")

# lintian: errors and warnings fail, unless overridden with a reason
lintian --fail-on error,warning "$deb" > "$logs/lintian.log" 2>&1 \
    || { cat "$logs/lintian.log" >&2; die "lintian found problems in $(basename "$deb")"; }
[ ! -s "$logs/lintian.log" ] || sed 's/^/make-deb: lintian: /' "$logs/lintian.log" >&2
say "$(basename "$deb"): $(dpkg-deb -f "$deb" Installed-Size) KiB installed"
if [ -n "${KEEP_SOURCE:-}" ]; then
    rm -rf "$KEEP_SOURCE" && mv "$src" "$KEEP_SOURCE" && say "built source directory kept in $KEEP_SOURCE"
fi
echo "$deb"
