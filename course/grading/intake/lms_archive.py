"""The members of a zip or a folder, read without trusting them (zip_collect's intake).

Nothing is extracted by path: each member is checked (no absolute or ``..`` path, no link or
device, not encrypted, stored or deflated) and read through size caps that count the bytes actually
produced, so a zip bomb stops at the cap. Only stored and deflate members are inflated: Python's zipfile
inflates bzip2 and lzma without an output limit (937 bytes of bzip2 took 2 GB of memory in one read),
deflate in bounded steps. A problem raises ``Refused`` with one line saying what it was.
"""
from __future__ import annotations

import os
import stat
import struct
import zipfile
import zlib

ARCHIVES = (".zip", ".gz", ".tgz", ".tar", ".bz2", ".xz", ".rar", ".7z")


class Refused(Exception):
    pass


METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED}


class Member:
    """One member: ``path`` relative to the archive or folder ("/"-separated), ``kind`` "file",
    "dir", "link", "other", "unsafe", "encrypted" or "method" (compressed otherwise than stored or
    deflate); ``open()`` gives a binary stream."""

    def __init__(self, path: str, kind: str, size: int, opener):
        self.path, self.kind, self.size, self.open = path, kind, size, opener


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVES)


def unsafe(path: str) -> bool:
    """An absolute path, a drive, or one that climbs out (``..``)."""
    parts = path.split("/")
    return path.startswith("/") or (len(parts[0]) == 2 and parts[0][1] == ":") or ".." in parts or "\0" in path


def zip_members(source, max_members: int) -> list[Member]:
    """``source`` (a path or a binary file) as a zip; Refused when it cannot be read. A member whose
    path is unsafe has the kind "unsafe", an encrypted one "encrypted": each caller decides."""
    try:
        _count_entries(source, max_members)
        zf = zipfile.ZipFile(source)
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, MemoryError) as exc:
        raise Refused(f"is not a readable zip ({type(exc).__name__}: {str(exc)[:200]})") from None
    if len(infos) > max_members:
        raise Refused(f"has more than {max_members} entries")
    out = []
    for info in infos:
        path = info.filename.replace("\\", "/")
        mode = info.external_attr >> 16
        kind = ("unsafe" if unsafe(path) else "encrypted" if info.flag_bits & 0x1
                else "method" if info.compress_type not in METHODS
                else "dir" if info.is_dir() or stat.S_ISDIR(mode) else "link" if stat.S_ISLNK(mode)
                else "file" if stat.S_IFMT(mode) in (0, stat.S_IFREG) else "other")
        out.append(Member(path.rstrip("/"), kind, info.file_size, lambda info=info: zf.open(info)))
    return out


def _count_entries(source, limit: int) -> None:
    """Refused when the zip's central directory holds more than ``limit`` entries, counted from its headers
    before zipfile reads it: zipfile builds an object for every entry before anyone can count them, so 250 MiB
    of empty entries (3,000,000; 17 MB once deflated in an LMS's download) cost zip_collect 21.6 s of CPU and
    1.6 GB of memory only to be refused (red team 21). The entries are walked as zipfile walks them (by the
    directory's size, not the count the end record claims), at most ``limit`` + 1 of them; anything that does
    not parse is left for zipfile to refuse."""
    fp = open(source, "rb", opener=_nofollow) if isinstance(source, (str, bytes, os.PathLike)) else source
    try:
        end = zipfile._EndRecData(fp)
        if not end:
            return
        size_cd = end[zipfile._ECD_SIZE]
        start = end[zipfile._ECD_LOCATION] - size_cd
        if end[zipfile._ECD_SIGNATURE] == zipfile.stringEndArchive64:
            start -= zipfile.sizeEndCentDir64 + zipfile.sizeEndCentDir64Locator
        if start < 0:
            return
        head, lengths = zipfile.sizeCentralDir, struct.Struct("<HHH")
        buf, buf_at, pos, n = b"", 0, 0, 0
        while pos < size_cd:
            if pos + head > buf_at + len(buf):  # the next header is not all in the buffer: read on from it
                fp.seek(start + pos)
                buf, buf_at = fp.read(min(2**20, size_cd - pos)), pos
                if len(buf) < head:
                    return
            at = pos - buf_at
            if buf[at:at + 4] != zipfile.stringCentralDir:
                return
            n += 1
            if n > limit:
                raise Refused(f"has more than {limit} entries")
            name, extra, comment = lengths.unpack_from(buf, at + 28)
            pos += head + name + extra + comment
    finally:
        if fp is not source:
            fp.close()
        else:
            fp.seek(0)


def folder_members(top: str) -> list[Member]:
    """Everything under the folder ``top`` (links are reported as links, never followed)."""
    out = []
    for root, dirs, files in os.walk(top):
        for name in sorted(dirs + files):
            full = os.path.join(root, name)
            st = os.lstat(full)
            kind = ("link" if stat.S_ISLNK(st.st_mode) else "dir" if stat.S_ISDIR(st.st_mode)
                    else "file" if stat.S_ISREG(st.st_mode) else "other")
            out.append(Member(os.path.relpath(full, top).replace(os.sep, "/"), kind, st.st_size,
                              lambda full=full: open(full, "rb", opener=_nofollow)))
    return out


def _nofollow(path, flags):
    return os.open(path, flags | os.O_NOFOLLOW)


def copy_capped(member: Member, out, limit: int) -> int:
    """Copy ``member`` into the binary file ``out``; its size, or Refused past ``limit`` bytes."""
    if member.size > limit:
        raise Refused(f"holds {member.path[:120]!r}, larger than {limit // 2**20} MiB")
    if member.kind == "method":
        raise Refused(f"holds {member.path[:120]!r}, compressed with bzip2, lzma or another method than stored or deflate "
                      "(not inflated: such members inflate without a limit)")
    n = 0
    try:
        with member.open() as src:
            while chunk := src.read(min(2**20, limit + 1 - n)):
                n += len(chunk)
                if n > limit:
                    raise Refused(f"holds {member.path[:120]!r}, larger than {limit // 2**20} MiB unpacked")
                out.write(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, OSError, MemoryError) as exc:
        raise Refused(f"could not be read at {member.path[:120]!r} ({exc})") from None
    return n
