#!/bin/sh
# Programs of another architecture as commands of this machine: for each
# PROGRAM, DIR/<its name> runs it under QEMU (qemu-user), with the same
# arguments, standard streams and exit status (QEMU by its full path:
# tests run some commands with a PATH of their own).
#
#   tools/qemu-wrap.sh QEMU DIR PROGRAM...
set -eu
qemu=$(command -v "$1") || { echo "qemu-wrap: $1 not found" >&2; exit 1; }
dir=$2
shift 2
mkdir -p "$dir"
for prog in "$@"; do
    abs=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog")
    wrapper=$dir/$(basename "$prog")
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$qemu" "$abs" > "$wrapper"
    chmod +x "$wrapper"
done
