"""Instructor side of ``run_hidden``: a task's hidden checks, run in-process on a live notebook.

Used when an instructor runs a source notebook (or ``nbgrader validate`` on one) inside this
repository; never shipped to students (``course.student.hidden`` finds it through the entry point
``course.hidden_checks`` declared in pyproject.toml and, without it, says the checks run at grading time).
"""
from __future__ import annotations

import contextlib
import io
import os
import warnings

from .. import TESTS_DIR
from .results import Check, Results


class HiddenChecksFailed(AssertionError):
    def __init__(self, text: str, failed: list[Check] = ()):
        super().__init__(text)
        self.failed = list(failed)  # the checks that failed (empty: no check was found)


def run_in_process(assignment: str, task: str | list[str], namespace: dict) -> bool:
    """Run the task's checks on ``namespace`` (several tasks' when given a list); False when this
    repository has no suite for it."""
    suite = TESTS_DIR / assignment
    if not suite.is_dir():
        return False
    import pytest

    from . import pytest_plugin
    from .adapter import InProcessStudent
    from .pytest_plugin import probe_sources

    tasks = [task] if isinstance(task, str) else list(task)
    task = ", ".join(tasks)
    captured = io.StringIO()
    student = InProcessStudent(namespace, probe_sources(assignment))

    class InProcess:  # this session's student: the live namespace
        @staticmethod
        def pytest_configure(config):
            config.stash[pytest_plugin.IN_PROCESS] = student
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "results.json")
        cwd = os.getcwd()
        os.chdir(tmp)  # caches (e.g. hypothesis') go to the temporary folder, not next to the notebook
        try:
            with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured), \
                    warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pytest.main([str(suite), "-q", "--assert=plain", "--color=no", "-p", "no:cacheprovider",
                             "--import-mode=importlib", *(a for t in tasks for a in ("--task", t)),
                             "--results-json", out,
                             "-o", "addopts=", "-W", "ignore"], plugins=[InProcess()])
        finally:
            os.chdir(cwd)
        res = Results.load(out) if os.path.exists(out) else Results()
    checks = res.for_tasks(tasks)
    if not checks:
        raise HiddenChecksFailed(f"no hidden checks found for task '{task}' in {suite}")
    failed = [c for c in checks if c.failed]
    skipped = [c for c in checks if c.skipped]
    if failed:
        lines = [f"{len(failed)} of {len(checks)} hidden checks for '{task}' failed:"]
        lines += [f"- {c.title}: {c.message}" for c in failed]
        raise HiddenChecksFailed("\n".join(lines), failed)
    note = f" ({len(skipped)} skipped: need a GPU)" if skipped else ""
    print(f"All {len(checks) - len(skipped)} hidden checks for '{task}' passed{note}.")
    return True
