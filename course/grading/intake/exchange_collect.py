"""``nbgrader collect`` where an inbound folder is one student's data, never a path the grader follows.

nbgrader names the student by the inbound folder's name (``<student>+<assignment>+<time>+<random>``),
which the submitter chooses, copies the folder with ``shutil.copytree`` (links followed, as root) and
stops for the whole class on one folder it cannot parse or copy. Here, per inbound folder:

- one whose owner is not the student it names is refused (``ExchangeCollect.check_owner = False``,
  nbgrader's setting for hubs where every student is one account, turns this off);
- a name that is not nbgrader's (an unusable id, a time that does not parse) is refused;
- the folder is copied by ``student_tree.walk``: nothing is followed, only regular files are taken,
  within ``safe_files``' caps; a folder that is a link is refused whole, each refused entry is a line;
- the submission time is the folder's last change (the newest ``st_ctime`` of the folder and of what
  is copied: a student can move it later, never earlier), not the name's or ``timestamp.txt``'s time,
  which the student writes; a claimed time earlier than that by more than ``SLACK`` is recorded;
- change times do not move for every write (a page already written through a shared memory mapping is
  rewritten without them: on tmpfs for good, on a disk file system until writeback), so
  every collect also records a digest of each inbound folder's files with the time it read them
  (``records/seals``); files that differ from what an earlier collect read at time T were written after
  T, whatever their change times say, and are submitted after T (one line). A collect at the deadline
  thus fixes what was handed in by then; ``--OwnedCollect.seal_only=True`` only records the digests
  (nothing copied, no gradebook change: for a timer at the deadline);
- ``timestamp.txt`` in ``submitted/`` is written by collect, and a ``submission_secret.txt`` that is
  not nbgrader's (128 hex digits) is replaced by a new one, so release_feedback can read both.

Every refusal is one log line and an incident of that student (``lms_incidents``, step "collect":
the class report lists it, their feedback too), and collection goes on for everyone else.
"""
from __future__ import annotations

import datetime
import fnmatch
import glob
import os
import pwd
import re
import secrets
import stat
import time

from nbgrader.exchange.default.collect import ExchangeCollect, groupby
from nbgrader.utils import check_mode, parse_utc
from traitlets import Bool

from ...plain import one_line
from ... import fstree
from ..records import lms_incidents, seals
from . import notebook_intake, student_tree
from .lms_names import student_id
from .safe_files import MAX_FILE, MAX_FILES, MAX_TOTAL

SLACK = datetime.timedelta(minutes=10)  # nbgrader submit's own time comes before its copy and chmod
SECRET = re.compile(rb"[0-9a-f]{128}")
STAMP = "%Y-%m-%d %H:%M:%S.%f UTC"
MAX_FOLDERS = 32  # inbound folders of one student read by one collect, newest first (nbgrader submit makes one a submit)
READ_BUDGET = MAX_TOTAL  # bytes read from one student's folders before no further (older) one is read
UNREAD = ""  # the digest sealed for a folder collect did not read


_ACCOUNTS: dict[int, str | None] = {}  # one collect's lookups (emptied as each starts): a lookup costs 10-80 us, and
# collect asks one for every entry of inbound/ named for a student (a student may make a million of them)


def _account(uid: int) -> str | None:
    if uid not in _ACCOUNTS:
        try:
            _ACCOUNTS[uid] = pwd.getpwuid(uid).pw_name
        except KeyError:
            _ACCOUNTS[uid] = None
    return _ACCOUNTS[uid]


def _time(text) -> datetime.datetime | None:
    try:
        t = parse_utc(text.decode("utf-8").strip() if isinstance(text, bytes) else text)
    except Exception:  # dateutil raises ValueError, OverflowError, TypeError, ParserError...
        return None
    return t if isinstance(t, datetime.datetime) else None


