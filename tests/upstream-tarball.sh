#!/bin/sh
# The pinned tarball: a corrupt file is refused by checksum with a clear
# message, VALGRIND_SHA256 overrides the pin, an empty cache downloads the
# pinned tarball, and a pin no suite carries stops with a clear message.
. "$(dirname "$0")/lib.sh"
fetch=$top/scripts/fetch-upstream.sh

head -c 100000 /dev/urandom > "$scratch/corrupt.tar.bz2"
VALGRIND_TARBALL=$scratch/corrupt.tar.bz2 "$fetch" "$scratch/cache" > "$scratch/out" 2> "$scratch/err"
rc=$?
check "corrupt tarball is refused" [ $rc -ne 0 ]
check "refusal names the checksum mismatch" grep -q "checksum mismatch" "$scratch/err"

sum=$(sha256sum "$scratch/corrupt.tar.bz2" | cut -d' ' -f1)
VALGRIND_TARBALL=$scratch/corrupt.tar.bz2 VALGRIND_SHA256=$sum "$fetch" "$scratch/cache" > "$scratch/out" 2>&1
check "VALGRIND_SHA256 overrides the pin" [ $? -eq 0 ]

# A corrupt file in the cache is not trusted: it is downloaded again.
mkdir -p "$scratch/cache"
cp "$scratch/corrupt.tar.bz2" "$scratch/cache/valgrind_3.27.1.orig.tar.bz2"
got=$("$fetch" "$scratch/cache" 2> "$scratch/err")
check "empty or corrupt cache downloads the pinned tarball" \
    [ "$(sha256sum "$got" 2>/dev/null | cut -d' ' -f1)" = 5d589152eb8071c02feab8ce6ab719e431a1fbc3e2b1700f5432632a8b9264dc ]
check "download uses a private apt state, removed afterwards" [ ! -e "$scratch/cache/apt" ]

VALGRIND_SHA256=0000000000000000000000000000000000000000000000000000000000000000 \
    "$fetch" "$scratch/cache2" > "$scratch/out" 2> "$scratch/err"
rc=$?
check "a pin no suite carries is an error" [ $rc -ne 0 ]
check "... with a clear message" grep -q "no Debian suite" "$scratch/err"
finish
