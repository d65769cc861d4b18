"""Red team (issue 30): through nbgrader's exchange, a student submits only as themselves. nbgrader names the
student by the inbound folder's name, which the submitter picks (``nbgrader submit --student=bob``, or a
folder made by hand with a later time), and only warns when its owner is someone else: one student's folder
replaced another's submission. The course's collect (course/grading/intake/exchange_collect.py) refuses it."""
import os
import subprocess
import sys

import pytest

from course import REPO_ROOT

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root: makes folders owned by two accounts")

A = "red-team-a"
VICTIM, ATTACKER = "daemon", "bin"  # two accounts every Debian machine has (uid 1 and 2)


def _submission(inbound, student, time, owner, text):
    import pwd
    d = inbound / f"{student}+{A}+{time}+{owner}x"
    d.mkdir(parents=True)
    (d / "timestamp.txt").write_text(time)
    (d / "answer.ipynb").write_text(text)
    uid = pwd.getpwnam(owner).pw_uid
    for p in (d / "timestamp.txt", d / "answer.ipynb", d):
        os.chown(p, uid, uid)


def test_a_student_cannot_submit_as_another(tmp_path):
    exchange, root = tmp_path / "exchange", tmp_path / "course"
    inbound = exchange / "advanced-pytorch-internals" / "inbound"
    _submission(inbound, VICTIM, "2026-11-20 10:00:00.000000 UTC", VICTIM, "the victim's own work")
    _submission(inbound, VICTIM, "2099-01-01 10:00:00.000000 UTC", ATTACKER, "the attacker's blank")
    _submission(inbound, ATTACKER, "2026-11-20 11:00:00.000000 UTC", ATTACKER, "the attacker's own work")
    r = subprocess.run([sys.executable, "-m", "nbgrader", "collect", A, "--update", f"--Exchange.root={exchange}",
                        f"--CourseDirectory.root={root}", f"--CourseDirectory.db_url=sqlite:///{tmp_path / 'gb.db'}"],
                       cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]})
    assert r.returncode == 0, r.stderr[-3000:]
    got = {s: (root / "gradebook" / "submitted" / s / A / "answer.ipynb").read_text() for s in (VICTIM, ATTACKER)}
    assert got[VICTIM] == "the victim's own work", f"one student's folder replaced another's submission: {got}"
    assert got[ATTACKER] == "the attacker's own work", got
    refused = [line for line in r.stderr.splitlines() if "refused inbound/" in line]
    assert len(refused) == 1 and f"names student '{VICTIM}'" in refused[0] and f"'{ATTACKER}'" in refused[0], r.stderr


def test_links_named_for_a_classmate_never_push_their_hand_in_out_of_reading(tmp_path):
    """Red team, 2026-12-04 (seventeenth): collect reads a student's 32 newest inbound folders (by the time their
    names claim) and refuses a folder whose owner is not the student it names, but a symbolic link named for a
    classmate passed the owner check (it was left for the copy to refuse) and counted as one of that classmate's
    folders. 32 links of the attacker's, named for the victim with a later time, pushed the victim's real hand-in
    out of reading: not collected, and a deadline's seal recorded it unread (late if read later); each link was
    also a line of the victim's feedback. A link, like any entry not made by the student it names, is now refused
    before it counts, and such entries are ten lines of the account that made them (red team 21: of the student
    they name until then), then one count."""
    import pwd
    exchange, root = tmp_path / "exchange", tmp_path / "course"
    inbound = exchange / "advanced-pytorch-internals" / "inbound"
    _submission(inbound, VICTIM, "2026-11-20 10:00:00.000000 UTC", VICTIM, "the victim's own work")
    uid = pwd.getpwnam(ATTACKER).pw_uid
    for k in range(40):
        link = inbound / f"{VICTIM}+{A}+2099-01-01 10:00:{k:02d}.000000 UTC+{k}"
        os.symlink("/nowhere", link)
        os.chown(link, uid, uid, follow_symlinks=False)
    r = subprocess.run([sys.executable, "-m", "nbgrader", "collect", A, f"--Exchange.root={exchange}",
                        f"--CourseDirectory.root={root}", f"--CourseDirectory.db_url=sqlite:///{tmp_path / 'gb.db'}"],
                       cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]})
    assert r.returncode == 0, r.stderr[-3000:]
    got = root / "gradebook" / "submitted" / VICTIM / A / "answer.ipynb"
    assert got.is_file() and got.read_text() == "the victim's own work", \
        f"a classmate's links named for the victim kept the victim's hand-in from being collected: {r.stderr[-1500:]}"
    from course.grading.records import seals
    unread = [s["folder"] for s in seals.read(root, A) if s["sha256"] == "" and "+2026-11-20 " in s["folder"]]
    assert not unread, f"the victim's hand-in was sealed unread: {unread}"
    import json
    from course.grading.records import lms_incidents
    rows = [json.loads(x) for x in lms_incidents.path(root, A, "collect").read_text().splitlines()]
    mine = [r["message"] for r in rows if r["student"] == VICTIM and "+2026-11-20 " not in r["message"]]
    assert not mine, f"40 links of a classmate's named for the victim made {len(mine)} lines of the victim's " \
                     f"feedback: {mine[-2:]}"
    theirs = [r["message"] for r in rows if r["student"] == ATTACKER]  # red team 21: the maker's lines
    assert len(theirs) <= 11 and "30 more entries refused" in theirs[-1], \
        f"40 links of the attacker's made {len(theirs)} lines of the attacker's: {theirs[-2:]}"


