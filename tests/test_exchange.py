"""The class workflow through nbgrader's own exchange, with a local exchange folder:

instructor: generate_assignment -> release_assignment
students:   fetch_assignment -> (work) -> submit           (alice: the reference, bob: blank)
instructor: collect, zip_collect (carol's LMS download) -> autograde -> generate_feedback
            -> release_feedback
students:   fetch_feedback

Every step is the real nbgrader command with this course's nbgrader_config.py.
"""
import os
import shutil
import subprocess
import sys
import zipfile

import nbformat
import pytest
import torch
from nbgrader.api import Gradebook

from course import REPO_ROOT
from course.build import assignments
from course.grading import pipeline, submissions

if not torch.cuda.is_available():
    os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

A = "15-01" if "15-01" in assignments() else assignments()[0]
COURSE = "advanced-pytorch-internals"


def nbgrader(*args, cwd, env, check=True):
    r = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=900)
    if check:
        assert r.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    base = tmp_path_factory.mktemp("exchange-class")
    root, exchange = base / "course", base / "exchange"
    (root / "gradebook").mkdir(parents=True)
    exchange.mkdir()
    os.chmod(exchange, 0o777)
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source" / A, root / "source" / A,
                    ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    env = {**os.environ, "NBGRADER_EXCHANGE": str(exchange),
           "PYTHONPATH": str(REPO_ROOT), "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    nbgrader("generate_assignment", A, "--force", cwd=root, env=env)
    nbgrader("release_assignment", A, "--force", cwd=root, env=env)
    name = submissions.release_notebook(A).name
    homes = {}
    for student, work in (("alice", submissions.reference(A)), ("bob", None)):
        home = base / student
        home.mkdir()
        senv = {k: v for k, v in env.items() if k != "PYTHONPATH"}  # students have no instructor code
        nbgrader("fetch_assignment", A, f"--course={COURSE}", f"--Exchange.root={exchange}", cwd=home, env=senv)
        fetched = home / A / name
        assert fetched.is_file(), f"{student} fetched nothing: {list(home.rglob('*'))}"
        if work is not None:
            nbformat.write(work, fetched)
        nbgrader("submit", A, f"--course={COURSE}", f"--Exchange.root={exchange}",
                 f"--CourseDirectory.student_id={student}", cwd=home, env=senv)
        homes[student] = (home, senv)
    nbgrader("collect", A, "--update", cwd=root, env=env)
    # carol hands in through the LMS: a zip of her (blank) notebook, named the way LMSs name downloads
    archive = root / "downloaded" / A / "archive"
    archive.mkdir(parents=True)
    with zipfile.ZipFile(archive / "lms-download.zip", "w") as z:
        z.write(submissions.release_notebook(A), f"carol_98765_assignsubmission_file_{name}")
    nbgrader("zip_collect", A, "--force", cwd=root, env=env)
    log = root / "gradebook" / "logs" / "exchange.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    old = os.environ.get("NBGRADER_EXCHANGE")
    os.environ["NBGRADER_EXCHANGE"] = str(exchange)  # the grading runner takes each command's environment
    try:
        # carol came through the LMS: her feedback page goes back the same way (nbgrader's
        # release_feedback needs the exchange's timestamp and secret, which a zip does not carry)
        for cmd in (("autograde", A, "--force"), ("generate_feedback", A, "--force"),
                    ("release_feedback", A, "--CourseDirectory.student_id_exclude=carol")):
            assert pipeline.nbgrader(root, *cmd, log=log) == 0, log.read_text()[-4000:]
    finally:
        if old is None:
            os.environ.pop("NBGRADER_EXCHANGE", None)
        else:
            os.environ["NBGRADER_EXCHANGE"] = old
    for student, (home, senv) in homes.items():
        nbgrader("fetch_feedback", A, f"--course={COURSE}", f"--Exchange.root={exchange}",
                 f"--CourseDirectory.student_id={student}", cwd=home, env=senv)
    return root, exchange, homes, name


def score(root, student):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        sub = gb.find_submission(A, student)
        return sub.score, sub.max_score


def test_submissions_reach_the_gradebook(course):
    root, _, _, name = course
    for student in ("alice", "bob", "carol"):
        assert (root / "gradebook" / "submitted" / student / A / name).is_file(), student


def test_scores(course):
    root, *_ = course
    got, full = score(root, "alice")
    assert got == full > 0, f"alice (reference) got {got}/{full}"
    assert score(root, "bob")[0] == 0
    assert score(root, "carol")[0] == 0


def test_lms_student_feedback_is_ready_to_return(course):
    root, *_ = course
    assert list((root / "gradebook" / "feedback" / "carol" / A).glob("*.html"))


def test_students_fetch_their_own_feedback(course):
    _, _, homes, name = course
    for student, (home, _) in homes.items():
        pages = list((home / A / "feedback").rglob("*.html"))
        assert pages, f"{student} fetched no feedback: {list(home.rglob('*'))}"
        text = pages[0].read_text(errors="replace")
        assert "Score" in text or "score" in text
        assert "student.call(" not in text and "def test_" not in text
