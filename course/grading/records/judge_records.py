"""The judge's record of each graded notebook, kept for the class report (``course.grading.report``).

``gradebook/records/<assignment>/<student>.json``: plain data only (strings, numbers, lists), each
check's verdict, weight and seconds, its message cut to a few hundred characters, the judge's error
and events, and the judge's seconds. Student-controlled text in a record is data: whoever shows it
escapes it. Written atomically (a temporary file in the same folder, then ``os.replace``), so a
reader never sees half a record. ``gradebook/records/incidents.jsonl`` (one JSON object a line:
assignment, student, kind, message) is written by the grading pipeline and read here too.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

from ...judge.results import Results

MAX_TEXT = 300  # characters of a message, an event or an error kept in a record
MAX_EVENTS = 20
_SAFE_NAME = re.compile(r"[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]{0,99}")


def records_dir(root) -> Path:
    return Path(root) / "gradebook" / "records"


DIGEST_MARK = "%"  # starts the file name of an id that is not harmless as it is; no harmless name starts so


def file_name(name: str) -> str:
    """A file name for a student or assignment id: itself where harmless, else a digest of it, marked
    with a character no harmless name starts with. (The digest once began with "_", which a harmless id
    may: an LMS student named "_" + the first 24 hex digits of a classmate's "josé" shared that
    classmate's incident file and judge record, and each grading of one emptied the other's.)"""
    name = str(name)
    if _SAFE_NAME.fullmatch(name):
        return name
    return DIGEST_MARK + hashlib.sha256(name.encode("utf-8", "replace")).hexdigest()[:32]


def _text(value, limit: int = MAX_TEXT) -> str:
    text = str(value if value is not None else "")
    return text if len(text) <= limit else text[:limit] + f" [... {len(text) - limit} characters more]"


def _number(value) -> float:
    try:
        return round(float(value), 3)
    except (TypeError, ValueError):
        return 0.0


def make(info: dict, res: Results) -> dict:
    """The record of one notebook: ``info`` is nbgrader's (assignment, student, notebook), ``res``
    the judge's results."""
    checks = [{"nodeid": _text(c.nodeid, 200), "name": _text(c.name, 200), "title": _text(c.title, 200),
               "task": _text(c.task or "", 200), "status": _text(c.status, 200), "weight": _number(c.weight),
               "seconds": _number(c.seconds), "message": _text(c.message)} for c in res.checks]
    seconds = res.judge_seconds
    return {
        "assignment": _text(info.get("assignment", ""), 200), "student": _text(info.get("student", ""), 200),
        "notebook": _text(info.get("notebook", ""), 200),
        "seed": res.seed if isinstance(res.seed, int) else None,
        "error": _text(res.error) if res.error else None,
        "events": [_text(e) for e in res.events[:MAX_EVENTS]],
        "judge_seconds": _number(seconds if seconds is not None else sum(c["seconds"] for c in checks)),
        "checks": checks,
    }


def write(folder, record: dict) -> Path:
    """``<folder>/<assignment>/<student>.json``, replaced atomically."""
    target = Path(folder) / file_name(record["assignment"]) / (file_name(record["student"]) + ".json")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".record-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(record, fh, indent=1)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def read_all(folder) -> list[dict]:
    """Every record under ``folder`` (unreadable ones are left out)."""
    out = []
    for path in sorted(Path(folder).glob("*/*.json")):
        try:
            rec = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(rec, dict) and isinstance(rec.get("checks"), list):
            out.append(rec)
    return out


def read_incidents(folder) -> list[dict]:
    """Every submission's incidents of its latest grading, whichever command graded it (its
    ``<assignment>/<student>.incidents.jsonl``, course.grading.records.incidents), and those only the pipeline
    knows (a submission it could not grade: ``incidents.jsonl``, ``incidents-K-of-N.jsonl`` of a
    sharded run, where also the lines of submissions without a file of their own are kept); lines
    that do not parse are skipped."""
    latest = submission_incidents(Path(folder).parent.parent)
    out = [{k: _text(v, 1000) for k, v in {"assignment": a, "student": s, **i}.items()}
           for (a, s), found in latest.items() for i in found]
    return [i for i in _pipeline_incidents(folder)
            if i["kind"] == "failed" or (i["assignment"], i["student"]) not in latest] + out


def message_lines(path) -> list[dict] | None:
    """The records of a JSON-lines incident file that are objects with a text ``message``; None when the file
    cannot be read. Lines that do not parse are skipped."""
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    out = []
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("message"), str):
            out.append(rec)
    return out


def submission_incidents(root) -> dict[tuple[str, str], list[dict]]:
    """Every submission's incident file under ``root``'s records: {(assignment, student): incidents}."""
    out = {}
    for target in sorted(records_dir(root).glob("*/*.incidents.jsonl")):
        records = message_lines(target)
        if records is None:
            continue
        who = (target.parent.name, target.name[:-len(".incidents.jsonl")])
        found = []
        for rec in records:
            who = (str(rec.get("assignment") or who[0]), str(rec.get("student") or who[1]))
            found.append({"kind": str(rec.get("kind", "incident")), "message": rec["message"]})
        out[who] = found
    return out



def _pipeline_incidents(folder) -> list[dict]:
    lines = []
    for path in sorted(Path(folder).glob("incidents*.jsonl")):
        try:
            lines += path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
    out = []
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            out.append({k: _text(item.get(k, ""), 1000) for k in ("assignment", "student", "kind", "message")})
    return out
