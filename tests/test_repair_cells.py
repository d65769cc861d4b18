"""The sanitize pass of autograde, driven in-process on a gradebook made from the source notebook:
whatever a submission does to its nbgrader cells (flags, points, types, locked sources, the metadata
itself), every graded and solution cell leaves the pass exactly as the gradebook has it, nbgrader's own
steps run without an error, each change is one warning naming the student and the cell, and an honest
submission leaves no warning at all."""
import copy
import logging
import os
import sys

import nbformat
import pytest
from nbgrader.api import Gradebook
from nbgrader.preprocessors import (CheckCellMetadata, ClearHiddenTests, ClearOutput, ClearSolutions,
                                    ComputeChecksums, DeduplicateIds, LockCells, OverwriteCells,
                                    OverwriteKernelspec, SaveCells)

from course import REPO_ROOT
from course import notebook as nbtools
from course.grading.class_run import submissions
from course.grading.autograde.preprocessors.repair_cells import RepairGradeCells

A = "15-01"
NAME = submissions.release_notebook(A).stem
STUDENT = "flip-student"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """(gradebook url, the release notebook generate_assignment would write) for 15-01."""
    db = f"sqlite:///{tmp_path_factory.mktemp('gradebook') / 'gradebook.db'}"
    with pytest.MonkeyPatch.context() as mp:  # a new gradebook asks the venv's alembic for its version
        mp.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
        with Gradebook(db) as gb:
            gb.add_assignment(A)
    nb = nbtools.read(REPO_ROOT / "source" / A / f"{NAME}.ipynb")
    res = {"nbgrader": {"db_url": db, "assignment": A, "notebook": NAME}}
    for step in (LockCells, ClearSolutions, ClearOutput, CheckCellMetadata, ComputeChecksums, SaveCells,
                 ClearHiddenTests, ComputeChecksums):
        nb, res = step().preprocess(nb, res)
    return db, nb


def sanitize(nb, db, steps=None):
    """Autograde's sanitize steps (course/grading/config.py) on ``nb``; returns (nb, warnings)."""
    log = logging.getLogger("test-repair-cells")
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    handler = Keep(level=logging.WARNING)
    log.addHandler(handler)
    try:
        res = {"nbgrader": {"db_url": db, "assignment": A, "notebook": NAME, "student": STUDENT}}
        for step in steps or (ClearOutput, RepairGradeCells, DeduplicateIds, OverwriteKernelspec, OverwriteCells,
                              CheckCellMetadata):
            nb, res = step(log=log).preprocess(nb, res)
    finally:
        log.removeHandler(handler)
    return nb, records


def gradebook_view(db) -> dict:
    """grade_id -> (grade, solution, locked, points, cell type, source of a locked cell) per the gradebook."""
    with Gradebook(db) as gb:
        nb = gb.find_notebook(NAME, A)
        points = {c.name: float(c.max_score) for c in nb.grade_cells}
        solutions = {c.name for c in nb.solution_cells}
        return {c.name: (c.name in points, c.name in solutions, bool(c.locked), points.get(c.name), c.cell_type,
                         c.source if c.locked else None) for c in nb.source_cells}


def notebook_view(nb) -> dict:
    out = {}
    for c in nb.cells:
        m = nbtools.nbgrader_meta(c)
        if m.get("grade_id"):
            assert m["grade_id"] not in out, f"two cells claim {m['grade_id']}"
            out[m["grade_id"]] = (bool(m.get("grade")), bool(m.get("solution")), bool(m.get("locked")),
                                  float(m["points"]) if m.get("grade") else None, c.cell_type,
                                  c.source if m.get("locked") else None)
    return out


def cells(nb, kind):
    """The test cells (kind 'test') or solution cells (kind 'solution') of ``nb``, in order."""
    out = []
    for c in nb.cells:
        m = nbtools.nbgrader_meta(c)
        if (kind == "test" and m.get("grade") and not m.get("solution")) or (kind == "solution" and m.get("solution")):
            out.append(c)
    return out


def test_an_honest_submission_leaves_no_warning(course):
    db, release = course
    nb, warnings = sanitize(copy.deepcopy(release), db)
    assert not warnings, warnings
    assert notebook_view(nb) == gradebook_view(db)
    assert all("run_hidden(" in c.source for c in cells(nb, "test")), "hidden tests were not put back"


