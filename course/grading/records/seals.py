"""What each ``nbgrader collect`` read in the exchange's inbound folders, and when:
``gradebook/records/seals-<a>.jsonl``, one JSON object a line (folder, sha256, at).

A submission's change times are no proof that its files were not rewritten later: on tmpfs a write
through a shared memory mapping made before the deadline never moves them, and on a disk file system it
moves them only at writeback (docs/security.md). The grader's own clock and the files' bytes are what a
student cannot choose: when a collect finds a folder's files different from what an earlier collect read
at time ``at``, they were written after ``at``, whatever their times say. So a collect run at the deadline
(the instructor's, or a timer's) fixes every inbound folder's content as of then. The file is the
instructor's (the course root is closed to other accounts) and only appended to.
"""
from __future__ import annotations

import json
import os

from . import judge_records


def path(root, assignment: str):
    return judge_records.records_dir(root) / f"seals-{judge_records.file_name(assignment)}.jsonl"


def read(root, assignment: str) -> list[dict]:
    """Every seal recorded for ``assignment`` (lines that do not parse are skipped)."""
    out = []
    try:
        fd = os.open(path(root, assignment), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return out
    with os.fdopen(fd, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and isinstance(rec.get("folder"), str) and isinstance(rec.get("sha256"), str) \
                    and isinstance(rec.get("at"), (int, float)):
                out.append(rec)
    return out


def add(root, assignment: str, seen: list[tuple[str, str, float]]) -> None:
    """Append one seal per (inbound folder name, digest of its files, time reading began)."""
    if not seen:
        return
    target = path(root, assignment)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        for folder, digest, at in seen:
            fh.write(json.dumps({"folder": folder, "sha256": digest, "at": at}) + "\n")


def by_folder(seals: list[dict]) -> dict[str, list[dict]]:
    """``seals`` grouped by folder name: ``changed_after`` then looks at one folder's seals only (a student
    may make many folders, each sealed at every collect: a scan of every seal for every folder read grew
    with the product of the two)."""
    out: dict[str, list[dict]] = {}
    for s in seals:
        out.setdefault(s["folder"], []).append(s)
    return out


def changed_after(seals, folder: str, digest: str) -> float | None:
    """The latest time at which ``folder``'s files were read as something other than ``digest`` (so the
    files now were written after it), or None. ``seals``: a list, or ``by_folder``'s grouping."""
    mine = seals.get(folder, ()) if isinstance(seals, dict) else [s for s in seals if s["folder"] == folder]
    times = [s["at"] for s in mine if s["sha256"] != digest]
    return max(times) if times else None
