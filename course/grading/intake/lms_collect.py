"""``nbgrader zip_collect`` for downloads from Canvas, Moodle and Blackboard: a file belongs to whoever
uploaded it.

``LmsExtractor`` (nbgrader's extractor step) reads ``downloaded/<a>/archive/``: the LMS's download
as a zip, or its entries. Only an entry's OUTER name (``lms_names``) names a student; everything
inside one upload (a zip they uploaded, folders) is theirs, whatever it is called. Then, per student:

- the latest attempt is collected whole (Blackboard's attempt time; on Canvas a LATE file is later
  than one that is not); earlier attempts are skipped;
- the student's own zip is opened, one level: an archive inside it is not opened (one line);
- an upload that is not a readable, safe zip (corrupt, too large unpacked, links, absolute or ``..``
  paths, encrypted) is refused whole; two different notebooks of the same name in the attempt, or
  one id that two uploaders share, are refused;
- an unusable id (``..``, separators, control characters, too long) is refused.

A student's bytes on disk are capped (``MAX_TOTAL``), and so are everyone's together (``DOWNLOAD_BYTES``, and
never more than a quarter of the free space where the download is unpacked, since nbgrader copies it once
more into ``gradebook/submitted/``): an upload past either is refused.
Each refusal is one log line and an incident (``lms_incidents``: the class report lists it, and so
does the student's feedback when they are graded), and touches no one else: the rest of the class is
collected as if it were not there. What is collected is written as ``extracted/<student>/<notebook>``; ``LmsCollector``
hands nbgrader exactly those files and nothing else that is found in ``extracted/``.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import stat
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field

from nbgrader.plugins.zipcollect import ExtractorPlugin, FileNameCollectorPlugin

from ...plain import one_line
from ... import fstree
from ..records import judge_records, lms_incidents
from .lms_archive import Member, Refused, copy_capped, folder_members, is_archive, zip_members
from .lms_names import SHAPES, Outer, file_name_ok, parse
from .safe_files import MAX_FILE, MAX_TOTAL

MAX_MEMBERS = 10_000      # entries in a student's zip
MAX_DOWNLOAD = 200_000    # entries in an LMS's download
DOWNLOAD_BYTES = 8 * 2**30  # a download's bytes on disk in all, and never more than a quarter of the free space
KINDS = {"unsafe": "a path outside the archive", "link": "a link", "other": "not a plain file",
         "encrypted": "encrypted", "method": "compressed with bzip2, lzma or another method than stored or deflate "
         "(not inflated: such members inflate without a limit)"}
NAMES = ("Canvas <name>_<user id>_<file id>_<file>, Moodle <name>_<id>_assignsubmission_file_<file>, "
         "Blackboard <assignment>_<user>_attempt_<time>_<file>, <student id>_{a}_<notebook>.ipynb "
         "or a folder <student id>/")


@dataclass
class Upload:
    who: Outer
    label: str                                   # its outer name, for messages
    notebooks: list = field(default_factory=list)  # (name, where in the upload, staged path, sha256)
    refused: str = ""
    notes: list = field(default_factory=list)
    total: int = 0
    staged: int = 0                              # bytes of its notebooks in the staging folder now


def _q(name: str) -> str:
    return one_line(repr(name), 160)


class Intake:
    def __init__(self, assignment: str, staging: str, log):
        self.a, self.staging, self.log = assignment, staging, log
        self.budget = min(DOWNLOAD_BYTES, _free(staging) // 4)  # every student's bytes on disk together: nbgrader
        # copies what is unpacked once more, into gradebook/submitted/
        self.uploads: list[Upload] = []
        self.count = itertools.count()
        self.incidents: list[tuple[str, str]] = []  # (student or "", message)
        self.on_disk: dict[str, int] = defaultdict(int)  # bytes staged for each student now
        self.peak: dict[str, int] = defaultdict(int)
        self.all_on_disk = self.peak_all = 0  # bytes staged for everyone together now, and the most
        self.latest: dict[str, tuple] = {}

    def incident(self, student: str, message: str) -> None:
        self.incidents.append((student, message))
        self.log.warning("zip_collect: %s%s", f"{student}: " if student else "", one_line(message, 500))

    # the outer level: the archive folder, or an LMS download zip in it
    def top(self, archive_path: str) -> None:
        for name in sorted(os.listdir(archive_path)):
            full = os.path.join(archive_path, name)
            st = os.lstat(full)
            if stat.S_ISDIR(st.st_mode):
                if not _skipped(name):
                    self.folder(name, folder_members(full))
            elif stat.S_ISREG(st.st_mode):
                self.file(name, Member(name, "file", st.st_size,
                                       lambda full=full: open(full, "rb", opener=_nofollow)), container_ok=True)
            else:
                self.incident("", f"{_q(name)} is not a plain file or folder: not collected")

    def container(self, name: str, member: Member) -> None:
        """An LMS's download: its top-level entries are outer names (no download inside a download)."""
        try:
            fh = member.open()
            members = zip_members(fh, MAX_DOWNLOAD)
        except (Refused, OSError, MemoryError) as exc:
            self.incident("", f"the download {_q(name)} {_why(exc)}: nothing in it was collected")
            return
        with fh:
            groups: dict[str, list[Member]] = defaultdict(list)
            for m in members:
                first, _, rest = m.path.partition("/")
                if m.kind in KINDS:
                    self.incident("", f"{_q(m.path)} in the download {_q(name)} is {KINDS[m.kind]}: not collected")
                elif rest or m.kind == "dir":
                    groups[first] += [Member(rest, m.kind, m.size, m.open)] if rest else []
                else:
                    self.file(first, m, container_ok=False, within=name)
            for first, inner in groups.items():
                if not _skipped(first):
                    self.folder(first, inner)

    def file(self, name: str, member: Member, container_ok: bool, within: str = "") -> None:
        who = parse(name, self.a, folder=False)
        if who is None and container_ok and name.lower().endswith(".zip"):
            return self.container(name, member)
        if who is None:
            if name.endswith(".ipynb") or is_archive(name):
                where = f" in the download {_q(within)}" if within else ""
                hint = "; a zip in archive/ is read as an LMS's download: a student's own zip goes in a folder " \
                       "named after them" if within else ""
                self.incident("", f"{_q(name)}{where} names no student (names: {NAMES.format(a=self.a)}): "
                                  f"not collected{hint}")
            else:
                self.log.info("zip_collect: skipped %s (not a notebook)", _q(name))
            return
        if isinstance(who, str):
            return self.incident("", f"{_q(name)}: {who}: not collected")
        up = Upload(who, name)
        if not self.start(up):
            return
        try:
            if who.file.endswith(".ipynb"):
                self.notebook(up, who.file, "", member)
            elif is_archive(who.file):
                self.archive(up, who.file, Member("", "file", member.size, member.open))
        except (Refused, OSError, MemoryError) as exc:
            up.refused = _why(exc)
            self.drop(up)

    def folder(self, name: str, members: list[Member]) -> None:
        who = parse(name, self.a, folder=True)
        if isinstance(who, str):
            return self.incident("", f"the folder {_q(name)}: {who}: not collected")
        up = Upload(who, name + "/")
        if not self.start(up) or not who.files:
            return
        try:
            self.walk(up, members, depth=0)
        except (Refused, OSError, MemoryError) as exc:
            up.refused = _why(exc)
            self.drop(up)

    # a student's bytes on disk: what is staged for their latest attempt, capped at MAX_TOTAL in all
    def start(self, up: Upload) -> bool:
        """Count ``up`` in; False when it is an earlier attempt than one already read (not read: place()
        skips it). A later attempt drops what earlier ones staged."""
        sid, attempt = up.who.student, up.who.attempt
        self.uploads.append(up)
        if sid in self.latest and attempt < self.latest[sid]:
            return False
        if sid in self.latest and attempt > self.latest[sid]:
            for other in self.uploads:
                if other.who.student == sid and other.who.attempt < attempt:
                    self.drop(other)
        self.latest[sid] = attempt
        return True

    def drop(self, up: Upload) -> None:
        for _, _, staged, _ in up.notebooks:
            _unlink(staged)
        up.notebooks = []
        self.on_disk[up.who.student] -= up.staged
        self.all_on_disk -= up.staged
        up.staged = 0

    def room(self, up: Upload) -> tuple[int, str]:
        """The bytes this student may still put on disk, and what a larger upload would pass."""
        mine, left = MAX_TOTAL - self.on_disk[up.who.student], self.budget - self.all_on_disk
        if left < mine:
            where = os.path.dirname(self.staging)
            return left, (f"would pass {self.budget // 2**20} MiB on disk for the whole download (at most "
                          f"{DOWNLOAD_BYTES // 2**30} GiB and a quarter of the free space of {where}): make room "
                          f"there, or put the download in archive/ in parts")
        return mine, f"would pass {MAX_TOTAL // 2**20} MiB on disk for this student in all"

    def on_disk_add(self, up: Upload, n: int) -> None:
        sid = up.who.student
        self.on_disk[sid] += n
        self.peak[sid] = max(self.peak[sid], self.on_disk[sid])
        self.all_on_disk += n
        self.peak_all = max(self.peak_all, self.all_on_disk)

    # inside one upload: everything is the uploader's
    def walk(self, up: Upload, members: list[Member], depth: int) -> None:
        for m in members:
            if m.kind == "dir":
                continue
            if m.kind != "file":
                raise Refused(f"holds {_q(m.path)}, which is {KINDS[m.kind]}")
            parts = m.path.split("/")
            if any(_skipped(p) for p in parts):
                continue
            base = parts[-1]
            if base.endswith(".ipynb"):
                if up.who.lms == "plain" and depth == 0 and _lms_named(base):
                    raise Refused(f"holds LMS-named files such as {_q(base)}: put the LMS's download itself "
                                  "(its zip, or its files) in archive/, not in a folder of its own")
                self.notebook(up, base, m.path, m)
            elif is_archive(base):
                if depth == 0:
                    self.archive(up, base, m)
                else:
                    up.notes.append(f"{_q(m.path)} is an archive inside an archive: not opened")

    def archive(self, up: Upload, name: str, m: Member) -> None:
        """The student's own archive, opened one level."""
        if not name.lower().endswith(".zip"):
            up.notes.append(f"{_q(name)} is not a .zip: not opened (upload the notebook, or a .zip of it)")
            return
        with tempfile.TemporaryFile(dir=self.staging) as tmp:
            size = _capped(m, tmp, MAX_TOTAL, self.room(up))
            self.on_disk_add(up, size)
            try:
                self.count_in(up, size)
                tmp.seek(0)
                inner = zip_members(tmp, MAX_MEMBERS)
                prefix = f"{m.path}/" if m.path else ""
                self.walk(up, [Member(prefix + x.path, x.kind, x.size, x.open) for x in inner], depth=1)
            finally:
                self.on_disk[up.who.student] -= size  # the copy of their zip is gone with ``tmp``
                self.all_on_disk -= size

    def notebook(self, up: Upload, name: str, where: str, m: Member) -> None:
        if not file_name_ok(name):
            up.notes.append(f"the notebook name {_q(name)} is not usable: not collected")
            return
        staged = os.path.join(self.staging, str(next(self.count)))
        try:
            with open(staged, "xb") as out:
                size = _capped(m, out, MAX_FILE, self.room(up))
        except BaseException:
            _unlink(staged)
            raise
        up.notebooks.append((name, where, staged, ""))
        up.staged += size
        self.on_disk_add(up, size)
        self.count_in(up, size)
        with open(staged, "rb") as fh:
            digest = hashlib.file_digest(fh, "sha256").hexdigest()
        up.notebooks[-1] = (name, where, staged, digest)

    @staticmethod
    def count_in(up: Upload, size: int) -> None:
        up.total += size
        if up.total > MAX_TOTAL:
            raise Refused(f"is larger than {MAX_TOTAL // 2**20} MiB unpacked in all")

    # per student: one uploader, the latest attempt, one file per notebook name
    def place(self, extracted: str) -> dict[str, dict]:
        by_student: dict[str, list[Upload]] = defaultdict(list)
        for up in self.uploads:
            by_student[up.who.student].append(up)
        placed = {}
        for sid, ups in sorted(by_student.items()):
            uploaders = sorted({up.who.identity for up in ups})
            if len(uploaders) > 1:
                self.incident(sid, f"{len(uploaders)} different uploaders have this id "
                                   f"({', '.join(_q(u.label) for u in ups[:3])}): none collected; "
                                   "collect each by hand under an id of their own")
                continue
            latest = max(up.who.attempt for up in ups)
            for up in ups:
                if up.who.attempt != latest:
                    self.log.info("zip_collect: %s: skipped %s (an earlier attempt)", sid, _q(up.label))
            chosen = [up for up in ups if up.who.attempt == latest]
            files = defaultdict(list)
            for up in chosen:
                for note in up.notes:
                    self.incident(sid, f"{_q(up.label)}: {note}")
                if up.refused:
                    self.incident(sid, f"{_q(up.label)} {up.refused}: nothing in it was collected")
                    continue
                for name, where, staged, digest in up.notebooks:
                    files[name].append((f"{up.label} > {where}" if where else up.label, staged, digest))
            for name, copies in sorted(files.items()):
                if len({d for _, _, d in copies}) > 1:
                    self.incident(sid, f"{len(copies)} different notebooks named {_q(name)} in one attempt "
                                       f"({', '.join(_q(w) for w, _, _ in copies[:3])}): none collected; "
                                       "collect the right one by hand")
                    continue
                dest = os.path.join(extracted, sid, name)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                os.rename(copies[0][1], dest)
                stamp = {"timestamp": chosen[0].who.timestamp} if chosen[0].who.timestamp else {}
                placed[os.path.normpath(dest)] = {"student_id": sid, "file_id": name, **stamp}
        return placed


