"""``nbgrader validate`` in a student's terminal says what Validate says in their JupyterLab.

nbgrader's terminal validator says "Success! Your notebook passes all the tests." although only the
visible checks ran, cuts every line of a failure at 90 characters, hiding the value a check got, and
exits 0 when a check fails. nbgrader has no setting for the validator's class, so the student kit's
``nbgrader_config.py`` calls ``use_in_terminal()``, which points ``nbgrader validate`` at
``CourseValidator`` and makes it exit 1 when a visible check fails or a checked cell was changed.
``private_kernel_channels(c)`` runs the notebook's kernel over Unix sockets in a private folder and keeps
torch.compile's cache in a private one.
"""
from __future__ import annotations

import os

from nbconvert.filters import strip_ansi
from nbgrader.validator import Validator

# The same words as the course's JupyterLab extension (labextension/static/remoteEntry.js, MESSAGE).
SUCCESS = "Success! The visible checks pass. Hidden tests run when your work is graded."


class CourseValidator(Validator):
    """nbgrader's validator with the lab's success wording and failure lines printed in full."""

    problems = 0  # notebooks with a failing check or a changed cell, in this process

    def _indent(self, val: str) -> str:
        return "\n".join(self.indent + strip_ansi(line) for line in val.split("\n"))

    def _print_num_failed(self, num_failed: int) -> None:
        if num_failed == 0:
            self.stream.write(SUCCESS + "\n")
        else:
            CourseValidator.problems += 1
            super()._print_num_failed(num_failed)

    def _print_num_changed(self, num_changed: int) -> None:
        CourseValidator.problems += num_changed > 0
        super()._print_num_changed(num_changed)

    def _print_num_type_changed(self, num_changed: int) -> None:
        CourseValidator.problems += num_changed > 0
        super()._print_num_type_changed(num_changed)


def use_in_terminal() -> None:
    """Make ``nbgrader validate`` (this process) use ``CourseValidator`` and exit 1 when a notebook
    fails a visible check (nbgrader exits 0)."""
    from nbgrader.apps import validateapp

    validateapp.Validator = CourseValidator
    app = validateapp.ValidateApp
    if getattr(app.start, "_course_exit_code", False):
        return
    start = app.start

    def start_then_exit_code(self):
        CourseValidator.problems = 0
        start(self)
        if CourseValidator.problems:
            self.exit(1)

    start_then_exit_code._course_exit_code = True
    app.start = start_then_exit_code


def private_kernel_channels(c) -> None:
    """The kernel Validate starts talks over Unix sockets in a folder only this account can open,
    not TCP on localhost (which any account of a shared machine can reach, and for which ipykernel
    prints "Kernel is running over TCP without encryption"). Unix sockets only: Windows keeps TCP."""
    from .private import private_folder, private_torch_cache

    private_torch_cache()
    if os.name != "posix":
        return
    c.KernelManager.transport = "ipc"
    c.KernelManager.ip = os.path.join(private_folder(), "k")
