"""Tests of callgrind_fold --inline (issue 8), called from run_tests.py.

The programs in tests/progs/inline_*.c are compiled here with -O2 -g (and
stripped, split or built without DWARF), profiled by the real valgrind
with --dump-instr=yes, and the expected frames and shares follow from the
programs' structure (see the comments in the sources).
"""
import glob
import os
import re
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
_builds = {}
_profiles = {}
# Builds left out for a tool this machine lacks: their tests SKIP with this
_not_built = {}


_T = None  # the test runner module (run_tests), set by run()


def _run(cmd, timeout=600, **kw):
    return _T.run(cmd, timeout=timeout, **kw)  # a hang fails (status 124)


def _must(cmd, what, **kw):
    p = _run(cmd, **kw)
    if p.returncode != 0:
        raise RuntimeError("%s failed: %s" % (what, p.stderr.decode()[-400:]))
    return p


def _build_id(path):
    out = _must(["readelf", "-n", path], "readelf").stdout.decode()
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    if not m:
        raise RuntimeError("no build-id in %s" % path)
    return m.group(1)


def _builds_for(cc, work):
    """name -> executable; every variant of the test programs."""
    if _builds:
        return _builds
    d = os.path.join(work, "inline")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    src = lambda n: os.path.join(HERE, "progs", n)
    hot = os.path.join(d, "hot")
    _must([cc, "-O2", "-g", "-Wl,--build-id", "-o", hot, src("inline_hot.c")], "cc hot")
    _builds["hot"] = hot
    # No DWARF at all.
    nod = os.path.join(d, "hot_nodwarf")
    _must([cc, "-O2", "-o", nod, src("inline_hot.c")], "cc hot_nodwarf")
    _builds["nodwarf"] = nod
    # Separate debug file found by .gnu_debuglink, next to the program.
    link = os.path.join(d, "hot_link")
    shutil.copy(hot, link)
    _must(["objcopy", "--only-keep-debug", link, link + ".debug"], "objcopy")
    _must(["strip", "-g", link], "strip")
    _must(["objcopy", "--add-gnu-debuglink=" + link + ".debug", link], "objcopy debuglink")
    _builds["debuglink"] = link
    # No build-id: the debuglink's CRC must match. A debug file of another
    # build (functions aligned differently) under the linked name is
    # stale and is not used, whether libdw reads it or, compressed, our
    # own image of it.
    for variant, extra in (("noid", []), ("stale", ["-falign-functions=64"]),
                           ("stalez", ["-falign-functions=64",
                                       "-Wl,--compress-debug-sections=zlib"])):
        exe = os.path.join(d, "hot_" + variant)
        _must([cc, "-O2", "-g", "-Wl,--build-id=none", "-o", exe, src("inline_hot.c")],
              "cc " + variant)
        _must(["objcopy", "--only-keep-debug", exe, exe + ".debug"], "objcopy")
        _must(["strip", "-g", exe], "strip")
        _must(["objcopy", "--add-gnu-debuglink=" + exe + ".debug", exe], "objcopy debuglink")
        if extra:
            other = exe + "_other"
            _must([cc, "-O2", "-g", "-Wl,--build-id=none"] + extra +
                  ["-o", other, src("inline_hot.c")], "cc " + variant + " other")
            _must(["objcopy", "--only-keep-debug", other, exe + ".debug"], "objcopy other")
        _builds[variant] = exe
    # Separate debug file found by build-id under a debug root.
    bid = os.path.join(d, "hot_bid")
    shutil.copy(hot, bid)
    _must(["objcopy", "--only-keep-debug", bid, bid + ".tmp"], "objcopy")
    _must(["strip", "-g", bid], "strip")
    ident = _build_id(bid)
    root = os.path.join(d, "debugroot")
    os.makedirs(os.path.join(root, ".build-id", ident[:2]))
    os.rename(bid + ".tmp", os.path.join(root, ".build-id", ident[:2], ident[2:] + ".debug"))
    _builds["buildid"] = bid
    _builds["debugroot"] = root
    # Other DWARF layouts: version 4 unit headers; split DWARF (.dwo files
    # found from skeleton units).
    # DWARF 2 (high_pc as an address, .debug_ranges); DWARF compressed in
    # the program itself (-gz: read through an inflated image).
    for variant, flags in (("dwarf4", ["-gdwarf-4"]), ("split", ["-gsplit-dwarf"]),
                           ("dwarf2", ["-gdwarf-2"]), ("gz", ["-gz"])):
        exe = os.path.join(d, "hot_" + variant)
        _must([cc, "-O2", "-g"] + flags + ["-o", exe, src("inline_hot.c")], "cc " + variant,
              cwd=d)
        _builds[variant] = exe
    # A malformed .debug_aranges (a set whose pairs run past its end):
    # not trusted, the units are found another way.
    bad = os.path.join(d, "hot_badaranges")
    garbage = os.path.join(d, "badaranges.bin")
    with open(garbage, "wb") as f:
        f.write(bytes([0x20, 0, 0, 0, 2, 0, 0, 0, 0, 0, 8, 0]) + b"\xff" * 40)
    _must(["objcopy", "--update-section", ".debug_aranges=" + garbage, hot, bad],
          "objcopy aranges")
    _builds["badaranges"] = bad
    # The same with a compressed debug file (as distributions ship them).
    zbid = os.path.join(d, "hot_zbid")
    # (an md5 build-id: not the same file name as hot_bid's debug file)
    _must([cc, "-O2", "-g", "-Wl,--build-id=md5", "-o", zbid, src("inline_hot.c")],
          "cc hot_zbid")
    _must(["objcopy", "--only-keep-debug", "--compress-debug-sections=zlib", zbid,
           zbid + ".tmp"], "objcopy compress")
    _must(["strip", "-g", zbid], "strip")
    ident = _build_id(zbid)
    os.makedirs(os.path.join(root, ".build-id", ident[:2]), exist_ok=True)
    zdebug = os.path.join(root, ".build-id", ident[:2], ident[2:] + ".debug")
    os.rename(zbid + ".tmp", zdebug)
    if not re.search(r"\.debug_info\s+PROGBITS.* C ", _must(["readelf", "-SW", zdebug],
                                                           "readelf").stdout.decode()):
        raise RuntimeError("hot_zbid: .debug_info not compressed")
    _builds["zbuildid"] = zbid
    _builds["zbuildid-id"] = ident
    # A shared library with inlined helpers, and its program.
    lib = os.path.join(d, "libinline_lib.so")
    _must([cc, "-O2", "-g", "-fPIC", "-shared", "-o", lib, src("inline_lib.c")], "cc lib")
    libmain = os.path.join(d, "libmain")
    _must([cc, "-O2", "-g", "-o", libmain, src("inline_libmain.c"), "-L" + d,
           "-linline_lib", "-Wl,-rpath," + d], "cc libmain")
    _builds["lib"] = libmain
    # Units with and without .debug_aranges in one program: the hot loop
    # compiled by clang (which does not write them by default), the rest
    # by gcc (which does), so that the units the table leaves out must be
    # found by their own ranges.
    clang = shutil.which(os.environ.get("CLANG", "clang"))
    if not clang:
        why = "%s is not installed (clang)" % os.environ.get("CLANG", "clang")
        _not_built.update(mixed=why, clang4=why)
    else:
        hot_o, other_o = os.path.join(d, "mix_hot.o"), os.path.join(d, "mix_other.o")
        _must([clang, "-O2", "-g", "-c", "-o", hot_o, src("inline_hot.c")], "clang hot")
        _must([cc, "-O2", "-g", "-c", "-o", other_o, src("inline_other.c")], "cc other")
        mixed = os.path.join(d, "hot_mixed")
        _must([cc, "-o", mixed, hot_o, other_o], "link hot_mixed")
        if "Offset into .debug_info" not in _must(
                ["readelf", "--debug-dump=aranges", mixed], "readelf").stdout.decode():
            raise RuntimeError("hot_mixed: gcc wrote no .debug_aranges")
        _builds["mixed"] = mixed
        # clang's DWARF 4 (no .debug_addr/.debug_str_offsets indexes).
        c4 = os.path.join(d, "hot_clang4")
        _must([clang, "-O2", "-g", "-gdwarf-4", "-o", c4, src("inline_hot.c")], "clang dwarf4")
        _builds["clang4"] = c4
    # C++: member functions and a function template in a namespace
    # inlined into cpp_loop; their names come from linkage names on the
    # declarations (DW_AT_specification), demangled.
    cxx = shutil.which(os.environ.get("CXX", "g++"))
    if not cxx:
        _not_built["cpp"] = "%s is not installed (a C++ compiler)" % os.environ.get("CXX", "g++")
    else:
        cpp = os.path.join(d, "cpp")
        _must([cxx, "-O2", "-g", "-o", cpp, src("inline_cpp.cc")], "c++ cpp")
        _builds["cpp"] = cpp
    # Split DWARF in a package (<program>.dwp, as dwp and rustc
    # -C split-debuginfo=packed write it; libdw before 0.191 does not read
    # it): the GNU extension of DWARF 4 that dwp packs. The same program
    # without its package (and .dwo files): reported, not expanded. Its
    # package with garbage in the index or in place of the DIEs: no crash.
    packer = shutil.which("dwp") or shutil.which("llvm-dwp")
    if not packer:
        _not_built["dwp"] = "neither dwp (binutils) nor llvm-dwp is installed"
    else:
        pd = os.path.join(d, "dwp")
        os.makedirs(pd)
        exe = os.path.join(pd, "hot_dwp")
        _must([cc, "-O2", "-g", "-gdwarf-4", "-gsplit-dwarf", "-o", exe, src("inline_hot.c")],
              "cc dwp", cwd=pd)
        _must([packer, "-e", exe, "-o", exe + ".dwp"], "dwp", cwd=pd)
        for dwo in glob.glob(os.path.join(pd, "*.dwo")):
            os.unlink(dwo)
        _builds["dwp"] = exe
        nopkg = os.path.join(pd, "hot_dwp_nopkg")
        shutil.copy(exe, nopkg)
        _builds["dwp-missing"] = nopkg
        package = open(exe + ".dwp", "rb").read()
        for what, section, keep in (("index", ".debug_cu_index", 16),
                                    ("info", ".debug_info.dwo", 0)):
            bad = os.path.join(pd, "hot_dwp_bad" + what)
            shutil.copy(exe, bad)
            off, size = _section_place(exe + ".dwp", section)
            blob = bytearray(package)
            blob[off + keep:off + size] = bytes((i * 151 + 7) % 251 for i in range(size - keep))
            with open(bad + ".dwp", "wb") as f:
                f.write(bytes(blob))
            _builds["dwp-bad" + what] = bad
    # Rust (rustc's default toolchain): legacy-mangled names of the
    # program's own code, v0-mangled ones of its standard library.
    rustc = shutil.which("rustc")
    if not rustc:
        _not_built["rust"] = "rustc is not installed"
    else:
        rs = os.path.join(d, "rust_wc")
        _must([rustc, "--crate-name", "wc", "-O", "-g", "-o", rs, src("inline_rust.rs")],
              "rustc", cwd=d)
        _builds["rust"] = rs
    # Garbage in place of the program's .debug_info, .debug_abbrev and
    # .debug_line (same sizes): neither reader may crash on it.
    for section in ("info", "abbrev", "line"):
        exe = os.path.join(d, "hot_bad" + section)
        blob = os.path.join(d, "bad" + section + ".bin")
        size = _section_size(hot, ".debug_" + section)
        with open(blob, "wb") as f:
            f.write(bytes((i * 151 + 7) % 251 for i in range(size)))
        _must(["objcopy", "--update-section", ".debug_%s=%s" % (section, blob), hot, exe],
              "objcopy " + section)
        _builds["bad" + section] = exe
    return _builds


