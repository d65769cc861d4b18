"""nbgrader preprocessors for grading untrusted submissions. Each does one thing.

Sanitize pass:
- ``RepairGradeCells`` (``repair_cells.py``): every nbgrader cell's flags, points, type and locked
  source come from the gradebook; broken or duplicated metadata is dropped and deleted grade and
  solution cells are put back.
Autograde pass:
- ``SafeExecute``: nbgrader's Execute in the sandboxed kernel, with a per-submission time limit,
  output caps on every kernel message (``output_budget``) and a memory watchdog; a dead or killed
  kernel marks the cells it did not reach instead of failing the whole submission.
- ``StartHiddenChecks``: starts the assignment's hidden suite, outside the kernel, against the
  submission's code before the kernel runs (the checks read only the code, so judging and
  execution overlap).
- ``JudgeHiddenChecks``: waits for those checks (or runs them, if nothing started them) and writes
  each test cell's verdict and partial score into its outputs, and the judge's record of the notebook
  for the class report (``judge_records``).
"""
from __future__ import annotations

import json
import math
import os
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import nbformat
from nbformat.v4 import new_output
from nbclient.util import run_sync
from nbgrader.preprocessors import Execute, NbGraderPreprocessor
from traitlets import Integer, Unicode

from ..sandbox import cgroup, fstree, procs
from .. import plain, sandbox
from .. import settings
from .. import notebook as nbtools
from ..judge.results import Results
from . import incidents, judge_records, spare_kernel
from .kernel import SandboxKernelManager, runtime_root
from .output_budget import OutputBudget
from .repair_cells import RepairGradeCells  # noqa: F401  (a sanitize step, configured with the others)


def _meta(cell) -> dict:
    return nbtools.nbgrader_meta(cell)


class SubmissionTimeout(RuntimeError):
    pass


