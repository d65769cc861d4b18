"""Autograde a batch of submissions on N workers, with one progress bar, and resume after a kill.

Each worker is a thread that owns one nbgrader runner process (and so one judge server) and runs
``nbgrader autograde <assignment> --student=<id> --force`` for one submission at a time; every
submission still gets its own fresh kernel sandbox and judge session. On a GPU node worker i sees
one GPU (``CUDA_VISIBLE_DEVICES``), several workers sharing a GPU when slots per GPU > 1.

CPU: each worker's sandboxes (kernels, judge workers, zygotes) share one cgroup slice with a quota of
cores/workers (``cgroup.Slice``), so a submission that starts many busy processes slows only its own
worker. A submission that timed out while starved (``course.sandbox.cputime``: it wanted CPU, got less
than its share, and none was idle) is graded again after the batch, one at a time, on a worker of its
own with the whole machine; that result replaces the first, and the first's time-out is one line.

Resume: the gradebook is the truth. When a submission's command succeeds, the gradebook it went
into records its fingerprint (the submitted files, the grading code, every setting that changes a
score: course/grading/class_run/graded_record.py). A later run skips a submission only when the gradebook it
writes into holds its grade for the same fingerprint and its autograded files are the ones that
grading left; ``force`` grades all. ``gradebook/progress/<a>/<student>.json`` only records how long
the grading took (make bench reads it). Seeds are derived from (assignment, student), so a resumed
class gets the same scores.
"""
from __future__ import annotations

import hashlib
import json
import os
import queue
import stat
import sys
import threading
import time
from dataclasses import dataclass, field, fields
from importlib import metadata
from pathlib import Path

from ... import REPO_ROOT, TESTS_DIR
from ... import settings
from ...sandbox import cgroup, cputime
from . import graded_record, runner, stopping
from ..records import incidents

GIB = 1 << 30


@dataclass
class Result:
    assignment: str
    student: str
    code: int = 0
    seconds: float = 0.0
    skipped: bool = False  # graded by an earlier run, unchanged since
    incidents: list[dict] = field(default_factory=list)  # {"kind", "message"} (course.grading.records.incidents)


