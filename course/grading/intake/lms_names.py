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


# Letters drawn like Latin ones, the ones an LMS display name can use to pass for a classmate's in a table. Capitals
# first, as written (Greek and Cyrillic capitals, Cherokee, whose case folding gives its capitals, and Lisu's
# Latin-shaped letters): a capital Greek nu reads N, a small one v. Then small letters, after case folding: Cyrillic,
# Greek, Armenian, and Latin's own IPA letters and small capitals (red team 23 listed only Cyrillic and Greek: mallory
# as "\u0251lice", with a Latin alpha, "al\u0131ce" with a dotless i, or "b\u0585b" with an Armenian oh, was a row of
# her own that the score table did not name; red team 24, host side).
_LOOK_LATIN_CAPS = str.maketrans(
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"  # Greek
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423\u0425\u0405\u0406\u0408\u051a\u051c"  # Cyrillic
    "\u13aa\u13f4\u13df\u13a0\u13ac\u13c0\u13bb\u13ab\u13e6\u13de\u13b7\u13e2\u13da\u13a2\u13d9\u13b3\u13c3\u13a1"  # Cherokee
    "\ua4ee\ua4d0\ua4da\ua4d3\ua4f0\ua4dd\ua4d6\ua4e7\ua4f2\ua4d9\ua4d7\ua4e1\ua4df\ua4e0\ua4f3\ua4d1\ua4e3\ua4e2"
    "\ua4d4\ua4f4\ua4e6\ua4ea\ua4eb\ua4ec\ua4dc",  # Lisu
    "ABEZHIKMNOPTYX" "ABEKMHOPCTYXSIJQW" "ABCDEGHJKLMPSTVWZR" "ABCDEFGHIJKLMNOPRSTUVWXYZ")
_LOOKS_LATIN = str.maketrans(
    "\u0430\u0432\u0435\u0456\u0458\u043a\u043c\u043d\u043e\u0440\u0441\u0442\u0443\u0445\u0455\u0501\u04bb\u04cf\u051b"
    "\u051d\u04af\u044c\u0433\u0475"  # Cyrillic
    "\u03b1\u03b2\u03b5\u03b9\u03ba\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7\u03b6\u03b7\u03f2\u03f3"  # Greek
    "\u0585\u057d\u0570\u0578\u0581\u0566"  # Armenian
    "\u0251\u0261\u0131\u0237\u0269\u01c0"  # Latin: alpha, script g, dotless i and j, iota, dental click
    "\u1d00\u0299\u1d04\u1d05\u1d07\u0262\u029c\u026a\u1d0a\u1d0b\u029f\u1d0d\u0274\u1d0f\u1d18\u0280\ua731\u1d1b"
    "\u1d1c\u1d20\u1d21\u028f\u1d22",  # Latin small capitals
    "abeijkmhopctyxsdhlq" "wybrv"
    "abeikvoptuxzncj"
    "ouhngq"
    "agijil"
    "abcdeghijklmnoprst" "uvwyz")


def skeleton(sid: str) -> str:
    """What ``sid`` looks like: its NFKC form without combining marks (an "a" with a dot below reads "a"), letters
    drawn like Latin capitals made those, case folded, letters drawn like small Latin ones made those."""
    plain = "".join(c for c in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", sid))
                    if not unicodedata.combining(c))
    folded = plain.translate(_LOOK_LATIN_CAPS).casefold()
    return folded.translate(_LOOK_LATIN_CAPS).casefold().translate(_LOOKS_LATIN)  # small Cherokee folds to capitals


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
