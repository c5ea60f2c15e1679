"""Running LLVM's llvm-mc and llvm-mca for the cycle-table generators
(gen-cycle-table.py for amd64, gen-cycle-table-arm64.py for arm64)."""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile


def run(cmd, inp, timeout=None):
    """cmd with a temporary file holding inp as its last argument."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(inp)
        name = f.name
    try:
        p = subprocess.run(cmd + [name], capture_output=True, text=True,
                           timeout=timeout)
    finally:
        os.unlink(name)
    return p


def llvm_version(llvm_mca):
    out = subprocess.run([llvm_mca, "--version"], capture_output=True, text=True).stdout
    return re.search(r"LLVM version (\S+)", out).group(1)


def costs(llvm_mca, mcpu, texts, triple="x86_64", mattr=None):
    """{text: (ct, cl)} in centi-cycles for every text llvm-mca models."""
    # llvm-mca's time grows faster than linearly with the input's length, so
    # it gets the texts in chunks, two at a time (the machines have 2 cores).
    cmd = [llvm_mca, "-mtriple=" + triple, "-mcpu=" + mcpu]
    if mattr:
        cmd.append("-mattr=" + mattr)
    chunks = [texts[i:i + 2000] for i in range(0, len(texts), 2000)]
    out = {}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for part in pool.map(lambda c: costs_chunk(cmd, c), chunks):
            out.update(part)
    return out


def costs_chunk(cmd, texts):
    """As costs(), for one chunk.  A chunk llvm-mca does not finish in 10 s
    (its pipeline simulation stalls on some instructions of some models) is
    split until the stalling instruction is alone; it gets no costs."""
    src = "\n".join(texts) + "\n"
    try:
        p = run(cmd + ["-iterations=1", "-instruction-info", "-resource-pressure=0",
                       "-summary-view=0", "-skip-unsupported-instructions=any"],
                src, timeout=10)
    except subprocess.TimeoutExpired:
        if len(texts) == 1:
            print("gen-cycle-table: %s: llvm-mca stalls on '%s'" % (cmd[2][6:], texts[0]),
                  file=sys.stderr)
            return {}
        half = len(texts) // 2
        out = costs_chunk(cmd, texts[:half])
        out.update(costs_chunk(cmd, texts[half:]))
        return out
    out = {}
    inside = False
    for line in p.stdout.splitlines():
        if "Instructions:" in line:
            inside = True
            continue
        if not inside:
            continue
        m = re.match(r"\s*(\d+)\s+(\d+)\s+(\d+\.\d+)\s+(\*?)\s+(\*?)\s+(U?)\s+(.*)$", line)
        if not m:
            if line.strip() == "":
                inside = False
            continue
        text = re.sub(r"\s+", " ", m.group(7).strip())
        lat, rthr = int(m.group(2)), float(m.group(3))
        out[text] = (min(round(rthr * 100), 0xFFFE), min(lat * 100, 0xFFFE))
    return out