def default_workers(gpus: int = 0) -> int:
    """Workers for this node: GPUs x COURSE_SLOTS_PER_GPU on a GPU node, else one per two cores (a
    submission's kernel and judge run side by side, so one worker keeps two cores busy: on 2 cores a
    second worker measured 0.95x); at most one per 3 GiB of memory (runner, judge, kernel and worker
    together take about 1.5 GiB)."""
    if settings.current().workers:
        return max(1, settings.current().workers)
    cores = len(os.sched_getaffinity(0))
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    want = gpus * settings.current().slots_per_gpu if gpus else cores // 2
    return max(1, min(want, cores // 2, memory // (3 * GIB)))


def worker_memory(share: float) -> int:
    """The memory all sandboxes of one worker may hold together: its ``share`` of the node's memory
    less what the grader itself keeps (runner and judge server, about 1.5 GiB a worker), so that hostile
    submissions on every worker at once cannot push the node into its own out-of-memory killer (which
    could stop another worker's grading); never below one sandbox's cap."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    reserve = 2 * GIB + int(1.5 * GIB / max(share, 1e-3))
    one = settings.current().memory_limit_mb * 2**20
    return max(one, int((memory - reserve) * share))


def _hash_tree(h, folder: Path, suffixes: tuple[str, ...] = ()) -> None:
    """Names and contents of the files under ``folder`` (only ``suffixes`` when given; caches never).
    Read through folder descriptors: a submission's tree may be deeper than PATH_MAX under the course root
    (red team 17: a whole path raised ENAMETOOLONG here, and ``decide`` stopped the run for the class)."""
    top = os.fspath(folder)
    for dirpath, dirnames, filenames, dirfd in os.fwalk(top, follow_symlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not (suffixes and (d.startswith(".") or d == "__pycache__")))
        rel = dirpath[len(top):].lstrip(os.sep)
        for name in sorted(filenames):
            if suffixes and not name.endswith(suffixes):
                continue
            h.update(os.path.join(rel, name).encode("utf-8", "surrogateescape") + b"\0")
            try:
                fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dirfd)
            except OSError:  # a link (O_NOFOLLOW), or gone
                h.update(b"<not a file>\0")
                continue
            with os.fdopen(fd, "rb") as fh:  # safe: read only, the instructor's submitted/ copy
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    h.update(b"<not a file>\0")
                    continue
                # each file's bytes with their count: without it, bytes moved from one file into the one
                # before it ("a" = X, "b" = Y against "a" = X + b"b\0" + Y) hashed the same, so a changed
                # submission kept the grade of the one before it (red team 13)
                sub = hashlib.sha256()
                for block in iter(lambda: fh.read(1 << 20), b""):
                    sub.update(block)
            h.update(sub.digest())


# Settings that change only how fast or how parallel grading goes, or which uid a sandbox gets,
# never a score. Every other setting is part of the fingerprint, so a new one counts until it is
# listed here.
NOT_SCORING = frozenset({"workers", "slots_per_gpu", "only", "spare_kernel", "spare_zygote", "forkserver",
                         "judge_server", "nbgrader_runner", "sandbox_uids"})


def scoring_settings(gpus: int = 0) -> str:
    """Besides the code, what a score depends on: each setting not in NOT_SCORING (time-outs,
    limits, sandbox, CPU grading, seed salt, ...), whether a GPU graded it, and the versions of
    Python, PyTorch and nbgrader."""
    now = settings.current()
    parts = {f.name: getattr(now, f.name) for f in fields(now) if f.name not in NOT_SCORING}
    parts["cuda"] = bool(gpus)
    parts["python"] = sys.version
    for package in ("torch", "nbgrader"):
        try:
            parts[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            parts[package] = None
    return json.dumps(parts, sort_keys=True)


def grading_key(assignment: str, gpus: int = 0) -> str:
    """What the scores depend on besides the submission: the course code, the hidden suite, the
    source notebooks, the configuration and the settings that change scores."""
    h = hashlib.sha256(settings.current().seed_salt.encode())
    h.update(scoring_settings(gpus).encode())
    for folder in (REPO_ROOT / "course", TESTS_DIR / assignment, REPO_ROOT / "source" / assignment):
        if folder.is_dir():
            _hash_tree(h, folder, (".py", ".ipynb", ".json"))
    h.update((REPO_ROOT / "nbgrader_config.py").read_bytes())
    return h.hexdigest()


def fingerprint(root: Path, assignment: str, student: str, key: str) -> str:
    h = hashlib.sha256(key.encode())
    _hash_tree(h, root / "gradebook" / "submitted" / student / assignment)
    return h.hexdigest()


def _marker(root: Path, assignment: str, student: str) -> Path:
    return root / "gradebook" / "progress" / assignment / f"{student}.json"


def autograded_hash(root: Path, assignment: str, student: str) -> str | None:
    """What ``nbgrader autograde`` left in autograded/<student>/<assignment>/ (None: nothing)."""
    folder = root / "autograded" / student / assignment
    if not folder.is_dir():
        return None
    h = hashlib.sha256()
    _hash_tree(h, folder)
    return h.hexdigest()


NEW, CHANGED, NO_COPY, FORCED = ("not graded in this gradebook", "changed since (submission, code or settings)",
                                 "autograded copy missing or replaced", "forced (--force)")


@dataclass
class Plan:
    """A run's decision: each submission's fingerprint, and why it is graded (None: skipped)."""
    db: str
    fingerprints: dict
    why: dict

    def pending(self) -> set:
        return {p for p, reason in self.why.items() if reason is not None}

    def line(self) -> str:
        """The decision in one line: how many are skipped and why, and why the others are graded."""
        from ..records import db_url
        skipped = sum(reason is None for reason in self.why.values())
        counts: dict[str, int] = {}
        for reason in self.why.values():
            if reason is not None:
                counts[reason] = counts.get(reason, 0) + 1
        grading = f"grading {len(self.why) - skipped}" + (
            ": " + ", ".join(f"{n} {reason}" for reason, n in counts.items()) if counts else "")
        if not skipped:
            return f"autograde: {grading}"
        return (f"autograde: skipped {skipped} of {len(self.why)} already graded in {db_url.shown(self.db)} with "
                f"the same submission, code and settings (--force regrades them); {grading}")


def decide(root: Path, todo: list[tuple[str, str]], db: str, *, gpus: int = 0, force: bool = False) -> Plan:
    """Which of ``todo`` to grade: all with ``force``; else those whose grade the gradebook ``db``
    does not hold for the same fingerprint, or whose autograded files are not the ones it left."""
    from nbgrader.api import Gradebook, MissingEntry
    keys = {a: grading_key(a, gpus) for a in {a for a, _ in todo}}
    fps = {(a, s): fingerprint(root, a, s, keys[a]) for a, s in todo}
    if force or not todo:
        return Plan(db, fps, {p: FORCED for p in todo})
    if "submitted_assignment" not in graded_record.tables(db):  # a new gradebook: nothing graded in it
        return Plan(db, fps, {p: NEW for p in todo})
    why = {}
    held = graded_record.rows(db, todo)
    with Gradebook(db) as gb:
        for a, s in todo:
            row = held.get((a, s))
            try:
                sub = gb.find_submission(a, s)
                whole = {nb.name for nb in sub.notebooks} == {nb.name for nb in sub.assignment.notebooks}
                holds = row is not None and row["submission_id"] == sub.id and whole
            except MissingEntry:
                holds = False
            why[(a, s)] = (NEW if not holds else CHANGED if row["fingerprint"] != fps[(a, s)]
                           else NO_COPY if row["autograded"] != autograded_hash(root, a, s) else None)
    return Plan(db, fps, why)


def _mark_done(root: Path, assignment: str, student: str, fp: str, seconds: float) -> None:
    path = _marker(root, assignment, student)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"fingerprint": fp, "seconds": round(seconds, 2), "at": time.time()}))
    os.replace(tmp, path)


class Worker:
    """One thread's nbgrader runner (started on first use, restarted if it dies) and environment."""

    def __init__(self, index, gpus: int, cores: float | None = None, alone: bool = False):
        """``cores``: the CPU its sandboxes share (a cgroup slice with that quota, where cgroups allow
        it; default: all); ``alone``: it grades submissions again with nothing beside them."""
        from ... import tool_env
        self.env = tool_env()
        if gpus:
            self.env["CUDA_VISIBLE_DEVICES"] = str(index % gpus) if isinstance(index, int) else "0"
        total = float(len(os.sched_getaffinity(0)))
        cores = cores or total
        self.slice = cgroup.Slice.create(f"slice{index}", cores, worker_memory(cores / total))
        self.env[cputime.SHARE_ENV] = f"{cores:g}"
        self.env.update(self.slice.env() if self.slice is not None else {})
        if alone:
            self.env[cputime.ALONE_ENV] = "1"
        self.env[graded_record.PIPELINE_ENV] = "1"  # the batch records what it graded (_record)
        self.runner: runner.Runner | None = None

    def start(self, root: Path | None = None, assignment: str | None = None) -> None:
        """Start the runner and its judge server before the first submission (the first of a batch is
        then no slower than the rest; ``assignment``: the first one's); restart them if they died."""
        if not settings.current().nbgrader_runner or stopping.requested():
            return
        if self.runner is None or not self.runner.alive():
            try:
                self.runner = runner.Runner(self.env)
            except Exception:
                self.runner = None
                return
            self.runner.warm(self.env, cwd=str(root) if root else None, assignment=assignment)

    def nbgrader(self, root: Path, args: list[str], log: Path, more: bool | str = True) -> int:
        self.start(root, args[1] if args[:1] == ["autograde"] and len(args) > 1 else None)
        return runner.nbgrader(root, args, log, env=self.env, use=self.runner or False, more=more)

    def close(self) -> None:
        if self.runner is not None:
            self.runner.close()
        if self.slice is not None:
            self.slice.remove()


def autograde(root: Path, todo: list[tuple[str, str]], *, workers: int, gpus: int = 0,
              extra: list[str] = (), on_result=None, db: str | None = None, force: bool = False,
              plan: Plan | None = None) -> list[Result]:
    """Grade each (assignment, student) of ``todo`` on ``workers`` threads into the gradebook ``db``
    (default: the root's SQLite one), skipping what ``plan`` (default: ``decide``) skips; results in
    ``todo``'s order. ``on_result(result)`` is called (under a lock) as each one finishes."""
    from ..records import db_url
    db = db or db_url.default(root)
    plan = plan or decide(root, todo, db, gpus=gpus, force=force)
    jobs: queue.Queue = queue.Queue()
    results: list[Result | None] = [None] * len(todo)
    lock = threading.Lock()
    for i, (a, s) in enumerate(todo):
        fp = plan.fingerprints[(a, s)]
        if plan.why[(a, s)] is None:
            results[i] = Result(a, s, skipped=True)  # this gradebook holds its grade, unchanged since
            if not _marker(root, a, s).exists():  # killed between the record and its marker
                _mark_done(root, a, s, fp, 0.0)
            if on_result is not None:
                on_result(results[i])
        else:
            jobs.put((i, (a, s), fp))
    n_threads = min(workers, jobs.qsize())
    cores = float(len(os.sched_getaffinity(0)))
    again: list[tuple] = []  # timed out while the machine was overloaded: graded again alone below

    def work(index: int) -> None:
        worker = Worker(index, gpus, cores=cores / max(1, n_threads))
        try:
            with jobs.mutex:  # the assignment this worker will most likely grade first
                first = jobs.queue[0][1][0] if jobs.queue else None
            worker.start(root, first)
            while True:
                try:
                    i, (a, s), fp = jobs.get_nowait()
                except queue.Empty:
                    return
                if stopping.requested():
                    return
                with jobs.mutex:  # the next job's assignment: what is started ahead is started for it
                    more = jobs.queue[0][1][0] if jobs.queue else False
                res = _grade_one(worker, root, a, s, fp, list(extra), more=more, db=db)
                if res.code and stopping.requested():
                    return  # cut short by the stop: left for the next run, not a failure
                if starved(res):  # not a grade to keep: a run stopped before the regrade grades it again
                    _marker(root, a, s).unlink(missing_ok=True)
                    graded_record.forget(db, a, s)
                    with lock:
                        again.append((i, (a, s), fp, res))
                    continue
                with lock:
                    _keep(root, results, i, res, on_result)
        finally:
            worker.close()

    threads = [threading.Thread(target=work, args=(k,), name=f"course-grader-{k}", daemon=True)
               for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if again:
        _grade_alone(root, sorted(again, key=lambda job: job[0]), results, gpus, list(extra), db, on_result)
    return [r for r in results if r is not None]


def _keep(root: Path, results: list, i: int, res: Result, on_result) -> None:
    """``res`` is the grade of job ``i``: keep it, append its log to the assignment's, report it."""
    results[i] = res
    _append_log(root, res.assignment, res.student)
    if on_result is not None:
        on_result(res)


def starved(res: Result) -> bool:
    """Did ``res`` suffer the grader's load: a time-out while the machine was overloaded
    (course.sandbox.cputime), or a kernel that did not start or answer in time?"""
    return any(i.get("kind") in incidents.GRADE_ALONE for i in res.incidents or [])


def regrade_reason(first: Result) -> str:
    """Why ``first`` is graded again alone, for the feedback and the report."""
    found = next(x for x in first.incidents if x.get("kind") in incidents.GRADE_ALONE)
    if found["kind"] == incidents.GRADER:
        return (f"graded again with nothing beside it, because in its first grading the grader's own process "
                f"failed before its hidden checks ran: {found['message']}")
    if found["kind"] == incidents.NO_KERNEL:
        return (f"graded again with nothing beside it, because in its first grading the notebook's kernel did "
                f"not start or answer in time while the machine was loaded: {found['message']}")
    return (f"graded again with nothing beside it, because in its first grading the machine's load stopped "
            f"the grader's own work: {found['message']}")


def _grade_alone(root: Path, jobs: list[tuple], results: list, gpus: int, extra: list[str], db: str,
                 on_result) -> None:
    """Grade again, one at a time on one worker with the whole machine and nothing beside it, each
    submission the grader's load failed (``starved``); its result replaces the first one, and the
    grading records why (``incidents.REGRADE_ENV``: its feedback and the class report say so)."""
    worker = Worker("alone", gpus, alone=True)
    try:
        for n, (i, (a, s), fp, first) in enumerate(jobs):
            if stopping.requested():
                return
            why = regrade_reason(first)
            worker.env[incidents.REGRADE_ENV] = why
            res = _grade_one(worker, root, a, s, fp, extra, more=False, db=db)
            if not any(x.get("kind") == incidents.REGRADED for x in res.incidents or []):
                res.incidents = [{"kind": incidents.REGRADED, "message": why}, *(res.incidents or [])]
            _keep(root, results, i, res, on_result)
    finally:
        worker.close()


def _grade_one(worker: Worker, root: Path, a: str, s: str, fp: str, extra: list[str], more: bool | str = True,
               *, db: str) -> Result:
    """Grade one submission into ``db``; ``fp`` is its fingerprint when it was queued (a file changed
    since then leaves a record that does not match it, so the next run grades it again)."""
    _marker(root, a, s).unlink(missing_ok=True)  # the marker first: it never outlives the record
    graded_record.forget(db, a, s)  # a grading that fails or is killed leaves no record
    log = root / "gradebook" / "logs" / a / f"{s}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    incidents.clear(root, a, s)  # those of an earlier, interrupted run
    t0 = time.monotonic()
    code = worker.nbgrader(root, ["autograde", a, f"--student={s}", "--force", *extra], log, more=more)
    res = Result(a, s, code=code, seconds=time.monotonic() - t0, incidents=incidents.read(root, a, s))
    if code == 0 and not stopping.requested():  # a process killed by the stop can look like a success
        # the gradebook's record first: a marker never claims a grade the gradebook does not hold
        if _record(db, root, a, s, fp, res.seconds, log):
            _mark_done(root, a, s, fp, res.seconds)
    return res


def _record(db: str, root: Path, a: str, s: str, fp: str, seconds: float, log: Path) -> bool:
    """The gradebook's record that it holds this grade (when it cannot be written, the next run
    grades the submission again, and its log says why); whether it was written."""
    from nbgrader.api import Gradebook
    try:
        with Gradebook(db) as gb:
            sub_id = gb.find_submission(a, s).id
        graded_record.record(db, a, s, submission_id=sub_id, fingerprint=fp,
                             autograded=autograded_hash(root, a, s) or "", seconds=seconds)
    except Exception as exc:
        with open(log, "a") as fh:
            fh.write(f"course: the gradebook's record of this grade was not written ({type(exc).__name__}: "
                     f"{exc}); the next run grades this submission again\n")
        return False
    return True


def _append_log(root: Path, a: str, s: str) -> None:
    """The assignment's log (gradebook/logs/<a>.log) gathers each submission's log as it finishes."""
    part = root / "gradebook" / "logs" / a / f"{s}.log"
    if part.exists():
        with open(root / "gradebook" / "logs" / f"{a}.log", "a") as fh:
            fh.write(part.read_text(errors="replace"))


def submitted_students(root: Path, assignment: str) -> list[str]:
    base = root / "gradebook" / "submitted"
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir()
                  if not p.name.startswith(".") and (p / assignment).is_dir() and not (p / assignment).is_symlink())


def shard(items: list, spec: str | None) -> list:
    """``K/N``: the items whose index is K modulo N (K from 0); all of them when ``spec`` is None."""
    if not spec:
        return list(items)
    k, n = (int(x) for x in spec.split("/"))
    if not 0 <= k < n:
        raise ValueError(f"--shard {spec}: K must be in 0..N-1")
    return [x for i, x in enumerate(items) if i % n == k]
