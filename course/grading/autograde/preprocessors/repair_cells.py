"""Sanitize step: the submission's nbgrader cells are made to match the gradebook before anything
else reads them.

Whatever nbgrader trusts about a cell (graded or not, solution or not, locked or not, its points, its
type, and the source of a locked cell) is taken from the gradebook, never from the submission:
- a cell whose nbgrader metadata is unknown, malformed or a duplicate becomes a plain cell;
- every known cell gets the gradebook's flags, points and type, and a locked cell the gradebook's
  source (an honest copy differs from it only by the hidden tests, which the release leaves out);
- a graded or solution cell the submission lost is put back after the nearest earlier one present.

Each change to what the student submitted is one warning naming the student and the cell. nbgrader's
OverwriteCells, which runs later, then finds nothing to change: a flipped flag cannot stop the batch
with "Inconsistent checksums", and an honest submission leaves no warning at all.
"""
from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell
from nbgrader.api import Gradebook
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor

from .... import notebook as nbtools
from ....plain import one_line
from ...records import incidents

FLAGS = ("grade", "solution", "locked", "task")


class _Assignment:
    """What the gradebook says about each nbgrader cell of one notebook."""

    def __init__(self, gb: Gradebook, notebook: str, assignment: str):
        nb = gb.find_notebook(notebook, assignment)
        self.cells = {c.name: c for c in nb.source_cells}
        self.order = [c.name for c in nb.source_cells]
        self.points = {c.name: float(c.max_score) for c in nb.grade_cells}
        self.task_points = {c.name: float(c.max_score) for c in nb.task_cells}
        self.solutions = {c.name for c in nb.solution_cells}

    def meta(self, name: str) -> dict:
        src = self.cells[name]
        meta = {"grade": name in self.points, "solution": name in self.solutions, "locked": bool(src.locked),
                "grade_id": name, "schema_version": 3, "cell_type": src.cell_type}
        if name in self.points:
            meta["points"] = self.points[name]
        if name in self.task_points:
            meta["task"], meta["points"] = True, self.task_points[name]
        if src.checksum:
            meta["checksum"] = src.checksum
        return meta


def _points(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return value


def _retype(cell, cell_type: str) -> None:
    cell.cell_type = cell_type
    if cell_type == "code":
        cell.pop("attachments", None)
        cell.outputs, cell.execution_count = [], None
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)


class RepairGradeCells(NbGraderPreprocessor):
    """Make the submission's cell structure and nbgrader metadata match the gradebook's."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        self._student = one_line(info.get("student", "?"), 80)
        self._who = (incidents.course_root(self), info.get("assignment", ""), info.get("student", ""))
        with Gradebook(info["db_url"]) as gb:
            book = _Assignment(gb, info["notebook"], info["assignment"])
        present = set()
        for cell in nb.cells:
            md = cell.get("metadata")
            if not isinstance(md, dict):
                cell["metadata"] = md = nbformat.NotebookNode()
            if "nbgrader" not in md:
                continue
            meta = md["nbgrader"]
            gid = meta.get("grade_id") if isinstance(meta, dict) else None
            if not isinstance(gid, str) or gid not in book.cells or gid in present:
                # forged, malformed or duplicated grading metadata: the cell becomes a plain cell
                if isinstance(meta, dict) and gid is None and not any(meta.get(k) for k in FLAGS):
                    del md["nbgrader"]  # an ordinary cell's empty nbgrader record: nothing to report
                    continue
                why = "duplicated" if isinstance(gid, str) and gid in present else "unknown"
                self._warn(f"{why} graded cell {one_line(repr(gid), 80)} demoted to a plain cell")
                del md["nbgrader"]
                continue
            present.add(gid)
            changed = self._restore(cell, gid, book)
            if changed:
                self._warn(f"cell {gid}: {'; '.join(changed)}; restored from the gradebook")
        self._put_back_missing(nb, book, present)
        return nb, resources

    def _warn(self, what: str) -> None:
        self.log.warning("%s: %s", self._student, what)
        incidents.record(*self._who, incidents.REPAIRED, what, self.log)

    def _restore(self, cell, gid: str, book: _Assignment) -> list[str]:
        """Give ``cell`` the gradebook's metadata, type and (if locked) source; say what differed."""
        want = book.meta(gid)
        have = cell.metadata["nbgrader"]
        changed = [f"{k} was {bool(have.get(k))}" for k in FLAGS if bool(have.get(k)) != bool(want.get(k))]
        if want["grade"] and _points(have.get("points")) != want["points"]:
            changed.append(f"points were {one_line(repr(have.get('points')), 40)}")
        if cell.get("cell_type") != want["cell_type"]:
            changed.append(f"type was {one_line(cell.get('cell_type'), 20)}")
            _retype(cell, want["cell_type"])
        cell.metadata["nbgrader"] = nbformat.from_dict(want)
        src = book.cells[gid]
        if src.locked and cell.get("source") != src.source:
            if cell.get("source") != self._released(src):
                changed.append("locked source was edited")
            cell.source = src.source  # an honest copy only lacks the hidden tests
        return changed

    def _released(self, src) -> str:
        """The source as the student received it: the gradebook's, without its hidden tests."""
        cell = nbformat.from_dict({"cell_type": src.cell_type, "metadata": {}, "source": src.source})
        try:
            ClearHiddenTests(parent=self)._remove_hidden_test_region(cell)
        except RuntimeError:  # unbalanced markers: the release could not have been made from it
            return src.source
        return cell.source

    def _put_back_missing(self, nb, book: _Assignment, present: set) -> None:
        for pos, name in enumerate(book.order):
            if name in present or (name not in book.points and name not in book.solutions):
                continue
            src = book.cells[name]
            cell = new_code_cell(src.source) if src.cell_type == "code" else new_markdown_cell(src.source)
            cell.metadata["nbgrader"] = nbformat.from_dict(book.meta(name))
            at = 0  # after the nearest earlier cell of the assignment that is present
            for prev in reversed(book.order[:pos]):
                idx = next((i for i, c in enumerate(nb.cells) if nbtools.nbgrader_meta(c).get("grade_id") == prev), None)
                if idx is not None:
                    at = idx + 1
                    break
            nb.cells.insert(at, cell)
            present.add(name)
            self._warn(f"cell {name} was missing and has been restored")
