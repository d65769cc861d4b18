"""The exchange belongs to the course: its folders are made and checked here, never taken as found.

nbgrader's exchange is a folder every account of the class can write into. As nbgrader's docs make it
(``chmod ugo+rw``, no sticky bit), a student can rename the instructor's course folder away and put a
folder or link of their own in its place; nbgrader then releases assignments and feedback into it as
root. Here the exchange root and the course's ``<course>/``, ``outbound/``, ``inbound/`` and ``feedback/``
are made with these modes, owned by the instructor (this account) or root, never links:

- the root: 1777 (anyone may add a course folder, nobody may move another's: the sticky bit)
- ``<course>/`` and ``outbound/``: 0755 (students read releases, write nothing)
- ``inbound/``: 3733 (students add submission folders they cannot list; sticky: nobody moves another's)
- ``feedback/``: 0711 (students fetch their own page by its secret name)

``ensure`` runs before ``release_assignment``, ``release_feedback`` and ``collect`` (``install()``, from
the course's nbgrader config) and refuses with one line when something there is not the course's.
``python -m course.grading.intake.exchange_root <root>`` (``make exchange``) makes the folders.
After ``collect`` and ``zip_collect``, the collected submissions in ``gradebook/submitted/`` are made
unwritable by others (stock nbgrader copies a submission folder's 0777; zip_collect's folders follow the umask).
"""
from __future__ import annotations

import os
import stat
import sys

ROOT_MODE = 0o1777
MODES = {"": 0o755, "outbound": 0o755, "inbound": 0o3733, "feedback": 0o711}


class NotTheCourses(Exception):
    """Something in the exchange is not the course's (the message is one line that says what to do)."""


def _trusted(uid: int) -> bool:
    return uid in (0, os.geteuid())


def _owner(uid: int) -> str:
    import pwd
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _fix(root: str) -> str:
    return f"move it away and run `make exchange EXCHANGE={root}` (or python -m course.grading.intake.exchange_root {root})"


def _check_path(path: str, root: str) -> None:
    """Every folder leading to ``path`` belongs to root or this account, and one that others may write
    into is sticky (so nobody else can rename what is in it)."""
    for p in _ancestors(path) + _ancestors(os.path.realpath(path)):
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            return
        if not _trusted(st.st_uid):
            raise NotTheCourses(f"exchange: {p} belongs to {_owner(st.st_uid)!r}, not the instructor or root: "
                                f"{_fix(root)}")
        if stat.S_ISDIR(st.st_mode) and st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
            raise NotTheCourses(f"exchange: {p} is writable by other accounts without the sticky bit (mode "
                                f"{stat.S_IMODE(st.st_mode):04o}), so a student could replace what is in it: "
                                f"chmod +t {p}, or choose an exchange folder elsewhere")


def _ancestors(path: str) -> list[str]:
    out, p = [], os.path.dirname(os.path.abspath(path))
    while True:
        out.append(p)
        if p == os.path.dirname(p):
            return out[::-1]
        p = os.path.dirname(p)


def _folder(path: str, mode: int, root: str, create: bool, fix_mode: bool) -> bool:
    """Make ``path`` (when ``create``) and check it: a real folder of root or this account with ``mode``
    (made so when ``fix_mode``: a folder of ours, not a link, so chmod is safe). False if absent."""
    if create:
        try:
            os.mkdir(path, 0o700)  # never follows a link at ``path``: one there makes this fail
            os.chmod(path, mode)  # safe: the folder just made, in a folder checked to be the course's
        except FileExistsError:
            pass
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a folder"
        raise NotTheCourses(f"exchange: {path} is {kind} (owner {_owner(st.st_uid)!r}), not the course's folder: "
                            f"{_fix(root)}")
    if not _trusted(st.st_uid):
        raise NotTheCourses(f"exchange: {path} belongs to {_owner(st.st_uid)!r}, not the instructor or root "
                            f"(a student may have replaced it): {_fix(root)}")
    if stat.S_IMODE(st.st_mode) != mode:
        if not fix_mode:
            raise NotTheCourses(f"exchange: {path} has mode {stat.S_IMODE(st.st_mode):04o}, not {mode:04o}: "
                                f"run `make exchange EXCHANGE={root}`")
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            if os.fstat(fd).st_ino != st.st_ino:
                raise NotTheCourses(f"exchange: {path} changed while it was checked: {_fix(root)}")
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
    return True


