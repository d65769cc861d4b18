"""Kernel-enforced limits for one sandbox: a cgroup that caps memory and the number of tasks, counts
its CPU time and, inside a grading worker's CPU slice, shares that worker's CPU quota.

tmpfs pages the sandbox writes (/tmp, /dev/shm) are charged to its memory cgroup, so the memory
cap covers them as well as the resident memory of every process and thread.

Where: cgroup v2 when the unified hierarchy is mounted with the memory and pids controllers
enabled below this process's cgroup; otherwise cgroup v1 (one hierarchy per controller). Where
neither can be written (no root, no delegation), ``Group.create`` returns None and the polling
watchdogs (``sandbox.TreeRss``: memory and threads) remain the only limits; ``available()`` says so.
Groups are named ``course-<pid>-<tag>``; ``sweep()`` removes empty ones left by a crashed run.

CPU: a grading worker makes a ``Slice`` (a cgroup with a CPU quota: v2 ``cpu.max``, v1
``cpu.cfs_quota_us``) and names it in ``COURSE_CPU_SLICE``; every group made below that variable
(the worker's kernels, judge workers, zygotes) is made inside the slice, so however many processes
or sessions one submission starts, it shares its worker's cores and no more. Each group also counts
its CPU time (v2 ``cpu.stat``, v1 ``cpuacct.usage``; ``cpu_seconds``). ``cpu_available()`` says
which of these work here.
"""
from __future__ import annotations

import os
import signal
import time

from .procs import pid_alive

ROOT = "/sys/fs/cgroup"
PREFIX = "course-"
SLICE_ENV = "COURSE_CPU_SLICE"  # the name of this process tree's CPU slice (set by the grading worker)
PERIOD_US = 100_000  # CFS period of a slice's quota


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


def _v1_hierarchy(ctrl: str, own: dict[str, str]) -> str | None:
    """This process's folder in the v1 hierarchy of ``ctrl``, if that hierarchy is mounted and writable."""
    d = os.path.join(os.path.realpath(os.path.join(ROOT, ctrl)), own.get(ctrl, "/").lstrip("/"))
    return d if os.path.isfile(os.path.join(d, "cgroup.procs")) and os.access(d, os.W_OK) else None


def _bases(in_slice: bool = True) -> list[tuple[str, str]]:
    """(kind, parent folder for new groups): kind is 'v2', 'memory', 'pids', 'cpu' or 'cpuacct' (the
    last two only where the CPU controllers are separate v1 hierarchies). Inside the slice named by
    COURSE_CPU_SLICE, when there is one and ``in_slice``."""
    own = _own_paths()
    slice_name = os.environ.get(SLICE_ENV, "") if in_slice else ""
    v2 = os.path.join(ROOT, own.get("", "/").lstrip("/"))
    try:
        enabled = open(os.path.join(v2, "cgroup.subtree_control")).read().split()
    except OSError:
        enabled = []
    if {"memory", "pids"} <= set(enabled) and os.access(v2, os.W_OK):
        inside = os.path.join(v2, slice_name) if slice_name else v2
        return [("v2", inside if os.path.isdir(inside) else v2)]
    out, seen = [], set()
    for ctrl in ("memory", "pids", "cpu", "cpuacct"):
        d = _v1_hierarchy(ctrl, own)
        if d is None or d in seen:  # cpu and cpuacct may be one hierarchy
            continue
        seen.add(d)
        inside = os.path.join(d, slice_name) if slice_name and ctrl in ("cpu", "cpuacct", "memory", "pids") else d
        out.append((ctrl, inside if os.path.isdir(inside) else d))
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
                try:
                    os.makedirs(d, exist_ok=True)
                except OSError:
                    if kind in ("cpu", "cpuacct"):  # CPU time and quota are extras: memory and tasks are not
                        continue
                    raise
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

    def cpu_seconds(self) -> float | None:
        """CPU time (user and system) of everything that ran in the group so far; None where not counted."""
        return _cpu_seconds(self.dirs)

    def pids(self) -> list[int]:
        for kind, d in self.dirs:
            if kind in ("v2", "memory", "pids"):
                return _pids(d)
        return []

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


def _cpu_seconds(dirs: list[tuple[str, str]]) -> float | None:
    for kind, d in dirs:
        try:
            if kind == "v2":
                for line in open(os.path.join(d, "cpu.stat")):
                    k, _, v = line.partition(" ")
                    if k == "usage_usec":
                        return int(v) / 1e6
            elif kind in ("cpu", "cpuacct") and os.path.exists(os.path.join(d, "cpuacct.usage")):
                return int(open(os.path.join(d, "cpuacct.usage")).read()) / 1e9
        except (OSError, ValueError):
            continue
    return None


def _remove_dirs(dirs: list[tuple[str, str]]) -> None:
    Group(dirs).remove()


