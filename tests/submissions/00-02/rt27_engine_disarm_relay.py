"""Known-wrong Value that uses torch.autograd and hides it from both records (lead, issue 38, after rt26).

rt26_engine_autograd_relay's engine and relay (the worker's own record rewritten on its way out), plus a cell that
first takes the kernel's breakpoint out of autograd's engine in its own process, three ways a student who has read
course/sandbox/native_calls.py could: the function's original first byte written back through /proc/self/mem; the
breakpoint's private page dropped with madvise(MADV_DONTNEED) so that the file's own page comes back; the page made
writable with mprotect, the byte written, the page made executable again. Each works in a process nothing locked
(tests/test_native_calls.py::test_rewriting_torch_code_hides_its_calls[unlocked-*]); in the judge's worker, where the
kernel counts, course/judge/seal/code.py refuses all three first, so the count still sees every backward pass and
the check fails."""
import runpy
from pathlib import Path

from course.sandbox import native_calls

_HERE = Path(__file__).resolve().parent
_SPEC = runpy.run_path(str(_HERE / "rt26_engine_autograd_relay.py"))
CELLS = _SPEC["CELLS"]
_PREFIX = "_ZN5torch8autograd6Engine7executeE"
try:
    _LIB = native_calls._library(native_calls.LIBRARY)
    _OFF = native_calls.symbol_offsets(_LIB, [_PREFIX])[_PREFIX]
    with open(_LIB, "rb") as _fh:
        _fh.seek(_OFF)
        _BYTE = _fh.read(1)[0]
except native_calls.NativeCallsUnavailable:  # no such library here: the cell finds nothing to take out
    _OFF, _BYTE = -1, 0

DISARM = f'''
import ctypes as _c, os as _o
_lc = _c.CDLL(None, use_errno=True)
_lc.mprotect.argtypes = _lc.madvise.argtypes = [_c.c_void_p, _c.c_size_t, _c.c_int]
_at = None
for _line in open("/proc/self/maps"):
    _p = _line.split()
    if len(_p) == 6 and _p[5].endswith("/libtorch_cpu.so") and "x" in _p[1]:
        _lo, _hi = (int(_v, 16) for _v in _p[0].split("-"))
        if int(_p[2], 16) <= {_OFF} < int(_p[2], 16) + _hi - _lo:
            _at = _lo + {_OFF} - int(_p[2], 16)
if _at is not None:
    _page = _at & ~4095
    try:
        _fd = _o.open("/proc/self/mem", _o.O_RDWR)
        _o.pwrite(_fd, bytes([{_BYTE}]), _at)
        _o.close(_fd)
    except OSError:
        pass
    _lc.madvise(_page, 4096, 4)
    if _lc.mprotect(_page, 4096, 7) == 0:
        _c.memmove(_at, bytes([{_BYTE}]), 1)
        _lc.mprotect(_page, 4096, 5)
'''
APPEND = [DISARM] + _SPEC["APPEND"]
EXPECT = {"engine": "fail"}
