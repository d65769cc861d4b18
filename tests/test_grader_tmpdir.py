"""The grader's own temporary folder (``tempdirs.private_root``), not the machine's shared ``/tmp``.

Red team 17 measured that names cost whoever lists them: 1,000,000 hard links a student made in ``/tmp`` (no inode
of theirs, the directory's blocks root's) cost every judge session 7.1 s, because the server listed ``/tmp`` to
remove a session's folders. The grader now makes its folders in ``<tmp>/course-grader-<uid>`` (0711, its own, never
a link), lists only that, and runs with it as TMPDIR; a name another account made first is passed over.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile

import pytest

from course import REPO_ROOT
from course.sandbox import tempdirs


@pytest.fixture
def shared_tmp(tmp_path, monkeypatch):
    """A stand-in for /tmp (mode 1777) as this process's temporary folder."""
    base = tmp_path / "tmp"
    base.mkdir()
    base.chmod(0o1777)
    monkeypatch.setattr(tempfile, "tempdir", str(base))
    monkeypatch.setattr(tempdirs, "_CACHE", {})
    return base


def test_names_planted_in_tmp_are_never_listed_by_the_grader(shared_tmp, monkeypatch):
    target = shared_tmp / "f"
    target.write_text("x")
    for i in range(2000):  # what a student makes for free: hard links with long names
        os.link(target, shared_tmp / (f"{i:06d}" + "n" * 200))
    planted = shared_tmp / "course-stage-999999999-x"  # a course name for a dead process, in the shared folder
    planted.mkdir()
    (planted / "kept").write_text("theirs")
    listed = []
    real = os.listdir

    def listdir(path="."):
        listed.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(tempdirs.os, "listdir", listdir)
    made = tempdirs.make("worker")
    root = tempdirs.private_root()
    assert os.path.dirname(made) == root != str(shared_tmp), made
    st = os.lstat(root)
    assert stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) == 0o711, oct(st.st_mode)
    tempdirs.remove_of(999999999)
    tempdirs.sweep()
    assert str(shared_tmp) not in listed, (f"the grader listed the shared temporary folder ({len(real(shared_tmp))} "
                                          f"names a student can make) to find its own folders: {listed}")
    assert (planted / "kept").read_text() == "theirs"
    os.rmdir(made)


def test_a_name_another_account_made_first_is_passed_over(shared_tmp, tmp_path):
    uid = os.geteuid()
    victim = tmp_path / "instructors"
    victim.mkdir(mode=0o700)
    os.symlink(victim, shared_tmp / f"course-grader-{uid}")  # a link in its place
    theirs = shared_tmp / f"course-grader-{uid}.1"  # a folder of another account
    theirs.mkdir(mode=0o777)
    os.chown(theirs, 65534, 65534)
    theirs.chmod(0o777)
    root = tempdirs.private_root()
    assert root == str(shared_tmp / f"course-grader-{uid}.2"), root
    assert stat.S_IMODE(os.stat(victim).st_mode) == 0o700, "the link's target was chmodded"
    assert not os.listdir(victim) and os.stat(theirs).st_uid == 65534


def test_the_grader_s_children_share_its_folder_without_nesting(tmp_path):
    """adopt() makes it TMPDIR; a child (the judge server, a kernel's host side) finds the same folder, not one
    inside it."""
    base = tmp_path / "tmp"
    base.mkdir()
    code = ("import os, subprocess, sys, tempfile\n"
            "from course.sandbox import tempdirs\n"
            "root = tempdirs.adopt()\n"
            "child = subprocess.run([sys.executable, '-c', 'import tempfile; from course.sandbox import tempdirs; "
            "print(tempfile.gettempdir(), tempdirs.private_root())'], capture_output=True, text=True, check=True)\n"
            "print(root, os.environ['TMPDIR'], child.stdout.strip())\n")
    r = subprocess.run([sys.executable, "-c", code], env={**os.environ, "TMPDIR": str(base), "PYTHONPATH": str(REPO_ROOT)},
                       capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT))
    assert r.returncode == 0, r.stderr[-2000:]
    want = str(base / f"course-grader-{os.geteuid()}")
    assert r.stdout.split() == [want] * 4, r.stdout
