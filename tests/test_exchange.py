"""The README's "Running a class", run as written, through nbgrader's own exchange:

instructor: the README's first block (generate and release)
students:   the README's student block (alice submits the reference, bob the blank), each with only
            release/jupyter-hub as their Jupyter config folder and a home of their own
instructor: carol's LMS download (a truncated notebook) in downloaded/<id>/archive/, then the
            README's collect-to-export block
students:   the README's fetch_feedback block

The blocks are read from README.md, so the README cannot drift from what CI runs. Two things are
set by the test as a class's machine would: the exchange folder (a temporary one instead of
/srv/nbgrader/exchange) and each student's account. CI runs every process as root, and nbgrader
names a submission after the process's account, so the students' `nbgrader` is the real command
seen through an account of their own (``STUDENT_NBGRADER``: pwd reports USER for the process's uid).
"""
import os
import re
import shutil
import subprocess
import sys
import zipfile

import nbformat
import pytest
import torch
from nbgrader.api import Gradebook

from course import RELEASE_DIR, REPO_ROOT
from course import assignments
from course.grading import submissions

if not torch.cuda.is_available():
    os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

A = "15-01" if "15-01" in assignments() else assignments()[0]
README_EXCHANGE = "/srv/nbgrader/exchange"
STUDENT_NBGRADER = """#!/bin/sh
exec {python} -c '
import os, pwd, runpy, sys
real = pwd.getpwuid
pwd.getpwuid = lambda uid: pwd.struct_passwd((os.environ["USER"], *real(uid)[1:])) if uid == os.getuid() else real(uid)
sys.argv[0] = "nbgrader"
runpy.run_module("nbgrader", run_name="__main__")
' "$@"
"""


def readme_blocks() -> list[tuple[str, str]]:
    """(role, script) of each bash block in the README's "Running a class" section, in order."""
    text = (REPO_ROOT / "README.md").read_text()
    section = text.split("## Running a class", 1)[1].split("\n## ", 1)[0]
    blocks = []
    for body in re.findall(r"```bash\n(.*?)```", section, flags=re.S):
        first = body.splitlines()[0]
        role = re.match(r"# (instructor|student) ·", first)
        assert role, f"a README block without a role line: {first!r}"
        blocks.append((role.group(1), body))
    return blocks


def run_block(script: str, cwd, env: dict, exchange) -> str:
    """Run one README block in a shell that goes on from the last block of the same person (their
    exports carry over, as in one terminal): ``env`` is updated in place."""
    script = script.replace(README_EXCHANGE, str(exchange)).replace("15-01", A)
    dump = cwd / ".shell-env"
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", f'{script}\nenv -0 > "{dump}"'], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, f"README block failed in {cwd}:\n{script}\n--- stdout\n{r.stdout[-3000:]}\n" \
                              f"--- stderr\n{r.stderr[-5000:]}"
    env.clear()
    env.update(kv.split("=", 1) for kv in dump.read_text().split("\0") if "=" in kv)
    dump.unlink()
    return r.stdout + r.stderr


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    base = tmp_path_factory.mktemp("exchange-class")
    root, exchange = base / "course", base / "exchange"
    (root / "gradebook").mkdir(parents=True)
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source" / A, root / "source" / A,
                    ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    for shared in ("course", ".venv"):  # a clone's code and the venv `make setup` made
        os.symlink(REPO_ROOT / shared, root / shared)
    blocks = readme_blocks()
    roles = [r for r, _ in blocks]
    assert roles == ["instructor", "student", "instructor", "student"], roles
    path = os.environ["PATH"]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NBGRADER_EXCHANGE", "JUPYTER_CONFIG_DIR")}
    env["PATH"] = path
    log = run_block(blocks[0][1], root, env, exchange)

    name = submissions.release_notebook(A).name
    homes = {}
    fetch, rest = blocks[1][1].split("nbgrader submit", 1)
    shim = base / "student-bin"
    shim.mkdir()
    (shim / "nbgrader").write_text(STUDENT_NBGRADER.format(python=sys.executable))
    (shim / "nbgrader").chmod(0o755)
    for student, work in (("alice", submissions.reference(A)), ("bob", None)):
        home = base / student
        home.mkdir()
        senv = {**env, "USER": student, "LOGNAME": student, "HOME": str(home), "NBGRADER_EXCHANGE": str(exchange),
                "JUPYTER_CONFIG_DIR": str(RELEASE_DIR / "jupyter-hub"),
                "PATH": f"{shim}{os.pathsep}{REPO_ROOT / '.venv' / 'bin'}{os.pathsep}{path}"}
        run_block(fetch, home, senv, exchange)
        fetched = home / A / name
        assert fetched.is_file(), f"{student} fetched nothing: {list(home.rglob('*'))}"
        if work is not None:
            nbformat.write(work, fetched)
        run_block("nbgrader submit" + rest, home, senv, exchange)
        homes[student] = (home, senv)

    # carol hands in through the LMS: a zip holding her notebook, cut off in the middle
    archive = root / "downloaded" / A / "archive"
    archive.mkdir(parents=True)
    with zipfile.ZipFile(archive / "lms-download.zip", "w") as z:
        z.writestr(f"carol_98765_assignsubmission_file_{name}", '{"cells": [{"cell_type": "code", "sou')
    log += run_block(blocks[2][1], root, env, exchange)
    for student, (home, senv) in homes.items():
        run_block(blocks[3][1], home, senv, exchange)
    return root, exchange, homes, name, log


def score(root, student):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        sub = gb.find_submission(A, student)
        return sub.score, sub.max_score


def test_submissions_reach_the_gradebook(course):
    root, _, _, name, _ = course
    for student in ("alice", "bob", "carol"):
        assert (root / "gradebook" / "submitted" / student / A / name).is_file(), student


def test_scores(course):
    root, *_ = course
    got, full = score(root, "alice")
    assert got == full > 0, f"alice (reference) got {got}/{full}"
    assert score(root, "bob")[0] == 0
    assert score(root, "carol")[0] == 0


def test_broken_lms_notebook_is_one_line_and_a_note(course):
    root, _, _, name, log = course
    lines = [ln for ln in log.splitlines() if "carol" in ln and "not a readable notebook" in ln]
    assert len(lines) == 1, log[-3000:]
    assert "Traceback" not in log and "NotJSONError" not in log, log[-3000:]
    pages = list((root / "gradebook" / "feedback" / "carol" / A).glob("*.html"))
    assert pages and "could not be read as a notebook" in pages[0].read_text(errors="replace")


def test_grades_go_to_the_gradebook_folder(course):
    root, *_ = course
    assert (root / "gradebook" / "grades.csv").is_file()
    assert not (root / "grades.csv").exists()
    import csv
    rows = {r["student_id"]: r for r in csv.DictReader((root / "gradebook" / "grades.csv").open())}
    assert {s: r["status"] for s, r in rows.items()} == {"alice": "graded", "bob": "graded", "carol": "graded"}


def test_students_fetch_their_own_feedback(course):
    _, _, homes, name, _ = course
    for student, (home, _) in homes.items():
        pages = list((home / A / "feedback").rglob("*.html"))
        assert pages, f"{student} fetched no feedback: {list(home.rglob('*'))}"
        text = pages[0].read_text(errors="replace")
        assert "Score" in text or "score" in text
        assert "student.call(" not in text and "def test_" not in text
