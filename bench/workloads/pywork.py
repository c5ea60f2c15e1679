"""CPython benchmark workload: a pure-Python recursive function plus calls
into C code (sorted, zlib.crc32, str methods) on generated data.
Usage: python3 pywork.py [SCALE]   (default 4; work grows linearly)"""
import sys
import zlib


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def make_data(n, seed):
    x = seed
    out = []
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(x)
    return out


def main():
    scale = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    acc = 0
    for r in range(scale):
        acc += fib(18)
        data = make_data(20000, r + 1)
        data = sorted(data)
        blob = b"".join(v.to_bytes(4, "little") for v in data[:5000])
        acc ^= zlib.crc32(blob * 8)
        words = ",".join(str(v) for v in data[:3000]).split(",")
        acc += len(sorted(words, key=str.lower))
    print("pywork:", acc % 1000003)


main()
