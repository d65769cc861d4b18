"""Shared machinery for the Advanced PyTorch Internals course.

Student side, shipped to students (``course.student``: device and run mode, data sets with a
synthetic stand-in, the hidden-check hook, visible-check helpers). Built into
``release/course-student/`` by ``python -m course.authoring.build release``; imports nothing else of
``course``.

Grader side, never shipped and never trusted to student code: ``course.judge.adapter`` (how hidden
tests talk to a submission), ``course.judge.worker``, ``course.sandbox``, ``course.sandbox.kernel``,
``course.sandbox.cgroup`` (where submission code runs), ``course.judge.expect`` and ``course.judge.probelib``
(judge-side assertions and probes), ``course.judge.pytest_plugin``, ``course.judge.inprocess``,
``course.judge.suite`` and ``course.judge.server`` (running the hidden suites), and ``course.grading``
(nbgrader preprocessors and the grading pipeline).
"""
import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
TESTS_DIR = REPO_ROOT / "tests"
SOURCE_DIR = REPO_ROOT / "source"
RELEASE_DIR = REPO_ROOT / "release"


def assignments() -> list[str]:
    """Every assignment in source/, or only those named in $COURSE_ONLY (comma-separated)."""
    found = sorted(p.name for p in SOURCE_DIR.iterdir() if p.is_dir() and list(p.glob("*.ipynb")))
    from . import settings
    only = [a for a in settings.current().only.split(",") if a]
    return [a for a in found if a in only] if only else found


def tool_env() -> dict:
    """Environment for nbgrader subprocesses: this venv's tools on PATH, the course importable."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env
