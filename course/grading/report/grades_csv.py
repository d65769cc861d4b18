"""``nbgrader export``'s CSV, with a ``status`` column: a student who submitted nothing, or whose
submission was never graded, is not a 0. nbgrader's own exporter writes 0.0 for both.

The rows are nbgrader's (the same columns and values), written by Python's ``csv`` module: nbgrader joins its
fields with commas unquoted, so a student's name holding a comma (names come from the LMS's roster, through
``nbgrader db student import``, and an LMS display name is the student's to edit) moved every later column of their
row; and a text field that starts with ``=``, ``+``, ``-``, ``@`` (or a tab or carriage return) is a formula in the
spreadsheet the instructor opens the file in (a link sending the sheet's cells away, DDE), so it is prefixed with
``'`` (red team 22, host side)."""
from __future__ import annotations

import csv
import re

from nbgrader.api import MissingEntry
from nbgrader.plugins.export import CsvExportPlugin

KEYS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email", "raw_score",
        "late_submission_penalty", "score", "max_score"]
TEXT = ("assignment", "student_id", "last_name", "first_name", "email")  # the others are nbgrader's numbers and times
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def status(gradebook, assignment: str, student: str) -> str:
    """"graded", "not submitted", or "not graded" (submitted, but autograde never scored a cell)."""
    try:
        sub = gradebook.find_submission(assignment, student)
    except MissingEntry:
        return "not submitted"
    grades = [g for nb in sub.notebooks for g in nb.grades]
    if grades and all(g.auto_score is None and g.manual_score is None for g in grades):
        return "not graded"
    return "graded"


# Unicode's bidirectional controls (embeddings, overrides, isolates, marks): in a name they turn the rest of its line
# around where the file is read as text (a terminal, an editor, a mail), so a row shows numbers it does not hold.
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible_controls(text: str) -> str:
    """``text`` with each bidirectional control shown as ``<U+202E>``: it reorders nothing after it (red team 23,
    host side: a last name ``Smith`` + U+202E showed the rest of mallory's row of grades.csv backwards)."""
    return BIDI.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def cell(value) -> str:
    """A CSV field as nbgrader writes it (``str``, None as ""), never a spreadsheet formula, and no bidirectional
    control that turns the rest of the row around (``visible_controls``)."""
    text = "" if value is None else value if isinstance(value, str) else str(value)
    text = visible_controls(text)
    return "'" + text if text.startswith(FORMULA) else text


class CsvWithStatus(CsvExportPlugin):
    def export(self, gradebook) -> None:
        dest = self.to or "grades.csv"
        students = [str(s) for s in self.student or ()]
        assignments = [str(a) for a in self.assignment or ()]
        self.log.info("Exporting grades to %s", dest)
        rows = []
        for assignment in gradebook.assignments:
            if assignments and assignment.name not in assignments:
                continue
            for student in gradebook.students:
                if students and student.id not in students:
                    continue
                row = {"assignment": assignment.name, "duedate": assignment.duedate, "student_id": student.id,
                       "last_name": student.last_name, "first_name": student.first_name, "email": student.email,
                       "max_score": assignment.max_score}
                try:
                    sub = gradebook.find_submission(assignment.name, student.id)
                except MissingEntry:
                    row.update(timestamp="", raw_score=0.0, late_submission_penalty=0.0, score=0.0)
                else:
                    penalty = sub.late_submission_penalty
                    row.update(timestamp=sub.timestamp, raw_score=sub.score, late_submission_penalty=penalty,
                               score=max(0.0, sub.score - penalty))
                row = {k: cell(row[k]) if k in TEXT else "" if row[k] is None else str(row[k]) for k in KEYS}
                row["status"] = status(gradebook, assignment.name, student.id)
                if row["status"] != "graded":
                    row["raw_score"] = row["score"] = ""  # blank, not 0: nothing was graded
                rows.append(row)
        with open(dest, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=KEYS + ["status"], lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
