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
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
TESTS_DIR = REPO_ROOT / "tests"
SOURCE_DIR = REPO_ROOT / "source"
RELEASE_DIR = REPO_ROOT / "release"