def _capped(m: Member, out, cap: int, room: tuple[int, str]) -> int:
    """copy_capped to ``cap`` bytes, or to ``room`` (the bytes left on disk: ``Intake.room``) when less."""
    left, why = room
    try:
        if left <= 0:
            raise Refused("")
        return copy_capped(m, out, min(cap, left))
    except Refused:
        if left < cap:
            raise Refused(f"{why} at {_q(m.path or 'their upload')}") from None
        raise


def _free(folder: str) -> int:
    try:
        st = os.statvfs(folder)
    except OSError:
        return DOWNLOAD_BYTES * 2
    return st.f_bavail * st.f_frsize


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _nofollow(path, flags):
    return os.open(path, flags | os.O_NOFOLLOW)


def _why(exc: Exception) -> str:
    if isinstance(exc, MemoryError):
        return "took more memory than the grader has while unpacked"

    return str(exc) if isinstance(exc, Refused) else f"could not be read ({one_line(exc, 200)})"


def _skipped(name: str) -> bool:
    """Hidden folders and files (.ipynb_checkpoints, .DS_Store) and macOS's __MACOSX, inside an upload
    or as folders of the download; a hidden FILE of the download is still read (".._1_2_x" is refused)."""
    return name.startswith(".") or name == "__MACOSX"


