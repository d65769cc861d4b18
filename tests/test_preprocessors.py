"""The judging steps of autograde, driven directly: hidden checks started before the kernel
(StartHiddenChecks) give a test cell the same verdict as checks run after it (JudgeHiddenChecks
alone), and a judge that breaks leaves a grading error on the cell instead of stopping the batch."""
import copy

import nbformat

from course import REPO_ROOT
from course import notebook as nbtools
from course.grading.autograde.preprocessors import hidden_checks as pp
from course.grading.class_run import submissions

A = "15-01"


def blank():
    """The untouched release as autograde sees it: test cells put back from the source (OverwriteCells)."""
    nb = nbformat.from_dict(copy.deepcopy(nbtools.read(submissions.release_notebook(A))))
    src = nbtools.read(REPO_ROOT / "source" / A / submissions.release_notebook(A).name)
    source = {nbtools.nbgrader_meta(c).get("grade_id"): c.source for c in src.cells}
    for c in nb.cells:
        if nbtools.is_test_cell(c):
            c.source = source[nbtools.nbgrader_meta(c)["grade_id"]]
    return nb


def resources(student):
    return {"nbgrader": {"assignment": A, "student": student, "notebook": submissions.release_notebook(A).stem}}


def verdicts(nb) -> list[str]:
    return ["".join(o.get("text", "") for o in c.outputs if o.get("name") == "stdout")
            for c in nb.cells if nbtools.is_test_cell(c) and nbtools.hidden_calls(c.source)]


def test_started_early_gives_the_same_verdicts_as_judged_after(monkeypatch):
    monkeypatch.setenv("COURSE_ALLOW_CPU_GRADING", "1")
    early, late = blank(), blank()
    res = resources("same-student")
    pp.StartHiddenChecks(timeout=300).preprocess(early, res)
    assert pp.STARTED in res, "StartHiddenChecks did not start the checks (nothing handed on in resources)"
    for c in early.cells:  # the kernel's run would change outputs and metadata, never the code judged
        if nbtools.is_test_cell(c):
            c.outputs = [nbformat.v4.new_output("stream", name="stderr", text="noise\n")]
    pp.JudgeHiddenChecks(timeout=300).preprocess(early, res)
    assert pp.STARTED not in res, "the running checks were not taken by JudgeHiddenChecks"
    pp.JudgeHiddenChecks(timeout=300).preprocess(late, resources("same-student"))
    got, want = verdicts(early), verdicts(late)
    assert len(got) >= 5 and all("Score for this cell: 0.00" in v for v in want), want
    assert [v.replace("noise\n", "") for v in got] == want