class SafeExecute(OutputBudget, Execute):
    submission_timeout = Integer(900, help="seconds for the whole notebook").tag(config=True)
    memory_limit_mb = Integer(6144, help="kernel memory (RSS and tmpfs, whole process tree) before it is "
                                         "killed").tag(config=True)
    task_limit = Integer(1024, help="processes and threads of one kernel's sandbox").tag(config=True)
    ipc_limit_bytes = Integer(1_000_000, help="bytes a kernel may leave in its IPC folder").tag(config=True)

    def __init__(self, *args, **kwargs):
        # nbgrader's Execute passes its own manager class; every kernel here gets a folder of its own
        kwargs["kernel_manager_class"] = SandboxKernelManager
        super().__init__(*args, **kwargs)

    def preprocess(self, nb, resources, km=None):
        if sandbox.resolve():  # whatever kernel another configuration file names
            self.kernel_name = "course-sandbox"
        # read by the kernel launcher (the cgroup's limits), which inherits this environment
        os.environ["COURSE_MEMORY_LIMIT_MB"] = str(self.memory_limit_mb)
        os.environ["COURSE_TASK_LIMIT"] = str(self.task_limit)
        self._started = time.monotonic()
        self._out_bytes, self._capped, self._total_out = {}, set(), 0
        self._killed_for = None
        stop = threading.Event()
        watcher = threading.Thread(target=self._watch_memory, args=(stop,), daemon=True)
        watcher.start()
        student = resources.get("nbgrader", {}).get("student", "?")
        try:
            return super().preprocess(nb, resources, km=km)
        except Exception as exc:  # dead kernel, submission timeout, kernel that never started
            reason = self._reason(exc)
            info = resources.get("nbgrader", {})
            incidents.report(self.log, incidents.course_root(self), info.get("assignment", ""), student,
                             incidents.KERNEL, f"notebook execution stopped early: {reason}")
            self._mark_unrun(nb, reason)
            return nb, resources
        finally:
            stop.set()
            self._cleanup_kernel()
            self._prestart_next()

    def create_kernel_manager(self):
        """A kernel started ahead is used when it fits (course.grading.spare_kernel)."""
        km = super().create_kernel_manager()
        if isinstance(km, SandboxKernelManager) and self.kernel_name == "course-sandbox":
            spare = spare_kernel.take(self.kernel_name)
            if spare is not None:
                km.adopt(spare)
                self.log.debug("running the notebook in a kernel started ahead (pid %s)", spare.proc.pid)
        return km

    def _prestart_next(self) -> None:
        """Start the next notebook's kernel while this submission's checks and feedback finish."""
        if self.kernel_name != "course-sandbox":
            return
        try:
            spare_kernel.prestart(self.kernel_name, runtime_root())
        except Exception as exc:  # the next notebook starts its own kernel
            self.log.warning("no kernel started ahead: %s: %s", type(exc).__name__, exc)

    def _cleanup_kernel(self) -> None:
        """The kernel's folder and cgroup go, whatever happened (a crashed run is swept later)."""
        km = getattr(self, "km", None)
        proc = getattr(getattr(km, "provisioner", None), "process", None)
        if proc is not None and proc.pid:
            if proc.poll() is None:
                sandbox.kill_tree(proc)
            group = cgroup.Group.named(f"{cgroup.PREFIX}{proc.pid}-kernel")
            if group.oom_killed() and self._killed_for is None:
                self._killed_for = "memory"
            group.remove()
        if isinstance(km, SandboxKernelManager):
            km.remove_folder()

    def _reason(self, exc) -> str:
        if self._killed_for == "memory":
            return f"the notebook used more than {self.memory_limit_mb} MiB of memory and its kernel was stopped"
        if self._killed_for == "tasks":
            return f"the notebook started more than {self.task_limit} processes or threads and its kernel was stopped"
        if self._killed_for == "ipc":
            return "the notebook wrote files where the grader talks to its kernel, and its kernel was stopped"
        if isinstance(exc, SubmissionTimeout) or (type(exc).__name__ == "CellTimeoutError" and
                                                   time.monotonic() - self._started >= self.submission_timeout - 1):
            return str(self._over_time())
        name = type(exc).__name__
        if name == "DeadKernelError":
            return "the notebook's kernel died (the code ended the Python process or crashed it)"
        return f"{name}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"

    def _mark_unrun(self, nb, reason: str) -> None:
        for cell in nb.cells:
            if cell.cell_type == "code" and cell.get("execution_count") is None and _meta(cell).get("grade"):
                cell.outputs = [new_output("error", ename="NotRun", evalue=reason,
                                           traceback=[f"NotRun: this cell did not run: {reason}"])]

    def _watch_memory(self, stop: threading.Event) -> None:
        """Polling limits, also where cgroups are not available: memory, tasks, the IPC folder."""
        def km():
            return getattr(self, "km", None)

        def ipc() -> str | None:
            k = km()
            return "ipc" if isinstance(k, SandboxKernelManager) and k.ipc_usage().over(64, self.ipc_limit_bytes, 1) \
                else None

        procs.watch(lambda: getattr(getattr(km(), "provisioner", None), "process", None),
                    self.memory_limit_mb * 2**20, self.task_limit, 0.5, stop=stop, extra=ipc,
                    on_limit=lambda why: setattr(self, "_killed_for", why))

    # Once the kernel answers, its sockets exist: nothing more may be created in its ipc/ folder.
    # (nbconvert's preprocess() takes the sync path, nbclient's execute() the async one.)
    def start_new_kernel_client(self):
        kc = super().start_new_kernel_client()
        self._lock_ipc()
        return kc

    async def async_start_new_kernel_client(self):
        kc = await super().async_start_new_kernel_client()
        self._lock_ipc()
        return kc

    def _lock_ipc(self) -> None:
        if isinstance(self.km, SandboxKernelManager):
            self.km.lock_ipc()

    def _over_time(self) -> SubmissionTimeout:
        return SubmissionTimeout(f"the notebook ran past the {self.submission_timeout} s limit per submission")

    def _get_timeout(self, cell):
        """A cell may run until the cell limit or the submission's deadline, whichever comes first."""
        limit = super()._get_timeout(cell)
        left = self.submission_timeout - (time.monotonic() - self._started)
        if left <= 0:
            raise self._over_time()
        left = max(1, math.ceil(left))
        return left if limit is None else min(limit, left)

    async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
        if time.monotonic() - self._started > self.submission_timeout:
            raise self._over_time()
        return await super().async_execute_cell(cell, cell_index, execution_count, store_history)

    # nbclient binds execute_cell to its own async_execute_cell: without this, the sync path that
    # nbconvert's preprocess() takes would never check the deadline above
    execute_cell = run_sync(async_execute_cell)


