"""Autograde a batch of submissions on N workers, with one progress bar, and resume after a kill.

Each worker is a thread that owns one nbgrader runner process (and so one judge server) and runs
``nbgrader autograde <assignment> --student=<id> --force`` for one submission at a time; every
submission still gets its own fresh kernel sandbox and judge session. On a GPU node worker i sees
one GPU (``CUDA_VISIBLE_DEVICES``), several workers sharing a GPU when slots per GPU > 1.

Resume: when a submission's command succeeds, ``gradebook/progress/<a>/<student>.json`` records a
fingerprint of what was graded (the submitted files and the grading code). A later run skips a
submission whose fingerprint is unchanged, and grades again one that changed or never finished.
Seeds are derived from (assignment, student), so a resumed class gets the same scores.
"""
from __future__ import annotations

import hashlib
import json
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import REPO_ROOT, TESTS_DIR
from .. import settings
from . import incidents, runner

GIB = 1 << 30


@dataclass
class Result:
    assignment: str
    student: str
    code: int = 0
    seconds: float = 0.0
    skipped: bool = False  # graded by an earlier run, unchanged since
    incidents: list[dict] = field(default_factory=list)  # {"kind", "message"} (course.grading.incidents)


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


def _hash_tree(h, folder: Path, suffixes: tuple[str, ...] = ()) -> None:
    """Names and contents of the files under ``folder`` (only ``suffixes`` when given; caches never)."""
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not (suffixes and (d.startswith(".") or d == "__pycache__")))
        for name in sorted(filenames):
            if suffixes and not name.endswith(suffixes):
                continue
            path = Path(dirpath) / name
            h.update(str(path.relative_to(folder)).encode() + b"\0")
            if path.is_symlink() or not path.is_file():
                h.update(b"<not a file>\0")
                continue
            with open(path, "rb") as fh:  # safe: read only, the instructor's submitted/ copy
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)


def grading_key(assignment: str) -> str:
    """What the scores depend on besides the submission: the course code, the hidden suite, the
    source notebooks, the configuration and the seed salt."""
    h = hashlib.sha256(settings.current().seed_salt.encode())
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


def graded_before(root: Path, assignment: str, student: str, fp: str) -> bool:
    try:
        return json.loads(_marker(root, assignment, student).read_text()).get("fingerprint") == fp
    except (OSError, ValueError, AttributeError):
        return False


def pending(root: Path, todo: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """The submissions of ``todo`` that a run would grade (new, changed, or never finished)."""
    keys = {a: grading_key(a) for a in {a for a, _ in todo}}
    return {(a, s) for a, s in todo if not graded_before(root, a, s, fingerprint(root, a, s, keys[a]))}


def _mark_done(root: Path, assignment: str, student: str, fp: str, seconds: float) -> None:
    path = _marker(root, assignment, student)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"fingerprint": fp, "seconds": round(seconds, 2), "at": time.time()}))
    os.replace(tmp, path)


class Worker:
    """One thread's nbgrader runner (started on first use, restarted if it dies) and environment."""

    def __init__(self, index: int, gpus: int):
        from .. import tool_env
        self.env = tool_env()
        if gpus:
            self.env["CUDA_VISIBLE_DEVICES"] = str(index % gpus)
        self.runner: runner.Runner | None = None

    def start(self, root: Path | None = None, assignment: str | None = None) -> None:
        """Start the runner and its judge server before the first submission (the first of a batch is
        then no slower than the rest; ``assignment``: the first one's); restart them if they died."""
        if not settings.current().nbgrader_runner:
            return
        if self.runner is None or not self.runner.alive():
            try:
                self.runner = runner.Runner(self.env)
            except Exception:
                self.runner = None
                return
            self.runner.warm(self.env, cwd=str(root) if root else None, assignment=assignment)

    def nbgrader(self, root: Path, args: list[str], log: Path, more: bool = True) -> int:
        self.start(root, args[1] if args[:1] == ["autograde"] and len(args) > 1 else None)
        return runner.nbgrader(root, args, log, env=self.env, use=self.runner or False, more=more)

    def close(self) -> None:
        if self.runner is not None:
            self.runner.close()


def autograde(root: Path, todo: list[tuple[str, str]], *, workers: int, gpus: int = 0,
              extra: list[str] = (), on_result=None) -> list[Result]:
    """Grade each (assignment, student) of ``todo`` on ``workers`` threads; results in ``todo``'s order.
    ``on_result(result)`` is called (under a lock) as each one finishes."""
    keys = {a: grading_key(a) for a in {a for a, _ in todo}}
    jobs: queue.Queue = queue.Queue()
    results: list[Result | None] = [None] * len(todo)
    lock = threading.Lock()
    for i, (a, s) in enumerate(todo):
        fp = fingerprint(root, a, s, keys[a])
        if graded_before(root, a, s, fp):
            results[i] = Result(a, s, skipped=True)  # graded by an earlier run, unchanged since
            if on_result is not None:
                on_result(results[i])
        else:
            jobs.put((i, (a, s), fp))

    def work(index: int) -> None:
        worker = Worker(index, gpus)
        try:
            with jobs.mutex:  # the assignment this worker will most likely grade first
                first = jobs.queue[0][1][0] if jobs.queue else None
            worker.start(root, first)
            while True:
                try:
                    i, (a, s), fp = jobs.get_nowait()
                except queue.Empty:
                    return
                res = _grade_one(worker, root, a, s, fp, list(extra), more=not jobs.empty())
                with lock:
                    results[i] = res
                    _append_log(root, a, s)
                    if on_result is not None:
                        on_result(res)
        finally:
            worker.close()

    threads = [threading.Thread(target=work, args=(k,), name=f"course-grader-{k}", daemon=True)
               for k in range(min(workers, jobs.qsize()))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [r for r in results if r is not None]


def _grade_one(worker: Worker, root: Path, a: str, s: str, fp: str, extra: list[str], more: bool = True) -> Result:
    """Grade one submission; ``fp`` is its fingerprint when it was queued (a file changed since then
    leaves a marker that does not match it, so the next run grades it again)."""
    _marker(root, a, s).unlink(missing_ok=True)
    log = root / "gradebook" / "logs" / a / f"{s}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    incidents.take(root, a, s)  # those of an earlier, interrupted run
    t0 = time.monotonic()
    code = worker.nbgrader(root, ["autograde", a, f"--student={s}", "--force", *extra], log, more=more)
    res = Result(a, s, code=code, seconds=time.monotonic() - t0, incidents=incidents.take(root, a, s))
    if code == 0:
        _mark_done(root, a, s, fp, res.seconds)
    return res


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
