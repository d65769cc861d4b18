"""The grading pipeline, end to end, on the bundled example submissions or a class.

    python -m course.grading.pipeline [--root DIR] [--assignment A ...] [--no-examples]
        [--steps generate,autograde,feedback,export,report] [--workers N] [--shard K/N] [--db URL] [--force]

Steps (nbgrader's own commands, logged under gradebook/logs/):
1. refuse to start when the sandbox cannot be set up (unless COURSE_SANDBOX=off);
2. generate: generate_assignment (release/ and the gradebook's copy of every test cell);
3. autograde: every submission, N at a time (course.grading.class_run.batch: one progress bar, one line per
   incident, also written to gradebook/records/incidents.jsonl; a re-run skips only what the
   gradebook it writes into holds with the same submission, code and settings; --force grades all). Autograde itself grades the blank release in place of an unreadable
   notebook, from a copy: the submitted file stays (course.grading.intake.notebook_intake);
4. feedback, export (gradebook/grades.csv) and the class report; then a table of students x assignments.
Then, unless --no-examples, the same steps for the bundled example submissions (complete, blank, partly
wrong: ``ex-*``) in a course root of their own, gradebook/examples/, never in the class's gradebook.
Without a terminal, one line per graded submission replaces the progress bar. SIGINT or SIGTERM ends
every process of the run at once and prints one line (course.grading.class_run.stopping).
Grading seeds are derived from (assignment, student), so the same submission gets the same checks
whatever the number of workers, the shard, or a resume.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from ... import REPO_ROOT, TESTS_DIR
from ... import fstree
from ... import sandbox
from ... import assignments
from . import batch, course_root, proc_privacy, runner, stopping, submissions
from ..records import db_url
from ..records import judge_records
from ..intake import lms_names
from ... import settings

EXAMPLES = {"ex-complete": "reference", "ex-blank": "release", "ex-partly-wrong": "partly_wrong"}
EXAMPLE_TIMESTAMP = "2026-11-20 12:00:00.000000 UTC"  # in each example's timestamp.txt: how old ones are found


def examples_root(root: Path) -> Path:
    """The examples' own course root (gradebook, release, feedback, report), apart from the class's."""
    return root if is_examples_root(root) else root / "gradebook" / "examples"


def is_examples_root(root: Path) -> bool:
    return root.name == "examples" and root.parent.name == "gradebook"


def prepare_examples_root(root: Path, ids: list[str]) -> Path:
    """``examples_root(root)`` with the class's configuration and the source notebooks of ``ids``."""
    ex = examples_root(root)
    if ex == root:
        return ex
    ex.mkdir(parents=True, exist_ok=True)
    shutil.copy(root / "nbgrader_config.py", ex / "nbgrader_config.py")  # safe: the instructor's own file
    for a in ids:
        fstree.remove(str(ex / "source" / a))
        shutil.copytree(root / "source" / a, ex / "source" / a,  # safe: the instructor's source/
                        ignore=shutil.ignore_patterns("*.nb.py", "__pycache__", ".ipynb_checkpoints"))
    return ex


def forget_old_examples(root: Path, db: str | None) -> list[str]:
    """Examples an earlier version placed in the class itself (found by their timestamp) are taken
    out of it: their folders, records and gradebook entries. Returns their ids."""
    found = [s for s in EXAMPLES if any(t.read_text(errors="replace").strip() == EXAMPLE_TIMESTAMP
                                        for t in (root / "gradebook" / "submitted" / s).glob("*/timestamp.txt"))]
    if not found:
        return []
    from nbgrader.api import Gradebook, MissingEntry
    with Gradebook(db or db_url.default(root)) as gb:
        for s in found:
            try:
                gb.remove_student(s)
            except MissingEntry:
                pass
    for s in found:
        for top in (root / "gradebook" / "submitted", root / "autograded", root / "gradebook" / "feedback",
                    root / "gradebook" / "intake", root / "gradebook" / "rejected"):
            fstree.remove(str(top / s))
        own = {judge_records.file_name(s) + ext for ext in (".json", ".incidents.jsonl")}  # its names, no other's
        for folder in (root / "gradebook" / "records").iterdir() if (root / "gradebook" / "records").is_dir() else ():
            for name in own:
                if folder.is_dir() and not folder.is_symlink():
                    (folder / name).unlink(missing_ok=True)
    for path in (root / "gradebook" / "records").glob("incidents*.jsonl"):
        _forget_incidents(path, {(a, s) for s in found for a in assignments()})
    return found


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
        (dest / "timestamp.txt").write_text(EXAMPLE_TIMESTAMP + "\n")
        placed.append(student)
    return placed