MAX_MESSAGE = 2_000  # characters of one check's message in the feedback
MAX_VERDICT = 40_000  # characters of one test cell's verdict
MAX_ERROR = 300  # characters of a grading error shown to the student


def _test_cells(nb) -> list:
    """(cell, hidden calls) for every test cell that calls into the hidden suite."""
    cells = [(c, nbtools.hidden_calls(c.source)) for c in nb.cells if nbtools.is_test_cell(c)]
    return [(c, calls) for c, calls in cells if calls]


def _judge_key(resources) -> tuple:
    info = resources.get("nbgrader", {})
    return info.get("assignment"), info.get("student"), info.get("notebook")


def grading_seed(assignment: str, student: str) -> int:
    """Same submission, same checks: an HMAC of (assignment, student) keyed with the course's secret
    salt. The seed shown in feedback replays the run, and does not give the salt away."""
    import hashlib
    import hmac
    salt = settings.current().seed_salt.encode()
    digest = hmac.new(salt, f"{assignment}/{student}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % 2**31


def _judge(nb, student: str, timeout: float) -> Results:
    """Run the hidden suite against ``nb``'s code in a fresh judge session; its results, with the
    judge's wall-clock seconds."""
    started = time.monotonic()
    res = _run_judge(nb, student, timeout)
    res.judge_seconds = round(time.monotonic() - started, 3)
    return res


def _run_judge(nb, student: str, timeout: float) -> Results:
    from ..judge.suite import run_suite

    assignment = _test_cells(nb)[0][1][0][0]
    mode = "on" if sandbox.resolve() else "off"
    tmp = tempfile.mkdtemp(prefix="course-judge-")
    try:
        path = os.path.join(tmp, "submission.ipynb")
        nbformat.write(nb, path)
        seed = grading_seed(assignment, student)
        return run_suite(assignment, path, sandbox=mode, timeout=timeout, seed=seed, use_server=True)
    except Exception as exc:  # reported as a grading error on every test cell, never a crash of the batch
        return Results.failure(f"{type(exc).__name__}: {exc}")
    finally:
        fstree.remove(tmp)


_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="course-judge")
STARTED = "course_hidden_checks"  # resources key: the Future of this notebook's running hidden checks


class StartHiddenChecks(NbGraderPreprocessor):
    """Start the hidden checks before the notebook executes. They load the submission's code in
    their own sandboxed worker and never see the kernel, so both can run at once."""
    timeout = Integer(900, help="seconds for all hidden checks of one notebook").tag(config=True)

    def preprocess(self, nb, resources):
        if _test_cells(nb):
            student = resources.get("nbgrader", {}).get("student", "?")
            snapshot = nbformat.from_dict(json.loads(json.dumps(nb)))  # later steps edit nb in place
            resources[STARTED] = (_judge_key(resources), _POOL.submit(_judge, snapshot, student, self.timeout))
        return nb, resources


