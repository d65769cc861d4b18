"""Who uploaded what, from the name an LMS gave each entry of its download (zip_collect).

Only the OUTER name (an entry at the top of the LMS's download, or of ``downloaded/<a>/archive/``)
names a student; what follows the LMS's mark is the student's own file name and names nobody:

    Canvas      <name>_[LATE_]<user id>_<file id>_<file>
    Moodle      <First Last>_<participant id>_assignsubmission_file_<file>   (or that name as a folder)
    Blackboard  <assignment>_<user>_attempt_<YYYY-MM-DD-HH-MM-SS>_<file>      (assignment without "_")
    plain       <student id>_<assignment id>_<rest>.ipynb, or a folder <student id>/

An LMS's mark comes before the student's file name, so where two shapes fit, the one whose mark
ends first is the LMS's (a student who names a file "x_carol_attempt_..." changes nothing).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

ID = re.compile(r"\w[\w.@+\-]{0,99}")  # no ".", "..", separators, spaces or control characters
# An id names folders (gradebook/submitted/<id>/, downloaded/<a>/extracted/<id>/, feedback/<id>/) and files (<id>.log):
# 100 characters of a 3- or 4-byte script passed the file system's 255 bytes a name, and the extraction's OSError
# stopped zip_collect for the class (red team 23, host side: a display name of 90 CJK characters).
ID_BYTES = 100
TIMESTAMP = r"\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d"
SHAPES = [
    ("Canvas", re.compile(r"(?P<name>.+?)_(?P<late>LATE_)?(?P<user>\d+)_\d+_(?P<file>.+)", re.S)),
    ("Moodle", re.compile(r"(?P<name>.+?)_(?P<user>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<file>.*)", re.S)),
    ("Blackboard", re.compile(rf"[^_]+_(?P<name>.+?)_attempt_(?P<time>{TIMESTAMP})(?:_(?P<file>.+)|\.txt)?", re.S)),
]


@dataclass(frozen=True)
class Outer:
    student: str          # the student id, validated
    identity: tuple       # who the LMS says uploaded it: two identities for one id is a conflict
    attempt: tuple        # later attempts compare greater: (LMS timestamp or "", LATE)
    file: str             # the student's own name for a flat upload ("" for a folder or an info file)
    lms: str
    timestamp: str | None = None  # "YYYY-MM-DD HH:MM:SS" (Blackboard), for nbgrader's timestamp.txt
    files: bool = True            # False: Moodle's online text or comments, nothing to grade


def student_id(raw: str) -> str | None:
    """``raw`` as an nbgrader student id (runs of spaces become "-"), or None when it cannot be one."""
    sid = re.sub(r" +", "-", unicodedata.normalize("NFC", raw).strip(" "))
    return sid if ID.fullmatch(sid) and len(sid.encode("utf-8")) <= ID_BYTES else None


def why_not_id(raw: str) -> str:
    return (f"the student id {raw[:120]!r} is not usable (1 to 100 letters, digits or . _ @ + -, "
            f"starting with a letter, digit or _, at most {ID_BYTES} bytes in UTF-8)")


def parse(name: str, assignment: str, folder: bool) -> Outer | str | None:
    """The uploader of the outer entry ``name`` (a folder when ``folder``), a one-line reason when
    it names an unusable id, or None when it fits no shape (an LMS download, or nobody's)."""
    found = []
    for lms, pattern in SHAPES:
        m = pattern.fullmatch(name)
        if m and (m.group("file") or folder or lms == "Blackboard"):
            found.append((m.start("file") if m.group("file") is not None else m.end(), lms, m))
    if not found:
        if folder:
            sid = student_id(name)
            return Outer(sid, ("plain", sid), ("", False), "", "plain") if sid else why_not_id(name)
        mark = f"_{assignment}_"
        if mark in name[1:] and name.endswith(".ipynb"):
            raw = name[:name.index(mark, 1)]
            sid = student_id(raw)
            return Outer(sid, ("plain", sid), ("", False), name[len(raw) + 1:], "plain") if sid else why_not_id(raw)
        return None
    _, lms, m = min(found, key=lambda f: f[0])
    sid = student_id(m.group("name"))
    if sid is None:
        return why_not_id(m.group("name"))
    if lms == "Moodle" and m.group("plugin") != "file":
        return Outer(sid, (lms, m.group("user")), ("", False), "", lms, files=False)
    time = m.groupdict().get("time")
    stamp = f"{time[:10]} {time[11:].replace('-', ':')}" if time else None
    user = m.group("name") if lms == "Blackboard" else m.group("user")
    return Outer(sid, (lms, user), (stamp or "", bool(m.groupdict().get("late"))), m.group("file") or "", lms, stamp)


def file_name_ok(name: str) -> bool:
    """A file name the intake writes as it is: printable, no separator, not hidden, not too long."""
    return (0 < len(name.encode("utf-8", "replace")) <= 200 and name.isprintable() and "/" not in name
            and "\\" not in name and not name.startswith("."))


# Letters of other scripts drawn like Latin ones (after NFKC and casefold), the ones an LMS display name can use to
# pass for a classmate's in a table: Cyrillic, then Greek.
_LOOKS_LATIN = str.maketrans("авеіјкмнорстухѕԁһӏԛԝүαβεικνορτυχζ", "abeijkmhopctyxsdhlqwyabeiknoptuxz")


def skeleton(sid: str) -> str:
    """What ``sid`` looks like: its NFKC form, case folded, letters that look Latin made Latin."""
    return unicodedata.normalize("NFKC", sid).casefold().translate(_LOOKS_LATIN)


def lookalikes(ids) -> list[list[str]]:
    """Groups of two or more ``ids`` that look the same (``skeleton``): ``alice`` and ``аlice`` (a Cyrillic а), ``Bob``
    and ``bob``, ``ｂob`` and ``bob``. Each is a student of their own in the gradebook, but a table of names shows
    two rows of one name, and a case-insensitive file system or database (a share, MySQL's default collation) makes
    them one (red team 23, host side)."""
    groups: dict[str, list[str]] = {}
    for sid in sorted(set(ids)):
        groups.setdefault(skeleton(sid), []).append(sid)
    return [g for g in groups.values() if len(g) > 1]


def told_apart(sid: str) -> str:
    """``sid`` with every character outside ASCII named: ``'аlice' (U+0430 CYRILLIC SMALL LETTER A)``."""
    odd = [f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in dict.fromkeys(sid) if ord(c) > 127]
    return repr(sid) + (f" ({', '.join(odd)})" if odd else "")
