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
