"""A class graded end to end: the pipeline's steps, batches on N workers, the nbgrader runner, resume
(``graded_record``), a clean stop, Slurm arrays, and the bundled example submissions.

May import ``autograde/``, ``intake/``, ``report/`` and ``records/`` below it, the judge and the sandbox.
"""
