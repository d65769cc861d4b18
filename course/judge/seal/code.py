"""PyTorch's machine code held still in a judge worker whose native calls the kernel counts (``lock``).

The judge counts calls of a few libtorch functions with uprobes (``course/sandbox/native_calls.py``): a breakpoint
the kernel writes into each process's copy of the function's first page. A submission that rewrote that page (the
original byte written back through ``/proc/self/mem``, or ``mprotect`` to writable and back, or a fresh mapping of
the file over the old one after the call) would run the function uncounted. Before any cell runs, the worker:

- **seals** (``mseal``, Linux 6.10) every mapping of PyTorch's own shared libraries: no ``mprotect``, ``munmap``,
  ``mremap``, mapping over them or discarding their pages, for the rest of the process and in every child it forks;
- **closes writes under /proc** (Landlock, Linux 5.13): ``/proc/self/mem`` (which writes through any protection
  and any seal) cannot be opened for writing; writing anywhere else is as before;
- **refuses** ``execve`` (a fresh process would map PyTorch afresh, unsealed) and the ``madvise`` advice that drops
  a private page (the breakpoint's copy goes, the file's page comes back; a seal allows it): a seccomp filter stacked
  on the sandbox's.

What this leaves (docs/security.md, "Lead, 2026-12-06 (torch's code held still)"): code the submission brings
itself (a library of its own, or machine code it maps executable) that calls PyTorch's internals around a counted
entry point, and a second copy of PyTorch's libraries under other names. ``lock`` reports what it could do; where the
kernel has none of these, the count is what it was before."""
from __future__ import annotations

import ctypes
import os
import platform
import struct

_NR = {"x86_64": {"mseal": 462, "landlock_create_ruleset": 444, "landlock_add_rule": 445,
                  "landlock_restrict_self": 446, "execve": 59, "execveat": 322, "madvise": 28},
       "aarch64": {"mseal": 462, "landlock_create_ruleset": 444, "landlock_add_rule": 445,
                   "landlock_restrict_self": 446, "execve": 221, "execveat": 281, "madvise": 233}}.get(platform.machine(), {})
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}.get(platform.machine())
_LANDLOCK_WRITE_FILE = 1 << 1
_LANDLOCK_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_SECCOMP_RET_ALLOW, _SECCOMP_RET_ERRNO, _EPERM = 0x7FFF0000, 0x00050000, 1
_DROPS_PAGES = (4, 24, 25)  # MADV_DONTNEED, MADV_DONTNEED_LOCKED, MADV_COLLAPSE


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _torch_files() -> set[str]:
    """PyTorch's own shared libraries: torch/lib/*.so* and the extension modules at torch's top (torch/_C...)."""
    import torch
    top = os.path.dirname(os.path.realpath(torch.__file__))
    out = set()
    for folder in (top, os.path.join(top, "lib")):
        try:
            out |= {os.path.join(folder, n) for n in os.listdir(folder) if ".so" in n}
        except OSError:
            pass
    return out


