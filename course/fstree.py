"""Measure and remove folders that sandboxed code could write, whatever it left there.

Both work on directory descriptors, never follow a link, use no recursion and keep at most
``max_depth`` descriptors open, so a 3000-level chain of folders (deeper than PATH_MAX, deeper than
Python's recursion limit) is measured as "too deep" and removed like any other tree. Neither raises.
"""
from __future__ import annotations

import os
import secrets
import stat
from dataclasses import dataclass

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass
class Usage:
    entries: int = 0
    bytes: int = 0
    depth: int = 0  # deepest level seen (1: entries of the folder itself)
    complete: bool = True  # False when the walk stopped at a limit

    def over(self, entries: int, nbytes: int, depth: int) -> str | None:
        """Which limit this usage passes, in words, or None."""
        if self.entries > entries:
            return f"more than {entries} entries"
        if self.bytes > nbytes:
            return f"more than {nbytes} bytes"
        if self.depth > depth:
            return f"folders nested more than {depth} deep"
        return None


def _open_dir(name: str, dir_fd: int | None = None) -> int | None:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None


def _list(fd: int) -> list[os.DirEntry]:
    try:
        with os.scandir(fd) as it:
            return list(it)
    except OSError:
        return []


def usage(path: str, max_entries: int = 10_000, max_depth: int = 16) -> Usage:
    """Entries, bytes (lstat sizes) and depth of the tree under ``path``. The walk stops as soon as
    it passes ``max_entries`` or ``max_depth``, so its cost is bounded whatever the tree holds."""
    out = Usage()
    top = _open_dir(path)
    if top is None:
        return out
    stack = [(top, 1)]
    try:
        while stack:
            fd, level = stack.pop()
            try:
                for e in _list(fd):
                    out.entries += 1
                    out.depth = max(out.depth, level)
                    try:
                        st = e.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    out.bytes += st.st_size
                    if out.entries > max_entries:
                        out.complete = False
                        return out
                    if stat.S_ISDIR(st.st_mode):
                        if level + 1 > max_depth:
                            out.depth, out.complete = level + 1, False
                            return out
                        sub = _open_dir(e.name, fd)
                        if sub is not None:
                            stack.append((sub, level + 1))
            finally:
                os.close(fd)
    finally:
        for fd, _ in stack:
            os.close(fd)
    return out


def _writable(name: str, dir_fd: int) -> None:
    """A folder the sandbox made unreadable or read-only is opened up again (lstat-checked first)."""
    try:
        if stat.S_ISDIR(os.lstat(name, dir_fd=dir_fd).st_mode):  # never through a link swapped in since
            os.chmod(name, 0o700, dir_fd=dir_fd, follow_symlinks=False)
    except (OSError, NotImplementedError, ValueError):  # a link: glibc refuses it, and with dir_fd Python says ValueError
        pass


def _flatten_into(top: int, name: str, tag: str, counter: list[int]) -> int:
    """Empty ``top/name`` one level: files are unlinked, sub-folders are moved up into ``top``.
    Returns how many entries it moved or removed."""
    _writable(name, top)
    fd = _open_dir(name, top)
    if fd is None:
        return 0
    done = 0
    try:
        for e in _list(fd):
            try:
                if e.is_dir(follow_symlinks=False):
                    counter[0] += 1
                    os.rename(e.name, f".{tag}-{counter[0]}", src_dir_fd=fd, dst_dir_fd=top)
                else:
                    os.unlink(e.name, dir_fd=fd)
                done += 1
            except OSError:
                continue
    finally:
        os.close(fd)
    return done


def remove(path: str) -> bool:
    """Remove ``path`` and everything under it; True when it is gone. Never raises, never follows a
    link (a link is removed, not its target). Deep trees are flattened into ``path`` level by level
    instead of being walked down, so depth costs neither recursion nor descriptors."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        try:
            os.unlink(path)
            return True
        except OSError:
            return False
    try:  # not through a link: another account may swap one in after the lstat above (/tmp is everyone's)
        os.chmod(path, 0o700, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass
    top = _open_dir(path)
    if top is None:
        return False
    tag, counter = "rm" + secrets.token_hex(4), [0]
    try:
        progress = True
        while progress:  # each round removes or moves at least one entry, or the loop ends
            progress = False
            for e in _list(top):
                try:
                    if e.is_dir(follow_symlinks=False):
                        progress |= _flatten_into(top, e.name, tag, counter) > 0
                        os.rmdir(e.name, dir_fd=top)
                    else:
                        os.unlink(e.name, dir_fd=top)
                    progress = True
                except OSError:
                    continue
    finally:
        os.close(top)
    try:
        os.rmdir(path)
        return True
    except OSError:
        return not os.path.lexists(path)
