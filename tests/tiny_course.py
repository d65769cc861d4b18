"""A course of one tiny assignment (no hidden checks; an answer cell and a 1-point visible check), for tests of what the
pipeline and nbgrader do around grading (intake, incidents, examples, stopping) at a few seconds a
submission."""
import shutil
from pathlib import Path

import nbformat

from course import REPO_ROOT

A = "tiny"
NAME = "tiny.ipynb"


def source_notebook(body: str = "answer = 42"):
    cell = nbformat.v4.new_code_cell(f"### BEGIN SOLUTION\n{body}\n### END SOLUTION")
    cell.metadata["nbgrader"] = {"solution": True, "grade": False, "locked": False, "grade_id": "answer",
                                 "schema_version": 3}
    check = nbformat.v4.new_code_cell("assert answer == 42")
    check.metadata["nbgrader"] = {"solution": False, "grade": True, "locked": True, "grade_id": "check",
                                  "points": 1, "schema_version": 3}
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Tiny"), cell, check])


def make(root: Path) -> Path:
    """``root`` with the course's configuration and the tiny assignment's source."""
    (root / "source" / A).mkdir(parents=True)
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    nbformat.write(source_notebook(), root / "source" / A / NAME)
    return root


def submit(root: Path, student: str, body: str = "answer = 42", name: str = NAME) -> Path:
    """A student's notebook in gradebook/submitted/ (the release's cells, ``body`` as the answer)."""
    dest = root / "gradebook" / "submitted" / student / A / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    nb = source_notebook(body)
    nbformat.write(nb, dest)
    return dest