def _lms_named(name: str) -> bool:
    return any(pattern.fullmatch(name) for _, pattern in SHAPES)


def keep_exchange_hand_ins(app, collected: dict) -> None:
    """Leave out of zip_collect's transfer every id whose submission in ``submitted/`` came through the exchange
    (``collect`` always writes its ``submission_secret.txt``; zip_collect takes only notebooks), one line each.

    An LMS names its uploader by a display name, which a student may be able to choose; an exchange hand-in is
    named by the account that made it (``OwnedCollect``). nbgrader's zip_collect ``--force`` (the README's block,
    run after ``collect``) empties ``submitted/<id>/<a>/`` before it copies, so an upload under a classmate's
    account name ("alice" on Canvas, Moodle with an editable name) deleted that classmate's exchange hand-in and put
    the upload in its place (red team 21); without ``--force`` it stopped zip_collect for the class. The line is
    nobody's (the report lists it; the classmate's feedback does not carry the upload's name)."""
    root, a = app.coursedir.root, app.coursedir.assignment_id

    def exchange(sid: str) -> bool:
        folder = app.coursedir.format_path(app.coursedir.submitted_directory, sid, a)
        return bool(sid) and os.path.lexists(os.path.join(folder, "submission_secret.txt"))

    # this run's lines under such an id are the uploader's: nobody's, named by the id (the report lists them)
    lines = [(r.get("student", ""), r["message"]) for r in
             judge_records.message_lines(lms_incidents.path(root, a)) or []]
    moved = [("", f"{_q(s)}: {m}") if exchange(s) else (s, m) for s, m in lines]
    if moved != lines:
        lms_incidents.write(root, a, moved)
    found = []
    for sid in sorted(collected):
        if not exchange(sid):
            continue
        data = collected.pop(sid)
        names = ", ".join(_q(os.path.basename(f)) for f in data.get("src_files", [])[:3])
        found.append(("", f"{_q(sid)}: an LMS upload under this id ({names}) was not collected: {_q(sid)} handed in "
                          "through the exchange (collected from that account), and an LMS's name is not proof of who "
                          "uploaded; if the upload is theirs, collect it by hand"))
        app.log.warning("zip_collect: %s", one_line(found[-1][1], 500))
    if found:
        lms_incidents.append(root, a, found)


