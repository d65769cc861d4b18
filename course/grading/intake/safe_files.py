"""File steps of nbgrader that trusted code must not do blindly on a submission's folder.

nbgrader copies ``submitted/`` to ``autograded/`` and ``autograded/`` to ``feedback/`` with
``shutil.copy`` and chmods every file it finds; all three follow symbolic links, so a link in a
submission would bring the gradebook, a source notebook or another student's work into that
student's folders, or change their permissions. ``install()`` (called from the course's nbgrader
config) replaces those steps:

- ``intake``: before autograde copies a submission, everything in it that is not a plain regular
  file (links, FIFOs, devices, hard links to elsewhere), has an unprintable name, or is over the
  size caps is moved to ``gradebook/rejected/<student>/<assignment>/`` (a rename: nothing is
  followed) with one log line each. A notebook moved away is replaced by the blank release, so
  that student is graded as blank and the batch goes on. Then ``notebook_intake`` writes the
  notebooks to grade into ``gradebook/intake/<student>/<assignment>/`` (unreadable, renamed or
  missing notebooks handled there), and autograde reads those copies.
- ``set_permissions``: chmod of regular files only, through a descriptor opened without
  following links.
- feedback: ``feedback/`` gets the feedback page and the two small files the exchange needs
  (``timestamp.txt``, ``submission_secret.txt``), copied with ``safe_copy``; nothing else from
  the submission's folder.
"""
from __future__ import annotations

import os
import stat

from ...plain import one_line
from ... import fstree
from ..records import incidents, lms_incidents
from . import notebook_intake

MAX_FILE = 64 * 2**20
MAX_TOTAL = 256 * 2**20
MAX_FILES = 200
FEEDBACK_FILES = ("timestamp.txt", "submission_secret.txt")


def printable(name: str) -> bool:
    return name.isprintable() and name not in (".", "..") and "/" not in name


def safe_copy(src: str, dst: str, limit: int = MAX_FILE) -> bool:
    """Copy a regular file without following links at either end; False if ``src`` is not one."""
    try:
        fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_size > limit:
            return False
        if os.path.lexists(dst):
            os.unlink(dst)
        out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        try:
            left = limit
            while left > 0:
                chunk = os.read(fd, min(2**20, left))
                if not chunk:
                    break
                os.write(out, chunk)
                left -= len(chunk)
        finally:
            os.close(out)
        return True
    finally:
        os.close(fd)


def _why_rejected(path: str, st: os.stat_result, name: str) -> str | None:
    if not printable(name):
        return "its name has control characters"
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link"
    if stat.S_ISDIR(st.st_mode):
        return None
    if not stat.S_ISREG(st.st_mode):
        return "it is not a regular file"
    if st.st_nlink != 1:
        return "it is a hard link to another file"
    if st.st_size > MAX_FILE:
        return f"it is larger than {MAX_FILE // 2**20} MiB"
    return None


def intake(src: str, rejected_dir: str, blank: dict[str, str], log, who: str = "") -> list[str]:
    """Make ``src`` (one student's submitted assignment) hold only plain files within the caps.

    ``blank`` maps a notebook file name to the release notebook put in place of a rejected one.
    Returns one line per rejected entry (also logged)."""
    lines: list[str] = []
    n = 0

    def reject(path: str, why: str) -> None:
        nonlocal n
        n += 1
        rel = os.path.relpath(path, src)
        notebook_intake.set_aside(path, rejected_dir, n)
        line = f"{one_line(who, 80) + ': ' if who else ''}{one_line(rel, 120)} was set aside ({why}) in {one_line(rejected_dir, 200)}"
        lines.append(line)
        log.warning("%s", line)
        if os.path.dirname(rel) == "" and rel in blank:
            safe_copy(blank[rel], os.path.join(src, rel))

    student_dir = os.path.dirname(os.path.normpath(src))
    if os.path.islink(student_dir):
        reject(student_dir, "the student's folder is a symbolic link")
    if os.path.islink(src) or not os.path.isdir(src):
        if os.path.lexists(src):
            reject(os.path.normpath(src), "the submission folder is not a plain folder")
        os.makedirs(src, exist_ok=True)
        for name, release in blank.items():
            safe_copy(release, os.path.join(src, name))
        return lines
    total = files = 0
    stack = [src]
    while stack:
        d = stack.pop()
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            st = e.stat(follow_symlinks=False)
            why = _why_rejected(e.path, st, e.name)
            if why is None and stat.S_ISREG(st.st_mode):
                files += 1
                total += st.st_size
                if files > MAX_FILES:
                    why = f"the submission has more than {MAX_FILES} files"
                elif total > MAX_TOTAL:
                    why = f"the submission is larger than {MAX_TOTAL // 2**20} MiB in all"
            if why:
                reject(e.path, why)
            elif stat.S_ISDIR(st.st_mode):
                stack.append(e.path)
    return lines