def _section_place(path, section):
    """(file offset, size) of a section."""
    out = _must(["readelf", "-SW", path], "readelf").stdout.decode()
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == section:
            return int(f[4], 16), int(f[5], 16)
    raise RuntimeError("%s: no %s" % (path, section))


def _section_size(path, section):
    return _section_place(path, section)[1]


def _profile(valgrind, work, exe, opts):
    key = (exe, tuple(opts))
    if key not in _profiles:
        tag = re.sub(r"[^A-Za-z0-9]+", "_", os.path.basename(exe) + "_" + "_".join(opts))
        out = os.path.join(work, "inline", "cg_" + tag + ".out")
        for old in glob.glob(out + "*"):
            os.unlink(old)
        p = _run([valgrind, "--tool=callgrind", "--callgrind-out-file=" + out] + list(opts)
                 + [exe])
        if not os.path.exists(out):
            raise RuntimeError("valgrind failed: %s" % p.stderr.decode()[-400:])
        _profiles[key] = out
    return _profiles[key]


def _shift_object(src, dst, obj_suffix, delta):
    """Copy a --compress-pos=no profile, adding delta to the instruction
    address of every cost line of the object ending in obj_suffix: as if
    callgrind had written run-time addresses of a mapped PIE."""
    ids, ob = {}, ""
    with open(src) as f, open(dst, "w") as o:
        for line in f:
            m = re.match(r"ob=(?:\((\d+)\))? ?(.*)$", line.rstrip("\n"))
            if m:
                if m.group(1) and m.group(2):
                    ids[m.group(1)] = m.group(2)
                ob = m.group(2) or ids.get(m.group(1), "")
            elif re.match(r"0x[0-9a-f]+ ", line) and ob.endswith(obj_suffix):
                addr, rest = line.split(" ", 1)
                line = "%#x %s" % (int(addr, 16) + delta, rest)
            o.write(line)


