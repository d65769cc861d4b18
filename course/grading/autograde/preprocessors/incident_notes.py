"""``NoteIncidents``: what went wrong while this submission was graded, at the top of its notebook.

The last grading step: the submission's incidents recorded so far by this grading (a file set aside, a
graded cell restored, the kernel stopped early, the hidden checks' events; ``course.grading.records.incidents``)
become one markdown cell, so the student's feedback says what the class report says. Incidents the
notebook already explains (``noted``: a blank graded in place of an unreadable notebook, a renamed
one) are not repeated. Each message is one line in a code block: nothing in it renders.
"""
from __future__ import annotations

import nbformat
from nbgrader.preprocessors import NbGraderPreprocessor

from ....plain import one_line
from ...records import incidents

HEADING = "**Notes from the grader** (your instructor's report lists them too):"


def note(found: list[dict], root: str | None) -> str | None:
    """The cell's text for ``found`` (None: nothing to say); the course root's path is left out."""
    shown = [i["message"] for i in found if not i.get("noted")]
    if not shown:
        return None
    prefix = str(root).rstrip("/") + "/" if root else None
    lines = [f"- {one_line(m.replace(prefix, '') if prefix else m, 500)}" for m in shown]
    return HEADING + "\n\n```text\n" + "\n".join(lines) + "\n```"


class NoteIncidents(NbGraderPreprocessor):
    def preprocess(self, nb, resources):
        info = resources.get("nbgrader", {})
        root = incidents.course_root(self)
        text = note(incidents.read(root, info.get("assignment", ""), info.get("student", "")) or [], root) \
            if root else None
        if text:
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(text))
        return nb, resources
