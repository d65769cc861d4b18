"""A full nbgrader round trip in a scratch course: generate -> submit -> autograde -> feedback -> export.

The reference solution earns full marks on every test cell and runs top to bottom without an
error; the untouched release earns zero on every test cell; feedback never shows hidden-test code.
"""
import csv
import shutil

import nbformat
import pytest
from nbgrader.api import Gradebook

import os as _os

import torch as _torch

if not _torch.cuda.is_available():
    # Instructor CI on a CPU machine: GPU-marked checks are graded as skipped (and say so).
    _os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

from course import REPO_ROOT
from course import notebook as nbtools
from course import assignments
from course.grading.class_run import pipeline, submissions

ASSIGNMENTS = assignments()


# One scratch course for every assignment, graded by one pipeline run on its own workers: a warm
# worker grades the next submission without paying the runner's start again (one course per topic
# cost about twice the CPU). Under `pytest -n` the module is one group on one worker (tests/conftest.py).


@pytest.fixture(scope="session")
def graded_all(tmp_path_factory):
    root = tmp_path_factory.mktemp("course")
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    for assignment in ASSIGNMENTS:
        shutil.copytree(REPO_ROOT / "source" / assignment, root / "source" / assignment,
                        ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
        name = submissions.release_notebook(assignment).name
        for student, nb in (("ref", submissions.reference(assignment)),
                            ("blank", nbtools.read(submissions.release_notebook(assignment)))):
            dest = root / "gradebook" / "submitted" / student / assignment
            dest.mkdir(parents=True)
            nbformat.write(nb, dest / name)
    return root, pipeline.run(root, ASSIGNMENTS, examples=False)


@pytest.fixture
def graded_course(graded_all, assignment):
    return graded_all


per_assignment = pytest.mark.parametrize("assignment", ASSIGNMENTS)


def cell_scores(root, assignment, student):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        sub = gb.find_submission_notebook(submissions.release_notebook(assignment).stem, assignment, student)
        return {g.name: (g.score, g.max_score) for g in sub.grades if g.max_score > 0}


@per_assignment
def test_pipeline_completes(graded_course, assignment):
    root, rc = graded_course
    assert rc == 0, f"grading reported failures; see {root / 'gradebook' / 'logs'}"


@per_assignment
def test_reference_earns_full_marks(graded_course, assignment):
    root, _ = graded_course
    scores = cell_scores(root, assignment, "ref")
    short = {k: v for k, v in scores.items() if v[0] != v[1]}
    assert scores and not short, f"reference lost points in {assignment}: {short}"
    nb = nbformat.read(next((root / "autograded" / "ref" / assignment).glob("*.ipynb")), 4)
    errors = [(i, o.get("ename"), o.get("evalue", "")[:200]) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.outputs if o.output_type == "error"]
    assert not errors, f"the reference notebook did not run top to bottom cleanly: {errors}"


@per_assignment
def test_blank_release_scores_zero_everywhere(graded_course, assignment):
    root, _ = graded_course
    scores = cell_scores(root, assignment, "blank")
    nonzero = {k: v for k, v in scores.items() if v[0] != 0}
    assert scores and not nonzero, f"the blank release earned points in {assignment}: {nonzero}"


@per_assignment
def test_feedback_shows_verdicts_but_no_test_code(graded_course, assignment):
    root, _ = graded_course
    folder = root / "gradebook" / "feedback" / "blank" / assignment
    extra = sorted(p.name for p in folder.iterdir() if p.suffix != ".html" and p.name != "timestamp.txt")
    assert not extra, f"feedback for {assignment} carries files from the grading run: {extra}"
    html = next(folder.glob("*.html")).read_text()
    assert "Hidden checks for" in html and "FAIL" in html
    for leak in ("student.call(", "def test_", "gradcheck_directional(", "jacobian_vs_reference(", "import pytest",
                 "@pytest.mark"):
        assert leak not in html, f"feedback for {assignment} shows test code ({leak!r})"


@per_assignment
def test_export_has_a_row_per_submission(graded_course, assignment):
    root, _ = graded_course
    rows = list(csv.DictReader(open(root / "gradebook" / "grades.csv")))
    assert {(r["assignment"], r["student_id"]) for r in rows} >= {(assignment, s) for s in ("ref", "blank")}
