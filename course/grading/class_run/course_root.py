"""The course root is the instructor's: no other account may read or enter it.

It holds the reference solutions (``source/``), the hidden checks (``tests/<id>/``), the gradebook, the
students' submissions, secrets and feedback. ``make_private`` (run by ``make setup``, the course's nbgrader
config, so every nbgrader command run in the course root, and the grading pipeline) takes group and
other access off the root folder (``chmod go-rwx``) and off every folder under it but a virtual environment's
(a process already inside a folder when the root closed would otherwise keep reaching what is written there
later); where this account cannot close the root, it refuses with one line that says how. A sandbox still sees what it must: bubblewrap mounts the
venv's and the course's read-only views at their paths, whatever the modes of the folders above them.
"""
from __future__ import annotations

import os
import stat
import sys


class OpenCourseRoot(Exception):
    """The course root is open to other accounts and this account cannot close it (one line)."""


def make_private(root: str, say=None) -> bool:
    """Take group and other access off ``root`` and off every folder under it (``close_folders``); True if
    the root was open. ``say``: called with one line when the root's mode changed."""
    st = os.stat(root)
    if not st.st_mode & 0o077:
        close_folders(root)
        return False
    mode = stat.S_IMODE(st.st_mode)
    try:
        os.chmod(root, mode & ~0o077)  # safe: the course root named by its own config, followed on purpose
    except PermissionError:
        import pwd
        try:
            owner = pwd.getpwuid(st.st_uid).pw_name
        except KeyError:
            owner = f"uid {st.st_uid}"
        raise OpenCourseRoot(f"the course root {root} can be read by other accounts (mode {mode:04o}) and this "
                             f"account cannot change that: run `chmod go-rwx {root}` as {owner}") from None
    close_folders(root)
    reachable = all(os.stat(p).st_mode & stat.S_IXOTH for p in _parents(os.path.abspath(root)))
    if say and reachable:  # said only where others could actually get in (not under a closed folder)
        say(f"course root {root}: closed to other accounts (mode {mode:04o} -> {mode & ~0o077:04o}); "
            f"students' files reach it only through the exchange")
    return True


# Folders of the course root that are public by design and copied for other accounts (their modes go with
# the copies): what students get (``release/``: the hub's Jupyter config, ``make student-env``), the code (a
# sandbox's read-only view of ``course/`` is copied from it, with its folders' modes), the documentation.
PUBLIC = ("release", "course", "docs")
# Folders of the course root that hold students' files (what collect, zip_collect and autograde write there, under
# names the student chose): a ``pyvenv.cfg`` under them is a student's file, not a virtual environment.
STUDENTS = ("gradebook", "autograded", "submitted", "feedback")


def close_folders(root: str) -> int:
    """Take group and other access off every folder under ``root`` that this account owns, following no
    link, and leave virtual environments (a folder holding ``pyvenv.cfg``: public packages that sandboxes
    read as accounts of their own; not under ``STUDENTS``, where a student names the files), grading's temporary
    folders and the root's ``PUBLIC`` folders as they are; how many folders were changed.

    Closing the root alone does not close what is under it to a process already inside: permission is
    checked on each folder a path passes through, and a student's shell (or ``sleep``) whose working folder
    was ``gradebook/`` or ``source/`` before the root was closed (while ``make setup`` installed the venv,
    say) reaches everything later written there by relative paths, never passing the root: the gradebook,
    classmates' submissions, feedback and secrets. A folder closed itself refuses them."""
    changed = 0
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        top = os.open(root, flags)
    except OSError:
        return 0
    me, kept = os.geteuid(), _grading_folders()
    stack = [(top, iter(_names(top)), False)]  # depth first: one descriptor open per level
    while stack:
        fd, names, students = stack[-1]
        name = next(names, None)
        if name is None:
            os.close(fd)
            stack.pop()
            continue
        try:
            sub = os.open(name, flags, dir_fd=fd)
        except OSError:  # not a folder, a link, or not ours to open
            continue
        inside = _names(sub)
        st = os.fstat(sub)
        theirs = students or (fd == top and name in STUDENTS)  # a student's pyvenv.cfg keeps nothing open (red team 22)
        if ("pyvenv.cfg" in inside and not theirs) or (st.st_dev, st.st_ino) in kept or (fd == top and name in PUBLIC):
            # left as they are, and not entered
            os.close(sub)
            continue
        if st.st_uid == me and st.st_mode & 0o077:
            try:
                os.fchmod(sub, stat.S_IMODE(st.st_mode) & ~0o077)
                changed += 1
            except OSError:
                pass
        stack.append((sub, iter(inside), theirs))
    return changed


def _grading_folders() -> set[tuple[int, int]]:
    """The folders where grading makes what sandboxes read as accounts of their own (the temporary folder:
    the course view, kernels' folders), should one of them be inside the course root."""
    import tempfile
    out = set()
    for p in (tempfile.gettempdir(), os.environ.get("COURSE_KERNEL_ROOT"), os.environ.get("JUPYTER_RUNTIME_DIR")):
        try:
            st = os.stat(p) if p else None
        except OSError:
            st = None
        if st is not None:
            out.add((st.st_dev, st.st_ino))
    return out


def _names(fd: int) -> list[str]:
    try:
        return sorted(os.listdir(fd))
    except OSError:
        return []


def _parents(path: str) -> list[str]:
    out, p = [], os.path.dirname(path)
    while p != os.path.dirname(p):
        out.append(p)
        p = os.path.dirname(p)
    return out


def main(argv=None) -> int:
    root = (argv if argv is not None else sys.argv[1:]) or [os.getcwd()]
    try:
        make_private(root[0], say=print)
    except OpenCourseRoot as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
