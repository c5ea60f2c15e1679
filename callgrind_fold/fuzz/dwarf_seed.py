#!/usr/bin/env python3
"""Seeds for fuzz/fuzz_dwarf.c from real programs.

    dwarf_seed.py OUTDIR ELF...

Writes OUTDIR/<name of ELF>.seed for each 64-bit little-endian ELF file:
its DWARF sections in fuzz_dwarf.c's order, each as a 2-byte
little-endian length and its bytes (cut at 65535; compressed sections
left empty)."""
import os
import struct
import sys

SECTIONS = (".debug_info", ".debug_abbrev", ".debug_str", ".debug_line_str",
            ".debug_rnglists", ".debug_ranges", ".debug_addr", ".debug_str_offsets",
            ".debug_aranges")
SHF_COMPRESSED = 0x800


def sections_of(data):
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    names_at = headers[shstrndx][4]
    out = {}
    for name_off, kind, flags, _, offset, size, *_ in headers:
        end = data.index(b"\0", names_at + name_off)
        name = data[names_at + name_off:end].decode()
        if kind != 8 and not flags & SHF_COMPRESSED:  # 8: SHT_NOBITS
            out[name] = data[offset:offset + size]
    return out


def main():
    outdir, files = sys.argv[1], sys.argv[2:]
    os.makedirs(outdir, exist_ok=True)
    for path in files:
        with open(path, "rb") as f:
            found = sections_of(f.read())
        seed = b""
        for name in SECTIONS:
            body = found.get(name, b"")[:65535]
            seed += struct.pack("<H", len(body)) + body
        with open(os.path.join(outdir, os.path.basename(path) + ".seed"), "wb") as f:
            f.write(seed)


if __name__ == "__main__":
    main()
