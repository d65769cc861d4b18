"""grades.csv tells "not submitted" from a score of 0 (course.grading.report.grades_csv)."""
import csv
import os
import sys

from nbgrader.api import Gradebook

from course.grading.report.grades_csv import CsvWithStatus


def test_status_column(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    db = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(db) as gb:
        gb.add_assignment("15-01")
        gb.add_student("alice")
        gb.add_student("dave")
        gb.add_submission("15-01", "alice")
        dest = tmp_path / "grades.csv"
        CsvWithStatus(to=str(dest)).export(gb)
    rows = {r["student_id"]: r for r in csv.DictReader(dest.open())}
    assert rows["dave"]["status"] == "not submitted" and rows["dave"]["score"] == ""
    assert rows["alice"]["status"] == "graded" and float(rows["alice"]["score"]) == 0.0
