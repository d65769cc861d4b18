"""The /proc files that count for the whole node, replaced in every sandbox by a still copy (issue 38).

A sandbox has a /proc of its own (its pid namespace), but some of its files describe the node, not the
namespace: ``/proc/stat``'s ``processes`` is every fork and thread the node has made since boot and its
``cpu`` lines every CPU's busy and idle time, ``/proc/loadavg`` counts the node's threads, ``/proc/uptime``
the idle time of all CPUs. One sandbox moves them (it forks, holds threads, burns CPU) and another alive at
the same time reads them: a channel between the two (docs/security.md, "What remains between two live
sandboxes"). As LXCFS does for containers, each of these files is covered in the sandbox's own mount
namespace by a read-only file made for it: the same format (so os.cpu_count-, psutil- and libuv-style
readers still parse it) with values that no process moves: no CPU time, one process, no load, and the
uptime the sandbox started at. ``btime`` and the list of CPUs are the node's (fixed while it runs).
``/proc/softirqs`` and ``/proc/interrupts`` (each CPU's scheduler softirqs and rescheduling interrupts
carried the fork signal as well as ``processes`` did) and ``/proc/pressure/*`` (the node's CPU, memory
and I/O stall times) keep their rows and lose their counts. ``/proc/sys/kernel/pty/nr`` (the node's count of
pseudo-terminals in use: every sandbox's devpts instance draws on it, and nothing else on a grading node moves it,
so one sandbox opening and closing ptys set it exactly for another) reads 0. A file the node does not have is
left alone.
"""
from __future__ import annotations

import os
import re
import time

MASKED = ("stat", "loadavg", "uptime", "softirqs", "interrupts", "pressure/cpu", "pressure/memory", "pressure/io",
          "sys/kernel/pty/nr")

_CPU_FIELDS = 10  # user nice system idle iowait irq softirq steal guest guest_nice
_SOFTIRQS = 10  # HI TIMER NET_TX NET_RX BLOCK IRQ_POLL TASKLET SCHED HRTIMER RCU


def _host_stat() -> tuple[list[str], int]:
    """The node's CPU line names (``cpu``, ``cpu0``, ...) and boot time, from its /proc/stat."""
    names, btime = [], 0
    try:
        with open("/proc/stat") as fh:
            for line in fh:
                word = line.split(" ", 1)[0]
                if word.startswith("cpu"):
                    names.append(word)
                elif word == "btime":
                    btime = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    if not names:  # no /proc/stat to copy the CPU list from: the CPUs this process may run on
        names = ["cpu"] + [f"cpu{n}" for n in sorted(os.sched_getaffinity(0))]
    if not btime:
        btime = int(time.time() - time.clock_gettime(time.CLOCK_BOOTTIME))
    return names, btime


def contents() -> dict[str, bytes]:
    """File name under /proc -> the bytes a sandbox started now reads there."""
    names, btime = _host_stat()
    zeros = " ".join(["0"] * _CPU_FIELDS)
    stat = [f"{name} {zeros}" if name != "cpu" else f"cpu  {zeros}" for name in names]
    stat += ["intr 0", "ctxt 0", f"btime {btime}", "processes 1", "procs_running 1", "procs_blocked 0",
             "softirq " + " ".join(["0"] * (_SOFTIRQS + 1))]
    uptime = time.clock_gettime(time.CLOCK_BOOTTIME)
    out = {"stat": ("\n".join(stat) + "\n").encode(),
           "loadavg": b"0.00 0.00 0.00 1/1 1\n",
           "uptime": f"{uptime:.2f} 0.00\n".encode()}
    for name in MASKED[3:-1]:
        try:
            with open("/proc/" + name) as fh:
                text = fh.read()
        except OSError:  # not on this node (or not readable): nothing to cover
            continue
        out[name] = (_zero_pressure(text) if name.startswith("pressure/") else _zero_table(text)).encode()
    if os.path.exists("/proc/sys/kernel/pty/nr"):  # the node's pseudo-terminals in use, exact: opened and closed
        out["sys/kernel/pty/nr"] = b"0\n"           # by one sandbox, read by another (red team 12)
    return out


def _zero_table(text: str) -> str:
    """``/proc/interrupts``' and ``softirqs``' layout (a header of CPUs, then a row per source: its label,
    a count per CPU, then words) with every count 0."""
    lines = text.splitlines()
    out = lines[:1]
    for line in lines[1:]:
        words = line.split()
        if not words:
            continue
        counts = [w for w in words[1:len(lines[0].split()) + 1] if w.isdigit()]
        rest = words[1 + len(counts):]
        out.append(" ".join([words[0]] + ["0"] * len(counts) + rest))  # unpadded: a 1 MiB tmpfs holds a large node's
    return "\n".join(out) + "\n"


def _zero_pressure(text: str) -> str:
    """A pressure file (``some avg10=1.23 ... total=456``) with every figure 0."""
    return re.sub(r"=\d+(\.\d+)?", lambda m: "=0.00" if m.group(1) else "=0", text)


def file_name(name: str) -> str:
    """The name under a staging folder of the copy of /proc/``name`` (no folders)."""
    return name.replace("/", "-")


_SHARED: str | None = None
_SHARED_NAMES: list[str] = []


def shared_folder() -> dict[str, str]:
    """/proc name -> a file of this process's folder holding ``contents()``, for sandboxes made without root
    (bubblewrap's user namespace: no staging tmpfs of their own). Those sandboxes share these inodes,
    as they share every read-only file there (the lock channel is open without root anyway)."""
    global _SHARED
    if _SHARED and os.path.isdir(_SHARED):
        return {n: os.path.join(_SHARED, file_name(n)) for n in _SHARED_NAMES}
    import atexit
    from .. import fstree
    from . import tempdirs
    folder = tempdirs.make("procfiles")
    made = contents()
    _SHARED_NAMES[:] = sorted(made)
    for name, data in made.items():
        fd = os.open(os.path.join(folder, file_name(name)), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o444)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    os.chmod(folder, 0o755)  # safe: the folder tempdirs just made for this process, read by the sandbox's account
    atexit.register(fstree.remove, folder)
    _SHARED = folder
    return shared_folder()
