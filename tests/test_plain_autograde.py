"""Plain nbgrader, as the README's class block runs it (issue 41): ``nbgrader autograde`` records what it
graded where the pipeline reads it (one memory: the pipeline skips it), and neither autograde nor
``zip_collect`` without an LMS download prints what nobody can act on (SQLAlchemy's SAWarning wall,
"Could not destroy zmq context", three "Directory not found" warnings)."""
from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

from course import tool_env
from course.grading.class_run import batch, graded_record, plain_autograde
from tests import tiny_course as tc

ENV = {"COURSE_ALLOW_CPU_GRADING": "1", "COURSE_KERNEL_PRELOAD": ""}


def nbgrader(root, *args):
    r = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env={**tool_env(), **ENV},
                       capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr


def test_plain_autograde_is_remembered_and_quiet(tmp_path, monkeypatch):
    for k, v in ENV.items():  # the fingerprint counts these settings: the same as the commands'
        monkeypatch.setenv(k, v)
    root = tc.make(tmp_path / "course")
    tc.submit(root, "alice")
    tc.submit(root, "bob", body="answer = 1")
    code, out = nbgrader(root, "generate_assignment", tc.A, "--force")
    assert code == 0, out[-3000:]
    code, out = nbgrader(root, "autograde", tc.A, "--force")
    assert code == 0, out[-3000:]
    assert "SAWarning" not in out and "Could not destroy zmq context" not in out, out[-3000:]
    db = f"sqlite:///{root / 'gradebook' / 'gradebook.db'}"
    todo = [(tc.A, "alice"), (tc.A, "bob")]
    plan = batch.decide(root, todo, db)
    assert plan.why == {(tc.A, "alice"): None, (tc.A, "bob"): None}, plan.why  # the pipeline skips both
    tc.submit(root, "alice", body="answer = 41")  # handed in again: graded again
    assert batch.decide(root, todo, db).why == {(tc.A, "alice"): batch.CHANGED, (tc.A, "bob"): None}

    code, out = nbgrader(root, "zip_collect", tc.A)
    assert code == 0, out[-3000:]
    assert "Directory not found" not in out and "No files found" not in out, out[-3000:]
    assert out.count("no LMS download in ") == 1, out[-3000:]


def test_the_pipelines_own_commands_leave_recording_to_the_batch(tmp_path, monkeypatch):
    """Inside a batch worker (PIPELINE_ENV) the hooks touch nothing: the batch records with the fingerprint
    it queued the submission with."""
    db = f"sqlite:///{tmp_path / 'gb.db'}"
    graded_record.record(db, "a1", "s1", submission_id="x", fingerprint="queued", autograded="h", seconds=1.0)
    monkeypatch.setattr(plain_autograde, "_running", lambda: SimpleNamespace(db_url=db, root=str(tmp_path)))
    nb = str(tmp_path / "gradebook" / "submitted" / "s1" / "a1" / "a1.ipynb")
    monkeypatch.setenv(graded_record.PIPELINE_ENV, "1")
    plain_autograde.before(notebooks=[nb])
    assert graded_record.rows(db, [("a1", "s1")])[("a1", "s1")]["fingerprint"] == "queued"
    monkeypatch.delenv(graded_record.PIPELINE_ENV)
    plain_autograde.before(notebooks=[nb])  # plain autograde: a grading starts, the old record goes
    assert graded_record.rows(db, [("a1", "s1")]) == {}