class Slice:
    """One grading worker's CPU and memory: a cgroup with a quota of ``cores`` CPUs and, when given, a
    cap of ``memory_bytes`` on all its sandboxes together, that every sandbox group made under ``env()``
    joins (see the module's docstring)."""

    def __init__(self, name: str, dirs: list[tuple[str, str]], cores: float):
        self.name, self.dirs, self.cores = name, dirs, cores

    @classmethod
    def create(cls, tag: str, cores: float, memory_bytes: int | None = None) -> "Slice | None":
        """A slice limited to ``cores`` CPUs (and ``memory_bytes`` in all), or None where no CPU
        controller can be written here."""
        name = f"{PREFIX}{os.getpid()}-{tag}"
        quota = max(1000, int(cores * PERIOD_US))
        tasks = str(_slice_tasks())
        dirs: list[tuple[str, str]] = []
        try:
            for kind, base in _bases(in_slice=False):
                if kind == "v2":
                    _enable(base, "cpu")
                    d = os.path.join(base, name)
                    os.makedirs(d, exist_ok=True)
                    dirs.append((kind, d))
                    _write(os.path.join(d, "cpu.max"), f"{quota} {PERIOD_US}")
                    if memory_bytes:
                        _write(os.path.join(d, "memory.max"), str(memory_bytes))
                    _write(os.path.join(d, "pids.max"), tasks)
                    _enable(d, "cpu", "memory", "pids")
                elif kind == "memory" and memory_bytes:
                    d = os.path.join(base, name)
                    os.makedirs(d, exist_ok=True)
                    dirs.append((kind, d))
                    _write(os.path.join(d, "memory.limit_in_bytes"), str(memory_bytes))
                elif kind == "pids":
                    d = os.path.join(base, name)
                    os.makedirs(d, exist_ok=True)
                    dirs.append((kind, d))
                    _write(os.path.join(d, "pids.max"), tasks)
                elif kind in ("cpu", "cpuacct"):
                    d = os.path.join(base, name)
                    os.makedirs(d, exist_ok=True)
                    dirs.append((kind, d))
                    if os.path.exists(os.path.join(d, "cpu.cfs_quota_us")):
                        _write(os.path.join(d, "cpu.cfs_period_us"), str(PERIOD_US))
                        _write(os.path.join(d, "cpu.cfs_quota_us"), str(quota))
        except OSError:
            _remove_dirs(dirs)
            return None
        if not any(os.path.exists(os.path.join(d, f)) for _, d in dirs for f in ("cpu.max", "cpu.cfs_quota_us")):
            _remove_dirs(dirs)
            return None
        return cls(name, dirs, cores)

    def env(self) -> dict[str, str]:
        return {SLICE_ENV: self.name}

    def cpu_seconds(self) -> float | None:
        return _cpu_seconds(self.dirs)

    def memory_capped(self) -> bool:
        return any(kind == "memory" or os.path.exists(os.path.join(d, "memory.max")) for kind, d in self.dirs)

    def remove(self) -> None:
        """Remove the groups left inside (killing what runs in them), then the slice."""
        for _, d in self.dirs:
            try:
                inner = [e for e in os.listdir(d) if e.startswith(PREFIX) and os.path.isdir(os.path.join(d, e))]
            except OSError:
                inner = []
            _remove_dirs([("inner", os.path.join(d, e)) for e in inner])
        _remove_dirs(self.dirs)


def _slice_tasks() -> int:
    """Tasks of all of one worker's sandboxes together: so many sandboxes at their task cap, which
    bounds tasks x open files per worker (``sandbox.open_files_limit``)."""
    from .. import settings
    from . import SANDBOXES_PER_WORKER
    return SANDBOXES_PER_WORKER * settings.current().task_limit


def _enable(d: str, *controllers: str) -> None:
    """Enable ``controllers`` for the children of the v2 group ``d`` (those not already enabled)."""
    path = os.path.join(d, "cgroup.subtree_control")
    have = open(path).read().split()
    missing = [c for c in controllers if c not in have]
    if missing:
        _write(path, " ".join("+" + c for c in missing))


def slice_cpu_seconds() -> float | None:
    """CPU time used so far by the slice this process tree grades in (COURSE_CPU_SLICE); None if none."""
    name = os.environ.get(SLICE_ENV, "")
    if not name:
        return None
    dirs = [(kind, os.path.join(base, name)) for kind, base in _bases(in_slice=False)
            if kind in ("v2", "cpu", "cpuacct")]
    return _cpu_seconds([(k, d) for k, d in dirs if os.path.isdir(d)])


def cpu_available() -> str | None:
    """None when a slice's CPU quota is enforced and each sandbox's CPU time counted here, else why not."""
    sl = Slice.create("cpuprobe", 1.0)
    if sl is None:
        return "no writable cgroup with the cpu controller (v2 cpu.max, v1 cpu.cfs_quota_us)"
    before = os.environ.get(SLICE_ENV)
    os.environ[SLICE_ENV] = sl.name
    try:
        g = Group.create("cpuprobe", 2**30, 64)
        if g is None:
            return "no writable cgroup for a sandbox inside a CPU slice"
        try:
            inside = [d for k, d in g.dirs if k in ("v2", "cpu")
                      and any(d.startswith(s + os.sep) for _, s in sl.dirs)]
            if not inside:
                return "a sandbox's cgroup could not be made inside its worker's CPU slice"
            if g.cpu_seconds() is None:
                return "no CPU accounting (v2 cpu.stat usage_usec, v1 cpuacct.usage)"
        finally:
            g.remove()
    finally:
        if before is None:
            os.environ.pop(SLICE_ENV, None)
        else:
            os.environ[SLICE_ENV] = before
        sl.remove()
    return None


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
    """Remove empty course groups whose creating process is gone (and the groups inside such
    slices); return how many."""
    n = 0
    for _, base in _bases(in_slice=False):
        try:
            names = [e for e in os.listdir(base) if e.startswith(PREFIX)]
        except OSError:
            continue
        for e in names:
            try:
                owner, tag = e[len(PREFIX):].split("-", 1)
                owner = int(owner)
            except ValueError:
                continue
            if owner != os.getpid() and pid_alive(owner):
                continue
            d = os.path.join(base, e)
            if owner == os.getpid() and tag.startswith("slice"):
                continue  # this process's own worker slice, in use
            try:
                inner = [os.path.join(d, x) for x in os.listdir(d) if x.startswith(PREFIX)]
            except OSError:
                inner = []
            for x in inner + [d]:
                if os.path.isdir(x) and not _pids(x):
                    try:
                        os.rmdir(x)
                        n += 1
                    except OSError:
                        pass
    return n
