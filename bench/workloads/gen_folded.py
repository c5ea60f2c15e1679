"""Writes N lines of folded stacks ("a;b;c count") to stdout, for timing
SVG rendering (bench/render-svg.sh, bench/render-bench.sh): a program-like
call tree, a few hot paths from main, then deep and varied stacks under
them (2000 function names, depth up to 28), in no particular order.
Always the same lines for the same N (fixed seed).
Usage: python3 gen_folded.py N"""
import random
import sys

n = int(sys.argv[1])
rnd = random.Random(42)
fn = ["ns::Class%d::method_%d" % (i % 50, i) for i in range(2000)]
hot = [["main", "run", fn[i], fn[i + 1]] for i in range(0, 60, 2)]
out = sys.stdout
for i in range(n):
    stack = hot[rnd.randrange(len(hot))] + [fn[rnd.randrange(200 + (i % 1800))]
                                            for _ in range(rnd.randint(1, 24))]
    out.write(";".join(stack) + " %d\n" % rnd.randint(1, 5000))
