#!/bin/sh
# The real-program workload of the folded-tree benchmark and test: GCC's
# cc1 compiling one Valgrind source file (coregrind/m_libcbase.c, -O2),
# 2 G instructions, call paths a few dozen frames deep.
#
#   bench/workloads/cc1.sh VALGRIND_TREE WORKDIR
#
# Preprocesses the file once (WORKDIR/m_libcbase.i) with the include
# paths of the configured Valgrind tree, and prints the command to
# profile.  Exits 3 with a message when gcc's cc1 is not there.
set -eu
tree=$1 work=$2
cc1=$(gcc -print-prog-name=cc1 2>/dev/null || true)
case $cc1 in /*) ;; *) echo "gcc's cc1 is not installed (apt-get install gcc)" >&2; exit 3 ;; esac
[ -x "$cc1" ] || { echo "gcc's cc1 is not installed (apt-get install gcc)" >&2; exit 3; }
mkdir -p "$work"
if [ ! -s "$work/m_libcbase.i" ]; then
    (cd "$tree/coregrind" &&
     gcc -E -DHAVE_CONFIG_H -I. -I.. -I../include -I../VEX/pub \
         -DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 \
         -DVGPV_amd64_linux_vanilla=1 -DVG_LIBDIR='"/usr/libexec/valgrind"' \
         -DVG_PLATFORM='"amd64-linux"' m_libcbase.c -o "$work/m_libcbase.i.tmp") &&
    mv "$work/m_libcbase.i.tmp" "$work/m_libcbase.i"
fi
[ -s "$work/m_libcbase.i" ] || {
    echo "cannot preprocess $tree/coregrind/m_libcbase.c (a configured Valgrind tree)" >&2; exit 1; }
echo "$cc1 -quiet -O2 $work/m_libcbase.i -o $work/m_libcbase.s"
