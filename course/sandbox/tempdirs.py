"""Temporary folders of the grading machinery, named so a later run can clean up after a crash.

Every folder is ``<tmp>/course-<kind>-<pid>-XXXX``; ``sweep()`` removes those whose process is
gone (``fstree.remove``: no link is followed, no depth can make it fail), and the cgroups of dead
runs. Nothing here raises: a leftover of an earlier run must never stop the next one from starting.
"""
from __future__ import annotations

import os
import re
import stat
import tempfile

from .. import fstree
from .procs import pid_alive

_NAME = re.compile(r"^course-([a-z]+)-(\d+)-")


def make(kind: str) -> str:
    return tempfile.mkdtemp(prefix=f"course-{kind}-{os.getpid()}-")


def remove_of(pid: int, root: str | None = None) -> int:
    """Remove the folders made by process ``pid``, which has ended without its exit handlers (a judge session
    forked from the server ends with ``os._exit``, or is killed at its limit); return how many. Never raises."""
    root = root or tempfile.gettempdir()
    n = 0
    try:
        for name in os.listdir(root):
            m = _NAME.match(name)
            path = os.path.join(root, name)
            if m and int(m.group(2)) == pid and _ours(path):
                n += fstree.remove(path)
    except Exception:
        pass
    return n


def _ours(path: str) -> bool:
    """A folder of this account, not a link. /tmp is every account's: a folder another one planted under a
    course name is left alone (removing it as root let its owner race a chmod, or feed it entries to hold
    the grader in fstree.remove for as long as they liked)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid()


def sweep(root: str | None = None) -> int:
    """Remove leftover folders of processes that no longer exist; return how many. Never raises."""
    try:
        return _sweep(root or tempfile.gettempdir())
    except Exception:
        return 0


def _sweep(root: str) -> int:
    n = 0
    try:
        names = os.listdir(root)
    except OSError:
        return 0
    for name in names:
        m = _NAME.match(name)
        if not m or int(m.group(2)) == os.getpid() or pid_alive(int(m.group(2))):
            continue
        path = os.path.join(root, name)
        if _ours(path):
            n += fstree.remove(path)
    try:
        from . import cgroup
        cgroup.sweep()
    except Exception:
        pass
    return n
