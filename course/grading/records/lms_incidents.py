"""What ``zip_collect`` refused, per assignment: ``gradebook/records/incidents-zip_collect-<a>.jsonl``.

One JSON object a line (assignment, student, kind "intake", message), as the pipeline's incident
files, so the class report lists them (``judge_records.read_incidents``); student "" where the
upload named no usable student. Each zip_collect of an assignment replaces its file. Autograde's
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


def path(root, assignment: str) -> Path:
    return judge_records.records_dir(root) / f"incidents-zip_collect-{judge_records.file_name(assignment)}.jsonl"


def write(root, assignment: str, found: list[tuple[str, str]]) -> Path:
    """Replace the assignment's lines with ``found``: (student or "", message) each."""
    target = path(root, assignment)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".incidents-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        for student, message in found:
            fh.write(json.dumps({"assignment": assignment, "student": student, "kind": KIND,
                                 "message": one_line(message, 500)}) + "\n")
    os.replace(tmp, target)
    return target


def for_student(root, assignment: str, student: str) -> list[str]:
    """The messages zip_collect recorded for this student's upload of ``assignment``."""
    return [f"zip_collect: {rec['message']}" for rec in judge_records.message_lines(path(root, assignment)) or []
            if rec.get("student") == student]
