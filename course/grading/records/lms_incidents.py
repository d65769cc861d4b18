"""What ``zip_collect`` and ``collect`` refused, per assignment:
``gradebook/records/incidents-<step>-<a>.jsonl`` (step ``zip_collect`` or ``collect``).

One JSON object a line (assignment, student, kind "intake", message), as the pipeline's incident
files, so the class report lists them (``judge_records.read_incidents``); student "" where the
upload named no usable student. Each zip_collect of an assignment replaces its file; a collect
replaces the lines of the students it looked at (``nbgrader collect --student`` keeps the others'). Autograde's
intake records a graded student's lines again as that submission's incidents (``for_student``), so
their feedback says it too.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ...plain import one_line
from . import judge_records

KIND = "intake"
STEPS = ("zip_collect", "collect")


def path(root, assignment: str, step: str = "zip_collect") -> Path:
    return judge_records.records_dir(root) / f"incidents-{step}-{judge_records.file_name(assignment)}.jsonl"


def write(root, assignment: str, found: list[tuple[str, str]], step: str = "zip_collect",
          students: set | None = None) -> Path:
    """Replace the assignment's lines with ``found``: (student or "", message) each; with ``students``,
    only the lines of those students (and of "") are replaced."""
    target = path(root, assignment, step)
    target.parent.mkdir(parents=True, exist_ok=True)
    if students is not None:
        kept = [(r.get("student", ""), r["message"]) for r in judge_records.message_lines(target) or []
                if r.get("student") and r.get("student") not in students]
        old = set(kept)  # a line kept (its student not looked at) that this step found again is not repeated
        found = kept + [f for f in found if f not in old]
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".incidents-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        for student, message in found:
            fh.write(json.dumps({"assignment": assignment, "student": student, "kind": KIND,
                                 "message": one_line(message, 500)}) + "\n")
    os.replace(tmp, target)
    return target


def append(root, assignment: str, found: list[tuple[str, str]], step: str = "zip_collect") -> Path:
    """Add ``found`` to the step's lines of ``assignment`` (written by ``write`` earlier in the same step)."""
    old = [(r.get("student", ""), r["message"]) for r in judge_records.message_lines(path(root, assignment, step)) or []]
    return write(root, assignment, old + list(found), step)


def for_student(root, assignment: str, student: str, exchange: bool = False) -> list[str]:
    """The messages zip_collect and collect recorded for this student's hand-in of ``assignment``; with
    ``exchange`` (the hand-in came through the exchange), collect's only: zip_collect's lines under an exchange
    student's id are about an LMS upload that only claims that id (red team 21), whose names and words are the
    uploader's, not the student's (``lms_collect.keep_exchange_hand_ins``)."""
    return [f"{step}: {rec['message']}" for step in (("collect",) if exchange else STEPS)
            for rec in judge_records.message_lines(path(root, assignment, step)) or []
            if rec.get("student") == student]
