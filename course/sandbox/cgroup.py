"""Kernel-enforced limits for one sandbox: a cgroup that caps memory and the number of tasks.

tmpfs pages the sandbox writes (/tmp, /dev/shm) are charged to its memory cgroup, so the memory
cap covers them as well as the resident memory of every process and thread.

Where: cgroup v2 when the unified hierarchy is mounted with the memory and pids controllers
enabled below this process's cgroup; otherwise cgroup v1 (one hierarchy per controller). Where
neither can be written (no root, no delegation), ``Group.create`` returns None and the polling
watchdogs (``sandbox.TreeRss``: memory and threads) remain the only limits; ``available()`` says so.
Groups are named ``course-<pid>-<tag>``; ``sweep()`` removes empty ones left by a crashed run.
"""
from __future__ import annotations

import os
import signal
import time

from .procs import pid_alive

ROOT = "/sys/fs/cgroup"
PREFIX = "course-"


def _own_paths() -> dict[str, str]:
    """Controller ('' for v2) -> this process's cgroup path, from /proc/self/cgroup."""
    out = {}
    try:
        for line in open("/proc/self/cgroup"):
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            for c in (ctrls.split(",") if ctrls else [""]):
                out[c] = path
    except OSError:
        pass
    return out


def _bases() -> list[tuple[str, str]]:
    """(kind, parent folder for new groups): kind is 'v2', 'memory' or 'pids'."""
    own = _own_paths()
    v2 = os.path.join(ROOT, own.get("", "/").lstrip("/"))
    try:
        enabled = open(os.path.join(v2, "cgroup.subtree_control")).read().split()
    except OSError:
        enabled = []
    if {"memory", "pids"} <= set(enabled) and os.access(v2, os.W_OK):
        return [("v2", v2)]
    out = []
    for ctrl in ("memory", "pids"):
        d = os.path.join(ROOT, ctrl, own.get(ctrl, "/").lstrip("/"))
        if os.path.isfile(os.path.join(d, "cgroup.procs")) and os.access(d, os.W_OK):
            out.append((ctrl, d))
    return out


def _write(path: str, value: str) -> None:
    with open(path, "w") as fh:
        fh.write(value)


def _pids(d: str) -> list[int]:
    try:
        return [int(x) for x in open(os.path.join(d, "cgroup.procs")).read().split()]
    except (OSError, ValueError):
        return []


class Group:
    def __init__(self, dirs: list[tuple[str, str]]):
        self.dirs = dirs  # (kind, folder)

    @classmethod
    def create(cls, tag: str, memory_bytes: int, tasks: int) -> "Group | None":
        """A new group with these limits, or None where cgroups cannot be used here."""
        name = f"{PREFIX}{os.getpid()}-{tag}"
        dirs = []
        try:
            for kind, base in _bases():
                d = os.path.join(base, name)
                os.makedirs(d, exist_ok=True)
                dirs.append((kind, d))
                if kind in ("v2", "memory"):
                    _write(os.path.join(d, "memory.max" if kind == "v2" else "memory.limit_in_bytes"), str(memory_bytes))
                    swap = os.path.join(d, "memory.swap.max")
                    if kind == "v2" and os.path.exists(swap):
                        _write(swap, "0")
                if kind in ("v2", "pids"):
                    _write(os.path.join(d, "pids.max"), str(tasks))
        except OSError:
            Group(dirs).remove()
            return None
        return cls(dirs) if dirs else None

    @classmethod
    def named(cls, name: str) -> "Group":
        return cls([(kind, os.path.join(base, name)) for kind, base in _bases()
                    if os.path.isdir(os.path.join(base, name))])

    def add(self, pid: int = 0) -> None:
        """Move ``pid`` (0: the calling process) into the group; its children follow."""
        for _, d in self.dirs:
            _write(os.path.join(d, "cgroup.procs"), str(pid or os.getpid()))

    def limits(self) -> dict[str, bool]:
        kinds = {k for k, _ in self.dirs}
        return {"memory": bool(kinds & {"v2", "memory"}), "tasks": bool(kinds & {"v2", "pids"})}

    def oom_killed(self) -> bool:
        for kind, d in self.dirs:
            f = os.path.join(d, "memory.events" if kind == "v2" else "memory.oom_control")
            if kind in ("v2", "memory") and os.path.exists(f):
                for line in open(f):
                    k, _, v = line.partition(" ")
                    if k == "oom_kill" and v.strip() not in ("", "0"):
                        return True
        return False

    def remove(self) -> None:
        """Kill whatever is left in the group and delete it."""
        for _, d in self.dirs:
            for _ in range(50):
                pids = _pids(d)
                if not pids:
                    break
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
                time.sleep(0.02)
            try:
                os.rmdir(d)
            except OSError:
                pass


def available() -> str | None:
    """None when memory and task caps can be enforced by cgroups here, else why not."""
    g = Group.create("probe", 2**30, 64)
    if g is None:
        return "no writable cgroup hierarchy with the memory and pids controllers"
    try:
        lim = g.limits()
        missing = [k for k, ok in lim.items() if not ok]
        return f"cgroups without the {', '.join(missing)} controller" if missing else None
    finally:
        g.remove()


def sweep() -> int:
    """Remove empty course groups whose creating process is gone; return how many."""
    n = 0
    for _, base in _bases():
        try:
            names = [e for e in os.listdir(base) if e.startswith(PREFIX)]
        except OSError:
            continue
        for e in names:
            try:
                owner = int(e[len(PREFIX):].split("-", 1)[0])
            except ValueError:
                continue
            if owner != os.getpid() and pid_alive(owner):
                continue
            d = os.path.join(base, e)
            if not _pids(d):
                try:
                    os.rmdir(d)
                    n += 1
                except OSError:
                    pass
    return n

