"""Shared machinery for the Advanced PyTorch Internals course.

Student-side helpers (imported by notebooks): ``course.env`` (device cell,
fast mode), ``course.data`` (datasets with a synthetic stand-in) and
``course.hidden`` (the one call a hidden-test block makes).

Grader-side machinery (never trusted to student code): ``course.student``
(the adapter tests use to talk to a submission), ``course.worker`` and
``course.sandbox`` (where submission code runs), ``course.checks``
(assertions with student-facing messages) and ``course.grading``
(nbgrader preprocessors and the grading pipeline).
"""
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
TESTS_DIR = REPO_ROOT / "tests"
SOURCE_DIR = REPO_ROOT / "source"
RELEASE_DIR = REPO_ROOT / "release"