def _self(stacks, frame):
    return sum(c for s, c in stacks if s[-1] == frame)


def _under(stacks, frame):
    return sum(c for s, c in stacks if frame in s)


def run(T, valgrind, cc, binary, tag):
    global _T
    _T = T
    try:
        _tests(T, valgrind, cc, binary, tag)
    except RuntimeError as e:
        T.report("FAIL", tag + "inline/setup", str(e))


def _tests(T, valgrind, cc, binary, tag):
    work = T.WORK
    b = _builds_for(cc, work)
    name = lambda n: tag + "inline/" + n
    instr = ["--dump-instr=yes"]

    def fold(args, files, n):
        """Run, check status 0, form and the sum; returns (stacks, stderr)."""
        rc, out, err = T.fold(binary, list(args) + list(files))
        if rc != 0:
            T.check(name(n), False, "rc %d: %s" % (rc, err.strip()))
            return None, err
        problem = T.well_formed(out)
        if problem:
            T.check(name(n + "/well-formed"), False, problem)
            return None, err
        stacks = T.parse_folded(out)
        total, want = sum(c for _, c in stacks), T.totals_of(list(files), "Ir")
        T.check(name(n + "/sum-equals-totals"), total == want,
                "folded %d, totals %d" % (total, want))
        return stacks, err

    def helper_facts(stacks, caller, a, b_, lo, hi):
        """a [inlined] only directly below caller, b_ only below a, and
        b_'s self cost lo..hi times a's."""
        fa, fb = a + " [inlined]", b_ + " [inlined]"
        problems = []
        if not any(s[-3:] == [caller, fa, fb] for s, _ in stacks):
            problems.append("no %s;%s;%s stack" % (caller, fa, fb))
        if not T.follows(stacks, fa, {caller}):
            problems.append("%s not always below %s" % (fa, caller))
        if not T.follows(stacks, fb, {fa}):
            problems.append("%s not always below %s" % (fb, fa))
        sa, sb = _self(stacks, fa), _self(stacks, fb)
        if not (sa > 0 and lo * sa <= sb <= hi * sa):
            problems.append("self %s %d, %s %d: want ratio %g..%g" % (fa, sa, fb, sb, lo, hi))
        # Nearly all of the caller's cost is the helpers' loops.
        if not sa + sb > 0.8 * _under(stacks, caller):
            problems.append("helpers %d of %s's %d" % (sa + sb, caller, _under(stacks, caller)))
        return problems

    # 1. -O2 -g program: helpers as frames below hot_loop with the right
    # shares; without --inline no such frames; hot_loop's subtree keeps
    # its cost exactly.
    prof = _profile(valgrind, work, b["hot"], instr)
    plain, _ = fold([], [prof], "hot/without-inline")
    inl, err = fold(["--inline"], [prof], "hot/with-inline")
    if plain is not None:
        T.check(name("hot/without-inline/no-inlined-frames"),
                not any("[inlined]" in f or f in ("helper_a", "helper_b")
                        for f in T.frames_of(plain)))
    if inl is not None:
        problems = helper_facts(inl, "hot_loop", "helper_a", "helper_b", 2.0, 4.5)
        T.check(name("hot/with-inline/helpers-below-hot_loop-with-shares"), not problems,
                "; ".join(problems))
        T.check(name("hot/with-inline/call-from-inlined-code"),
                T.follows(inl, "tally", {"helper_a [inlined]"}) and
                any(s[-2:] == ["helper_a [inlined]", "tally"] for s, _ in inl))
        T.check(name("hot/with-inline/no-report-for-program"),
                "hot" not in " ".join(l for l in err.splitlines() if "--inline" in l), err)
        lines = [l for l in err.splitlines() if "unexpanded" in l]
        objs = [l.split(": ")[3] if len(l.split(": ")) > 3 else l for l in lines]
        T.check(name("hot/with-inline/each-object-reported-once"),
                len(objs) == len(set(objs)), err)
    if plain is not None and inl is not None:
        T.check(name("hot/subtree-cost-unchanged"),
                _under(plain, "hot_loop") == _under(inl, "hot_loop") and
                _self(plain, "hot_loop") == _self(inl, "hot_loop") +
                _self(inl, "helper_a [inlined]") + _self(inl, "helper_b [inlined]"),
                "plain %d inline %d" % (_under(plain, "hot_loop"), _under(inl, "hot_loop")))
        rc, out, _ = T.fold(binary, ["--inline", "--frame=fn+obj", prof])
        T.check(name("hot/frame=fn+obj"),
                rc == 0 and "helper_a [inlined] [hot]" in out and "hot_loop [hot]" in out)

    # 1b. cfni= lines (callgrind --read-inline-info=yes, with the
    # runner's --compress-strings=no --dump-line=no): without --inline the
    # innermost inlined function of each cost is a frame below hot_loop,
    # calls made from it below it, hot_loop's subtree cost unchanged; with
    # --inline the debug info's frames win, the same as without cfni=.
    pc = _profile(valgrind, work, b["hot"],
                  instr + ["--read-inline-info=yes", "--compress-strings=no", "--dump-line=no"])
    cf, _ = fold([], [pc], "hot/cfni")
    if cf is not None and plain is not None:
        fa, fb = "helper_a [inlined]", "helper_b [inlined]"
        T.check(name("hot/cfni/inlined-frames-below-hot_loop"),
                _self(cf, fa) > 0 and _self(cf, fb) > 0 and
                T.follows(cf, fa, {"hot_loop"}) and T.follows(cf, fb, {"hot_loop", fa}),
                "self %d %d" % (_self(cf, fa), _self(cf, fb)))
        T.check(name("hot/cfni/call-from-inlined-code"),
                any(s[-2:] == [fa, "tally"] for s, _ in cf))
        T.check(name("hot/cfni/subtree-cost-unchanged"),
                _under(cf, "hot_loop") == _under(plain, "hot_loop"),
                "cfni %d plain %d" % (_under(cf, "hot_loop"), _under(plain, "hot_loop")))
    cfi, _ = fold(["--inline"], [pc], "hot/cfni-with-inline")
    if cfi is not None and inl is not None:
        hot = lambda ss: sorted(x for x in ss if "hot_loop" in x[0])
        T.check(name("hot/cfni-with-inline/same-as-without-cfni"), hot(cfi) == hot(inl))

    # 2. Format variants give the very same stacks.
    for vname, opts in (("compress-pos=no", ["--compress-pos=no"]),
                        ("collect-jumps=yes", ["--collect-jumps=yes"]),
                        ("dump-line=no", ["--dump-line=no"]),
                        ("compress-strings=no", ["--compress-strings=no"])):
        p2 = _profile(valgrind, work, b["hot"], instr + opts)
        st, _ = fold(["--inline"], [p2], "hot/" + vname)
        if st is not None and inl is not None:
            hot = lambda ss: [x for x in ss if "hot_loop" in x[0]]
            T.check(name("hot/" + vname + "/same-as-default"), hot(st) == hot(inl))

    # 3. Exact mode: --separate-callers contexts stay exact with --inline.
    p3 = _profile(valgrind, work, b["hot"], instr + ["--separate-callers=30"])
    st, err = fold(["--inline"], [p3], "hot/separate-callers=30")
    if st is not None:
        problems = helper_facts(st, "hot_loop", "helper_a", "helper_b", 2.0, 4.5)
        # the program's own functions, not runtime ones that contain
        # their names (ld.so's dl_main)
        mine = [w for w in ("hot_loop", "helper_\\w+", "tally", "main")
                if re.search(r"(?<!\w)" + w + r"\b", err)]
        T.check(name("hot/separate-callers=30/exact"), not problems and not mine,
                "; ".join(problems) + " " + err)

    # 3b. Several dumps (parts and files): objects met in later parts are
    # prepared too (debug files are inflated on a second thread as their
    # names are read: prefetch.c), the sum still exact.
    dumps = os.path.join(work, "inline", "dumps")
    shutil.rmtree(dumps, ignore_errors=True)
    os.makedirs(dumps)
    _run([valgrind, "--tool=callgrind", "--dump-instr=yes", "--dump-every-bb=20000",
          "--callgrind-out-file=" + os.path.join(dumps, "cg.out")] + [b["zbuildid"]])
    files = sorted(glob.glob(os.path.join(dumps, "cg.out*")))
    st, err = fold(["--inline", "--inline-cache=no", "--debug-dir=" + b["debugroot"]], files,
                   "hot/several-dumps")
    if st is not None:
        problems = helper_facts(st, "hot_loop", "helper_a", "helper_b", 2.0, 4.5)
        T.check(name("hot/several-dumps/helpers-found"), len(files) > 3 and not problems,
                "%d files; %s %s" % (len(files), "; ".join(problems), err))

    # 4. Addresses written as run-time addresses (a load bias to find).
    p4 = _profile(valgrind, work, b["hot"], instr + ["--compress-pos=no"])
    shifted = os.path.join(work, "inline", "shifted.out")
    _shift_object(p4, shifted, "/hot", 0x4000000)
    st, err = fold(["--inline"], [shifted], "hot/load-bias")
    ref, _ = fold(["--inline"], [p4], "hot/load-bias-reference")
    if st is not None and ref is not None:
        T.check(name("hot/load-bias/same-stacks"), st == ref, err)

    # 5. Shared library.
    p5 = _profile(valgrind, work, b["lib"], instr)
    st, err = fold(["--inline"], [p5], "shared-lib")
    if st is not None:
        problems = helper_facts(st, "lib_work", "lib_helper_x", "lib_helper_y", 2.5, 6.0)
        T.check(name("shared-lib/helpers-below-lib_work"), not problems, "; ".join(problems))

    # 6. Stripped programs with separate debug files.
    p6 = _profile(valgrind, work, b["debuglink"], instr)
    st, err = fold(["--inline"], [p6], "debuglink")
    if st is not None:
        problems = helper_facts(st, "hot_loop", "helper_a", "helper_b", 2.0, 4.5)
        T.check(name("debuglink/helpers-found"), not problems, "; ".join(problems) + err)
    p6 = _profile(valgrind, work, b["noid"], instr)
    st, err = fold(["--inline"], [p6], "debuglink-crc")
    if st is not None:
        problems = helper_facts(st, "hot_loop", "helper_a", "helper_b", 2.0, 4.5)
        T.check(name("debuglink-crc/matching-used"), not problems, "; ".join(problems) + err)
    for variant in ("stale", "stalez"):
        p6 = _profile(valgrind, work, b[variant], instr)
        st, err = fold(["--inline"], [p6], "debuglink-crc/" + variant)
        if st is not None:
            reports = [l for l in err.splitlines() if b[variant] + ":" in l]
            T.check(name("debuglink-crc/%s-not-used" % variant),
                    len(reports) == 1 and "unexpanded" in reports[0] and
                    "helper_a [inlined]" not in T.frames_of(st) and
                    "helper_b [inlined]" not in T.frames_of(st), err)
    p7 = _profile(valgrind, work, b["buildid"], instr)
    st, err = fold(["--inline", "--debug-dir=" + b["debugroot"]], [p7], "build-id")
    if st is not None:
        problems = helper_facts(st, "hot_loop", "helper_a", "helper_b", 2.0, 4.5)
        T.check(name("build-id/helpers-found"), not problems, "; ".join(problems) + err)
    st, err = fold(["--inline"], [p7], "build-id/without-debug-dir")
    if st is not None:
        reports = [l for l in err.splitlines() if b["buildid"] + ":" in l]
        T.check(name("build-id/without-debug-dir/reported-once-unexpanded"),
                len(reports) == 1 and "unexpanded" in reports[0] and
                "helper_a [inlined]" not in T.frames_of(st), err)

    # 6b. Units missing from .debug_aranges (clang's) next to units in it.
    if "mixed" in b:
        pm = _profile(valgrind, work, b["mixed"], instr)
        st, err = fold(["--inline"], [pm], "aranges-partial")
        if st is not None:
            problems = helper_facts(st, "hot_loop", "helper_a", "helper_b", 1.5, 6.0)
            T.check(name("aranges-partial/helpers-found"), not problems,
                    "; ".join(problems) + err)
    else:
        T.report("SKIP", name("aranges-partial/helpers-found"), _not_built["mixed"])

    # 6b'. DWARF 4 and 2, split DWARF, DWARF compressed in the program,
    # malformed .debug_aranges.
    for variant in ("dwarf4", "dwarf2", "split", "gz", "badaranges"):
        pv = _profile(valgrind, work, b[variant], instr)
        st, err = fold(["--inline"], [pv], variant)
        if st is not None:
            problems = helper_facts(st, "hot_loop", "helper_a", "helper_b", 2.0, 4.5)
            T.check(name(variant + "/helpers-found"), not problems, "; ".join(problems) + err)

    # 6b''. Split DWARF in a package: expanded as the program's own
    # DWARF is; without the package, reported with its cost; a corrupt
    # package is no crash (the sum stays exact, the run succeeds).
    if "dwp" in b:
        pv = _profile(valgrind, work, b["dwp"], instr)
        st, err = fold(["--inline", "--inline-cache=no"], [pv], "dwp")
        if st is not None:
            problems = helper_facts(st, "hot_loop", "helper_a", "helper_b", 2.0, 4.5)
            T.check(name("dwp/helpers-found"), not problems and b["dwp"] + ":" not in err,
                    "; ".join(problems) + err)
        pv = _profile(valgrind, work, b["dwp-missing"], instr)
        st, err = fold(["--inline", "--inline-cache=no"], [pv], "dwp-missing")
        if st is not None:
            reports = [l for l in err.splitlines() if b["dwp-missing"] + ":" in l]
            T.check(name("dwp-missing/reported-with-cost"),
                    len(reports) == 1 and "split DWARF was not found" in reports[0] and
                    re.search(r"; [1-9]\d* address\(es\) with [1-9]\d* self cost",
                              reports[0]) is not None and
                    "helper_a [inlined]" not in T.frames_of(st), err)
        for what in ("index", "info"):
            pv = _profile(valgrind, work, b["dwp-bad" + what], instr)
            fold(["--inline", "--inline-cache=no"], [pv], "dwp-corrupt-" + what)
    else:
        for test in ("dwp/helpers-found", "dwp-missing/reported-with-cost"):
            T.report("SKIP", name(test), _not_built["dwp"])

    # 6b'''. Rust: no report of the program (its names match its symbol
    # table once demangled as callgrind does, legacy and v0), its own and
    # std's inlined frames, named as callgrind names functions.
    if "rust" in b:
        pr = _profile(valgrind, work, b["rust"], instr)
        st, err = fold(["--inline", "--inline-cache=no"], [pr], "rust")
        if st is not None:
            frames = T.frames_of(st)
            inlined = [f for f in frames if f.endswith(" [inlined]")]
            T.check(name("rust/program-not-reported"), b["rust"] + ":" not in err, err)
            T.check(name("rust/own-inlined-frames"),
                    "wc::count_words [inlined]" in frames and "wc::normalize [inlined]" in frames
                    and T.follows(st, "wc::normalize [inlined]",
                                  {"wc::count_words [inlined]"}),
                    " ".join(f for f in inlined if "wc::" in f)[:300])
            std = [f for f in inlined if f.startswith(("core::", "alloc::", "std::", "<"))]
            T.check(name("rust/std-inlined-frames"),
                    any("HashMap" in f for f in std) and any("sort" in f for f in std),
                    " ".join(std)[:300])
            mangled = [f for f in inlined
                       if f.startswith(("_R", "_ZN")) or re.search(r"::h[0-9a-f]{16}\b", f)]
            T.check(name("rust/inlined-names-demangled"), not mangled and len(inlined) > 50,
                    " ".join(mangled)[:300])
    else:
        for test in ("program-not-reported", "own-inlined-frames", "std-inlined-frames",
                     "inlined-names-demangled"):
            T.report("SKIP", name("rust/" + test), _not_built["rust"])

    # 6c. Compressed debug files: inflated once, then read from the cache.
    _cache_tests(T, valgrind, work, b, binary, name, fold, helper_facts, instr)

    # 6d. Unit indexes kept in the cache.
    _index_cache_tests(T, work, b, binary, name, fold, helper_facts, prof)

    # 6d'. With lines (-f pprof): each cost at its DWARF line, inlined
    # frames at their call lines (tests/inline_lines_tests.py).
    import inline_lines_tests
    inline_lines_tests.run(T, name, binary, b, lambda exe: _profile(valgrind, work, exe, instr))

    # 6e. C++ names, and the direct DIE reader against libdw.
    if "cpp" in b:
        pc = _profile(valgrind, work, b["cpp"], instr)
        st, err = fold(["--inline"], [pc], "c++")
        if st is not None:
            loop, tw = "cpp_loop(unsigned long)", \
                "unsigned long geo::twice<unsigned long>(unsigned long) [inlined]"
            add = "geo::Acc::add(unsigned long) [inlined]"
            T.check(name("c++/demangled-frames-in-order"),
                    any(s[-3:] == [loop, tw, add] for s, _ in st) and
                    T.follows(st, add, {tw}) and T.follows(st, tw, {loop}) and
                    _self(st, add) > 10 * _self(st, loop), err)
    else:
        T.report("SKIP", name("c++/demangled-frames-in-order"), _not_built["cpp"])
    _reader_tests(T, valgrind, work, b, binary, name, instr)

    # 7. An object without DWARF: unexpanded, one report, status 0.
    p8 = _profile(valgrind, work, b["nodwarf"], instr)
    st, err = fold(["--inline"], [p8], "no-dwarf")
    plain8, _ = fold([], [p8], "no-dwarf/without-inline")
    if st is not None and plain8 is not None:
        reports = [l for l in err.splitlines() if b["nodwarf"] + ":" in l]
        hot = lambda ss: [x for x in ss if "hot_loop" in x[0]]
        T.check(name("no-dwarf/reported-once"),
                len(reports) == 1 and "DWARF" in reports[0] and
                re.search(r"\d+ address", reports[0]) is not None, err)
        T.check(name("no-dwarf/unexpanded"), hot(st) == hot(plain8) and hot(st) != [])

    # 7b. A profile naming a FIFO, a directory or a device as its object
    # (a hostile or stale file): not opened as an ELF file, not waited on.
    fifo = os.path.join(work, "inline", "object.fifo")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    text = open(p8).read()
    for kind, path in (("fifo", fifo), ("directory", os.path.join(work, "inline")),
                       ("device", "/dev/zero")):
        bad = os.path.join(work, "inline", "cg_named_" + kind + ".out")
        with open(bad, "w") as f:
            f.write(text.replace(b["nodwarf"], path))
        p = T.run([binary, "--inline", bad], timeout=60)
        err = p.stderr.decode("utf-8", "replace")
        stacks = T.parse_folded(p.stdout.decode()) if p.returncode == 0 else []
        reports = [l for l in err.splitlines() if path + ":" in l]
        T.check(name("object-not-a-regular-file/" + kind),
                p.returncode == 0 and sum(c for _, c in stacks) == T.totals_of([bad], "Ir")
                and len(reports) == 1 and "not a regular file" in reports[0],
                "rc %d: %s" % (p.returncode, err[-300:]))

    # 8. Without --dump-instr=yes data: a clear error.
    p9 = _profile(valgrind, work, b["hot"], [])
    rc, out, err = T.fold(binary, ["--inline", p9])
    T.check(name("needs-dump-instr"),
            rc != 0 and out == "" and "--dump-instr=yes" in err, "rc %d %s" % (rc, err))

    # 9. Folded stacks have no addresses: passed through, with a warning.
    folded = os.path.join(work, "inline", "hot.folded")
    rc1, _, _ = T.fold(binary, ["-o", folded, prof])
    rc, out, err = T.fold(binary, ["--inline", folded])
    T.check(name("folded-input-passed-through"),
            rc1 == 0 and rc == 0 and out == open(folded).read() and "unexpanded" in err, err)

    rc, out, _ = T.fold(binary, ["--help"])
    T.check(name("help-mentions-inline"), rc == 0 and "--inline" in out and
            "--debug-dir" in out and "--inline-cache" in out)


