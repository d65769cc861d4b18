"""No zero from the grader's load (issue 39): a notebook whose kernel does not start or answer in time
(before any of its cells ran: the grading machine's doing) is recorded as such, graded again alone
after the batch, before anything is scored, and that grading's feedback and the report say so."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from nbformat.v4 import new_code_cell, new_notebook
from traitlets.config import Config, Configurable

from course.grading.class_run import batch
from course.grading.records import incidents
from course.sandbox import cputime


def _meta(gid: str, grade: bool) -> dict:
    return {"nbgrader": {"grade": grade, "solution": False, "grade_id": gid, "locked": grade,
                         "schema_version": 3, **({"points": 1} if grade else {})}}


class _Command(Configurable):
    """Stands for the nbgrader command running the step (incidents.course_root reads its coursedir)."""
    coursedir = None


@pytest.mark.parametrize("alone", [False, True])
def test_a_kernel_that_does_not_answer_in_time_is_not_the_students(tmp_path, monkeypatch, alone):
    """A real sandboxed kernel given no time to answer (startup_timeout 0): the graded cell says the
    kernel did not start or answer, the incidents name it (kind "no kernel", which the batch grades again
    alone), and a grading already alone says to ask the instructor instead."""
    from course.grading.config import install_sandbox_kernel
    from course.grading.autograde.preprocessors import SafeExecute

    monkeypatch.setenv("COURSE_KERNEL_PRELOAD", "")
    monkeypatch.setenv("COURSE_SPARE_KERNEL", "0")
    if alone:
        monkeypatch.setenv(cputime.ALONE_ENV, "1")
    else:
        monkeypatch.delenv(cputime.ALONE_ENV, raising=False)
    nb = new_notebook(cells=[new_code_cell("answer = 42", metadata=_meta("code", False)),
                             new_code_cell("assert answer == 42", metadata=_meta("t", True))],
                      metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    c = Config()
    install_sandbox_kernel(c)
    command = _Command()
    command.coursedir = SimpleNamespace(root=str(tmp_path))
    step = SafeExecute(config=c, parent=command, submission_timeout=60, timeout=10, startup_timeout=0)
    nb, _ = step.preprocess(nb, {"nbgrader": {"assignment": "a1", "student": "s1"}})
    out = nb.cells[1].outputs
    assert out and out[0]["ename"] == "NotRun" and "did not start or answer in time" in out[0]["evalue"], out
    found = incidents.read(tmp_path, "a1", "s1")
    kinds = [i["kind"] for i in found]
    assert incidents.NO_KERNEL in kinds and incidents.KERNEL in kinds, found
    assert batch.starved(batch.Result("a1", "s1", incidents=found))
    text = next(i["message"] for i in found if i["kind"] == incidents.NO_KERNEL)
    assert ("ask your instructor" in text) == alone and ("so it is graded again" in text) == (not alone), text
    from course.grading.autograde.preprocessors.incident_notes import note
    assert note(found, str(tmp_path)).count("did not start or answer in time") == 1  # the feedback says it once


def test_a_regrade_alone_is_recorded_by_the_grading_itself(tmp_path, monkeypatch):
    """The grading again alone records why (REGRADE_ENV), once, where the feedback's note and the report
    read incidents."""
    from course.grading.autograde.preprocessors import SafeExecute
    from course.grading.autograde.preprocessors.incident_notes import note

    command = _Command()
    command.coursedir = SimpleNamespace(root=str(tmp_path))
    step = SafeExecute(parent=command)
    monkeypatch.setenv(incidents.REGRADE_ENV, "graded again with nothing beside it, because X")
    step._who = (str(tmp_path), "a1", "s1")
    step._note_regrade()
    step._note_regrade()
    found = incidents.read(tmp_path, "a1", "s1")
    assert found == [{"kind": incidents.REGRADED, "message": "graded again with nothing beside it, because X"}]
    assert "graded again with nothing beside it, because X" in note(found, str(tmp_path))


def test_the_batch_grades_a_kernel_that_did_not_start_again_alone(tmp_path, monkeypatch):
    """A first grading whose kernel did not start is graded again alone after the batch, told why through
    its environment; its result replaces the first, which the report never scores."""
    seen_env = {}

    class FakeWorker:
        def __init__(self, index, gpus, cores=None, alone=False):
            self.env = {cputime.ALONE_ENV: "1"} if alone else {}

        def start(self, *args):
            pass

        def close(self):
            pass

    def grade_one(worker, root, a, s, fp, extra, more=True, *, db):
        alone = bool(worker.env.get(cputime.ALONE_ENV))
        if alone:
            seen_env[s] = worker.env.get(incidents.REGRADE_ENV)
            return batch.Result(a, s, incidents=[{"kind": incidents.REGRADED, "message": seen_env[s]}])
        found = [{"kind": incidents.NO_KERNEL, "message": "the notebook's kernel did not start or answer in time"}] \
            if s == "unlucky" else []
        return batch.Result(a, s, incidents=found)

    monkeypatch.setattr(batch, "Worker", FakeWorker)
    monkeypatch.setattr(batch, "_grade_one", grade_one)
    monkeypatch.setattr(batch.graded_record, "forget", lambda *a: None)
    todo = [("a1", s) for s in ("a", "unlucky", "b")]
    plan = batch.Plan("sqlite://", {p: "fp" for p in todo}, {p: "new" for p in todo})
    results = batch.autograde(tmp_path, todo, workers=1, plan=plan)
    assert list(seen_env) == ["unlucky"]
    assert "kernel did not start or answer in time" in seen_env["unlucky"], seen_env
    by = {r.student: r for r in results}
    assert [i["kind"] for i in by["unlucky"].incidents] == [incidents.REGRADED]  # once, not twice
