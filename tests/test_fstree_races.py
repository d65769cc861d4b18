"""fstree.remove as root on a folder another account can swap (red team 9).

The grader removes ``<tmp>/course-<kind>-<pid>-*`` folders of ended processes (``tempdirs.sweep`` when the course's
configuration loads, ``tempdirs.remove_of`` after each judge session), and ``/tmp`` is every account's: a student
with a shell on the grading machine can plant such a folder, for a pid that is dead, and swap it (or a folder inside
it) for a link between the grader's ``lstat`` and its ``chmod``. The race is made certain here by doing the swap
inside ``lstat``; the file the link names must keep its mode.
"""
from __future__ import annotations

import os
import stat
import sys

from course import fstree
from course.sandbox import tempdirs


def _swap_once(monkeypatch, name: str, victim: str) -> list:
    """fstree's ``lstat`` of an entry called ``name`` reports the folder, then the folder becomes a link to
    ``victim``."""
    real, done = os.lstat, []

    def lstat(path, *args, dir_fd=None, **kwargs):
        st = real(path, *args, dir_fd=dir_fd, **kwargs)
        ours = sys._getframe(1).f_globals.get("__name__") == fstree.__name__
        if ours and not done and os.path.basename(os.fsdecode(path)) == name and stat.S_ISDIR(st.st_mode):
            full = os.path.join(f"/proc/self/fd/{dir_fd}", path) if dir_fd is not None else path
            os.rename(full, full + ".moved")
            os.symlink(victim, full)
            done.append(full)
        return st

    monkeypatch.setattr(fstree.os, "lstat", lstat)
    return done


def _victim(tmp_path) -> str:
    victim = tmp_path / "instructors" / "gradebook.db"
    victim.parent.mkdir()
    victim.write_text("grades")
    victim.chmod(0o644)
    return str(victim)


def test_a_planted_folder_swapped_for_a_link_leaves_the_links_target_as_it_was(tmp_path, monkeypatch):
    victim = _victim(tmp_path)
    planted = tmp_path / "tmp" / "course-stage-999999999-x"
    planted.mkdir(parents=True)
    swapped = _swap_once(monkeypatch, planted.name, victim)
    tempdirs.remove_of(999999999, root=str(tmp_path / "tmp"))
    assert swapped, "the swap was not made: the test no longer reaches the race"
    mode = stat.S_IMODE(os.stat(victim).st_mode)
    assert mode == 0o644, (f"removing the planted folder {planted.name} (swapped for a link to {victim} after its "
                           f"lstat) changed the link's target to mode {oct(mode)}: the grader's chmod followed the link")
    assert open(victim).read() == "grades"


def test_a_planted_inner_folder_swapped_for_a_link_leaves_the_links_target_as_it_was(tmp_path, monkeypatch):
    victim = _victim(tmp_path)
    planted = tmp_path / "tmp" / "course-courseview-999999999-x"
    (planted / "inner").mkdir(parents=True)
    swapped = _swap_once(monkeypatch, "inner", victim)
    tempdirs.sweep(root=str(tmp_path / "tmp"))
    assert swapped, "the swap was not made: the test no longer reaches the race"
    mode = stat.S_IMODE(os.stat(victim).st_mode)
    assert mode == 0o644, (f"removing {planted.name}/inner (swapped for a link to {victim} after its lstat) changed "
                           f"the link's target to mode {oct(mode)}: the grader's chmod followed the link")
    assert open(victim).read() == "grades"


def test_remove_does_not_raise_when_an_inner_folder_becomes_a_link_after_its_lstat(tmp_path, monkeypatch):
    """remove() never raises: with a folder's descriptor, Python answers a no-follow chmod of a link with
    ValueError, which must not escape (a sweep stopped there would leave every later leftover behind)."""
    victim = _victim(tmp_path)
    planted = tmp_path / "course-stage-999999999-y"
    (planted / "inner").mkdir(parents=True)
    swapped = _swap_once(monkeypatch, "inner", victim)
    fstree.remove(str(planted))  # the race may leave it for the next sweep; it must not raise
    assert swapped, "the swap was not made: the test no longer reaches the race"
    assert fstree.remove(str(planted)) and not planted.exists(), f"{planted} was not removed by a second try"
    assert stat.S_IMODE(os.stat(victim).st_mode) == 0o644 and open(victim).read() == "grades"


def test_a_course_named_folder_of_another_account_is_left_alone(tmp_path, monkeypatch):
    """A folder in /tmp under a course name that this account did not make is not the grader's to remove: entering
    it let its owner race the chmod above, or keep adding entries so that fstree.remove never ended (three
    processes of ``nobody`` making files held one sweep, so the course's every nbgrader command, 20.5 s: as long
    as they ran). Another account is played by giving the grader another uid."""
    tmp = tmp_path / "tmp"
    planted = [tmp / "course-stage-999999999-x", tmp / "course-courseview-999999998-x"]
    for folder in planted:
        (folder / "inner").mkdir(parents=True)
        (folder / "inner" / "file").write_text("theirs")
    monkeypatch.setattr(tempdirs.os, "geteuid", lambda: os.stat(planted[0]).st_uid + 1)
    swept, removed = tempdirs.sweep(root=str(tmp)), tempdirs.remove_of(999999998, root=str(tmp))
    left = [f.name for f in planted if (f / "inner" / "file").exists()]
    assert left == [f.name for f in planted], (f"sweep (removed {swept}) and remove_of (removed {removed}) entered "
                                               f"course-named folders of another account: only {left} are left")
