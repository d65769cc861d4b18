"""One memory: plain ``nbgrader autograde`` (the README's block) records what it graded where the batch
reads it (``graded_record``'s ``course_graded`` table, with the batch's own fingerprint), so that the
pipeline does not grade it again; what the pipeline graded, plain ``nbgrader autograde`` skips as
nbgrader always does (an autograded folder newer than its submission), unless ``--force``.

``configure`` (course/grading/config.py) installs ``before`` and ``after`` as nbgrader's convert hooks.
Inside the pipeline's own autograde commands (``graded_record.PIPELINE_ENV`` set) they do nothing: the batch records
with the fingerprint it queued the submission with (a file changed meanwhile is graded again).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

from . import graded_record

_STARTED: dict[tuple[str, str], float] = {}


def _running():
    """The coursedir of the autograde command this process runs (None: none runs)."""
    from nbgrader.apps.autogradeapp import AutogradeApp
    return AutogradeApp.instance().coursedir if AutogradeApp.initialized() else None


def _who(notebooks) -> tuple[str, str] | None:
    """(assignment, student) of the notebooks graded: ``<...>/<student>/<assignment>/<name>.ipynb``."""
    if not notebooks:
        return None
    folder = Path(notebooks[0]).parent
    return folder.name, folder.parent.name


def before(assignment=None, student=None, notebooks=None) -> None:
    """A grading starts: the record goes, so that a grading that fails leaves none."""
    who, coursedir = _who(notebooks), _running()
    if who is None or coursedir is None or os.environ.get(graded_record.PIPELINE_ENV):
        return
    _STARTED[who] = time.monotonic()
    graded_record.forget(coursedir.db_url, *who)


def after(assignment=None, student=None, notebooks=None) -> None:
    """A grading ended well: the gradebook records it with the fingerprint the batch would compute."""
    who, coursedir = _who(notebooks), _running()
    if who is None or coursedir is None or os.environ.get(graded_record.PIPELINE_ENV):
        return
    from nbgrader.api import Gradebook

    from . import batch
    a, s = who
    root = Path(coursedir.root)
    fp = batch.fingerprint(root, a, s, batch.grading_key(a, _gpus()))
    with Gradebook(coursedir.db_url) as gb:
        sub_id = gb.find_submission(a, s).id
    graded_record.record(coursedir.db_url, a, s, submission_id=sub_id, fingerprint=fp,
                         autograded=batch.autograded_hash(root, a, s) or "",
                         seconds=time.monotonic() - _STARTED.pop(who, time.monotonic()))


def _gpus() -> int:
    """As the pipeline counts them (only whether there is one enters the fingerprint)."""
    from .gpus import count
    return count()