class JudgeHiddenChecks(NbGraderPreprocessor):
    timeout = Integer(900, help="seconds for all hidden checks of one notebook").tag(config=True)
    records_dir = Unicode("", help="folder of the judge's records (course.grading.judge_records); empty: "
                                   "gradebook/records in the course root of the nbgrader command").tag(config=True)

    def preprocess(self, nb, resources):
        student = resources.get("nbgrader", {}).get("student", "?")
        cells = [c for c in nb.cells if nbtools.is_test_cell(c)]
        for c in cells:
            c.outputs = [self._neutral(o) for o in c.get("outputs", [])]
        calls = _test_cells(nb)
        key, started = resources.pop(STARTED, (None, None))
        if key != _judge_key(resources):  # another notebook's run: never used for this one
            started = None
        if not calls:
            return nb, resources
        if started is not None:
            try:
                res = started.result(timeout=self.timeout + 120)
            except Exception as exc:  # the run outlived its own limit: treat like a judge that hung
                res = Results.failure(f"the hidden checks did not finish ({type(exc).__name__})")
        else:
            res = _judge(nb, student, self.timeout)
        root, assignment = incidents.course_root(self), resources.get("nbgrader", {}).get("assignment", "")
        if res.error:
            self.log.error("%s: hidden checks could not run: %s (regrade this submission)", student, res.error)
            incidents.record(root, assignment, student, incidents.JUDGE,
                             f"hidden checks could not run: {res.error} (regrade this submission)", self.log)
        for event in res.events:
            incidents.report(self.log, root, assignment, student, incidents.JUDGE, plain.one_line(event, 500))
        for cell, task_calls in calls:
            self._write_verdict(cell, [t for _, t in task_calls], res)
        self._save_record(resources, res)
        return nb, resources

    def _save_record(self, resources, res: Results) -> None:
        """The judge's record for the class report; a record that cannot be written never stops grading."""
        try:
            folder = self.records_dir or self._course_records_dir()
            if folder:
                judge_records.write(folder, judge_records.make(resources.get("nbgrader", {}), res))
        except Exception as exc:
            self.log.warning("the judge's record of this notebook was not written: %s",
                             plain.one_line(f"{type(exc).__name__}: {exc}", 300))

    def _course_records_dir(self) -> str | None:
        """gradebook/records under the root of the nbgrader command running this step; None when no
        nbgrader command runs it (a test driving the step directly)."""
        root = incidents.course_root(self)
        return str(judge_records.records_dir(root)) if root else None

    @staticmethod
    def _neutral(o):
        """Test-cell output that cannot decide the grade: stderr becomes stdout, results become displays."""
        if o.get("output_type") == "stream" and o.get("name") == "stderr":
            return new_output("stream", name="stdout", text=o.get("text", ""))
        if o.get("output_type") == "execute_result":
            return new_output("display_data", data=o.get("data", {}), metadata=o.get("metadata", {}))
        return o

    def _write_verdict(self, cell, tasks: list[str], res: Results) -> None:
        points = float(_meta(cell).get("points", 0))
        kernel_error = any(o.get("output_type") == "error" for o in cell.outputs)
        if res.error:
            # the full text is in the grading log; the student sees its first line, capped
            shown = plain.cap((str(res.error).strip().splitlines() or ["?"])[0], MAX_ERROR)
            cell.outputs.append(new_output("error", ename="GradingError", evalue=shown,
                                           traceback=[f"GradingError: hidden checks could not run: {shown}"]))
            return
        checks = res.for_tasks(tasks)
        ran = [c for c in checks if not c.skipped]
        total_w = sum(c.weight for c in ran)
        got_w = sum(c.weight for c in ran if c.passed)
        score = points * got_w / total_w if total_w else 0.0
        lines = [f"Hidden checks for {', '.join(tasks)} ({len(ran)} run, {points:g} points):"]
        for c in checks:
            share = points * c.weight / total_w if total_w and not c.skipped else 0.0
            mark = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}[c.status]
            lines.append(f"  {mark}  {c.title}  ({share if c.passed else 0:.2f}/{share:.2f})")
            if not c.passed and c.message:
                lines += [f"        {ln}" for ln in plain.cap(c.message, MAX_MESSAGE).splitlines()]
        if not checks:
            lines.append("  (no hidden checks were found for this cell: tell your instructor)")
        if checks and not ran:
            lines.append("  None of these checks could run on the grading machine, so this cell scores 0: "
                         "it must be graded on a GPU node.")
        if kernel_error:
            score = 0.0
            lines.append("The visible checks in this cell raised an error (above), so this cell scores 0.")
        lines.append(f"Score for this cell: {score:.2f} / {points:g}")
        text = plain.cap("\n".join(lines[:-1]), MAX_VERDICT) + "\n" + lines[-1] + "\n"
        cell.outputs.append(new_output("stream", name="stdout", text=text))
        if not kernel_error:
            cell.outputs.append(new_output("execute_result", data={"text/plain": repr(round(score, 4))},
                                           execution_count=cell.get("execution_count")))
