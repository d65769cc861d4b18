"""``make grade``'s bundled examples grade in a course root of their own (gradebook/examples/), never in
the class's: the class's gradebook, grades.csv and report hold only its students, examples an earlier
version left in the class are taken out, and the run says where the examples went. Without a terminal,
each graded submission is one line. (Tiny stand-ins for the examples keep this at seconds a submission.)"""
import re

from nbgrader.api import Gradebook

from course import tool_env
from course.grading.class_run import pipeline
from tests import tiny_course as tc

STAMP = "2026-11-20 12:00:00.000000 UTC\n"  # the examples' timestamp.txt (pipeline.EXAMPLE_TIMESTAMP), as before


def students(root):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        return sorted(s.id for s in gb.students)


def test_examples_grade_apart_and_the_class_shows_only_its_students(tmp_path, monkeypatch, capsys):
    for name in ("JUDGE_SERVER", "SPARE_ZYGOTE", "FORKSERVER"):  # the tiny assignment has no hidden checks
        monkeypatch.setenv(f"COURSE_{name}", "0")
    monkeypatch.setenv("COURSE_ALLOW_CPU_GRADING", "1")
    monkeypatch.setenv("PATH", tool_env()["PATH"])  # alembic, for a new gradebook
    root = tc.make(tmp_path / "course")
    tc.submit(root, "ann")
    old = tc.submit(root, "ex-blank")  # what `make grade` used to leave in the class
    (old.parent / "timestamp.txt").write_text(STAMP)
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        gb.add_student("ex-blank")

    def place(course, assignment):
        for student in ("ex-complete", "ex-blank"):
            tc.submit(course, student, "answer = 42" if student == "ex-complete" else "raise NotImplementedError")
            (course / "gradebook" / "submitted" / student / assignment / "timestamp.txt").write_text(STAMP)
        return ["ex-complete", "ex-blank"]

    monkeypatch.setattr(pipeline, "place_examples", place)
    assert pipeline.run(root, [tc.A], examples=True, workers=1) == 0
    out = capsys.readouterr().out
    ex = root / "gradebook" / "examples"
    assert students(root) == ["ann"], out
    assert sorted(p.name for p in (root / "gradebook" / "submitted").iterdir()) == ["ann"]
    assert "ex-" not in (root / "gradebook" / "grades.csv").read_text()
    assert "<p>1 submissions;" in (root / "gradebook" / "report" / "index.html").read_text()
    assert students(ex) == ["ex-blank", "ex-complete"], out
    assert (ex / "gradebook" / "feedback" / "ex-complete" / tc.A / "tiny.html").exists()
    assert f"in their own course root {ex}" in out and f"gradebook: {ex / 'gradebook' / 'gradebook.db'}" in out
    assert "took the bundled examples (ex-blank) out of this class's gradebook" in out
    assert re.search(r"^autograde \[1/1\] tiny ann: graded in \d+ s$", out, re.M), out  # no terminal: a line each
