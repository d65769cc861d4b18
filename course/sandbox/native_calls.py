"""Native calls counted from outside the submission's process (the judge's side; needs root).

A check that reads what ran from the worker's own record (a probe's mode, the recorder) trusts the process that
runs the submission: code written against the worker's protocol can rewrite any reply on its way out
(docs/security.md, "the relay"). This module keeps a record that process cannot reach: uprobes on a few entry
points of libtorch (autograd's engine, forward-mode AD's dual tensors, PyTorch's own type promotion), counted by the kernel for the worker and
every thread and process it starts after the count opens (perf counters with ``inherit``). The judge opens the
count before any of the submission's cells run and reads it around each call.

Only where the grader may: root, tracefs (mounted here if it is not) and ``perf_event_open``. Elsewhere
(a student's own validate, a grader without root) ``watch`` returns None and checks keep the worker's record alone.
``COURSE_NATIVE_CALLS=off`` turns it off.
"""
from __future__ import annotations

import ctypes
import errno
import functools
import hashlib
import mmap
import os
import platform
import struct
import subprocess
import threading
from pathlib import Path

TRACEFS = Path("/sys/kernel/tracing")
GROUP = "course_native"
# event -> prefixes of mangled symbols in libtorch_cpu.so (each names one exported function); an event counts the
# calls of all of its functions
EVENTS = {
    "autograd_engine": ("_ZN5torch8autograd6Engine7executeE",),  # every backward pass, autograd.grad, torch.func
    "forward_ad": ("_ZN2at4_ops10_make_dual4callE",),  # every dual tensor (forward-mode AD, torch.func.jvp)
    "dtype_rules": tuple(f"_ZN2at4_ops{len(op)}{op}4callE" for op in (  # PyTorch's own type promotion
        "result_type_Tensor", "result_type_Scalar", "result_type_Scalar_Tensor", "result_type_Scalar_Scalar",
        "promote_types", "can_cast")),
}
LIBRARY = "libtorch_cpu.so"
_SYSCALL = {"x86_64": 298, "aarch64": 241}.get(platform.machine())
_PERF_TYPE_TRACEPOINT = 2
_INHERIT = 1 << 1
_CLOEXEC = 1 << 3
_lock = threading.Lock()
_ids: dict[str, list[int]] | None = None
_why_not: str | None = None


class NativeCallsUnavailable(RuntimeError):
    pass


# --------------------------------------------------------------- symbols: an exported function's file offset
def symbol_offsets(path: str, prefixes) -> dict[str, int]:
    """For each prefix, the file offset of the one defined dynamic function in ``path`` whose name starts with it."""
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as m:
        if m[:4] != b"\x7fELF" or m[4] != 2 or m[5] != 1:
            raise NativeCallsUnavailable(f"{path}: not a 64-bit little-endian ELF file")
        e_phoff, e_shoff = struct.unpack_from("<QQ", m, 0x20)
        e_phentsize, e_phnum, e_shentsize, e_shnum = struct.unpack_from("<HHHH", m, 0x36)
        sections = [struct.unpack_from("<IIQQQQIIQQ", m, e_shoff + i * e_shentsize) for i in range(e_shnum)]
        dynsym = next((s for s in sections if s[1] == 11), None)  # SHT_DYNSYM
        if dynsym is None:
            raise NativeCallsUnavailable(f"{path}: no dynamic symbol table")
        str_off, sym_off, n = sections[dynsym[6]][4], dynsym[4], dynsym[5] // 24
        keys = {p.encode(): p for p in prefixes}
        heads = {k[:12] for k in keys}  # every prefix is longer than 12 bytes: one set lookup a symbol
        found: dict[str, set[int]] = {p: set() for p in prefixes}
        for i in range(n):
            st_name, st_info, _, st_shndx, st_value, _ = struct.unpack_from("<IBBHQQ", m, sym_off + 24 * i)
            if st_shndx == 0 or st_info & 0xF != 2:  # undefined, or not a function
                continue
            start = str_off + st_name
            if m[start:start + 12] not in heads:
                continue
            for key, prefix in keys.items():
                if m[start:start + len(key)] == key:
                    found[prefix].add(st_value)
        loads = [struct.unpack_from("<IIQQQQQQ", m, e_phoff + i * e_phentsize) for i in range(e_phnum)]
    out = {}
    for prefix, values in found.items():
        if len(values) != 1:
            raise NativeCallsUnavailable(f"{path}: {len(values)} functions named {prefix}*")
        value = values.pop()
        seg = next((h for h in loads if h[0] == 1 and h[3] <= value < h[3] + h[5]), None)  # PT_LOAD
        if seg is None:
            raise NativeCallsUnavailable(f"{path}: {prefix} lies in no loaded segment")
        out[prefix] = value - seg[3] + seg[2]
    return out


