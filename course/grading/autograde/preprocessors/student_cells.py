"""``SanitizeStudentCells``: a student's markdown and raw cells made inert (``safe_html``), and their
attachments dropped.

A cell counts as the instructor's only when the gradebook has a locked cell of that id, type and
source (nbgrader's OverwriteCells has put the source back by then); those stay as they are. Every
other cell, whatever its metadata claims, is the student's. Math that the markdown parser scans in quadratic time
is budgeted for the notebook as a whole (``safe_html.math_cost``): a cell past it is shown as its text.
"""
from __future__ import annotations

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor

from .... import notebook as nbtools
from .. import safe_html


def instructor_cells(resources) -> dict:
    """{grade_id: (cell type, source)} of the assignment's locked cells, from the gradebook."""
    info = resources.get("nbgrader", {})
    if not info.get("db_url"):
        return {}
    try:
        with Gradebook(info["db_url"]) as gb:
            source = gb.find_notebook(info["notebook"], info["assignment"])
            return {c.name: (c.cell_type, c.source) for c in source.source_cells if c.locked}
    except MissingEntry:
        return {}


class SanitizeStudentCells(NbGraderPreprocessor):

    def preprocess(self, nb, resources):
        locked = instructor_cells(resources)
        math_left = safe_html.MATH_STEPS  # the notebook's: past it, a cell with math openers is shown as text
        lexing = safe_html.Budget()  # the notebook's CPU for highlighting fences: past it, plain code
        for cell in nb.cells:
            gid = nbtools.nbgrader_meta(cell).get("grade_id")
            if gid in locked and locked[gid] == (cell.get("cell_type"), cell.get("source")):
                continue
            cell.pop("attachments", None)
            if cell.get("cell_type") == "markdown":
                source, cost = str(cell.get("source", "")), safe_html.math_cost(str(cell.get("source", "")))
                cell["source"] = safe_html.markdown(source, math_left, lexing)
                math_left -= cost if cost <= math_left else 0  # parsed: spent; shown as text: nothing
            elif cell.get("cell_type") == "raw":
                cell["source"] = safe_html.raw(str(cell.get("source", "")))
                for key in ("raw_mimetype", "format"):  # rendered as (clean) HTML, whatever it claimed
                    cell.get("metadata", {}).pop(key, None)
        return nb, resources