def _collect(exchange, root, tmp_path, *more):
    return subprocess.run([sys.executable, "-m", "nbgrader", "collect", A, *more, f"--Exchange.root={exchange}",
                           f"--CourseDirectory.root={root}", f"--CourseDirectory.db_url=sqlite:///{tmp_path / 'gb.db'}"],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]})


def test_a_classmates_entries_named_for_a_student_are_never_lines_of_that_students_feedback(tmp_path):
    """Red team, 2026-12-04 (twenty-first, host side): an entry of ``inbound/`` named for a student but made by
    another account was refused as a line OF THE STUDENT IT NAMES, and collect's lines of a student become notes of
    their feedback ("Notes from the grader") and theirs in the class report. So a classmate's folder
    ``daemon+<a>+<any text>+x`` put that text, 160 characters of it, ten times, at the top of daemon's feedback, under
    the grader's heading, and daemon's name on the attack in the report. A refused entry is now a line of the account
    that made it (the attacker's own feedback and report row; nobody's when that account is no usable student id),
    and a collect run twice does not repeat it."""
    import json
    import pwd
    from course.grading.records import lms_incidents
    exchange, root = tmp_path / "exchange", tmp_path / "course"
    inbound = exchange / "advanced-pytorch-internals" / "inbound"
    _submission(inbound, VICTIM, "2026-11-20 10:00:00.000000 UTC", VICTIM, "the victim's own work")
    uid = pwd.getpwnam(ATTACKER).pw_uid
    planted = inbound / f"{VICTIM}+{A}+YOUR HAND-IN WAS LOST, mail it to evil@example.org+x"
    planted.mkdir()
    os.chown(planted, uid, uid)
    link = inbound / f"{VICTIM}+{A}+2099-01-01 10:00:00.000000 UTC+evil link"
    os.symlink("/nowhere", link)
    os.chown(link, uid, uid, follow_symlinks=False)
    lines = {}
    for run in range(2):
        r = _collect(exchange, root, tmp_path, "--update")
        assert r.returncode == 0, r.stderr[-3000:]
        lines[run] = {s: lms_incidents.for_student(root, A, s) for s in (VICTIM, ATTACKER)}
    victims = [x for x in lines[1][VICTIM] if "evil" in x or repr(ATTACKER) in x]
    assert not victims, \
        f"entries of account {ATTACKER!r} named for {VICTIM!r} were lines of {VICTIM!r}'s feedback (expected: none; " \
        f"a refused entry is a line of the account that made it): {victims}"
    attackers = lines[1][ATTACKER]
    assert len(attackers) == 2 and all("evil" in x and f"made by account {ATTACKER!r}" in x or "symbolic link" in x
                                       for x in attackers), \
        f"expected the 2 entries of {ATTACKER!r} as 2 lines of {ATTACKER!r}, got {attackers}"
    assert lines[0][ATTACKER] == attackers, \
        f"a second collect changed {ATTACKER!r}'s lines: {lines[0][ATTACKER]} -> {attackers}"
    got = root / "gradebook" / "submitted" / VICTIM / A / "answer.ipynb"
    assert got.read_text() == "the victim's own work"
    rows = [json.loads(x) for x in lms_incidents.path(root, A, "collect").read_text().splitlines()]
    assert sorted({r["student"] for r in rows}) == [ATTACKER], rows