def _library(name: str) -> str:
    import torch
    path = Path(torch.__file__).resolve().parent / "lib" / name
    if not path.is_file():
        raise NativeCallsUnavailable(f"{path} not found")
    return str(path)


# --------------------------------------------------------------- the events (tracefs), made once per library
def _tracefs() -> Path:
    if not (TRACEFS / "uprobe_events").exists():
        subprocess.run(["mount", "-t", "tracefs", "nodev", str(TRACEFS)], capture_output=True, timeout=10)
    if not (TRACEFS / "uprobe_events").exists():
        raise NativeCallsUnavailable("tracefs is not mounted at /sys/kernel/tracing and could not be mounted")
    return TRACEFS


def _add_uprobe(fs: Path, name: str, path: str, offset: int) -> None:
    fd = os.open(fs / "uprobe_events", os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
    try:  # one write(2), no seek: Python's append mode seeks, which tracefs refuses
        os.write(fd, f"p:{name} {path}:{offset:#x}\n".encode())
    except OSError as exc:
        if exc.errno != errno.EEXIST:  # another judge made it meanwhile
            raise NativeCallsUnavailable(f"uprobe {name}: {exc}") from None
    finally:
        os.close(fd)


def _event_ids() -> dict[str, list[int]]:
    """Each event's tracepoint id; the uprobes are made where missing (named for the library's inode, so two
    installations of torch never share one; never removed: without a counter open they cost nothing)."""
    global _ids, _why_not
    with _lock:
        if _ids is not None or _why_not is not None:
            if _ids is None:
                raise NativeCallsUnavailable(_why_not)
            return _ids
        try:
            if os.geteuid() != 0:
                raise NativeCallsUnavailable("not root")
            if _SYSCALL is None:
                raise NativeCallsUnavailable(f"perf_event_open unknown on {platform.machine()}")
            fs = _tracefs()
            path = _library(LIBRARY)
            st = os.stat(path)
            offsets: dict[str, int] | None = None
            ids: dict[str, list[int]] = {}
            for event, prefixes in EVENTS.items():
                for prefix in prefixes:
                    tag = hashlib.sha256(f"{st.st_dev}:{st.st_ino}:{st.st_size}:{prefix}".encode()).hexdigest()[:12]
                    folder = fs / "events" / GROUP / f"{event}_{tag}"
                    if not folder.exists():
                        if offsets is None:
                            offsets = symbol_offsets(path, [p for ps in EVENTS.values() for p in ps])
                        _add_uprobe(fs, f"{GROUP}/{folder.name}", path, offsets[prefix])
                    ids.setdefault(event, []).append(int((folder / "id").read_text()))
            _ids = ids
            return ids
        except (NativeCallsUnavailable, OSError, ValueError) as exc:
            _why_not = str(exc)
            raise NativeCallsUnavailable(_why_not) from None


# --------------------------------------------------------------- counters on a process tree
class _Attr(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint32), ("size", ctypes.c_uint32), ("config", ctypes.c_uint64),
                ("sample_period", ctypes.c_uint64), ("sample_type", ctypes.c_uint64),
                ("read_format", ctypes.c_uint64), ("flags", ctypes.c_uint64), ("rest", ctypes.c_uint8 * 64)]