def _cache_tests(T, valgrind, work, b, binary, name, fold, helper_facts, instr):
    """--inline-cache: a compressed debug file's inflated copy is kept by
    build-id, read back on later runs, and never trusted blindly."""
    prof = _profile(valgrind, work, b["zbuildid"], instr)
    ident = b["zbuildid-id"]
    base = os.path.join(work, "inline", "cache")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    cdir = os.path.join(base, "dir")
    entry = os.path.join(cdir, ident + ".v1")
    args = ["--inline", "--debug-dir=" + b["debugroot"]]

    def helpers(st, err, n, a="helper_a"):
        problems = helper_facts(st, "hot_loop", a, "helper_b", 2.0, 4.5) if st else ["failed"]
        T.check(name(n), not problems, "; ".join(problems) + err)

    st, err = fold(args + ["--inline-cache=" + cdir], [prof], "cache/first-run")
    helpers(st, err, "cache/first-run/helpers-found")
    T.check(name("cache/first-run/entry-written"), os.path.isfile(entry),
            str(os.listdir(cdir) if os.path.isdir(cdir) else "no directory"))
    if not os.path.isfile(entry):
        return
    size = os.path.getsize(entry)
    st2, err = fold(args + ["--inline-cache=" + cdir], [prof], "cache/second-run")
    T.check(name("cache/second-run/same-stacks"), st2 is not None and st2 == st, err)

    # The entry is what a later run reads: a name changed in it shows.
    data = open(entry, "rb").read()
    with open(entry, "wb") as f:
        f.write(data.replace(b"helper_a", b"helper_Q"))
    st3, err = fold(args + ["--inline-cache=" + cdir], [prof], "cache/entry-is-read")
    helpers(st3, err, "cache/entry-is-read/its-names-shown", "helper_Q")

    # Entries that are not this file's image are ignored and rewritten.
    def bad_entry(n, content):
        with open(entry, "wb") as f:
            f.write(content)
        st4, err4 = fold(args + ["--inline-cache=" + cdir], [prof], "cache/" + n)
        T.check(name("cache/" + n + "/same-stacks"), st4 == st, err4)
        T.check(name("cache/" + n + "/rewritten"),
                os.path.getsize(entry) == size and open(entry, "rb").read() == data)
    bad_entry("truncated-entry", data[:len(data) // 3])
    bad_entry("garbage-entry", b"\x7fELF" + b"\xff" * 4000)
    bad_entry("other-build-id", data.replace(bytes.fromhex(ident), bytes(len(ident) // 2)))

    # Where: $XDG_CACHE_HOME/callgrind_fold, else ~/.cache/callgrind_fold;
    # nowhere with --inline-cache=no; an unusable directory is no error.
    xdg, home = os.path.join(base, "xdg"), os.path.join(base, "home")
    rc, _, err = T.fold(binary, args + [prof], env={"XDG_CACHE_HOME": xdg})
    T.check(name("cache/default-xdg"), rc == 0 and os.path.isfile(
        os.path.join(xdg, "callgrind_fold", ident + ".v1")), err)
    rc, _, err = T.fold(binary, args + [prof], env={"XDG_CACHE_HOME": None, "HOME": home})
    T.check(name("cache/default-home"), rc == 0 and os.path.isfile(
        os.path.join(home, ".cache", "callgrind_fold", ident + ".v1")), err)
    off = os.path.join(base, "off")
    rc, out, err = T.fold(binary, args + ["--inline-cache=no", prof],
                          env={"XDG_CACHE_HOME": off, "HOME": off})
    T.check(name("cache/no"), rc == 0 and "helper_a [inlined]" in out and
            not os.path.exists(off), err)
    blocker = os.path.join(base, "a-file")
    open(blocker, "w").close()
    st5, err = fold(args + ["--inline-cache=" + os.path.join(blocker, "sub")], [prof],
                    "cache/unusable-dir")
    T.check(name("cache/unusable-dir/same-stacks-quietly"),
            st5 == st and "cache" not in err.lower(), err)


def _reader_tests(T, valgrind, work, b, binary, name, instr):
    """The DIEs of plain units are read directly (dieread.c), anything
    else through libdw. CALLGRIND_FOLD_DIE_READER=direct forbids the
    fallback, =libdw forbids the direct reader: the two must give the very
    same stacks wherever the direct reader applies (programs by gcc and
    clang, DWARF 4 and 5, C and C++, shared library, libc's compressed
    debug file when installed), and split DWARF must still be expanded
    (through libdw) without it."""
    def run(prof, reader, extra=()):
        rc, out, err = T.fold(binary, ["--inline", "--inline-cache=no"] + list(extra) + [prof],
                              env={"CALLGRIND_FOLD_DIE_READER": reader})
        return out if rc == 0 else "rc %d: %s" % (rc, err)

    cases = [("hot", ()), ("lib", ()), ("dwarf4", ()), ("dwarf2", ()), ("gz", ()),
             ("mixed", ()), ("clang4", ()), ("cpp", ()),
             ("zbuildid", ("--debug-dir=" + b["debugroot"],))]
    for variant, extra in cases:
        if variant not in b:
            why = _not_built.get(variant)
            T.report("SKIP" if why else "FAIL", name("die-reader/%s/direct-equals-libdw" % variant),
                     why or "no build of " + variant)
            continue
        prof = _profile(valgrind, work, b[variant], instr)
        direct, libdw = run(prof, "direct", extra), run(prof, "libdw", extra)
        T.check(name("die-reader/%s/direct-equals-libdw" % variant),
                direct == libdw and "[inlined]" in direct,
                "direct:\n%s\nlibdw:\n%s" % (direct[-600:], libdw[-600:]))
    prof = _profile(valgrind, work, b["split"], instr)
    direct, libdw, both = run(prof, "direct"), run(prof, "libdw"), run(prof, "")
    T.check(name("die-reader/split/through-libdw"),
            both == libdw and "helper_a [inlined]" in both and
            "helper_a [inlined]" not in direct, both[-600:])
    # The prefetch thread and the main thread share a job queue: the main
    # thread claims jobs the thread has not started, while the thread
    # weighs jobs without the lock (slowed down here, so that claims land
    # in between: a job claimed after being chosen was once started
    # twice, and the thread spun). Each run must finish, all alike.
    if not name("").startswith("asan"):  # the plain build: quick runs
        variant = "mixed" if "mixed" in b else "lib"
        prof = _profile(valgrind, work, b[variant], instr)
        outs = set()
        stuck = 0
        slow = dict(os.environ, CALLGRIND_FOLD_PREFETCH_DELAY_US="10000")
        for _ in range(40):
            p = _run([binary, "--inline", "--inline-cache=no", prof], timeout=30, env=slow)
            stuck += p.returncode == 124
            outs.add(p.stdout if p.returncode == 0 else b"rc %d" % p.returncode)
        T.check(name("prefetch/40-runs-finish-alike"), stuck == 0 and len(outs) == 1,
                "%d stuck, %d different outputs" % (stuck, len(outs)))
    # Garbage DWARF: a clear run (status 0, the sum kept), never a crash.
    for variant in ("badinfo", "badabbrev"):
        prof = _profile(valgrind, work, b[variant], instr)
        for reader in ("", "direct", "libdw"):
            rc, out, err = T.fold(binary, ["--inline", "--inline-cache=no", prof],
                                  env={"CALLGRIND_FOLD_DIE_READER": reader})
            total = sum(c for _, c in T.parse_folded(out)) if rc == 0 else -1
            T.check(name("die-reader/%s/%s/no-crash" % (variant, reader or "both")),
                    rc == 0 and total == T.totals_of([prof], "Ir"), "rc %d: %s" % (rc, err))


def _index_cache_tests(T, work, b, binary, name, fold, helper_facts, prof):
    """<build-id>.index.v2: the program's unit indexes, kept by the first
    run, read by the next, rebuilt when not well-formed."""
    import struct
    base = os.path.join(work, "inline", "index-cache")
    shutil.rmtree(base, ignore_errors=True)
    entry = os.path.join(base, _build_id(b["hot"]) + ".index.v2")
    args = ["--inline", "--inline-cache=" + base]

    def helpers_found(st, err):
        return st is not None and not helper_facts(st, "hot_loop", "helper_a", "helper_b",
                                                   2.0, 4.5)

    st, err = fold(args, [prof], "index-cache/first-run")
    T.check(name("index-cache/first-run/helpers-found"), helpers_found(st, err), err)
    T.check(name("index-cache/first-run/written"), os.path.isfile(entry),
            str(os.listdir(base) if os.path.isdir(base) else "no directory"))
    if not os.path.isfile(entry):
        return
    data = open(entry, "rb").read()
    st2, err = fold(args, [prof], "index-cache/second-run")
    T.check(name("index-cache/second-run/same-stacks"), st2 == st, err)
    # What a later run reads: an index without functions, well-formed,
    # leaves the program's addresses outside its functions (no inlined
    # frames of its own; libc's, with their own index, may have some).
    head = data[:16]  # magic, size of .debug_info
    recs = [data[i:i + 32] for i in range(16, len(data), 32)]
    markers = [r for r in recs if struct.unpack("<4Q", r)[3] == 0]
    with open(entry, "wb") as f:
        f.write(head + b"".join(markers))
    st3, err = fold(args, [prof], "index-cache/entry-is-read")
    T.check(name("index-cache/entry-is-read/no-inlined-frames"),
            st3 is not None and markers and
            not any(fr.startswith("helper_") for fr in T.frames_of(st3)) and
            "hot_loop" in T.frames_of(st3), err)
    # Not well-formed: ignored (same stacks) and written again.
    for n, content in (("garbage", b"CFIDX1\n\0" + b"\x01" * 100),
                       ("truncated", data[:len(data) - 7]),
                       ("function-before-unit", head + recs[1] + recs[0] +
                        b"".join(recs[2:])),
                       ("other-dwarf-size", data[:8] + struct.pack("<Q", 12345) +
                        data[16:])):
        with open(entry, "wb") as f:
            f.write(content)
        st4, err = fold(args, [prof], "index-cache/" + n)
        T.check(name("index-cache/%s/same-stacks" % n), st4 == st, err)
        T.check(name("index-cache/%s/rewritten" % n), open(entry, "rb").read() == data)
    off = os.path.join(base, "off")
    rc, _, err = T.fold(binary, ["--inline", "--inline-cache=no", prof],
                        env={"XDG_CACHE_HOME": off, "HOME": off})
    T.check(name("index-cache/no"), rc == 0 and not os.path.exists(off), err)
