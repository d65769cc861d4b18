"""One student's folder read as data: copied, or its last change found, without following anything.

Every entry is reached through its folder's descriptor (``dir_fd``) and opened with ``O_NOFOLLOW``,
so no path a student controls is ever resolved: a symbolic link (to a source notebook, a classmate's
submission, ``/dev/zero``, nowhere, itself) is refused, never read. Only regular files with one link
are copied; hard links, FIFOs, sockets and devices are refused without being opened for reading. Sizes
are counted while copying, so a file that grows past its cap stops there. The folder itself must be a
real folder (``Refused`` otherwise). Each refused entry is one line; the copy goes on with the others.
"""
from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field

from ...plain import one_line

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
MAX_ENTRIES = 10_000
MAX_DEPTH = 16
MAX_PATH = 1024  # bytes of an entry's path inside the folder: 15 folders of 255-byte names and a file passed
# PATH_MAX (4096) once under gradebook/submitted/<student>/<assignment>/, where later steps use whole paths
LISTED = 10  # refused entries listed one by one; the rest are counted in one line


class Refused(Exception):
    """The folder as a whole is not taken."""


@dataclass
class Copied:
    files: int = 0
    bytes: int = 0
    newest_change: float = 0.0  # the latest st_ctime of the folder, its folders and its copied files
    refused: list[str] = field(default_factory=list)
    more_refused: int = 0
    _content: "hashlib._Hash" = field(default_factory=hashlib.sha256, repr=False)

    @property
    def digest(self) -> str:
        """SHA-256 over the taken files' paths, sizes and bytes in the order read (``walk``'s order is
        fixed by the names): equal for two walks of the same files, whatever their times say."""
        return self._content.hexdigest()

    def refuse(self, rel: str, why: str) -> None:
        if len(self.refused) < LISTED:
            shown = rel.encode("utf-8", "backslashreplace").decode("utf-8")  # a name that is not UTF-8
            self.refused.append(f"{one_line(shown, 160)} ({why})")
        else:
            self.more_refused += 1

    def lines(self) -> list[str]:
        return self.refused + ([f"{self.more_refused} more entries refused"] if self.more_refused else [])