def _open(tracepoint: int, tid: int, inherit: bool = True) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    attr = _Attr(type=_PERF_TYPE_TRACEPOINT, size=112, config=tracepoint, flags=_INHERIT if inherit else 0)
    fd = libc.syscall(_SYSCALL, ctypes.byref(attr), tid, -1, -1, _CLOEXEC)
    if fd < 0:
        raise OSError(ctypes.get_errno(), f"perf_event_open on task {tid}: {os.strerror(ctypes.get_errno())}")
    return fd


def _tasks(pids) -> list[int]:
    tids = []
    for p in pids:
        try:
            tids += [int(t) for t in os.listdir(f"/proc/{p}/task")]
        except OSError:
            pass
    return tids


# tracepoint id -> a counter on this process's own main thread, open for the process's life and never read. Closing
# the last counter of a uprobe's tracepoint unregisters the uprobe and waits for the kernel's grace periods: about
# 40 ms a counter, serialized machine-wide, so about 0.5 s to close each worker of 00-01 (twelve counters). With one
# counter held here, a worker's counters are never the last, and closing them costs about 0.7 ms each.
_anchors: dict[int, int] = {}


def _anchor(tracepoints) -> None:
    with _lock:
        for tp in tracepoints:
            if tp not in _anchors:
                try:
                    _anchors[tp] = _open(tp, os.getpid(), inherit=False)
                except OSError:
                    pass  # only slower to close


class Watch:
    """Counts, per event, the calls made by a worker's tree since the watch opened (``read``)."""

    def __init__(self, pid: int, events):
        ids = {event: tps for event, tps in _event_ids().items() if event in events}
        _anchor(tp for tps in ids.values() for tp in tps)
        self.fds: dict[str, list[int]] = {event: [] for event in ids}
        try:
            # every task of the tree now (nothing of the submission's has run yet: only the worker's own code makes
            # tasks meanwhile), then its processes' threads again until none is new; what any of them starts later
            # is counted through inherit
            from . import procs
            pids = [pid] + procs.descendants(pid)
            seen: set[int] = set()
            while True:
                new = [t for t in _tasks(pids) if t not in seen]
                if not new:
                    break
                for tid in new:
                    seen.add(tid)
                    for event, tps in ids.items():
                        for tp in tps:
                            try:
                                self.fds[event].append(_open(tp, tid))
                            except OSError as exc:
                                if exc.errno != errno.ESRCH:  # a task that ended meanwhile
                                    raise
            if not seen:
                raise NativeCallsUnavailable(f"no process {pid} to watch")
        except BaseException:
            self.close()
            raise

    def read(self) -> dict[str, int]:
        return {event: sum(struct.unpack("<Q", os.read(fd, 8))[0] for fd in fds) for event, fds in self.fds.items()}

    def close(self) -> None:
        for fds in self.fds.values():
            for fd in fds:
                os.close(fd)
            fds.clear()


def declared(probe_sources) -> tuple[str, ...]:
    """The events a topic's checks read: ``NATIVE_CALLS = ("autograd_engine", ...)`` at the top of its probes.py
    (each open counter costs a few ms when a worker starts, so a topic that reads none opens none)."""
    return _declared(tuple(probe_sources))


@functools.lru_cache(maxsize=64)
def _declared(probe_sources: tuple[str, ...]) -> tuple[str, ...]:
    import ast
    names: list[str] = []
    for src in probe_sources:
        for node in ast.parse(src).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "NATIVE_CALLS" for t in node.targets):
                for event in ast.literal_eval(node.value):
                    if event not in EVENTS:
                        raise ValueError(f"NATIVE_CALLS names {event!r}, which is not one of {sorted(EVENTS)}")
                    names += [event] if event not in names else []
    return tuple(names)


def watch(pid: int | None, events=tuple(EVENTS)) -> Watch | None:
    """A count of ``events`` for ``pid`` and its descendants, or None where this grader cannot keep one."""
    if os.environ.get("COURSE_NATIVE_CALLS", "").lower() == "off" or not pid or pid <= 1 or not events:
        return None
    try:
        return Watch(pid, events)
    except (NativeCallsUnavailable, OSError):
        return None


def why_unavailable() -> str | None:
    try:
        _event_ids()
        return None
    except NativeCallsUnavailable as exc:
        return str(exc)
