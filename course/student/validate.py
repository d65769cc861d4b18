"""``nbgrader validate`` in a student's terminal says what Validate says in their JupyterLab.

nbgrader's terminal validator says "Success! Your notebook passes all the tests." although only the
visible checks ran, and cuts every line of a failure at 90 characters, hiding the value a check got.
nbgrader has no setting for the validator's class, so the student kit's ``nbgrader_config.py`` calls
``use_in_terminal()``, which points ``nbgrader validate`` at ``CourseValidator``.
"""
from __future__ import annotations

from nbconvert.filters import strip_ansi
from nbgrader.validator import Validator

# The same words as the course's JupyterLab extension (labextension/static/remoteEntry.js, MESSAGE).
SUCCESS = "Success! The visible checks pass. Hidden tests run when your work is graded."


class CourseValidator(Validator):
    """nbgrader's validator with the lab's success wording and failure lines printed in full."""

    def _indent(self, val: str) -> str:
        return "\n".join(self.indent + strip_ansi(line) for line in val.split("\n"))

    def _print_num_failed(self, num_failed: int) -> None:
        if num_failed == 0:
            self.stream.write(SUCCESS + "\n")
        else:
            super()._print_num_failed(num_failed)


def use_in_terminal() -> None:
    """Make ``nbgrader validate`` (this process) use ``CourseValidator``."""
    from nbgrader.apps import validateapp

    validateapp.Validator = CourseValidator