def test_a_broken_judge_leaves_a_grading_error_on_every_test_cell(monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("no space left on device")

    monkeypatch.setattr("course.judge.suite.run_suite", broken)
    nb = blank()
    pp.StartHiddenChecks(timeout=30).preprocess(nb, resources("broken-judge"))
    pp.JudgeHiddenChecks(timeout=30).preprocess(nb, resources("broken-judge"))
    cells = [c for c in nb.cells if nbtools.is_test_cell(c) and nbtools.hidden_calls(c.source)]
    assert cells
    for c in cells:
        errors = [o for o in c.outputs if o.get("output_type") == "error"]
        assert errors and "no space left on device" in errors[0]["evalue"], c.outputs


def test_hidden_checks_start_only_after_the_kernel(monkeypatch):
    """Issue 38: a submission's judge worker alive beside its own kernel could hand hidden code and inputs
    to it through a channel left between two sandboxes, and so into the feedback. StartHiddenChecks (before
    SafeExecute) only takes the code; the suite runs in JudgeHiddenChecks, after the kernel has gone."""
    import os
    import threading
    import time
    ran = []

    def recording(assignment, path, **kwargs):
        ran.append(os.path.isfile(path))
        raise OSError("recorded")

    monkeypatch.setattr("course.judge.suite.run_suite", recording)
    nb, res = blank(), resources("after-kernel")
    pp.StartHiddenChecks(timeout=30).preprocess(nb, res)
    judging = [t for t in threading.enumerate() if t.name.startswith("course-judge")]
    deadline = time.monotonic() + 5
    while not ran and judging and time.monotonic() < deadline:  # a judge started in the background
        time.sleep(0.1)
    assert not judging and ran == [], "the hidden checks started before the notebook's kernel ran"
    assert pp.STARTED in res
    pp.JudgeHiddenChecks(timeout=30).preprocess(nb, res)
    assert ran == [True], ran
    assert pp.STARTED not in res


def _verdict_for(checks, monkeypatch, policy, penalty=()):
    from course.judge.results import Check, Results
    if policy is None:
        monkeypatch.delenv("COURSE_ESSENTIAL_POLICY", raising=False)
    else:
        monkeypatch.setenv("COURSE_ESSENTIAL_POLICY", policy)
    cell = nbformat.v4.new_code_cell("run_hidden('16-03', 'mha', globals())")
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "mha_tests", "points": 4, "solution": False}
    res = Results(checks=[Check(nodeid=f"t::{n}", name=n, title=f"title {n}", task="mha", status=s, essential=e,
                                penalty=n in penalty) for n, s, e in checks])
    pp.JudgeHiddenChecks(timeout=30)._write_verdict(cell, ["mha"], res)
    text = "".join(o.get("text", "") for o in cell.outputs if o.get("name") == "stdout")
    score = [o for o in cell.outputs if o.get("output_type") == "execute_result"][0]["data"]["text/plain"]
    return text, float(score)


def test_essential_policy_zeroes_a_cell_only_when_set(monkeypatch):
    """Issue 42: a task whose essential check fails scores zero when the instructor asks for it
    (COURSE_ESSENTIAL_POLICY=zero); off by default, partial credit as before; a failing check that
    is not essential keeps partial credit either way."""
    essential_fails = [("a", "failed", True), ("b", "passed", False), ("c", "passed", False), ("d", "passed", False)]
    other_fails = [("a", "passed", True), ("b", "failed", False), ("c", "passed", False), ("d", "passed", False)]
    text, score = _verdict_for(essential_fails, monkeypatch, None)
    assert score == 3.0 and "essential" not in text, text
    text, score = _verdict_for(essential_fails, monkeypatch, "zero")
    assert score == 0.0 and "An essential check failed (title a)" in text and "[essential]" in text, text
    assert text.rstrip().endswith("Score for this cell: 0.00 / 4"), text
    text, score = _verdict_for(other_fails, monkeypatch, "zero")
    assert score == 3.0 and "An essential check failed" not in text, text


def test_a_penalty_check_earns_nothing_and_costs_its_share(monkeypatch):
    """The signature check (tests/<id>/test_signatures.py): passed, it is left out of the cell's sums (a
    submission whose functions only keep the skeleton's def lines earns nothing from it); failed, it costs the
    share of one check."""
    others = [("b", "passed", False), ("c", "failed", False), ("d", "passed", False)]
    text, score = _verdict_for([("sig", "passed", False)] + others, monkeypatch, None, penalty={"sig"})
    assert abs(score - 4 * 2 / 3) < 1e-3, text
    assert "PASS  title sig  [costs points only if it fails]  (0.00/0.00)" in text, text
    text, score = _verdict_for([("sig", "failed", False)] + others, monkeypatch, None, penalty={"sig"})
    assert score == 2.0 and "FAIL  title sig  [costs points only if it fails]  (0.00/1.00)" in text, text
    nothing = [("sig", "passed", False), ("b", "failed", False)]
    assert _verdict_for(nothing, monkeypatch, None, penalty={"sig"})[1] == 0.0


def test_essential_policy_refuses_an_unknown_word(monkeypatch):
    import pytest
    from course import settings
    monkeypatch.setenv("COURSE_ESSENTIAL_POLICY", "strict")
    with pytest.raises(ValueError, match="COURSE_ESSENTIAL_POLICY='strict' is not one of off, zero"):
        settings.current()
