"""Shared machinery for the Advanced PyTorch Internals course.

Student side, shipped to students (``course.student``: device and run mode, data sets with a
synthetic stand-in, the hidden-check hook, visible-check helpers). Built into
``release/course-student/`` by ``python -m course.build release``; imports nothing else of
``course``.

Grader side, never shipped and never trusted to student code: ``course.adapter`` (how hidden
tests talk to a submission), ``course.worker``, ``course.sandbox``, ``course.sandbox_kernel``,
``course.cgroup`` (where submission code runs), ``course.checks`` and ``course.probelib``
(judge-side assertions and probes), ``course.pytest_plugin``, ``course.inprocess``,
``course.check`` and ``course.judgeserver`` (running the hidden suites), and ``course.grading``
(nbgrader preprocessors and the grading pipeline).
"""
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
TESTS_DIR = REPO_ROOT / "tests"
SOURCE_DIR = REPO_ROOT / "source"
RELEASE_DIR = REPO_ROOT / "release"
