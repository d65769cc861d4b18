"""nbgrader preprocessors for grading untrusted submissions, one per file (as nbgrader's own are):

Sanitize pass:
- ``RepairGradeCells`` (``repair_cells.py``): every nbgrader cell's flags, points, type and locked
  source come from the gradebook; broken or duplicated metadata is dropped and deleted grade and
  solution cells are put back.
Autograde pass:
- ``SafeExecute`` (``execute.py``): nbgrader's Execute in the sandboxed kernel, with limits.
- ``StartHiddenChecks`` and ``JudgeHiddenChecks`` (``hidden_checks.py``): the hidden suite, run outside
  the kernel at the same time, and each test cell's verdict.
- ``InertOutput``, ``CapOutputSize``, ``LimitOutput`` (``inert_output.py``, ``output_caps.py``).
This module only gathers the names ``config.py`` installs.
"""
from .execute import SafeExecute, SubmissionTimeout  # noqa: F401
from .hidden_checks import JudgeHiddenChecks, StartHiddenChecks, grading_seed  # noqa: F401
from .repair_cells import RepairGradeCells  # noqa: F401
