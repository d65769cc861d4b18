"""A full nbgrader round trip in a scratch course: generate -> submit -> autograde -> feedback -> export.

The reference solution earns full marks on every test cell and runs top to bottom without an
error; the untouched release earns zero on every test cell; feedback never shows hidden-test code.
"""
import csv
import os
import shutil
import signal
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

import torch as _torch

if not _torch.cuda.is_available():
    # Instructor CI on a CPU machine: GPU-marked checks are graded as skipped (and say so).
    os.environ.setdefault("COURSE_ALLOW_CPU_GRADING", "1")

from course import REPO_ROOT, tool_env
from course import notebook as nbtools
from course.grading.class_run import submissions
from tests.pipeline_run import RUN_LIMIT, Run, alive, end_run, graded_topics, run_of, start_pipeline, wait_run

ASSIGNMENTS = graded_topics()
# Seconds a topic may take in its run (two submissions; the slowest topic took about 5 min on a loaded 2-core
# machine); a run of several gets that for each, at most RUN_LIMIT (below pytest-timeout's 2400 s), so an
# overrun fails its own tests.
TOPIC_TIMEOUT = float(os.environ.get("COURSE_ROUND_TRIP_TIMEOUT", "1000"))


# One scratch course and one pipeline run per three topics (tests/pipeline_run.py, run_of), in a process of its
# own: a slow or stuck topic stops the run at its limit, and fails its own tests only (settle: its partners that
# were graded get their feedback and export after the stop); under `pytest -n` each run is a group of its own
# (tests/conftest.py), so the two workers share them. The run ends with its fixture.


def grade_topics(root: Path, topics: tuple[str, ...], timeout: float = TOPIC_TIMEOUT) -> dict[str, Run]:
    """Each topic's reference and blank release submitted in a scratch course at ``root`` and graded by
    the pipeline (generate, autograde, feedback, export) in a process of its own, under ``timeout`` a topic;
    each topic's Run (settle)."""
    shutil.copy(REPO_ROOT / "nbgrader_config.py", root)
    for assignment in topics:
        shutil.copytree(REPO_ROOT / "source" / assignment, root / "source" / assignment,
                        ignore=shutil.ignore_patterns("*.nb.py", "__pycache__"))
        name = submissions.release_notebook(assignment).name
        for student, nb in (("ref", submissions.reference(assignment)),
                            ("blank", nbtools.read(submissions.release_notebook(assignment)))):
            dest = root / "gradebook" / "submitted" / student / assignment
            dest.mkdir(parents=True)
            nbformat.write(nb, dest / name)
    # the class report (about 2 s of CPU a run) is left out: nothing here reads it, and the hostile batch's
    # run (tests/test_hostile.py) and tests/test_report.py cover it
    proc = start_pipeline(root, list(topics), steps="generate,autograde,feedback,export")
    return settle(proc, root, topics, min(timeout * len(topics), RUN_LIMIT))


SALVAGE_LIMIT = 600.0  # seconds for the feedback and export of the topics a stopped run had graded


def finished_topics(root: Path, topics) -> list[str]:
    """The topics of ``topics`` each of whose submissions the runner recorded as graded (its own record,
    written once a submission's grading is whole: course.grading.class_run.graded_record)."""
    from course.grading.class_run import batch, graded_record
    db = f"sqlite:///{root / 'gradebook' / 'gradebook.db'}"
    try:
        if not (root / "gradebook" / "gradebook.db").exists() or graded_record.GRADED.name not in graded_record.tables(db):
            return []
        who = {t: batch.submitted_students(root, t) for t in topics}
        held = graded_record.rows(db, [(t, s) for t in topics for s in who[t]])
    except Exception:  # a gradebook the stop left unreadable: none counts as graded
        return []
    return [t for t in topics if who[t] and all((t, s) in held for s in who[t])]


def settle(proc, root: Path, topics, limit: float, env: dict | None = None) -> dict[str, Run]:
    """Each topic's Run of the pipeline ``proc`` over ``topics``, waited for under ``limit``. When it is
    stopped there, a topic whose every submission it had graded gets its feedback and export from a short
    second run, so that only the slow topic's tests fail, with the stop's message."""
    run = wait_run(proc, root, "+".join(topics), limit)
    if run.rc is not None or len(topics) == 1:
        return {t: run for t in topics}
    done = finished_topics(root, topics)
    out = {t: Run(root, None, run.out, f"{t} was not graded whole when its run was stopped: {run.error}")
           for t in topics if t not in done}
    if done:
        rest = wait_run(start_pipeline(root, done, env, steps="feedback,export"), root, "+".join(done), SALVAGE_LIMIT)
        for t in done:
            out[t] = Run(root, rest.rc, run.out + "\n-- feedback and export after the stop --\n" + rest.out, rest.error)
    return out


