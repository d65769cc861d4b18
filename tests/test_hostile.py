"""Grading untrusted code, end to end through nbgrader: every hostile submission in
tests/submissions/_hostile scores 0 on every cell, the batch completes, the honest submissions
graded after them (tests/submissions/_honest, and the reference) keep full marks, and crashes
leave a line in the grading log.

The kernel-side defences (sandboxed kernel, cell repair, crash and time limits) do not depend on
the assignment, so the whole corpus runs end to end on one assignment (15-01). The defences that
do depend on each assignment's checks (reading solutions, patching comparisons) are run against
every assignment by tests/test_submissions.py::test_generic_submissions.
"""
import os
import shutil

import nbformat
import pytest
from nbgrader.api import Gradebook, MissingEntry

import os as _os

import torch as _torch

if not _torch.cuda.is_available():
    # Instructor CI on a CPU machine: GPU-marked checks are graded as skipped (and say so).
    _os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

from course import REPO_ROOT
from course.build import assignments
from course.grading import pipeline, submissions

ASSIGNMENTS = assignments()
FIRST = "15-01" if "15-01" in ASSIGNMENTS else ASSIGNMENTS[0]
CRASHES = {"kill_kernel", "segfault", "endless_loop", "print_flood", "memory_bomb", "truncated", "not_json"}
LIMITS = {"COURSE_CELL_TIMEOUT": "15", "COURSE_LOAD_TIMEOUT": "30", "COURSE_CALL_TIMEOUT": "30",
          "COURSE_MEMORY_LIMIT_MB": "2048"}


def plan():
    out = []  # (student, assignment, spec path, kind)
    for p in submissions.generic_specs("hostile"):
        out.append((f"hostile-{p.stem}", FIRST, p, "hostile"))
    for p in submissions.generic_specs("honest"):
        out.append((f"zz-honest-{p.stem}", FIRST, p, "honest"))
    return out


PLAN = plan()


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile-course")
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    shutil.copytree(REPO_ROOT / "source", root / "source", ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
    for student, a, spec, _ in PLAN:
        dest = root / "gradebook" / "submitted" / student / a / submissions.release_notebook(a).name
        submissions.write(spec, dest, assignment=a)
    old = {k: os.environ.get(k) for k in LIMITS}
    os.environ.update(LIMITS)
    try:
        import contextlib
        import io
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = pipeline.run(root, sorted({a for _, a, _, _ in PLAN}), examples=False)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return root, rc, out.getvalue()


def score(root, a, student):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        try:
            sub = gb.find_submission_notebook(submissions.release_notebook(a).stem, a, student)
        except MissingEntry:
            return None
        return {g.name: (g.score, g.max_score) for g in sub.grades if g.max_score > 0}


def test_batch_completes(graded):
    root, rc, out = graded
    assert rc == 0, f"some submissions were not graded:\n{out}"


@pytest.mark.parametrize("student,assignment,spec,kind", PLAN, ids=[f"{s}@{a}" for s, a, _, _ in PLAN])
def test_verdict(graded, student, assignment, spec, kind):
    root, _, out = graded
    cells = score(root, assignment, student)
    assert cells is not None, f"{student} was not graded for {assignment}:\n{out}"
    if kind == "hostile":
        earned = {k: v for k, v in cells.items() if v[0]}
        assert not earned, f"{student} earned points in {assignment}: {earned}"
    else:
        short = {k: v for k, v in cells.items() if v[0] != v[1]}
        assert not short, f"{student} lost points in {assignment}: {short}"


@pytest.mark.parametrize("name", sorted(CRASHES | {"restructure"}))
def test_incident_is_logged(graded, name):
    root, _, out = graded
    log = (root / "gradebook" / "logs" / f"{FIRST}.log").read_text() + out
    student = f"hostile-{name}"
    lines = [ln for ln in log.splitlines() if student in ln and ("WARNING" in ln or "graded as a blank" in ln
                                                                 or ln.strip().startswith(FIRST))]
    assert lines, f"no line about {student} in the grading log"


def test_gradebook_and_solutions_out_of_reach(graded):
    root, _, _ = graded
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        for a in {FIRST}:
            for s in gb.assignment_submissions(a):
                assert s.score <= s.max_score, f"{s.student.id} has {s.score} of {s.max_score} in {a}"
    nb = nbformat.read(next((root / "autograded" / f"hostile-read_solutions" / FIRST).glob("*.ipynb")), 4)
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "NETWORK REACHABLE" not in text
    assert "def test_" not in text and "student.call" not in text, "the submission could read the hidden tests"
