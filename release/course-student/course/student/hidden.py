"""The one call a notebook's hidden-test block makes: ``run_hidden(assignment, task, globals())``.

- Under autograde (``NBGRADER_EXECUTION=autograde``) it does nothing in the kernel: the grader
  runs the hidden checks outside the notebook, against the submission's code in a sandbox, and
  writes the verdict into this cell.
- In a student's copy it says that the hidden checks run when the work is graded: the cell's
  visible checks are what Validate runs.
- In the instructor repository (``course.judge.inprocess`` present) it runs the task's hidden checks
  on the live namespace and raises one short error listing what failed.
"""
from __future__ import annotations

import os


def run_hidden(assignment: str, task: str, namespace: dict) -> None:
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        print(f"Hidden checks for '{task}' run outside this notebook; their results are added below.")
        return
    try:
        from course.judge.inprocess import run_in_process
    except ImportError:  # a student's installation: no hidden checks here
        run_in_process = None
    if run_in_process is None or not run_in_process(assignment, task, namespace):
        print(f"Visible checks for '{task}' passed. More checks of '{task}' run when your work is graded.")