_RUNS: dict[tuple[str, ...], dict[str, Run]] = {}  # one run serves the tests of each of its topics


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory, assignment):
    topics = run_of(assignment, ASSIGNMENTS)
    if topics not in _RUNS:
        _RUNS[topics] = grade_topics(tmp_path_factory.mktemp(f"course-{'-'.join(topics)}"), topics)
    return _RUNS[topics][assignment]


def finished(run: Run) -> Path:
    if run.error:
        pytest.fail(run.error + "\n" + run.out[-3000:])
    return run.root


# module scope: the tests of one topic run together, on one topic's run
per_assignment = pytest.mark.parametrize("assignment", ASSIGNMENTS, scope="module")


def cell_scores(root, assignment, student):
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        sub = gb.find_submission_notebook(submissions.release_notebook(assignment).stem, assignment, student)
        return {g.name: (g.score, g.max_score) for g in sub.grades if g.max_score > 0}


@per_assignment
def test_pipeline_completes(graded_course, assignment):
    root = finished(graded_course)
    assert graded_course.rc == 0, f"grading reported failures; see {root / 'gradebook' / 'logs'}\n{graded_course.out[-3000:]}"


@per_assignment
def test_reference_earns_full_marks(graded_course, assignment):
    root = finished(graded_course)
    scores = cell_scores(root, assignment, "ref")
    short = {k: v for k, v in scores.items() if v[0] != v[1]}
    assert scores and not short, f"reference lost points in {assignment}: {short}"
    nb = nbformat.read(next((root / "autograded" / "ref" / assignment).glob("*.ipynb")), 4)
    errors = [(i, o.get("ename"), o.get("evalue", "")[:200]) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.outputs if o.output_type == "error"]
    assert not errors, f"the reference notebook did not run top to bottom cleanly: {errors}"


@per_assignment
def test_blank_release_scores_zero_everywhere(graded_course, assignment):
    root = finished(graded_course)
    scores = cell_scores(root, assignment, "blank")
    nonzero = {k: v for k, v in scores.items() if v[0] != 0}
    assert scores and not nonzero, f"the blank release earned points in {assignment}: {nonzero}"


@per_assignment
def test_feedback_shows_verdicts_but_no_test_code(graded_course, assignment):
    root = finished(graded_course)
    folder = root / "gradebook" / "feedback" / "blank" / assignment
    extra = sorted(p.name for p in folder.iterdir() if p.suffix != ".html" and p.name != "timestamp.txt")
    assert not extra, f"feedback for {assignment} carries files from the grading run: {extra}"
    html = next(folder.glob("*.html")).read_text()
    assert "Hidden checks for" in html and "FAIL" in html
    for leak in ("student.call(", "def test_", "gradcheck_directional(", "jacobian_vs_reference(", "import pytest",
                 "@pytest.mark"):
        assert leak not in html, f"feedback for {assignment} shows test code ({leak!r})"


@per_assignment
def test_export_has_a_row_per_submission(graded_course, assignment):
    root = finished(graded_course)
    rows = list(csv.DictReader(open(root / "gradebook" / "grades.csv")))
    assert {(r["assignment"], r["student_id"]) for r in rows} >= {(assignment, s) for s in ("ref", "blank")}


# -- the run ends with its fixture ------------------------------------------------------------------

class Stop(Exception):
    """What pytest-timeout's signal method raises in the test's thread."""


