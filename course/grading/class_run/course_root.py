"""The course root is the instructor's: no other account may read or enter it.

It holds the reference solutions (``source/``), the hidden checks (``tests/<id>/``), the gradebook, the
students' submissions, secrets and feedback. ``make_private`` (run by ``make setup``, the course's nbgrader
config, so every nbgrader command run in the course root, and the grading pipeline) takes group and
other access off the root folder (``chmod go-rwx``), which closes everything under it; where this account
cannot, it refuses with one line that says how. A sandbox still sees what it must: bubblewrap mounts the
venv's and the course's read-only views at their paths, whatever the modes of the folders above them.
"""
from __future__ import annotations

import os
import stat
import sys


class OpenCourseRoot(Exception):
    """The course root is open to other accounts and this account cannot close it (one line)."""


def make_private(root: str, say=None) -> bool:
    """Take group and other access off ``root``; True if it was open. ``say``: called with one line
    when the mode changed."""
    st = os.stat(root)
    if not st.st_mode & 0o077:
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
    reachable = all(os.stat(p).st_mode & stat.S_IXOTH for p in _parents(os.path.abspath(root)))
    if say and reachable:  # said only where others could actually get in (not under a closed folder)
        say(f"course root {root}: closed to other accounts (mode {mode:04o} -> {mode & ~0o077:04o}); "
            f"students' files reach it only through the exchange")
    return True


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