def _test_solution(nb):
    t = cells(nb, "test")[0]
    t.metadata.nbgrader["solution"] = True  # a test cell that claims to be the student's answer
    t.source = "print('all good')"
    return t


def _solution_grade(nb):
    s = cells(nb, "solution")[0]
    s.metadata.nbgrader.update(grade=True, points=100.0)  # an answer cell that claims to be a graded test
    return s


def _unlocked_test(nb):
    t = cells(nb, "test")[1]
    t.metadata.nbgrader["locked"] = False
    t.source = "pass"
    return t


def _locked_solution(nb):
    s = cells(nb, "solution")[1]
    s.metadata.nbgrader["locked"] = True
    return s


def _ungraded_test(nb):
    t = cells(nb, "test")[2]
    t.metadata.nbgrader.update(grade=False, locked=False)
    t.metadata.nbgrader.pop("points", None)
    t.source = "pass"
    return t


def _both_flags(nb):
    t = cells(nb, "test")[3]
    t.metadata.nbgrader.update(grade=True, solution=True, locked=False, points=3.0)
    return t


def _markdown_test(nb):
    t = cells(nb, "test")[4]
    t.cell_type = "markdown"  # with its nbgrader record's cell_type to match
    t.metadata.nbgrader["cell_type"] = "markdown"
    t.pop("outputs", None)
    t.pop("execution_count", None)
    return t


def _bad_points(nb):
    t = cells(nb, "test")[0]
    t.metadata.nbgrader["points"] = "lots"
    return t


FLIPS = {"test cell marked solution": _test_solution, "solution cell marked grade": _solution_grade,
         "test cell unlocked": _unlocked_test, "solution cell locked": _locked_solution,
         "test cell ungraded": _ungraded_test, "test cell graded and solution": _both_flags,
         "test cell re-typed markdown": _markdown_test, "points not a number": _bad_points}


@pytest.mark.parametrize("flip", FLIPS, ids=list(FLIPS))
def test_a_flag_flip_is_undone_and_reported(course, flip):
    db, release = course
    nb = copy.deepcopy(release)
    gid = FLIPS[flip](nb).metadata.nbgrader["grade_id"]
    nb, warnings = sanitize(nb, db)
    assert notebook_view(nb) == gradebook_view(db)
    ours = [w for w in warnings if w.startswith(f"{STUDENT}: cell {gid}:")]
    assert len(ours) == 1 and "restored from the gradebook" in ours[0], warnings
    assert len(warnings) == 1, f"more than one line for one change: {warnings}"


def test_nbgrader_alone_stops_on_a_flag_flip(course):
    """What the repair prevents: without it, nbgrader's OverwriteCells stops the submission."""
    db, release = course
    nb = copy.deepcopy(release)
    _test_solution(nb)
    with pytest.raises(RuntimeError, match="Inconsistent checksums"):
        sanitize(nb, db, steps=(ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells, CheckCellMetadata))


@pytest.mark.parametrize("meta", ["not a dict", {"grade": True}, {"grade": True, "grade_id": ["x"]},
                                  {"solution": True, "grade_id": "no_such_cell", "locked": False, "grade": False,
                                   "schema_version": 3}])
def test_malformed_metadata_becomes_a_plain_cell(course, meta):
    db, release = course
    nb = copy.deepcopy(release)
    extra = nbformat.v4.new_code_cell("x = 1")
    extra.metadata["nbgrader"] = meta
    nb.cells.insert(3, extra)
    nb, warnings = sanitize(nb, db)
    assert "nbgrader" not in nb.cells[3].metadata and nb.cells[3].source == "x = 1"
    assert notebook_view(nb) == gradebook_view(db)
    assert len(warnings) == 1 and warnings[0].startswith(f"{STUDENT}: ") and "demoted" in warnings[0], warnings


def test_stripped_and_edited_cells_are_put_back(course):
    db, release = course
    nb = copy.deepcopy(release)
    t0, t1 = cells(nb, "test")[:2]
    del t0.metadata["nbgrader"]  # no longer an nbgrader cell: graded as missing
    t1.source += "\nprint('extra')"  # an edited locked cell
    nb, warnings = sanitize(nb, db)
    assert notebook_view(nb) == gradebook_view(db)
    assert sorted(w.split(": ", 1)[1].split()[1].rstrip(":") for w in warnings) == sorted(
        [nbtools.nbgrader_meta(c)["grade_id"] for c in cells(release, "test")[:2]]), warnings