def _run_until_stopped(tmp_path, how: str):
    """A tiny course whose one submission sleeps in its cell, graded by ``start_pipeline`` + ``wait_run``;
    stopped while its kernel runs the cell, by wait_run's own time-out or by an exception raised in the
    waiting thread (a signal handler, as pytest-timeout does). Every process the run had, as seen then."""
    import threading
    import time

    import psutil

    from tests import tiny_course as tc
    root = tc.make(tmp_path / "course")
    tc.submit(root, "slow", "import time\ntime.sleep(300)\nanswer = 42")
    proc = start_pipeline(root, tc.A, dict(tool_env(), COURSE_ALLOW_CPU_GRADING="1", COURSE_CELL_TIMEOUT="600"))
    seen: dict = {}
    kernel_running = threading.Event()

    def watch():
        while proc.poll() is None:
            try:
                for p in psutil.Process(proc.pid).children(recursive=True):
                    try:
                        seen.setdefault((p.pid, p.create_time()), " ".join(p.cmdline())[:200])
                    except psutil.Error:
                        pass
            except psutil.Error:
                return
            if any("course.sandbox.kernel" in c for c in seen.values()):
                kernel_running.set()
            time.sleep(0.1)

    threading.Thread(target=watch, daemon=True).start()
    def raise_stop(*_):
        raise Stop()

    old = signal.signal(signal.SIGUSR1, raise_stop)
    try:
        if how == "time-out":
            deadline = time.monotonic() + 400
            while not kernel_running.is_set() and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.2)
            assert kernel_running.is_set(), (root / "pipeline.out").read_text()
            time.sleep(1)
            run = wait_run(proc, root, tc.A, timeout=0.5)
            assert run.rc is None and "did not finish in 0 s (stopped)" in run.error, run
        else:
            def stop_when_running():
                if kernel_running.wait(400):
                    time.sleep(1)
                    os.kill(os.getpid(), signal.SIGUSR1)
            threading.Thread(target=stop_when_running, daemon=True).start()
            with pytest.raises(Stop):
                wait_run(proc, root, tc.A, timeout=600)
    finally:
        signal.signal(signal.SIGUSR1, old)
        if proc.poll() is None:
            end_run(proc)
    return seen


def test_a_stopped_fixture_ends_its_grading_run(tmp_path):
    """A topic's run whose fixture is interrupted (pytest-timeout raises in the waiting thread) leaves no
    process behind: the pipeline, its runner, judge server and the sandboxed kernel running the student's
    cell are all gone once wait_run raises. (wait_run's own time-out ends the run with the same end_run:
    test_a_run_past_its_time_is_ended; ``_run_until_stopped(tmp_path, "time-out")`` runs it on a pipeline.)"""
    import time
    seen = _run_until_stopped(tmp_path, "error")
    time.sleep(2)  # as long as a clean stop of the pipeline is given (test_pipeline_stop)
    assert any("course.sandbox.kernel" in c for c in seen.values()), seen  # there was something to end
    left = sorted(c for k, c in seen.items() if alive(k))
    assert not left, f"processes of the stopped run still alive: {left}"


