"""The one call a notebook's hidden-test block makes: ``run_hidden(assignment, task, globals())``.

- Under autograde (``NBGRADER_EXECUTION=autograde``) it does nothing in the kernel: the grader
  runs the hidden checks outside the notebook, against the submission's code in a sandbox, and
  writes the verdict into this cell.
- In a student's copy it says that the hidden checks run when the work is graded: the cell's
  visible checks are what Validate runs.
- In the instructor repository it runs the task's hidden checks on the live namespace and raises
  one short error listing what failed. The runner is found as the entry point ``in_process`` of
  the group ``course.hidden_checks``, which only the instructor's package declares (pyproject.toml):
  this package imports nothing of the grader.
"""
from __future__ import annotations

import functools
import os
from importlib.metadata import entry_points

GROUP = "course.hidden_checks"


@functools.lru_cache(maxsize=1)
def _in_process_runner():
    for ep in entry_points(group=GROUP, name="in_process"):
        try:
            return ep.load()
        except ImportError:  # declared but not importable here: no hidden checks
            return None
    return None


def run_hidden(assignment: str, task: str, namespace: dict) -> None:
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        print(f"Hidden checks for '{task}' run outside this notebook; their results are added below.")
        return
    run_in_process = _in_process_runner()
    if run_in_process is None or not run_in_process(assignment, task, namespace):
        print(f"Visible checks for '{task}' passed. More checks of '{task}' run when your work is graded.")
