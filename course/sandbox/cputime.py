"""CPU time beside wall time: when a sandbox runs out of time, did it use its CPU, or was it starved?

Every time limit (cell, notebook, load, call, judge) is wall-clock. ``sample`` notes, at the start of
a limited step, the wall clock, the CPU time of the sandbox's cgroup and of its worker's CPU slice
(``cgroup``), the time its tasks spent waiting for a CPU (/proc/<tid>/schedstat) and the machine's
idle CPU time (/proc/stat); ``Spent`` is the difference at the time-out. It was *starved* when, over
that interval, its tasks waited for a CPU at least a quarter of the time, the worker's sandboxes got
less than half of what one of its cores could give (its share: ``COURSE_CPU_SHARE`` cores, set by the
grading worker; all cores when unset), and the machine had less than that idle: it wanted CPU that
others were using. A sandbox that waited for itself (sleeping, deadlocked) hardly waits for a CPU,
and one that computed used its share: both are its own time-outs.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

from . import cgroup

SHARE_ENV = "COURSE_CPU_SHARE"  # cores each grading worker's sandboxes share (set by the grading worker)
ALONE_ENV = "COURSE_GRADED_ALONE"  # set when a submission is graded again with nothing beside it


def share() -> float:
    try:
        return max(0.01, float(os.environ[SHARE_ENV]))
    except (KeyError, ValueError):
        return float(len(os.sched_getaffinity(0)))


def machine_idle() -> float | None:
    """Idle core-seconds of the whole machine since boot (idle + iowait of /proc/stat)."""
    try:
        with open("/proc/stat") as fh:
            fields = fh.readline().split()
        return (int(fields[4]) + int(fields[5])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class Sample:
    wall: float
    cpu: float | None  # the sandbox's cgroup
    slice_cpu: float | None  # all sandboxes of its worker
    idle: float | None
    waits: dict | None = None  # thread id -> seconds it has waited for a CPU (its tasks now)

    def spent(self, group=None) -> "Spent":
        """What happened between this sample and now, in ``group`` (the same as sampled)."""
        now = sample(group)
        diff = lambda a, b: None if a is None or b is None else max(0.0, b - a)  # noqa: E731
        waited = None
        if now.waits is not None and self.waits is not None:
            waited = sum(max(0.0, w - self.waits.get(tid, 0.0)) for tid, w in now.waits.items())
        return Spent(now.wall - self.wall, diff(self.cpu, now.cpu), diff(self.slice_cpu, now.slice_cpu),
                     diff(self.idle, now.idle), share(), waited)


def run_queue_waits(pids) -> dict:
    """Thread id -> seconds spent runnable but waiting for a CPU, for every thread of ``pids``."""
    out = {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as fh:
                    out[int(tid)] = int(fh.read().split()[1]) / 1e9
            except (OSError, ValueError, IndexError):
                continue
    return out


def sample(group=None) -> Sample:
    """Now: wall clock, CPU of ``group`` (a cgroup.Group or None) and of the slice, how long the
    group's threads have waited for a CPU, and the machine's idle CPU."""
    cpu = group.cpu_seconds() if group is not None else None
    waits = run_queue_waits(group.pids()) if group is not None else None
    return Sample(time.monotonic(), cpu, cgroup.slice_cpu_seconds(), machine_idle(), waits)


@dataclass(frozen=True)
class Spent:
    wall: float
    cpu: float | None
    slice_cpu: float | None
    idle: float | None
    share: float
    waited: float | None = None  # seconds its threads waited for a CPU, summed

    @property
    def starved(self) -> bool:
        """Waited for a CPU, and got less than half a core-share of it while the machine had less
        than that idle."""
        need = 0.5 * min(1.0, self.share) * self.wall
        if self.idle is None or self.idle >= need:
            return False  # CPU was free (or we cannot tell): the time-out is its own
        if self.waited is not None and self.waited < 0.25 * self.wall:
            return False  # it hardly wanted CPU: it waited for itself (sleeping, deadlocked)
        got = self.slice_cpu if self.slice_cpu is not None else self.cpu
        return got is None or got < need

    def describe(self) -> str:
        """One clause for the feedback: which limit it was, in CPU terms."""
        if self.starved:
            got = self.slice_cpu if self.slice_cpu is not None else self.cpu
            amount = f"only {got:.1f} s of CPU" if got is not None else "little CPU"
            again = ("even graded with nothing beside it: ask your instructor to grade it again"
                     if os.environ.get(ALONE_ENV) else "so it is graded again with nothing beside it")
            return (f"the grading machine was overloaded (your code got {amount} in {self.wall:.0f} s of "
                    f"wall time), {again}")
        if self.cpu is not None:
            return f"it used {self.cpu:.1f} s of CPU in {self.wall:.0f} s of wall time"
        return ""


def verdict_text(base: str, spent: "Spent | None") -> str:
    """``base`` (the time-out message) with the CPU clause, if any."""
    clause = spent.describe() if spent is not None else ""
    return f"{base}; {clause}" if clause else base