def test_a_slow_topic_fails_only_its_own_tests(tmp_path, monkeypatch):
    """A run of two topics stopped at its limit while one topic's submission still runs: the topic it had
    graded keeps its score and gets its feedback and export (its tests pass), the slow one gets the stop's
    message, and nothing of either run is left running."""
    import time

    import psutil

    from tests import tiny_course as tc
    root = tc.make(tmp_path / "course")
    slow = "tiny2"
    shutil.copytree(root / "source" / tc.A, root / "source" / slow)
    tc.submit(root, "amy")
    late = root / "gradebook" / "submitted" / "bob" / slow / tc.NAME
    late.parent.mkdir(parents=True)
    nbformat.write(tc.source_notebook("import time\ntime.sleep(600)\nanswer = 42"), late)
    env = dict(tool_env(), COURSE_ALLOW_CPU_GRADING="1", COURSE_CELL_TIMEOUT="900", COURSE_JUDGE_SERVER="0",
               COURSE_SPARE_ZYGOTE="0", COURSE_FORKSERVER="0")  # the tiny assignment has no hidden checks
    proc = start_pipeline(root, [tc.A, slow], env, steps="generate,autograde,feedback,export", workers=2)
    deadline = time.monotonic() + 600
    while not finished_topics(root, [tc.A]) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(1)
    assert finished_topics(root, [tc.A]) == [tc.A], (root / "pipeline.out").read_text()[-3000:]
    below = psutil.Process(proc.pid).children(recursive=True)
    runs = settle(proc, root, (tc.A, slow), 0.5, env)
    fast = runs[tc.A]
    assert fast.error is None and fast.rc == 0, fast.out[-3000:]
    assert (root / "gradebook" / "feedback" / "amy" / tc.A / "tiny.html").is_file()
    assert any(r["student_id"] == "amy" for r in csv.DictReader(open(root / "gradebook" / "grades.csv")))
    assert runs[slow].rc is None and runs[slow].error.startswith(f"{slow} was not graded whole when its run was "
                                                                 "stopped:"), runs[slow]
    with Gradebook(f"sqlite:///{root / 'gradebook' / 'gradebook.db'}") as gb:
        assert gb.find_submission(tc.A, "amy").score == 1
    time.sleep(1)
    assert not [p for p in below if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def test_a_run_past_its_time_is_ended(tmp_path):
    """wait_run's own limit: the run is ended (its whole process group, a child that left the group too)
    and the topic's tests get a message that says so."""
    import subprocess
    import sys
    import time

    import psutil
    child = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import os, time; os.setsid(); time.sleep(300)']); time.sleep(300)"
    proc = subprocess.Popen([sys.executable, "-c", child], start_new_session=True)
    deadline = time.monotonic() + 30
    while not psutil.Process(proc.pid).children() and time.monotonic() < deadline:
        time.sleep(0.1)
    below = psutil.Process(proc.pid).children(recursive=True)
    assert below
    (tmp_path / "pipeline.out").write_text("what the run printed")
    run = wait_run(proc, tmp_path, "15-99", timeout=0.5)
    assert run.rc is None and run.error.startswith("15-99: the pipeline did not finish in 0 s (stopped)"), run
    assert run.out == "what the run printed"
    time.sleep(0.5)
    assert not [p for p in below if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def test_each_run_is_one_xdist_group_and_every_topic_is_in_one_run():
    """The topics graded together are one group under `pytest -n` (so one worker runs their tests on the one
    run), no run holds more than TOPICS_PER_RUN topics, and every topic is graded in exactly one run."""
    from tests.conftest import group_of
    from tests.pipeline_run import TOPICS_PER_RUN
    runs = {run_of(a, ASSIGNMENTS) for a in ASSIGNMENTS}
    assert sorted(a for r in runs for a in r) == sorted(ASSIGNMENTS)
    assert all(1 <= len(r) <= TOPICS_PER_RUN for r in runs)
    for r in runs:
        groups = {group_of(f"tests/test_round_trip.py::{t}[{a}]") for a in r
                  for t in ("test_pipeline_completes", "test_export_has_a_row_per_submission")}
        assert len(groups) == 1, (r, groups)
    assert len({group_of(f"tests/test_round_trip.py::test_pipeline_completes[{r[0]}]") for r in runs}) == len(runs)


def test_a_new_topic_joins_the_round_trip_and_the_verdicts_by_its_folders(tmp_path, monkeypatch):
    """A topic with a notebook in source/<id>/ and a test file in tests/<id>/ is graded by the round trip and
    the verdicts, in runs and xdist groups of its own, ranked with the longest verdict runs (its cost is not
    known yet), with no edit to these files; one whose hidden suite is not written yet is left out, and when
    it is written during a run, that run's groups stay as they were (xdist looks them up again)."""
    import course
    from tests import conftest
    from tests.conftest import LONGEST_FIRST, _rank, group_of
    monkeypatch.setattr(conftest, "_TOPICS", None)  # as a new pytest run
    src, hidden = tmp_path / "source", tmp_path / "tests"
    for t in ("91-01", "91-02", "91-03"):
        (src / t).mkdir(parents=True)
        (src / t / f"{t}_x.ipynb").write_text("{}")
    for t, f in (("91-01", "test_a.py"), ("91-02", "probes.py"), ("91-03", "test_b.py")):
        (hidden / t).mkdir(parents=True, exist_ok=True)
        (hidden / t / f).write_text("")
    monkeypatch.setattr(course, "SOURCE_DIR", src)
    monkeypatch.setattr(course, "TESTS_DIR", hidden)
    monkeypatch.delenv("COURSE_ONLY", raising=False)
    assert graded_topics() == ["91-01", "91-03"]
    assert group_of("tests/test_round_trip.py::test_pipeline_completes[91-03]") == "test_round_trip-91-01+91-03"
    verdicts = "tests/test_submissions.py::test_example_submission_verdicts[91-03]"
    assert group_of(verdicts) == "test_submissions-91-03"
    assert _rank(verdicts) <= LONGEST_FIRST.index("test_submissions-15-10")
    (hidden / "91-02" / "test_c.py").write_text("")  # a suite written while the run goes on (as the 16-xx were):
    assert graded_topics() == ["91-01", "91-02", "91-03"]  # the next run grades it; this one keeps its groups
    assert group_of("tests/test_round_trip.py::test_pipeline_completes[91-03]") == "test_round_trip-91-01+91-03"
