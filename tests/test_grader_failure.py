"""The grading process's own failure is never a student's zero: an exception raised in autograde's process before
the judge ran (CI saw CPython's "AST constructor recursion depth mismatch" SystemError there, after a batch of hostile
submissions, and an honest reference lost every point) is recorded as a ``grader`` incident, which the batch grades
again alone in a fresh process, saying why."""
import tempfile
from pathlib import Path

from course.grading.autograde.preprocessors import hidden_checks
from course.grading.class_run import batch
from course.grading.records import incidents


def test_an_exception_in_the_grading_process_is_the_graders(monkeypatch):
    import course.judge.suite as suite

    def broken(*a, **k):
        raise SystemError("AST constructor recursion depth mismatch (before=72, after=122)")

    monkeypatch.setattr(suite, "run_suite", broken)
    folder = Path(tempfile.mkdtemp(prefix="course-judge-"))
    (folder / "submission.ipynb").write_text("{}")
    res = hidden_checks._judge(str(folder / "submission.ipynb"), "15-01", "alice", timeout=30)
    assert res.error.startswith("SystemError: AST constructor") and getattr(res, "grader_failed", False)
    assert not folder.exists()  # the snapshot's folder is removed all the same


def test_a_grader_incident_is_graded_again_alone():
    first = batch.Result("15-01", "alice", incidents=[{"kind": incidents.GRADER, "message": "SystemError: x"}])
    assert incidents.GRADER in incidents.GRADE_ALONE and batch.starved(first)
    why = batch.regrade_reason(first)
    assert "grader's own process failed" in why and "SystemError: x" in why
    assert not batch.starved(batch.Result("15-01", "bob", incidents=[{"kind": incidents.JUDGE, "message": "x"}]))