def ensure(root: str, course_id: str, create: bool = True, fix_mode: bool = True) -> None:
    """Make (when ``create``) and check the exchange ``root`` and the course's folders in it; raise
    NotTheCourses with one line when any is not the course's."""
    if not course_id or "/" in course_id or course_id in (".", ".."):
        raise NotTheCourses(f"exchange: course id {course_id!r} cannot name a folder")
    root = os.path.abspath(root)
    if create:
        parent = os.path.dirname(root)
        _check_path(root, root)
        os.makedirs(parent, mode=0o755, exist_ok=True)
    _check_path(root, root)
    if not _folder(root, ROOT_MODE, root, create, fix_mode):
        return
    course = os.path.join(root, course_id)
    for name, mode in MODES.items():
        if not _folder(os.path.join(course, name) if name else course, mode, root, create, fix_mode):
            return


def close_submitted(folder: str) -> int:
    """Make everything under ``folder`` unwritable by group and others, following no link; how many
    entries were changed."""
    changed = 0
    try:
        top = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return 0
    todo = [top]
    while todo:
        fd = todo.pop()
        try:
            st = os.fstat(fd)
            if st.st_mode & 0o022:
                os.fchmod(fd, stat.S_IMODE(st.st_mode) & ~0o022)
                changed += 1
            for name in os.listdir(fd):
                try:
                    est = os.stat(name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(est.st_mode):
                    try:
                        todo.append(os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd))
                    except OSError:
                        pass
                elif stat.S_ISREG(est.st_mode) and est.st_mode & 0o022:
                    try:
                        f = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
                    except OSError:
                        continue
                    try:
                        os.fchmod(f, stat.S_IMODE(os.fstat(f).st_mode) & ~0o022)
                        changed += 1
                    finally:
                        os.close(f)
        finally:
            os.close(fd)
    return changed


def install() -> None:
    """Check the exchange before nbgrader's instructor steps write into it or read from it."""
    from nbgrader.exchange.default.collect import ExchangeCollect
    from nbgrader.exchange.default.release_assignment import ExchangeReleaseAssignment
    from nbgrader.exchange.default.release_feedback import ExchangeReleaseFeedback

    for cls in (ExchangeReleaseAssignment, ExchangeReleaseFeedback, ExchangeCollect):
        if "_course_exchange" in cls.__dict__:
            continue
        cls.start = _checked(cls.start, collect=cls is ExchangeCollect)
        cls._course_exchange = True
    from nbgrader.apps.zipcollectapp import ZipCollectApp
    if "_course_closed" not in ZipCollectApp.__dict__:
        ZipCollectApp._transfer_files = _closed_after(ZipCollectApp._transfer_files)
        ZipCollectApp._course_closed = True


def _closed_after(transfer):
    """zip_collect's copy into ``submitted/`` (nbgrader's makedirs and shutil.copy, under the grader's umask:
    0777 folders under umask 0) followed by ``close_submitted``, as collect is."""
    def transfer_then_close(self, collected_data):
        from .lms_collect import keep_exchange_hand_ins
        try:
            keep_exchange_hand_ins(self, collected_data)  # an LMS name never replaces an exchange hand-in
            return transfer(self, collected_data)
        finally:
            close_submitted(os.path.join(self.coursedir.root, self.coursedir.submitted_directory))
    return transfer_then_close


def _checked(start, collect: bool):
    def checked_start(self):
        if not self.coursedir.groupshared:  # group-shared exchanges are the admins' to set up
            try:
                ensure(self.root, self.coursedir.course_id)
            except NotTheCourses as exc:
                self.fail(str(exc))
            except OSError as exc:
                self.fail(f"exchange: cannot make or check the course's folders in {self.root} ({exc.strerror}): "
                          f"run `make exchange EXCHANGE={self.root}` as the instructor or root")
        result = start(self)
        if collect:
            close_submitted(os.path.join(self.coursedir.root, self.coursedir.submitted_directory))
        return result
    return checked_start


def main(argv=None) -> int:
    import argparse
    p = argparse.ArgumentParser(description="Make the exchange folder and the course's folders in it, "
                                            "owned by this account, with the modes nbgrader's steps need.")
    p.add_argument("root", nargs="?", default=os.environ.get("NBGRADER_EXCHANGE", "/srv/nbgrader/exchange"))
    p.add_argument("--course", default="advanced-pytorch-internals")
    args = p.parse_args(argv)
    try:
        ensure(args.root, args.course)
    except (NotTheCourses, OSError) as exc:
        print(exc if isinstance(exc, NotTheCourses) else f"exchange: cannot make {args.root}: {exc}", file=sys.stderr)
        return 1
    print(f"exchange ready: {os.path.abspath(args.root)} (1777) and {args.course}/ with outbound/ (0755), "
          f"inbound/ (3733), feedback/ (0711), owned by {_owner(os.geteuid())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
