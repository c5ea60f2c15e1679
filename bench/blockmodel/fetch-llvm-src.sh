#!/bin/sh
# Download Debian's llvm-toolchain-19 source (the version of the installed
# llvm-19) with a private apt configuration (the machine's apt state is not
# touched), and unpack only the TableGen files the scheduling models need:
# llvm/include/llvm/**.td and llvm/lib/Target/{X86,AArch64}/*.td.
# Usage: fetch-llvm-src.sh [DIR=cache]
set -e
dir=$(realpath "${1:-cache}")
. "$(dirname "$0")/../../scripts/private-apt.sh"
private_apt_init "$dir/apt" "bookworm bookworm-updates" "http://deb.debian.org/debian"
private_apt apt-get -q update
ver=$(dpkg-query -W -f '${Version}' llvm-19)
(cd "$dir/apt/download" && private_apt apt-get -q source --download-only "llvm-toolchain-19=$ver")
orig=$(ls "$dir"/apt/download/llvm-toolchain-19_*.orig.tar.xz | head -n 1)
mkdir -p "$dir/llvm-src"
nice -n 10 tar -xJf "$orig" -C "$dir/llvm-src" --strip-components=1 --wildcards \
    '*/llvm/include/llvm/*.td' '*/llvm/lib/Target/X86/*.td' '*/llvm/lib/Target/AArch64/*.td'
echo "$orig" > "$dir/llvm-src/ORIGIN"
