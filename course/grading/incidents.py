"""What went wrong while one submission was graded, as records: a file set aside, a notebook graded as
blank, a graded cell restored or demoted, a kernel stopped, the hidden checks' error and events.

Each grading step that meets one calls ``report`` (or ``record`` when it has logged the line
itself): the grading log gets the line for people, and
``gradebook/records/<assignment>/<student>.incidents.jsonl`` gets ``{"kind", "message"}`` for the
batch, which takes them after the submission's command (``take``) into the class's incident list and
report. Nothing here ever stops grading: a record that cannot be written is only logged.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..plain import one_line
from . import judge_records

INTAKE, REPAIRED, KERNEL, JUDGE = "intake", "repaired", "kernel", "judge"


def path(root, assignment: str, student: str) -> Path:
    return (judge_records.records_dir(root) / judge_records.file_name(assignment)
            / (judge_records.file_name(student) + ".incidents.jsonl"))


def course_root(step) -> str | None:
    """The course root of the nbgrader command running ``step`` (a preprocessor: its converter's
    CourseDirectory); None when no nbgrader command runs it (a test driving the step directly)."""
    owner = getattr(step, "parent", None)
    while owner is not None:
        coursedir = getattr(owner, "coursedir", None)
        if coursedir is not None and getattr(coursedir, "root", None):
            return str(coursedir.root)
        owner = getattr(owner, "parent", None)
    return None


def record(root, assignment: str, student: str, kind: str, message: str, log=None) -> None:
    if not root or not assignment or not student:
        return
    if message.startswith(f"{student}: "):
        message = message[len(student) + 2:]
    try:
        target = path(root, assignment, student)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"kind": kind, "message": one_line(message, 500)}) + "\n")
    except OSError as exc:
        if log is not None:
            log.warning("an incident of %s was not recorded: %s", one_line(student, 80), exc)


def report(log, root, assignment: str, student: str, kind: str, message: str) -> None:
    """Log ``student: message`` as a warning and record it."""
    log.warning("%s: %s", student, message)
    record(root, assignment, student, kind, message, log)


def take(root, assignment: str, student: str) -> list[dict]:
    """The submission's incidents since the last ``take`` (the file is removed); unreadable lines are
    skipped."""
    target = path(root, assignment, student)
    try:
        lines = target.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    try:
        os.unlink(target)
    except OSError:
        pass
    out = []
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("message"), str):
            out.append({"kind": str(rec.get("kind", "incident")), "message": rec["message"]})
    return out
