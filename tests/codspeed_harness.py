"""Benchmarks measured the way pytest-codspeed measures them, for the
Python harness tests.  A benchmark script run as

    python bench.py LIBCGSHIM [OBJECT...]

imports this module: through ctypes and tests/cgshim.c it hides the
OBJECTs (CALLGRIND_ADD_OBJ_SKIP of their real paths), and run() measures
one benchmark: ZERO_STATS + START, a function __codspeed_root_frame__
calling it, STOP, DUMP_STATS_AT("bench.py::<name>")."""
import ctypes
import gc
import os
import sys

lib = ctypes.CDLL(sys.argv[1])
lib.cg_add_obj_skip.argtypes = [ctypes.c_char_p]
lib.cg_executed_benchmark.argtypes = [ctypes.c_char_p]


def hide_runtime(metadata):
    """The runner's first requests: a metadata dump, then the objects to hide."""
    lib.cg_executed_benchmark(("Metadata: " + metadata).encode())
    for path in sys.argv[2:]:
        print("ADD_OBJ_SKIP %s -> %d" % (path, lib.cg_add_obj_skip(os.path.realpath(path).encode())))


def run(name, fn):
    fn()  # warm-up, unmeasured (CPython's trampolines are made on a first call)
    gc.collect()
    gc.disable()

    def __codspeed_root_frame__():
        return fn()

    lib.cg_start_benchmark()
    __codspeed_root_frame__()
    lib.cg_stop_benchmark()
    lib.cg_executed_benchmark(("bench.py::" + name).encode())
    gc.enable()
    print("measured bench.py::" + name)


def write_maps():
    """For the checks: where code lies (HARNESS_MAPS, if set)."""
    if os.environ.get("HARNESS_MAPS"):
        with open("/proc/self/maps") as src, open(os.environ["HARNESS_MAPS"], "w") as dst:
            dst.write(src.read())