def set_permissions(root: str, mode: int) -> None:
    """chmod every regular file under ``root`` without following any link."""
    for dirname, dirnames, filenames in os.walk(root, followlinks=False):
        for name in filenames:
            try:
                fd = os.open(os.path.join(dirname, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue
            try:
                st = os.fstat(fd)
                if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
                    os.fchmod(fd, mode)
            finally:
                os.close(fd)


def install() -> None:
    """Route nbgrader's file steps through the functions above (idempotent)."""
    from nbgrader.converters import Autograde, GenerateFeedback
    from nbgrader.converters.base import BaseConverter

    if getattr(BaseConverter, "_course_safe_files", False):
        return
    original_autograde_init = Autograde.init_assignment
    original_resources = Autograde.init_single_notebook_resources

    def autograde_init(self, assignment_id, student_id):
        src = self._format_source(assignment_id, student_id)
        submitted_root = os.path.dirname(os.path.dirname(os.path.normpath(src)))
        rejected = os.path.join(os.path.dirname(submitted_root), "rejected", student_id, assignment_id)
        release = self.coursedir.format_path(self.coursedir.release_directory, ".", assignment_id)
        blank = {}
        if os.path.isdir(release):
            blank = {n: os.path.join(release, n) for n in os.listdir(release) if n.endswith(".ipynb")}
        incidents.clear(self.coursedir.root, assignment_id, student_id)  # this grading's incidents start here
        exchange = os.path.lexists(os.path.join(src, "submission_secret.txt"))  # collect wrote it: not an LMS's
        lines = lms_incidents.for_student(self.coursedir.root, assignment_id, student_id, exchange)  # zip_collect's
        lines += intake(src, rejected, blank, self.log, who=student_id)
        self._course_staged = {}
        if blank and os.path.isdir(src) and not os.path.islink(src):
            # the assignment's notebooks are graded from copies (renamed, or the blank for an unreadable
            # or missing one); the submitted folder keeps what was handed in
            stage = os.path.join(os.path.dirname(submitted_root), "intake", student_id, assignment_id)
            fstree.remove(stage)
            os.makedirs(stage)
            lines += notebook_intake.check(src, stage, blank, self.log, who=student_id, copy=safe_copy)
            self._course_staged = {os.path.join(stage, n): os.path.join(src, n) for n in sorted(blank)
                                   if os.path.isfile(os.path.join(stage, n))}
            self.notebooks = sorted(self._course_staged)
        for line in lines:  # logged already: recorded for the batch, the feedback and the report too
            incidents.record(self.coursedir.root, assignment_id, student_id, incidents.INTAKE, line, self.log,
                             noted=isinstance(line, notebook_intake.Noted))
        return original_autograde_init(self, assignment_id, student_id)

    def staged_resources(self, notebook_filename):
        """A copy in the intake folder is named after the submitted notebook it stands for."""
        staged = getattr(self, "_course_staged", {})
        return original_resources(self, staged.get(notebook_filename, notebook_filename))

    def safe_set_permissions(self, assignment_id, student_id):
        dest = os.path.normpath(self._format_dest(assignment_id, student_id))
        self.log.info("Setting destination file permissions to %s", self.permissions)
        set_permissions(dest, int(str(self.permissions), 8))

    def feedback_init(self, assignment_id, student_id):
        src = self._format_source(assignment_id, student_id)
        dest = self._format_dest(assignment_id, student_id)
        os.makedirs(dest, exist_ok=True)
        for name in FEEDBACK_FILES:
            safe_copy(os.path.join(src, name), os.path.join(dest, name), limit=4096)

    Autograde.init_assignment = autograde_init
    Autograde.init_single_notebook_resources = staged_resources
    BaseConverter.set_permissions = safe_set_permissions
    GenerateFeedback.init_assignment = feedback_init
    BaseConverter._course_safe_files = True
