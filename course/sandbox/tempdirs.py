"""Temporary folders of the grading machinery, named so a later run can clean up after a crash.

Every folder is ``<root>/course-<kind>-<pid>-XXXX``, where ``private_root()`` is the grader's own folder in the
system's temporary folder (``/tmp/course-grader-<uid>``: mode 0711, this account's, not a link), never
``/tmp`` itself: nobody else can put a name there, so listing it after each judge session costs what
the grader made, not what a student planted (a million hard links in ``/tmp`` cost 7 s a session).
``adopt()`` makes it the grading process's TMPDIR, so what torch and tempfile make goes there too.
``sweep()`` removes folders whose process is gone (``fstree.remove``: no link is followed, no depth
can make it fail), and the cgroups of dead runs. Nothing here raises: a leftover of an earlier run
must never stop the next one from starting.
"""
from __future__ import annotations

import os
import re
import stat
import tempfile

from .. import fstree
from .procs import pid_alive

_NAME = re.compile(r"^course-([a-z]+)-(\d+)-")


_ROOT = re.compile(r"^course-grader-(\d+)(\.\d+|-[A-Za-z0-9_]{8})?$")
_TRIES = 16  # fixed names tried before a random one: another account may have made the first ones
_CACHE: dict[tuple[str, int], str] = {}


def private_root() -> str:
    """The grader's temporary folder: ``<tmp>/course-grader-<uid>`` (or ``.1`` .. ``.15`` where another account
    made that name first, then a random name), made here, mode 0711 (sandbox accounts pass through it to the
    course view, as they passed through /tmp, but cannot list or add to it). When TMPDIR already is such a
    folder of this account (set by ``adopt`` in a parent), it is used as it is."""
    base, uid = tempfile.gettempdir(), os.geteuid()
    key = (base, uid)
    if key in _CACHE and _private(_CACHE[key]):
        return _CACHE[key]
    m = _ROOT.match(os.path.basename(base))
    if m and int(m.group(1)) == uid and _private(base):
        found = base
    else:
        found = _claim(base, uid)
    _CACHE[key] = found
    return found


def _claim(base: str, uid: int) -> str:
    for i in range(_TRIES):
        path = os.path.join(base, f"course-grader-{uid}" + (f".{i}" if i else ""))
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return base  # nothing can be made here: as before, each folder checked on its own
        if _fix_mode(path, uid):
            return path
    try:
        path = tempfile.mkdtemp(prefix=f"course-grader-{uid}-", dir=base)
        os.chmod(path, 0o711)  # safe: the folder mkdtemp just made, 0700
        return path
    except OSError:
        return base


def _fix_mode(path: str, uid: int) -> bool:
    """``path`` is a folder of ``uid`` (not a link): give it mode 0711 through its descriptor; False otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if st.st_uid != uid:
            return False
        if stat.S_IMODE(st.st_mode) != 0o711:
            os.fchmod(fd, 0o711)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _private(path: str) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o022


def adopt() -> str:
    """Make ``private_root()`` this process's temporary folder and its children's (TMPDIR), so that nothing of the
    grader's (inductor's caches, judge folders) is made where another account may have made the name first."""
    path = private_root()
    os.environ["TMPDIR"] = path
    tempfile.tempdir = path
    _CACHE[(path, os.geteuid())] = path
    return path


def make(kind: str) -> str:
    return tempfile.mkdtemp(prefix=f"course-{kind}-{os.getpid()}-", dir=private_root())


def remove_of(pid: int, root: str | None = None) -> int:
    """Remove the folders made by process ``pid``, which has ended without its exit handlers (a judge session
    forked from the server ends with ``os._exit``, or is killed at its limit); return how many. Never raises."""
    root = root or _root_or_none()
    if root is None:
        return 0
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


def _root_or_none() -> str | None:
    try:
        return private_root()
    except Exception:
        return None


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
        return _sweep(root or _root_or_none())
    except Exception:
        return 0


def _sweep(root: str | None) -> int:
    n = 0
    try:
        names = os.listdir(root) if root else []
    except OSError:
        names = []
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
