"""Grading: nbgrader's commands made safe for untrusted submissions, from hand-in to class report.

Rooms, from the top floor down (each may import only the floors below it; `lint-imports` checks):

- ``config.py``: what ``nbgrader_config.py`` installs into nbgrader (preprocessors, intake, exporter).
- ``pipeline.py``, ``cluster.py``: entry points kept where users call them (``python -m``).
- ``class_run/``: a class graded end to end: batches, workers, resume, stop, Slurm, the examples.
- ``intake/``: every byte a student hands in enters here (exchange, LMS download, submitted/ to
  autograded/), and feedback leaves here; ``autograde/``: what happens to one notebook (the
  sandboxed kernel and the preprocessors); ``report/``: the class's outputs (page, plots, CSV).
  These three never import each other; intake and report never reach the sandbox.
- ``records/``: what grading leaves behind for later steps to read (incidents, the judge's records).
"""