def score_table(root: Path, assignment_ids: list[str], db: str | None = None, width: int | None = 80) -> str:
    """Students x assignments, in blocks of as many assignments as fit in ``width`` columns (each block
    repeats the student column); ``width`` None: one table, however wide."""
    from nbgrader.api import Gradebook, MissingEntry
    db = db or f"sqlite:///{root / 'gradebook' / 'gradebook.db'}"
    with Gradebook(db) as gb:
        students = sorted(s.id for s in gb.students)
        cells = {}
        for s in students:
            for a in assignment_ids:
                try:
                    sub = gb.find_submission(a, s)
                    cells[(s, a)] = f"{sub.score:.2f}/{sub.max_score:g}"
                except MissingEntry:
                    cells[(s, a)] = "-"
    first = max([len(s) for s in students] + [len("student")])
    cols = {a: 2 + max([len(a)] + [len(cells[(s, a)]) for s in students]) for a in assignment_ids}
    blocks, block = [], []
    for a in assignment_ids:
        if block and width is not None and first + sum(cols[b] for b in block) + cols[a] > width:
            blocks.append(block)
            block = []
        block.append(a)
    blocks.append(block)
    out = []
    for block in blocks:
        head = "student".ljust(first) + "".join(a.rjust(cols[a]) for a in block)
        out += ([""] if out else []) + [head, "-" * len(head)]
        out += [s.ljust(first) + "".join(cells[(s, a)].rjust(cols[a]) for a in block) for s in students]
    if len(blocks) > 1:
        out.append(f"({len(blocks)} blocks of columns to fit {width} columns; --wide prints one table)")
    for group in lms_names.lookalikes(students):  # two rows that read as one name: say which is which
        out.append(f"look-alike ids, {len(group)} students: {' / '.join(lms_names.told_apart(s) for s in group)}; "
                   "match each to the LMS by its user, never by the name")
    return "\n".join(out)


STEPS = ("generate", "autograde", "feedback", "export", "report")


def _preflight() -> int | None:
    try:
        isolated = sandbox.resolve()
    except sandbox.SandboxUnavailable as exc:
        print(f"REFUSING TO GRADE: {exc}")
        return 2
    if not isolated:
        print("WARNING: COURSE_SANDBOX=off: submissions run WITHOUT isolation and could read solutions.")
    from ...sandbox import cgroup
    cpu = cgroup.cpu_available()
    if cpu is not None:
        print(f"NOTE: CPU limits NOT enforced ({cpu}): a busy submission can slow the one graded beside it; "
              "a time-out while the machine was busy is graded again alone.")
    return None


def _gpus() -> int:
    from .gpus import count
    found = count()
    if found:
        return found
    if not settings.current().allow_cpu_grading:
        print("NOTE: no CUDA GPU here: GPU-marked checks fail (grade on a GPU node, or set "
              "COURSE_ALLOW_CPU_GRADING=1 to skip them and report them as skipped).")
    else:
        print("NOTE: no CUDA GPU here: GPU-marked checks are skipped (COURSE_ALLOW_CPU_GRADING=1).")
    return 0