def _utc(ctime: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(ctime, datetime.timezone.utc).replace(tzinfo=None)


class OwnedCollect(ExchangeCollect):
    seal_only = Bool(False, help="Only record a digest of each inbound folder's files and the time they "
                                 "were read (run at the deadline: files that differ later were written after it); "
                                 "copy nothing.").tag(config=True)

    def _refuse(self, student: str, message: str) -> None:
        self.log.error("refused %s", one_line(message, 500))
        self._incidents.append((student, message))

    def _refuse_named(self, student: str, message: str, maker: str | None = None) -> None:
        """A refused entry named for ``student`` that anyone may have made (a link, a file, a classmate's
        folder). It is a line of the account that made it (``maker``: the entry's owner; ``_maker``), never of
        the student it names unless they made it: a classmate's entry named for a student once put its name (any
        text) in that student's feedback, under the grader's heading, and their name on the attack in the class
        report (red team 21). The first ``student_tree.LISTED`` of one account are lines, the rest one count
        (``copy_files``), so nobody's many entries fill a feedback or the class report."""
        who = student if maker is None else maker
        n = self._named_refused[who] = self._named_refused.get(who, 0) + 1
        self._makers.add(who)
        if n <= student_tree.LISTED:
            self._refuse(who, message)

    def _maker(self, st: os.stat_result, sid: str) -> str:
        """Whose line a refused entry named for ``sid`` is: its owner's account where that is a usable student id,
        else nobody's ("", as for root's or the grader's own entries); ``sid``'s where all students share one
        account (``check_owner`` off)."""
        if not self.check_owner:
            return sid
        if st.st_uid in (0, os.geteuid()):
            return ""
        account = _account(st.st_uid) or ""
        return account if student_id(account) == account else ""

    def _note(self, student: str, message: str) -> None:
        """An incident of a submission that is collected."""
        self.log.warning("%s: %s", student, one_line(message, 500))
        self._incidents.append((student, message))

    def _named(self, path: str) -> tuple[str, datetime.datetime] | None:
        """The student an inbound folder names and the time its name claims, checked without reading what
        it holds (its owner, its name); None when it is refused."""
        filename = os.path.basename(path)
        where = f"inbound/{one_line(filename, 160)}"
        parts = filename.rsplit("+", 3)
        named = parts[0] if len(parts) >= 3 else ""
        sid = named if student_id(named) == named else ""
        self._seen.add(sid)
        st = os.lstat(path)
        maker = self._maker(st, sid)
        if not sid:
            self._refuse_named("", f"{where}: the student id {one_line(repr(named), 120)} is not usable: not collected",
                               maker)
            return None
        if not stat.S_ISDIR(st.st_mode):  # a link too: refused before it counts as one of sid's folders
            self._refuse_named(sid, f"{where} is {'a file' if stat.S_ISREG(st.st_mode) else student_tree.kind(st.st_mode)}, "
                                    "not a folder: not collected", maker)
            return None
        if self.check_owner and _account(st.st_uid) != sid:
            self._refuse_named(sid, f"{where}: it names student {sid!r} but was made by account "
                                    f"{_account(st.st_uid)!r} (a student submits only as themselves; where all "
                                    f"students share one account, set c.ExchangeCollect.check_owner = False)", maker)
            return None
        claimed = _time(parts[2])
        if claimed is None:
            self._refuse_named(sid, f"{where}: its time {one_line(repr(parts[2]), 80)} is not nbgrader's (the folder was "
                              "not made by nbgrader submit): not collected", maker)
            return None
        return sid, claimed

    def _record(self, path: str, sid: str, claimed: datetime.datetime) -> tuple[dict | None, int]:
        """The record of one inbound folder of ``sid`` (None when it is refused) and the bytes read."""
        filename = os.path.basename(path)
        where = f"inbound/{one_line(filename, 160)}"
        began = time.time()
        try:
            measured = student_tree.walk(path, None, max_files=MAX_FILES, max_file=self._max_file(),
                                         max_total=MAX_TOTAL, skip=self._skipped, read=True)
        except (student_tree.Refused, OSError) as exc:
            self._refuse(sid, f"{where} {exc}: not collected")
            return None, 0
        self._sealed.append((filename, measured.digest, began))
        when = _utc(measured.newest_change)
        after = seals.changed_after(self._seals, filename, measured.digest)
        if after is not None:
            when = max(when, _utc(after))
        return {"username": sid, "filename": filename, "timestamp": when, "claimed": claimed}, measured.bytes

    def _records(self, paths: list[str]) -> list[dict]:
        """Every inbound folder a student may have collected, read newest first (by the time its name
        claims) while that student's folders are within ``MAX_FOLDERS`` and ``READ_BUDGET``: a student can
        make any number of folders, and a sparse file costs them no disk yet is read whole, so without a
        bound per student one account's folders could hold collect (and a deadline's seal) for hours. A folder
        left unread is sealed as unread (``UNREAD``, no digest matches it): should a later collect read it (its
        newer siblings removed), it is submitted after this reading, so a folder hidden from a deadline's seal
        behind newer ones cannot be rewritten after the deadline and count as on time."""
        named: dict[str, list[tuple[datetime.datetime, str]]] = {}
        for path in paths:
            try:
                got = self._named(path)
            except Exception as exc:  # one folder never stops the class
                got = self._refuse("", f"inbound/{one_line(os.path.basename(path), 160)} could not be read "
                                       f"({type(exc).__name__}: {one_line(exc, 200)}): not collected")
            if got:
                named.setdefault(got[0], []).append((got[1], path))
        records = []
        for sid, folders in sorted(named.items()):
            folders.sort(key=lambda f: (f[0], f[1]), reverse=True)
            spent = read = 0
            for claimed, path in folders:
                if read >= MAX_FOLDERS or spent >= READ_BUDGET:
                    break
                read += 1
                try:
                    rec, n = self._record(path, sid, claimed)
                except Exception as exc:  # one folder never stops the class
                    rec, n = self._refuse(sid, f"inbound/{one_line(os.path.basename(path), 160)} could not be read "
                                               f"({type(exc).__name__}: {one_line(exc, 200)}): not collected"), 0
                spent += n
                if rec:
                    records.append(rec)
            if read < len(folders):
                now = time.time()  # sealed unread: if one is read later (the newer ones gone), it counts from now
                self._sealed += [(os.path.basename(path), UNREAD, now) for _, path in folders[read:]]
                newest = f"{folders[read][0]:%Y-%m-%d %H:%M:%S}"
                self._note(sid, f"inbound: {len(folders) - read} older folder(s) of {sid!r} (named {newest} UTC or "
                                f"earlier) not read: a student's folders are read newest first, at most {MAX_FOLDERS} "
                                f"of them and {READ_BUDGET // 2**20} MiB in all; not collected")
        return records

    def _max_file(self) -> int:
        """The cap of one file: ``safe_files``' or nbgrader's ``max_file_size`` (kB), the smaller."""
        size = self.coursedir.max_file_size
        return min(MAX_FILE, int(1000 * size)) if size else MAX_FILE

    def init_src(self):
        if self.coursedir.course_id == "":
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not os.path.isdir(self.inbound_path) or os.path.islink(self.inbound_path):
            self.fail(f"Course not found: {self.inbound_path}")
        if not check_mode(self.inbound_path, read=True, execute=True):
            self.fail(f"You don't have read permissions for the directory: {self.inbound_path}")
        self._incidents, self._seen, self._named_refused, self._makers = [], set(), {}, set()
        _ACCOUNTS.clear()  # accounts may have been added or renamed since an earlier collect of this process
        self._seals, self._sealed = seals.by_folder(seals.read(self.coursedir.root, self.coursedir.assignment_id)), []
        student = self.coursedir.student_id or "*"
        pattern = os.path.join(glob.escape(self.inbound_path), f"{student}+{self.coursedir.assignment_id}+*")
        records = self._records(sorted(glob.glob(pattern)))
        try:
            seals.add(self.coursedir.root, self.coursedir.assignment_id, self._sealed)
        except OSError as exc:  # the course's own folder: said, and the times are the change times' alone
            self.log.error("collect could not record what it read (%s): a later collect cannot tell files "
                           "rewritten without a change time", one_line(exc, 200))
        for f, d, t in self._sealed:
            self._seals.setdefault(f, []).append({"folder": f, "sha256": d, "at": t})
        self.duedate = self._duedate()
        self.src_records = []
        for recs in groupby(records, lambda r: r["username"]).values():
            recs = self._sort_by_timestamp(recs)
            if self.duedate is not None and self.before_duedate:
                recs = [r for r in recs if r["timestamp"] <= self.duedate] or recs
            self.src_records.append(recs[0])

    def _duedate(self):
        from nbgrader.api import Gradebook, MissingEntry
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                return gb.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                return None

    def copy_files(self):
        a = self.coursedir.assignment_id
        if self.seal_only:
            self.log.info("Recorded what %d inbound folder(s) of '%s' hold now; nothing collected", len(self._sealed), a)
            return
        if not self.src_records:
            self.log.warning("No submissions of '%s' for course '%s' to collect", a, self.coursedir.course_id)
        else:
            self.log.info("Processing %d submissions of '%s' for course '%s'", len(self.src_records), a,
                          self.coursedir.course_id)
        for rec in self.src_records:
            try:
                self._collect_one(rec)
            except Exception as exc:  # one student's folder never stops the class
                self._refuse(rec["username"], f"inbound/{one_line(rec['filename'], 160)} could not be collected "
                                              f"({type(exc).__name__}: {one_line(exc, 200)})")
        for sid, n in sorted(self._named_refused.items()):
            if n > student_tree.LISTED:
                self._refuse(sid, f"inbound: {n - student_tree.LISTED} more entries refused as the ones above "
                                  f"({f'made by {sid!r}' if sid else 'made by no usable student'}): not collected")
        # the lines of the students this collect looked at are replaced: those its folders name, and, where it
        # looked at every folder, the makers of refused entries (a collect of one student leaves the rest)
        whole = (self.coursedir.student_id or "*") == "*"
        where = lms_incidents.write(self.coursedir.root, a, self._incidents, step="collect",
                                    students=self._seen | (self._makers if whole else set()))
        if self._incidents:
            self.log.warning("collect: %d problem(s), recorded in %s", len(self._incidents), where)

    def _existing(self, dest: str) -> datetime.datetime | None:
        data = student_tree.read_small(dest, "timestamp.txt", 200)
        return _time(data) if data else None

    def _collect_one(self, rec: dict) -> None:
        sid, a = rec["username"], self.coursedir.assignment_id
        src = os.path.join(self.inbound_path, rec["filename"])
        where = f"inbound/{one_line(rec['filename'], 160)}"
        dest = self.coursedir.format_path(self.coursedir.submitted_directory, sid, a)
        updating = os.path.lexists(dest)
        if updating:
            existing = self._existing(dest)
            newer = existing is None or rec["timestamp"] > existing
            if not ((self.update and newer) or (self.before_duedate and existing != rec["timestamp"])):
                self.log.info("%s: %s %s", "No newer submission to collect" if self.update else
                              "Submission already exists, use --update to update", sid, a)
                return
        self.log.info("%s submission: %s %s", "Updating" if updating else "Collecting", sid, a)
        parent = os.path.dirname(os.path.normpath(dest))
        os.makedirs(parent, exist_ok=True)
        tmp = os.path.join(parent, f".collect-{secrets.token_hex(6)}")
        shared = self.coursedir.groupshared
        try:
            got = student_tree.walk(src, tmp, max_files=MAX_FILES, max_file=self._max_file(), max_total=MAX_TOTAL,
                                    skip=self._skipped, file_mode=0o664 if shared else 0o644,
                                    dir_mode=0o2775 if shared else 0o755)
            for line in got.lines():
                self._refuse(sid, f"{where}: {line}: not collected")  # the entry; the rest is collected
            changed = _utc(got.newest_change)
            after = seals.changed_after(self._seals, rec["filename"], got.digest)
            if after is not None and _utc(after) > changed:
                self._note(sid, f"{where}: its files differ from what collect read at {_utc(after):%Y-%m-%d %H:%M:%S} "
                                f"UTC, though their change times end at {changed:%Y-%m-%d %H:%M:%S} UTC (rewritten "
                                "without moving them, as through a shared memory mapping): submitted after the read")
                changed = _utc(after)
            self._stamp(sid, where, tmp, rec, changed)
            if updating and not os.path.lexists(os.path.join(dest, "submission_secret.txt")):
                self._keep_lms_upload(sid, dest, where)
            if os.path.lexists(dest) and not fstree.remove(dest):
                raise OSError(f"the earlier submission {dest} could not be removed")
            os.rename(tmp, dest)
        finally:
            fstree.remove(tmp)

    def _keep_lms_upload(self, sid: str, dest: str, where: str) -> None:
        """``dest`` holds a submission collect did not put there (collect always writes submission_secret.txt):
        zip_collect's, an LMS upload under ``sid``. The exchange's hand-in, made by account ``sid``, replaces it (an
        account is checked by the machine, an LMS's display name is not), but the upload was deleted with no line
        (red team 22, host side): it is moved to ``gradebook/rejected/<sid>/<a>/`` and said in one line that is
        nobody's (the class report lists it; ``sid``'s feedback carries no upload's names)."""
        a = self.coursedir.assignment_id
        rejected = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.normpath(dest)))),
                                "rejected", sid, a)
        kept = notebook_intake.set_aside(os.path.normpath(dest), rejected, 0)
        names = sorted(os.listdir(kept)) if os.path.isdir(kept) and not os.path.islink(kept) else []
        shown = ", ".join(repr(one_line(n, 60)) for n in names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        line = (f"{sid!r}: an earlier submission under this id that collect did not make (an LMS upload, by "
                f"zip_collect: {shown or 'empty'}) was replaced by {where}, handed in by account {sid!r}; kept in "
                f"{one_line(kept, 200)} (if the upload is theirs, grade it by hand)")
        self.log.warning("collect: %s", one_line(line, 500))
        self._incidents.append(("", line))

    def _stamp(self, sid: str, where: str, folder: str, rec: dict, changed: datetime.datetime) -> None:
        """timestamp.txt: the last change; submission_secret.txt: nbgrader's, or a new one."""
        when = max(changed, rec["timestamp"])
        claims = [("its name", rec["claimed"])]
        data = student_tree.read_small(folder, "timestamp.txt", 200)
        told = _time(data) if data else None
        if told is None:
            self._note(sid, f"{where}: timestamp.txt is missing or not a time: submission time taken from the "
                              "folder's last change")
        else:
            claims.append(("timestamp.txt", told))
        for what, t in claims:
            if t + SLACK < when:
                self._note(sid, f"{where}: {what} says {t:%Y-%m-%d %H:%M:%S} UTC but the folder last changed at "
                                  f"{when:%Y-%m-%d %H:%M:%S} UTC: submitted at the later time")
        self.log.info("%s: submitted at %s UTC (nbgrader's time %s)", sid, f"{when:%Y-%m-%d %H:%M:%S}",
                      f"{rec['claimed']:%Y-%m-%d %H:%M:%S}")
        secret = student_tree.read_small(folder, "submission_secret.txt", 200)
        _write(folder, "timestamp.txt", when.strftime(STAMP).encode())
        if not (secret and SECRET.fullmatch(secret.strip())):
            self._note(sid, f"{where}: submission_secret.txt is {'not nbgrader' + chr(39) + 's' if secret else 'missing'}: a "
                              "new one is used, so nbgrader fetch_feedback will not find their feedback (hand it over)")
            _write(folder, "submission_secret.txt", secrets.token_hex(64).encode())

    def _skipped(self, name: str) -> bool:
        """nbgrader's CourseDirectory.ignore patterns (its include patterns are not applied)."""
        return any(fnmatch.fnmatch(name, g) for g in self.coursedir.ignore or ())

    def do_copy(self, src, dest, log=None):
        raise RuntimeError("OwnedCollect copies through student_tree.walk, never nbgrader's copytree")


def _write(folder: str, name: str, data: bytes) -> None:
    """Replace ``folder/name`` (a file collect just copied, or none) without following a link."""
    path = os.path.join(folder, name)
    if os.path.lexists(path):
        os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
