"""A grading run a test fixture starts ends when the fixture does: ``python -m course.grading.pipeline``
in a process of its own, waited for under a limit. On that limit, an exception in the waiting thread
(pytest-timeout's signal method, Ctrl-C) or the death of the pytest process (PR_SET_PDEATHSIG: its thread
method), the pipeline gets SIGTERM (its own clean stop ends everything it started:
course.grading.class_run.stopping), then its process group and whatever was below it are killed."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from course import REPO_ROOT, tool_env

STEPS = "generate,autograde,feedback,export,report"


@dataclass
class Run:
    root: Path
    rc: int | None  # None: did not finish
    out: str
    error: str | None = None


def _die_with_parent() -> None:  # in the child: SIGTERM when the pytest process dies (pytest-timeout's thread method)
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


def end_run(proc: subprocess.Popen, grace: float = 20.0) -> None:
    """Stop the pipeline and everything below it: SIGTERM (its own clean stop), then SIGKILL for the rest."""
    import psutil
    try:
        below = psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        below = []
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for p in below:
        try:
            p.kill()
        except psutil.Error:
            pass
    proc.wait(timeout=30)


def start_pipeline(root: Path, assignment: str | list[str], env: dict | None = None, *, steps: str = STEPS,
                   workers: int | None = None) -> subprocess.Popen:
    """``python -m course.grading.pipeline`` on ``assignment`` (or several) in ``root``, output in root/pipeline.out."""
    ids = [assignment] if isinstance(assignment, str) else list(assignment)
    cmd = [sys.executable, "-m", "course.grading.pipeline", "--root", str(root),
           *[x for a in ids for x in ("--assignment", a)],
           "--no-examples", "--steps", steps, *(["--workers", str(workers)] if workers else [])]
    with open(root / "pipeline.out", "w") as fh:
        return subprocess.Popen(cmd, cwd=REPO_ROOT, env=env or tool_env(), stdout=fh, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=_die_with_parent)


def wait_run(proc: subprocess.Popen, root: Path, assignment: str, timeout: float) -> Run:
    log = root / "pipeline.out"
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        end_run(proc)
        return Run(root, None, log.read_text(errors="replace"),
                   f"{assignment}: the pipeline did not finish in {timeout:.0f} s (stopped); see {log}")
    except BaseException:  # pytest-timeout, Ctrl-C: the grading run ends with the fixture
        end_run(proc)
        raise
    return Run(root, rc, log.read_text(errors="replace"))


def graded_topics() -> list[str]:
    """The topics the round trip and the verdicts grade: every assignment in source/ (course.assignments, so
    COURSE_ONLY applies) whose hidden suite, tests/<id>/test_*.py, exists. A new topic joins both, and gets
    its runs and xdist groups (tests/conftest.py), by having the two folders: nothing here names a topic."""
    from course import TESTS_DIR, assignments
    return [a for a in assignments() if any((TESTS_DIR / a).glob("test_*.py"))]


def hostile_topic() -> str:
    """The topic the hostile batch (tests/test_hostile.py) grades every generic hostile and honest
    notebook on, through the whole pipeline; the verdicts (tests/test_submissions.py) count the parts of
    the judge its suite uses as attacked already."""
    from course import assignments
    topics = assignments()
    return "15-01" if "15-01" in topics else topics[0]


# The round trip grades this many topics per pipeline run (COURSE_ROUND_TRIP_TOPICS): each run pays a fresh
# pipeline, runner, sandbox template, judge server, first zygote and kernel (25-30 s of CPU: a tiny course's run
# costs that), so six topics a run pay it once for six (18 topics: 3 runs, not 18); a slow topic stops its run
# at the run's limit and fails only its own tests (tests/test_round_trip.py, settle: the partners it had graded
# get their feedback and export after). tests/conftest.py makes each run one xdist group.
TOPICS_PER_RUN = max(1, int(os.environ.get("COURSE_ROUND_TRIP_TOPICS", "6")))
RUN_LIMIT = 2300.0  # seconds any run may take, below pytest-timeout's 2400 s: an overrun fails its own tests


def run_of(assignment: str, topics: list[str]) -> tuple[str, ...]:
    """The topics graded in one round-trip run with ``assignment``: consecutive ones of ``topics``."""
    i = topics.index(assignment) // TOPICS_PER_RUN * TOPICS_PER_RUN
    return tuple(topics[i:i + TOPICS_PER_RUN])


def alive(key: tuple[int, float]) -> bool:
    """Whether the process seen as (pid, create time) still runs (a reused pid or a zombie does not)."""
    import psutil
    pid, started = key
    try:
        p = psutil.Process(pid)
        return p.create_time() == started and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False
