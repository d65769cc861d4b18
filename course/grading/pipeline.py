"""The grading pipeline, end to end, on the bundled example submissions.

    python -m course.grading.pipeline [--root DIR] [--assignment A ...] [--examples | --no-examples]

Steps (each one nbgrader command, logged under gradebook/logs/):
1. refuse to start when the sandbox cannot be set up (unless COURSE_SANDBOX=off);
2. generate_assignment: release/ and the gradebook's copy of every test cell;
3. put the example submissions in gradebook/submitted/ (complete, blank, partly wrong);
4. autograde (which sets aside unreadable notebooks and grades the blank release in their place,
   see course.grading.notebook_intake), generate_feedback, export to gradebook/grades.csv;
5. print a table of students x assignments.
Re-running is safe: every step overwrites its own output, and grading seeds are derived from
(assignment, student), so the same submission gets the same checks.
"""
from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

from .. import REPO_ROOT, TESTS_DIR
from ..sandbox import fstree
from .. import sandbox
from .. import assignments
from . import runner, submissions

# Warning lines of the grading log that the run's summary repeats (one per incident).
INCIDENT_WORDS = ("restored", "stopped", "timeout", "died", "demoted", "set aside", "graded as", "is missing")
EXAMPLES = {"ex-complete": "reference", "ex-blank": "release", "ex-partly-wrong": "partly_wrong"}


def nbgrader(root: Path, *args: str, log: Path) -> int:
    return runner.nbgrader(root, list(args), log)


def place_examples(root: Path, assignment: str) -> list[str]:
    nb_name = submissions.release_notebook(assignment).name
    placed = []
    for student, kind in EXAMPLES.items():
        dest = root / "gradebook" / "submitted" / student / assignment
        fstree.remove(str(dest))
        dest.mkdir(parents=True)
        if kind == "release":
            shutil.copy(submissions.release_notebook(assignment), dest / nb_name)  # safe: dest re-made just above; never sandbox-visible
        elif kind == "reference":
            import nbformat
            nbformat.write(submissions.reference(assignment), dest / nb_name)
        else:
            spec = TESTS_DIR / "submissions" / assignment / f"{kind}.py"
            if not spec.exists():
                fstree.remove(str(dest.parent))
                continue
            submissions.write(spec, dest / nb_name)
        (dest / "timestamp.txt").write_text("2026-11-20 12:00:00.000000 UTC\n")
        placed.append(student)
    return placed


def score_table(root: Path, assignment_ids: list[str]) -> str:
    from nbgrader.api import Gradebook, MissingEntry
    db = f"sqlite:///{root / 'gradebook' / 'gradebook.db'}"
    with Gradebook(db) as gb:
        students = sorted(s.id for s in gb.students)
        width = max([len(s) for s in students] + [8])
        head = "student".ljust(width) + "".join(f"  {a:>12}" for a in assignment_ids)
        rows = [head, "-" * len(head)]
        for s in students:
            cells = []
            for a in assignment_ids:
                try:
                    sub = gb.find_submission(a, s)
                    cells.append(f"{sub.score:6.2f}/{sub.max_score:<5g}")
                except MissingEntry:
                    cells.append("-")
            rows.append(s.ljust(width) + "".join(f"  {c:>12}" for c in cells))
    return "\n".join(rows)


def run(root: Path, only: list[str] | None, examples: bool) -> int:
    t0 = time.monotonic()
    try:
        isolated = sandbox.resolve()
    except sandbox.SandboxUnavailable as exc:
        print(f"REFUSING TO GRADE: {exc}")
        return 2
    if not isolated:
        print("WARNING: COURSE_SANDBOX=off: submissions run WITHOUT isolation and could read solutions.")
    import torch
    if not torch.cuda.is_available():
        if os.environ.get("COURSE_ALLOW_CPU_GRADING", "") in ("", "0"):
            print("NOTE: no CUDA GPU here: GPU-marked checks fail (grade on a GPU node, or set "
                  "COURSE_ALLOW_CPU_GRADING=1 to skip them and report them as skipped).")
        else:
            print("NOTE: no CUDA GPU here: GPU-marked checks are skipped (COURSE_ALLOW_CPU_GRADING=1).")
    logs = root / "gradebook" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    ids = only or assignments()
    failures = 0
    for a in ids:
        log = logs / f"{a}.log"
        log.write_text("")
        if nbgrader(root, "generate_assignment", a, "--force", log=log):
            print(f"{a}: generate_assignment failed (see {log})")
            failures += 1
            continue
        if examples:
            place_examples(root, a)
        rc = nbgrader(root, "autograde", a, "--force", log=log)
        rc |= nbgrader(root, "generate_feedback", a, "--force", log=log)
        incidents = [ln.strip() for ln in log.read_text().splitlines()
                     if "WARNING" in ln and (": " in ln) and any(w in ln for w in INCIDENT_WORDS)
                     or "hidden checks could not run" in ln]
        for ln in incidents:
            print(f"  {a}: {ln.split('] ', 1)[-1].strip()}")
        if rc:
            print(f"{a}: some submissions could not be graded (see {log}); the rest were")
            failures += 1
        print(f"{a}: graded ({time.monotonic() - t0:.0f} s so far)")
    nbgrader(root, "export", "--to", str(root / "gradebook" / "grades.csv"), log=logs / "export.log")
    print()
    print(score_table(root, ids))
    print(f"\ngradebook: {root / 'gradebook' / 'gradebook.db'}   grades: {root / 'gradebook' / 'grades.csv'}   "
          f"feedback: {root / 'gradebook' / 'feedback'}")
    return 1 if failures else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.grading.pipeline")
    ap.add_argument("--root", type=Path, default=REPO_ROOT, help="course root (default: this repository)")
    ap.add_argument("--assignment", action="append", help="only these assignments")
    ap.add_argument("--no-examples", dest="examples", action="store_false",
                    help="grade what is in gradebook/submitted/ without adding the bundled examples")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    return run(args.root.resolve(), args.assignment, args.examples)


if __name__ == "__main__":
    raise SystemExit(main())
