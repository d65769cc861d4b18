"""The one call a notebook's hidden-test block makes: ``run_hidden(assignment, task, globals())``.

- Under autograde (``NBGRADER_EXECUTION=autograde``) it does nothing in the
  kernel: the grader runs the same checks outside the notebook, against the
  submission's code in a sandbox, and writes the verdict into this cell.
- Anywhere else (an instructor running the source notebook, ``nbgrader
  validate`` on a source notebook) it runs the task's checks from
  ``tests/<assignment>/`` against the live namespace and raises one short
  AssertionError listing what failed. Output and warnings are captured, so
  nothing reaches stderr.
"""
from __future__ import annotations

import contextlib
import io
import os
import warnings


class HiddenChecksFailed(AssertionError):
    pass


def run_hidden(assignment: str, task: str, namespace: dict) -> None:
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        print(f"Hidden checks for '{task}' run outside this notebook; their results are added below.")
        return
    from . import TESTS_DIR
    suite = TESTS_DIR / assignment
    if not suite.is_dir():
        print(f"Hidden checks for '{task}' are not available here (no {suite}); they run when grading.")
        return

    import pytest

    from . import pytest_plugin
    from .student import InProcessStudent
    from .pytest_plugin import probe_sources

    captured = io.StringIO()
    pytest_plugin.IN_PROCESS_STUDENT = InProcessStudent(namespace, probe_sources(assignment))
    import json
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
                             "--import-mode=importlib", "--task", task, "--results-json", out,
                             "-o", "addopts=", "-W", "ignore"])
        finally:
            os.chdir(cwd)
            pytest_plugin.IN_PROCESS_STUDENT = None
        data = json.load(open(out)) if os.path.exists(out) else {"checks": []}
    checks = [c for c in data["checks"] if c["task"] == task]
    if not checks:
        raise HiddenChecksFailed(f"no hidden checks found for task '{task}' in {suite}")
    failed = [c for c in checks if c["status"] == "failed"]
    skipped = [c for c in checks if c["status"] == "skipped"]
    if failed:
        lines = [f"{len(failed)} of {len(checks)} hidden checks for '{task}' failed:"]
        lines += [f"- {c['title']}: {c['message']}" for c in failed]
        raise HiddenChecksFailed("\n".join(lines))
    note = f" ({len(skipped)} skipped: need a GPU)" if skipped else ""
    print(f"All {len(checks) - len(skipped)} hidden checks for '{task}' passed{note}.")
