"""The nbgrader preprocessors that grade untrusted submissions, one a file (as nbgrader's own are).
``course/grading/config.py`` installs them, in this order.

Sanitize pass:
- ``RepairGradeCells`` (``repair_cells.py``): every nbgrader cell's flags, points, type and locked
  source come from the gradebook; broken or duplicated metadata is dropped and deleted grade and
  solution cells are put back.
Autograde pass:
- ``StartHiddenChecks`` (``hidden_checks.py``): the submission's code, taken for the hidden suite.
- ``SafeExecute`` (``execute.py``, with ``output_budget.py``): nbgrader's Execute in the sandboxed
  kernel, with time, memory and output limits.
- ``InertOutput`` (``inert_output.py``): outputs reduced to what a browser cannot run.
- ``CapOutputSize`` (``output_caps.py``): outputs measured as they will be written, and cut.
- ``MarkForgedVerdicts`` (``forged_verdicts.py``): printed lines that imitate a verdict, marked.
- ``SanitizeStudentCells`` (``student_cells.py``): the student's markdown and raw cells made inert.
- ``JudgeHiddenChecks`` (``hidden_checks.py``): the hidden suite, run once the kernel has exited, and each
  test cell's verdict.
- ``NoteIncidents`` (``incident_notes.py``): what went wrong while grading, in a note at the top.
"""
from .execute import SafeExecute, SubmissionTimeout  # noqa: F401
from .forged_verdicts import MarkForgedVerdicts  # noqa: F401
from .hidden_checks import JudgeHiddenChecks, StartHiddenChecks, grading_seed  # noqa: F401
from .incident_notes import NoteIncidents  # noqa: F401
from .inert_output import InertOutput  # noqa: F401
from .output_caps import CapOutputSize  # noqa: F401
from .repair_cells import RepairGradeCells  # noqa: F401
from .student_cells import SanitizeStudentCells  # noqa: F401
