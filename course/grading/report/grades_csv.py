"""``nbgrader export``'s CSV, with a ``status`` column: a student who submitted nothing, or whose
submission was never graded, is not a 0. nbgrader's own exporter writes 0.0 for both."""
from __future__ import annotations

import csv
import io

from nbgrader.api import MissingEntry
from nbgrader.plugins.export import CsvExportPlugin


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


class CsvWithStatus(CsvExportPlugin):
    def export(self, gradebook) -> None:
        super().export(gradebook)
        dest = self.to or "grades.csv"
        with open(dest, newline="") as fh:
            rows = list(csv.DictReader(fh))
        out = io.StringIO()
        fields = list(rows[0].keys()) + ["status"] if rows else ["status"]
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            row["status"] = status(gradebook, row["assignment"], row["student_id"])
            if row["status"] != "graded":
                row["raw_score"] = row["score"] = ""  # blank, not 0: nothing was graded
            writer.writerow(row)
        with open(dest, "w", newline="") as fh:
            fh.write(out.getvalue())
