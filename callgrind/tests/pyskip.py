# CPython program for the pyskip tests: hides the interpreter at run time
# through a ctypes shim (libclpyshim.so), then measures a loop calling a
# native function (zlib's crc32, in libz), as benchmark harnesses do.
import ctypes
import os
import sys
import zlib

here = os.path.dirname(os.path.abspath(__file__))
shim = ctypes.CDLL(os.path.join(here, "libclpyshim.so"))
exe = os.path.basename(os.path.realpath(sys.executable))
for pattern in (exe, "libpython*", "_ctypes*", "libffi.so*", "zlib.cpython*"):
    shim.shim_add_obj_skip(pattern.encode())

data = bytes(range(256)) * 16
total = 0
shim.shim_start()
for i in range(300):
    total = zlib.crc32(data, total)
shim.shim_stop()
