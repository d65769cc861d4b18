"""What went wrong while one submission was graded, as records: a file set aside, a notebook graded as
blank or under another name, a graded cell restored or demoted, a kernel stopped, the hidden checks'
error and events.

Each grading step that meets one calls ``report`` (or ``record`` when it has logged the line
itself): the grading log gets the line for people, and
``gradebook/records/<assignment>/<student>.incidents.jsonl`` gets ``{"assignment", "student", "kind",
"message"}``. That file holds the incidents of the submission's latest grading, whichever command
graded it (``nbgrader autograde`` itself or the pipeline): autograde empties it when it starts on the
submission (``clear``), the student's feedback lists them (``preprocessors.incident_notes``), and the
class report reads every such file (``judge_records.read_incidents``). ``noted``: the step has already
told the student in the notebook. Nothing here ever stops grading: a record that cannot be written is
only logged.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from ...plain import one_line
from . import judge_records

INTAKE, REPAIRED, KERNEL, JUDGE = "intake", "repaired", "kernel", "judge"
STARVED = "starved"  # a time-out while the machine was overloaded: the batch grades it again alone
NO_KERNEL = "no kernel"  # the kernel did not start or answer in time, before any cell ran: graded again alone
GRADER = "grader"  # the grading process itself raised before the judge ran (not the submission): graded again alone
GRADE_ALONE = (STARVED, NO_KERNEL, GRADER)  # the grader's load or its own fault: the batch grades it again alone
REGRADED = "regraded"
# Set by the batch for a grading again alone: why. The grading records it (REGRADED), so that the
# feedback and the class report say so.
REGRADE_ENV = "COURSE_REGRADE_REASON"


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


def record(root, assignment: str, student: str, kind: str, message: str, log=None, noted: bool = False) -> None:
    if not root or not assignment or not student:
        return
    if message.startswith(f"{student}: "):
        message = message[len(student) + 2:]
    rec = {"assignment": assignment, "student": student, "kind": kind, "message": one_line(message, 500)}
    try:
        target = path(root, assignment, student)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({**rec, "noted": True} if noted else rec) + "\n")
    except OSError as exc:
        if log is not None:
            log.warning("an incident of %s was not recorded: %s", one_line(student, 80), exc)


def report(log, root, assignment: str, student: str, kind: str, message: str) -> None:
    """Log ``student: message`` as a warning and record it."""
    log.warning("%s: %s", student, message)
    record(root, assignment, student, kind, message, log)


def clear(root, assignment: str, student: str) -> None:
    """A grading of the submission starts: its file is emptied (and kept: it now says "graded, nothing
    went wrong" until a step records something)."""
    try:
        target = path(root, assignment, student)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("", encoding="utf-8")
    except OSError:
        pass


def read(root, assignment: str, student: str) -> list[dict] | None:
    """The submission's incidents of its latest grading, ``{"kind", "message"}`` (+ ``"noted"``);
    None when no grading since this file existed left one; unreadable lines are skipped."""
    records = judge_records.message_lines(path(root, assignment, student))
    if records is None:
        return None
    return [{"kind": str(rec.get("kind", "incident")), "message": rec["message"],
             **({"noted": True} if rec.get("noted") is True else {})} for rec in records]


def read_all(root) -> dict[tuple[str, str], list[dict]]:
    """Every submission's incident file under ``root``'s records: {(assignment, student): incidents}."""
    return judge_records.submission_incidents(root)


def take(root, assignment: str, student: str) -> list[dict]:
    """The submission's incidents (``read``; the file stays for the feedback and the report)."""
    return read(root, assignment, student) or []