def seal_torch() -> int:
    """mseal every mapping of PyTorch's libraries in this process; the number of mappings sealed."""
    files = _torch_files()
    libc, n = _libc(), 0
    with open("/proc/self/maps") as fh:
        spans = []
        for line in fh:
            parts = line.split(maxsplit=5)
            if len(parts) == 6 and parts[5].rstrip("\n") in files:
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                spans.append((lo, hi))
    for lo, hi in spans:
        if libc.syscall(_NR["mseal"], ctypes.c_ulong(lo), ctypes.c_size_t(hi - lo), ctypes.c_ulong(0)) != 0:
            raise OSError(ctypes.get_errno(), f"mseal: {os.strerror(ctypes.get_errno())}")
        n += 1
    if not n:
        raise OSError(f"no mapping of torch's libraries found in this process ({len(files)} files looked for)")
    return n


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def close_proc_writes() -> None:
    """A Landlock domain in which files may be opened for writing beneath every top-level folder but /proc."""
    libc = _libc()
    attr = _RulesetAttr(_LANDLOCK_WRITE_FILE)
    ruleset = libc.syscall(_NR["landlock_create_ruleset"], ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), f"landlock_create_ruleset: {os.strerror(ctypes.get_errno())}")
    try:
        for name in os.listdir("/"):
            if name == "proc":
                continue
            try:
                fd = os.open("/" + name, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                rule = _PathBeneath(_LANDLOCK_WRITE_FILE, fd)
                if libc.syscall(_NR["landlock_add_rule"], ruleset, _LANDLOCK_RULE_PATH_BENEATH, ctypes.byref(rule),
                                ctypes.c_uint32(0)) != 0:
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule /{name}: {os.strerror(ctypes.get_errno())}")
            finally:
                os.close(fd)
        libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        if libc.syscall(_NR["landlock_restrict_self"], ruleset, ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), f"landlock_restrict_self: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(ruleset)


def refuse() -> None:
    """A seccomp filter, stacked on the sandbox's: ``execve`` and ``execveat`` fail with EPERM, and so does
    ``madvise`` with the advice that would drop a breakpoint's page and map the file's own again (MADV_DONTNEED and
    MADV_DONTNEED_LOCKED, which a seal does not stop on a file's private mapping; MADV_COLLAPSE). glibc's malloc
    uses MADV_DONTNEED only to give memory back early, and carries on when it fails."""
    def stmt(code, k):
        return struct.pack("<HBBI", code, 0, 0, k)

    def jeq(k, jt, jf):
        return struct.pack("<HBBI", 0x15, jt, jf, k)  # BPF_JMP | BPF_JEQ | BPF_K
    ld, ret, allow, deny = 0x20, 0x06, _SECCOMP_RET_ALLOW, _SECCOMP_RET_ERRNO | _EPERM
    prog = b"".join([
        stmt(ld, 4), jeq(_AUDIT_ARCH, 1, 0), stmt(ret, allow),  # another arch: left to the base filter (kills it)
        stmt(ld, 0), jeq(_NR["execve"], 7, 0), jeq(_NR["execveat"], 6, 0), jeq(_NR["madvise"], 0, 4),
        stmt(ld, 32),  # args[2]'s low word: the kernel reads the advice as an int
        *(jeq(advice, 3 - i, 0) for i, advice in enumerate(_DROPS_PAGES)),
        stmt(ret, allow), stmt(ret, deny)])
    buf = ctypes.create_string_buffer(prog, len(prog))

    class _Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    libc = _libc()
    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(_Prog(len(prog) // 8,
                                                                           ctypes.cast(buf, ctypes.c_void_p)))) != 0:
        raise OSError(ctypes.get_errno(), f"seccomp: {os.strerror(ctypes.get_errno())}")


def lock() -> dict[str, str]:
    """Each step's outcome ("ok" or why not), in the worker before any cell runs; each step is tried on its own."""
    out = {}
    if not _NR or _AUDIT_ARCH is None:
        return {"all": f"not built for {platform.machine()}"}
    for name, step in (("seal", seal_torch), ("proc", close_proc_writes), ("calls", refuse)):
        try:
            r = step()
            out[name] = "ok" if r is None else f"ok ({r})"
        except Exception as exc:  # an old kernel: ENOSYS; a missing LSM: EOPNOTSUPP
            out[name] = f"{type(exc).__name__}: {exc}"
    return out


# ------------------------------------------------------------------ judge side: the lock as the kernel shows it

def _worker_pids(pid: int) -> list[int]:
    from ...sandbox import procs
    return [pid] + [int(p) for p in procs.descendants(pid)]


def _filters(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("Seccomp_filters:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def filters(pid: int) -> dict[int, int | None]:
    """How many seccomp filters the kernel has on ``pid`` and each of its descendants (Seccomp_filters)."""
    return {p: _filters(p) for p in _worker_pids(pid)}


def held(pid: int, filters_before: dict[int, int | None]) -> str | None:
    """Read from outside the worker (never from its reply, which its cells can rewrite): None when the lock holds
    as the kernel shows it (every mapping of torch's libraries sealed, ``sl`` in smaps' VmFlags, and one seccomp
    filter more than before the load), else what is missing. Landlock's domain is not shown from outside."""
    names = {os.path.basename(f) for f in _torch_files()}
    for p in _worker_pids(pid):
        try:
            with open(f"/proc/{p}/smaps") as fh:
                lines = fh.read().split("\n")
        except OSError:
            continue
        ours, unsealed, current = 0, 0, False
        for line in lines:
            if line and not line[0].isupper():  # a mapping's first line: "lo-hi perms offset dev inode path"
                parts = line.split(maxsplit=5)
                path = parts[5] if len(parts) == 6 else ""
                current = os.path.basename(path) in names and "/torch/" in path
                ours += current
            elif current and line.startswith("VmFlags:"):
                unsealed += " sl" not in line + " "
        if not ours:
            continue  # bubblewrap's own process, or a helper: not the worker
        missing = []
        if unsealed:
            missing.append(f"{unsealed} of {ours} mappings of torch's libraries unsealed")
        now, before = _filters(p), filters_before.get(p)
        if before is not None and now is not None and now <= before:
            missing.append("no seccomp filter added")
        return "; ".join(missing) or None
    return "no process of the worker maps torch's libraries"