class LmsExtractor(ExtractorPlugin):
    collected: dict | None = None

    def extract(self, archive_path: str, extracted_path: str) -> None:
        app = self.parent
        assignment, root = app.coursedir.assignment_id, app.coursedir.root
        staging = tempfile.mkdtemp(dir=os.path.dirname(os.path.normpath(extracted_path)), prefix=".intake-")
        try:
            intake = Intake(assignment, staging, self.log)
            intake.top(archive_path)
            self.collected = intake.place(extracted_path)
        finally:
            fstree.remove(staging)  # unpacked from an upload: any depth
        where = lms_incidents.write(root, assignment, intake.incidents)
        students = len({v["student_id"] for v in self.collected.values()})
        most = max(intake.peak.items(), key=lambda kv: kv[1], default=("", 0))
        self.log.info("zip_collect: %d notebook(s) of %d student(s) unpacked; %d problem(s)%s; most on disk for one "
                      "student: %d bytes%s (cap %d MiB); in all: %d bytes (cap %d MiB)", len(self.collected), students,
                      len(intake.incidents), f", recorded in {where}" if intake.incidents else "", most[1],
                      f" ({most[0]})" if most[0] else "", MAX_TOTAL // 2**20, intake.peak_all, intake.budget // 2**20)


class LmsCollector(FileNameCollectorPlugin):
    _told = False

    def collect(self, submitted_file: str):
        placed = getattr(getattr(self.parent, "extractor_plugin_inst", None), "collected", None)
        if placed is None:
            if not self._told:
                self._told = True
                self.log.warning("zip_collect: nothing was unpacked by this run: put the LMS's download in "
                                 "downloaded/<assignment>/archive/ (files in extracted/ are not collected)")
            return None
        info = placed.get(os.path.normpath(submitted_file))
        if info is None:
            self.log.warning("zip_collect: skipped %s: not unpacked by this run", one_line(submitted_file, 200))
        return dict(info) if info else None