def kind(mode: int) -> str:
    return ("a symbolic link" if stat.S_ISLNK(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "not a regular file")


def open_folder(path: str) -> int:
    """A descriptor of ``path``, which must be a real folder (its last component is not followed)."""
    try:
        return os.open(path, _DIR)
    except OSError as exc:
        try:
            what = kind(os.lstat(path).st_mode)
        except OSError:
            what = f"unreadable ({exc.strerror})"
        raise Refused(f"is {what}, not a folder") from None


def _link_note(name: str, dir_fd: int) -> str:
    try:
        return f"a symbolic link to {one_line(repr(os.readlink(name, dir_fd=dir_fd)), 120)}; links are not followed"
    except OSError:
        return "a symbolic link; links are not followed"


def _why_not(name: str, st: os.stat_result, dir_fd: int, max_file: int) -> str | None:
    if not name.isprintable():
        return "its name has control characters"
    if stat.S_ISLNK(st.st_mode):
        return _link_note(name, dir_fd)
    if stat.S_ISDIR(st.st_mode):
        return None
    if not stat.S_ISREG(st.st_mode):
        return kind(st.st_mode)
    if st.st_nlink != 1:
        return "a hard link to another file"
    if st.st_size > max_file:
        return f"larger than {max_file // 2**20} MiB"
    return None


def _copy_fd(src: int, dst: int | None, limit: int, content=None) -> int | None:
    """Bytes copied (``dst`` None: only read), or None when ``src`` holds more than ``limit`` bytes (it
    grew while read). ``content``: a hash object that is given every byte read."""
    n = 0
    while chunk := os.read(src, min(2**20, limit + 1 - n)):
        n += len(chunk)
        if n > limit:
            return None
        if content is not None:
            content.update(chunk)
        if dst is not None:
            os.write(dst, chunk)
    return n


def walk(src: str, dest: str | None, *, max_files: int, max_file: int, max_total: int,
         skip=lambda name: False, file_mode: int = 0o644, dir_mode: int = 0o755, read: bool = False) -> Copied:
    """Copy the folder ``src`` into the new folder ``dest`` (None: only measure, copying nothing; with
    ``read``, reading every taken file for ``Copied.digest``, which a copy always has).

    ``skip(name)`` leaves an entry out without a line (the course's ignore patterns). Refused if
    ``src`` is not a real folder or ``dest`` exists."""
    out = Copied()
    top = open_folder(src)
    dtop = None
    try:
        out.newest_change = os.fstat(top).st_ctime
        if dest is not None:
            os.mkdir(dest, 0o700)
            dtop = os.open(dest, _DIR)
            os.fchmod(dtop, dir_mode)
        stack = [(top, dtop, "", 1)]
        top = dtop = None  # closed from the stack now
        seen = 0
        while stack:
            sfd, dfd, rel, depth = stack.pop()
            try:
                try:
                    names = _names(sfd, MAX_ENTRIES + 1 - seen)
                except OSError as exc:
                    out.refuse(rel or ".", f"could not be listed: {exc.strerror}")
                    continue
                for name in names:
                    seen += 1
                    if seen > MAX_ENTRIES:
                        out.refuse(rel or ".", f"more than {MAX_ENTRIES} entries: the rest was not read")
                        stack_clear(stack)
                        return out
                    if skip(name):
                        continue
                    path = rel + name
                    if len(os.fsencode(path)) > MAX_PATH:
                        out.refuse(path, f"its path is longer than {MAX_PATH} bytes")
                        continue
                    try:
                        st = os.stat(name, dir_fd=sfd, follow_symlinks=False)
                    except OSError as exc:
                        out.refuse(path, f"could not be read: {exc.strerror}")
                        continue
                    why = _why_not(name, st, sfd, max_file)
                    if why:
                        out.refuse(path, why)
                    elif stat.S_ISDIR(st.st_mode):
                        _enter(out, stack, sfd, dfd, name, path, depth, dir_mode)
                    elif out.files >= max_files:
                        out.refuse(path, f"the folder has more than {max_files} files")
                    else:
                        _take(out, sfd, dfd, name, path, st, min(max_file, max_total - out.bytes), max_total,
                              file_mode, read)
            finally:
                os.close(sfd)
                if dfd is not None:
                    os.close(dfd)
    finally:
        for fd in (top, dtop):
            if fd is not None:
                os.close(fd)
    return out


def _names(fd: int, limit: int) -> list[str]:
    """At most ``limit`` names of the folder ``fd``, sorted: a folder of millions of entries (hard links of
    one file cost its maker no inode) is read no further than the walk can take, not listed whole."""
    out = []
    with os.scandir(fd) as entries:
        for entry in entries:
            out.append(entry.name)
            if len(out) >= limit:
                break
    return sorted(out)


def stack_clear(stack: list) -> None:
    while stack:
        sfd, dfd, _, _ = stack.pop()
        os.close(sfd)
        if dfd is not None:
            os.close(dfd)


def _enter(out: Copied, stack: list, sfd: int, dfd: int | None, name: str, path: str, depth: int,
           dir_mode: int) -> None:
    if depth >= MAX_DEPTH:
        out.refuse(path, f"folders nested more than {MAX_DEPTH} deep")
        return
    try:
        sub = os.open(name, _DIR, dir_fd=sfd)
    except OSError as exc:
        out.refuse(path, f"could not be opened: {exc.strerror}")
        return
    out.newest_change = max(out.newest_change, os.fstat(sub).st_ctime)
    dsub = None
    if dfd is not None:
        try:
            os.mkdir(name, 0o700, dir_fd=dfd)
            dsub = os.open(name, _DIR, dir_fd=dfd)
            os.fchmod(dsub, dir_mode)
        except OSError:
            os.close(sub)
            raise
    stack.append((sub, dsub, path + "/", depth + 1))


def _take(out: Copied, sfd: int, dfd: int | None, name: str, path: str, st: os.stat_result, limit: int,
          max_total: int, file_mode: int, read: bool = False) -> None:
    if st.st_size > limit:
        out.refuse(path, f"the folder passes {max_total // 2**20} MiB in all")
        return
    try:
        fd = os.open(name, _FILE, dir_fd=sfd)
    except OSError as exc:
        out.refuse(path, f"could not be opened: {exc.strerror}")
        return
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino) or not stat.S_ISREG(now.st_mode) or now.st_nlink != 1:
            out.refuse(path, "it was replaced while read")
            return
        n = now.st_size
        content = hashlib.sha256()
        if dfd is not None:
            dst = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, file_mode,
                          dir_fd=dfd)
            try:
                os.fchmod(dst, file_mode)  # not the umask's
                n = _copy_fd(fd, dst, limit, content)
            finally:
                os.close(dst)
            if n is None:
                os.unlink(name, dir_fd=dfd)
                out.refuse(path, "it grew past its cap while read")
                return
        elif read:
            n = _copy_fd(fd, None, limit, content)
            if n is None:
                out.refuse(path, "it grew past its cap while read")
                return
        if dfd is not None or read:
            out._content.update(os.fsencode(path) + b"\0" + str(n).encode() + b"\0" + content.digest())
        out.files += 1
        out.bytes += n
        out.newest_change = max(out.newest_change, os.fstat(fd).st_ctime)
    finally:
        os.close(fd)


def read_small(folder: str, name: str, limit: int = 4096) -> bytes | None:
    """The bytes of the regular file ``folder/name`` (not followed), or None when it is not one or is
    longer than ``limit``."""
    try:
        d = os.open(folder, _DIR)
    except OSError:
        return None
    try:
        fd = os.open(name, _FILE, dir_fd=d)
    except OSError:
        return None
    finally:
        os.close(d)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, limit + 1)
        return data if len(data) <= limit else None
    finally:
        os.close(fd)