def _autograde_all(root: Path, ids: list[str], students_shard: str | None, workers: int, gpus: int,
                   extra: list[str], progress: bool, db: str | None = None, force: bool = False,
                   lines: bool = False) -> int:
    """Autograde every submission of ``ids`` (this shard's students) on ``workers`` into the gradebook
    ``db``, skipping those it holds unchanged unless ``force``; failures."""
    from tqdm.auto import tqdm

    everyone = sorted({s for a in ids for s in batch.submitted_students(root, a)})
    mine = set(batch.shard(everyone, students_shard))
    todo = [(a, s) for a in ids for s in batch.submitted_students(root, a) if s in mine]
    # one file per shard: array tasks on several nodes never append to one file
    name = f"incidents-{students_shard.replace('/', '-of-')}.jsonl" if students_shard else "incidents.jsonl"
    incidents = root / "gradebook" / "records" / name
    db = db or db_url.default(root)
    plan = batch.decide(root, todo, db, gpus=gpus, force=force)
    if todo:
        print(plan.line())
    _forget_incidents(incidents, plan.pending())
    bar = tqdm(total=len(todo), desc=f"autograde ({workers} worker{'s' * (workers > 1)})", unit="sub",
               disable=not progress or not todo, dynamic_ncols=True)
    counts = {"graded": 0, "resumed": 0, "failed": 0}

    def done(res: batch.Result) -> None:
        counts["resumed" if res.skipped else "failed" if res.code else "graded"] += 1
        if lines and not res.skipped:  # no terminal for a bar: one line per submission graded
            print(f"autograde [{sum(counts.values())}/{len(todo)}] {res.assignment} {res.student}: "
                  f"{'FAILED' if res.code else 'graded'} in {res.seconds:.0f} s", flush=True)
        found = list(res.incidents) + ([{"kind": "failed", "message": f"could not be graded (exit {res.code}; see "
                                         f"gradebook/logs/{res.assignment}/{res.student}.log)"}] if res.code else [])
        with open(incidents, "a") as fh:
            for i in found:
                fh.write(json.dumps({"assignment": res.assignment, "student": res.student, **i}) + "\n")
        for i in found:
            bar.write(f"  {res.assignment}: {res.student}: {i['message']}")
        bar.update(1)

    t0 = time.monotonic()
    batch.autograde(root, todo, workers=workers, gpus=gpus, extra=extra, on_result=done, db=db, plan=plan)
    bar.close()
    if stopping.requested():  # the stop's own line says what is left
        return 0
    print(f"autograde: {counts['graded']} graded, {counts['resumed']} unchanged since an earlier run, "
          f"{counts['failed']} failed, in {time.monotonic() - t0:.0f} s on {workers} worker(s)")
    return counts["failed"]


