"""What /proc says about processes: alive or not, parents and threads, descendants, resident memory."""
from __future__ import annotations

import glob
import os
import resource
import time


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def scan() -> tuple[dict[int, list[int]], dict[int, int]]:
    """Parent pid -> child pids, and pid -> thread count, from one scan of /proc."""
    children: dict[int, list[int]] = {}
    threads: dict[int, int] = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            pid = int(stat.split("/")[2])
            children.setdefault(int(fields[1]), []).append(pid)
            threads[pid] = int(fields[17])
        except (OSError, IndexError, ValueError):
            continue
    sock = os.environ.get("COURSE_TEMPLATE_SOCKET")
    if sock:  # a template's sandbox counts as a child of the process that asked for it
        for pid, requester in template_links(sock).items():
            if pid in threads and requester in threads and pid not in children.get(requester, []):
                children.setdefault(requester, []).append(pid)
    return children, threads


def template_links(socket_path: str) -> dict[int, int]:
    """Sandbox (A) pid -> the pid of the process that asked for it, for the template at ``socket_path``
    (``template.py``: each sandbox it forks leaves one link while it lives)."""
    folder = os.path.join(os.path.dirname(socket_path), "links")
    out = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return out
    for name in names:
        try:
            with open(os.path.join(folder, name)) as fh:
                out[int(name)] = int(fh.read())
        except (OSError, ValueError):
            continue
    return out


def rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * resource.getpagesize()
    except (OSError, IndexError, ValueError):
        return 0


class TreeRss:
    """Resident memory of a process and all its descendants (Linux /proc), cheap enough to poll
    several times a second: the tree is found by scanning /proc at most every ``rescan`` seconds,
    and between scans only its known members are read. (A scan reads every process's stat file;
    done five times a second it cost a grading process a tenth of a core.)"""

    def __init__(self, root_pid: int, rescan: float = 1.0):
        self.root, self.rescan = root_pid, rescan
        self._pids: list[int] = [root_pid]
        self._next = 0.0
        self.tasks = 0  # threads of the whole tree at the last scan (a task limit where cgroups are missing)

    def bytes(self) -> int:
        now = time.monotonic()
        if now >= self._next:
            (children, threads), pids, stack = scan(), [], [self.root]
            while stack:
                pid = stack.pop()
                pids.append(pid)
                stack.extend(children.get(pid, []))
            self._pids, self._next = pids, now + self.rescan
            self.tasks = sum(threads.get(p, 0) for p in pids)
        return sum(rss(pid) for pid in self._pids)


def watch(get_proc, memory_limit: int, task_limit: int, interval: float, stop=None, extra=None,
          on_limit=None) -> str | None:
    """Poll the process tree of ``get_proc()`` (a Popen-like object, or None while there is none) until
    it exits or ``stop`` (a threading.Event) is set. When its resident memory passes ``memory_limit``
    bytes, its threads ``task_limit``, or ``extra()`` names a reason, call ``on_limit(why)`` (before the
    kill, so whoever sees the process die already knows why), kill the tree and return why ("memory",
    "tasks" or extra's reason); None when it ended within its limits. Where cgroups hold the limits this
    is a second line; where they are missing, the only one. Used for kernels and workers."""
    from . import kill_tree
    tree = None
    while not (stop.wait(interval) if stop is not None else time.sleep(interval)):
        proc = get_proc()
        if proc is None:
            continue
        if proc.poll() is not None:
            if stop is None:
                return None
            continue
        if tree is None or tree.root != proc.pid:
            tree = TreeRss(proc.pid, rescan=max(1.0, 5 * interval))
        why = "memory" if tree.bytes() > memory_limit else "tasks" if tree.tasks > task_limit else \
            (extra() if extra is not None else None)
        if why:
            if on_limit is not None:
                on_limit(why)
            kill_tree(proc)
            return why
    return None


def descendants(root: int, children: dict[int, list[int]] | None = None) -> list[int]:
    """Every descendant of ``root`` (not ``root`` itself), from one scan of /proc."""
    children = scan()[0] if children is None else children
    out, stack = [], [root]
    while stack:
        for c in children.get(stack.pop(), []):
            out.append(c)
            stack.append(c)
    return out


def ns_pids(pid: int) -> list[int]:
    """The pid of ``pid`` in each nested pid namespace, outermost first ([] if unknown)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("NSpid:"):
                    return [int(x) for x in line.split()[1:]]
    except OSError:
        pass
    return []


def state(pid: int) -> str:
    """The one-letter state of ``pid`` ("R", "S", "Z" ...); "X" when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "X"