def _forget_incidents(path: Path, regraded: set) -> None:
    """Incidents of submissions about to be graded again are dropped; the others' stay."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        return
    keep = []
    for ln in path.read_text(errors="replace").splitlines():
        try:
            rec = json.loads(ln)
            if (rec["assignment"], rec["student"]) in regraded:
                continue
        except (ValueError, KeyError, TypeError):
            continue
        keep.append(ln + "\n")
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(keep))
    os.replace(tmp, path)


def run(root: Path, only: list[str] | None, examples: bool, *, steps=STEPS, workers: int | None = None,
        shard: str | None = None, db: str | None = None, progress: bool | None = None, force: bool = False,
        wide: bool = False) -> int:
    """The class in ``root`` (and, with ``examples``, the bundled examples in their own course root,
    ``examples_root``); ``root`` an examples root: the examples only."""
    refused = _preflight()
    if refused is not None:
        return refused
    line = proc_privacy.notice()  # the machine's /proc shows the sandboxes to the other accounts: say so
    if line:
        print(line)
    gpus = _gpus()
    kw = dict(steps=steps, workers=workers or batch.default_workers(gpus), shard=shard, progress=progress,
              force=force, gpus=gpus, wide=wide)
    ids = list(only or assignments())
    if is_examples_root(root):
        return _grade(root, ids, examples, db=db, **kw)
    rc = _grade(root, ids, False, db=db, **kw)
    if examples and not stopping.requested():
        ex = prepare_examples_root(root, ids)
        print(f"\nexamples ({', '.join(EXAMPLES)}): graded apart from the class, in their own course root {ex}")
        rc = max(rc, _grade(ex, ids, True, db=None, **kw))
    return rc


def _grade(root: Path, ids: list[str], place: bool, *, steps, workers: int, shard: str | None, db: str | None,
           progress: bool | None, force: bool, gpus: int, wide: bool = False) -> int:
    """The steps for the course at ``root`` (``place``: the bundled examples put in as its class)."""
    ids = list(ids)
    db = db_url.normalize(db)
    lines = progress is None and not sys.stderr.isatty()  # no terminal: a line per submission, no bar
    progress = sys.stderr.isatty() if progress is None else progress
    extra = [f"--CourseDirectory.db_url={db}"] if db else []
    logs = root / "gradebook" / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    failures = 0
    gone = []
    if not place and "autograde" in steps:
        gone = forget_old_examples(root, db)
        if gone:
            print(f"took the bundled examples ({', '.join(gone)}) out of this class's gradebook: they are graded "
                  f"apart now, in {examples_root(root)}")
    if "generate" in steps:
        for a in list(ids):
            if stopping.requested():
                break
            log = logs / f"{a}.log"
            log.write_text("")
            if nbgrader(root, "generate_assignment", a, "--force", *extra, log=log):
                print(f"{a}: generate_assignment failed (see {log})")
                failures += 1
                ids.remove(a)
            elif place:
                place_examples(root, a)
    if stopping.requested():
        return _stopped(root, ids, shard, db, gpus)
    if not place and not any(batch.submitted_students(root, a) for a in ids) and "generate" in steps:
        print(f"class: no submissions in {root / 'gradebook' / 'submitted'} yet (release/ holds what students get)")
        if gone:  # the export and report the old examples were in, renewed without them
            nbgrader(root, "export", "--to", str(root / "gradebook" / "grades.csv"), *extra, log=logs / "export.log")
            _report(root, db)
        return 1 if failures else 0
    if "autograde" in steps:
        _sqlite_wal(root, db)
        failures += _autograde_all(root, ids, shard, workers, gpus, extra, progress, db, force, lines)
    if stopping.requested():
        return _stopped(root, ids, shard, db, gpus)
    if "feedback" in steps:
        for a in ids:
            if stopping.requested():
                return _stopped(root, ids, shard, db, gpus)
            if nbgrader(root, "generate_feedback", a, "--force", *extra, log=logs / f"{a}.log"):
                print(f"{a}: generate_feedback failed (see {logs / f'{a}.log'})")
                failures += 1
    if "export" in steps:
        nbgrader(root, "export", "--to", str(root / "gradebook" / "grades.csv"), *extra, log=logs / "export.log")
    if "report" in steps:
        _report(root, db)
    if "export" in steps:
        print()
        print(score_table(root, ids, db, width=None if wide else 80))
        print(f"\ngradebook: {db_url.shown(db) if db else root / 'gradebook' / 'gradebook.db'}   grades: {root / 'gradebook' / 'grades.csv'}"
              f"   feedback: {root / 'gradebook' / 'feedback'}")
    if stopping.requested():
        return _stopped(root, ids, shard, db, gpus)
    return 1 if failures else 0


def _stopped(root: Path, ids: list[str], shard: str | None, db: str | None, gpus: int) -> int:
    """After SIGINT or SIGTERM: nothing of the run left running, one line, 128 + the signal."""
    stopping.end_children()
    everyone = sorted({s for a in ids for s in batch.submitted_students(root, a)})
    mine = set(batch.shard(everyone, shard))
    todo = [(a, s) for a in ids for s in batch.submitted_students(root, a) if s in mine]
    try:
        left = len(batch.decide(root, todo, db or db_url.default(root), gpus=gpus).pending()) if todo else 0
    except Exception:  # the gradebook cannot say: count none as graded
        left = len(todo)
    print(f"stopped: {len(todo) - left} graded, {left} left; run the same command again to finish", flush=True)
    return stopping.exit_code()


def _sqlite_wal(root: Path, db: str | None) -> None:
    """Several autograde processes write the SQLite gradebook at once: WAL lets readers go on during
    a write, and each writer waits its turn (nbgrader's transactions are short)."""
    if db and not db.startswith("sqlite"):
        return
    import sqlite3
    path = db.split("sqlite:///", 1)[1] if db else str(root / "gradebook" / "gradebook.db")
    with sqlite3.connect(path, timeout=60) as con:
        con.execute("PRAGMA journal_mode=WAL")


def _report(root: Path, db: str | None) -> None:
    try:
        from ..report import page as report
    except ImportError:
        return
    try:
        print(f"class report: {report.write(root, db)}")
    except Exception as exc:  # the grades are already safe in the gradebook
        print(f"class report could not be written: {type(exc).__name__}: {exc}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.grading.pipeline")
    ap.add_argument("--root", type=Path, default=REPO_ROOT, help="course root (default: this repository)")
    ap.add_argument("--assignment", action="append", help="only these assignments")
    ap.add_argument("--no-examples", dest="examples", action="store_false",
                    help="grade what is in gradebook/submitted/ without adding the bundled examples")
    ap.add_argument("--steps", default=",".join(STEPS),
                    help=f"comma-separated steps to run, of {','.join(STEPS)} (default: all)")
    ap.add_argument("--workers", type=int, default=None,
                    help="submissions graded at once (default: the cores, or GPUs x COURSE_SLOTS_PER_GPU)")
    ap.add_argument("--shard", default=None, metavar="K/N",
                    help="autograde only the students whose index in the sorted class list is K mod N")
    ap.add_argument("--db", default=None, help="gradebook URL (default: sqlite:///<root>/gradebook/gradebook.db)")
    ap.add_argument("--force", action="store_true",
                    help="grade every submission again, also those this gradebook holds unchanged")
    ap.add_argument("--no-progress", dest="progress", action="store_false", default=None,
                    help="no progress bar (it is shown only on a terminal anyway)")
    ap.add_argument("--wide", action="store_true",
                    help="print the score table as one table, however wide (default: blocks that fit 80 columns)")
    args = ap.parse_args(argv)
    steps = [s.strip() for s in args.steps.split(",") if s.strip()]
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        ap.error(f"unknown step(s) {unknown}; choose from {','.join(STEPS)}")
    try:
        batch.shard([], args.shard)
    except ValueError as exc:
        ap.error(str(exc))
    try:  # the course root is the instructor's alone (class_run/course_root.py)
        course_root.make_private(str(args.root.resolve()), say=print)
    except course_root.OpenCourseRoot as exc:
        ap.exit(1, f"{exc}\n")
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.stdout.reconfigure(line_buffering=True)  # each line as it comes, also into a log file
    args.db, password, env = db_url.without_password(args.db)  # no password on the commands this run starts
    moved = db_url.take_moved(args.db)[1] if password is None else None  # the entry point moved it already
    if moved:
        print(db_url.NOTICE.format(env=moved))
    if password is not None:
        os.environ[env] = password  # the nbgrader commands and the runner inherit it; sandboxes do not (an allow-list)
        print(db_url.NOTICE.format(env=env))
    stopping.install()  # Ctrl-C / SIGTERM: every process of the run ended, one line, exit 130 / 143
    return run(args.root.resolve(), args.assignment, args.examples, steps=steps, workers=args.workers,
               shard=args.shard, db=args.db, progress=args.progress, force=args.force, wide=args.wide)


if __name__ == "__main__":
    raise SystemExit(main())
