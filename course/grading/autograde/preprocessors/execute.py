"""``SafeExecute``: nbgrader's Execute in the sandboxed kernel, with a per-submission time limit, output
caps on every kernel message (``output_budget``), a memory watchdog and the next kernel started ahead
(``spare_kernel``); a dead or killed kernel marks the cells it did not reach instead of failing the whole
submission, and records why (``incidents``)."""
from __future__ import annotations

import math
import os
import threading
import time

from nbformat.v4 import new_output
from nbclient.util import run_sync
from nbgrader.preprocessors import Execute
from traitlets import Integer

from ....sandbox import cgroup, cputime, procs
from .... import notebook as nbtools
from .... import sandbox
from ...records import incidents
from .. import spare_kernel
from ..kernel import SandboxKernelManager, runtime_root
from .output_budget import OutputBudget


def _meta(cell) -> dict:
    return nbtools.nbgrader_meta(cell)


class SubmissionTimeout(RuntimeError):
    pass


def _close_zmq(km) -> None:
    """The manager's control socket and its own zmq context, closed now (nbclient's clean-up, which this
    replaces, does it in ``cleanup_resources``). Left open, they are garbage at the next full collection,
    and a context finalized before its still-open socket waits in ``zmq_ctx_term`` forever: a pytest
    process hung so at its exit (issue 40). The kernel is gone: nothing is left to send (linger 0)."""
    if km is None:
        return
    sock = getattr(km, "_control_socket", None)
    if sock is not None:
        sock.close(linger=0)
        km._control_socket = None
    if getattr(km, "_created_context", False) and not km.context.closed:
        km.context.destroy(linger=0)


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
        os.environ.update(self.launcher_env())
        self._started = time.monotonic()
        self._out_bytes, self._capped, self._total_out = {}, set(), 0
        self._killed_for = None
        self._cpu_notebook = self._cpu_cell = None  # cputime samples at the first and the latest cell
        stop = threading.Event()
        watcher = threading.Thread(target=self._watch_memory, args=(stop,), daemon=True)
        watcher.start()
        student = resources.get("nbgrader", {}).get("student", "?")
        self._who = (incidents.course_root(self), resources.get("nbgrader", {}).get("assignment", ""), student)
        self._kernel_ready = False
        self._note_regrade()
        try:
            return super().preprocess(nb, resources, km=km)
        except Exception as exc:  # dead kernel, submission timeout, kernel that never started
            reason, spent = self._reason(exc), self._time_spent(exc)
            reason = cputime.verdict_text(reason, spent)
            info = resources.get("nbgrader", {})
            no_kernel = not self._kernel_ready and self._killed_for is None
            if no_kernel:  # nothing of the submission had run: the grader's load, not the student
                reason = self._no_kernel(reason)
            incidents.report(self.log, incidents.course_root(self), info.get("assignment", ""), student,
                             incidents.KERNEL, f"notebook execution stopped early: {reason}")
            if no_kernel:  # the batch grades it again alone (course.grading.class_run.batch); the note has it
                incidents.record(incidents.course_root(self), info.get("assignment", ""), student,
                                 incidents.NO_KERNEL, reason, self.log, noted=True)
            if spent is not None and spent.starved:  # the batch grades it again alone (course.grading.class_run.batch)
                incidents.record(incidents.course_root(self), info.get("assignment", ""), student,
                                 incidents.STARVED, f"notebook execution stopped early: {reason}", self.log)
            self._mark_unrun(nb, reason)
            return nb, resources
        finally:
            stop.set()
            self._cleanup_kernel()
            self._prestart_next()

    def _note_regrade(self) -> None:
        """A grading again alone (the batch sets why) says so once, in the feedback and the report."""
        why = os.environ.get(incidents.REGRADE_ENV)
        root, assignment, student = self._who
        if why and not any(i["kind"] == incidents.REGRADED for i in incidents.read(root, assignment, student) or []):
            incidents.record(root, assignment, student, incidents.REGRADED, why, self.log)

    @staticmethod
    def _no_kernel(reason: str) -> str:
        again = ("and again graded with nothing beside it: ask your instructor to grade it again"
                 if os.environ.get(cputime.ALONE_ENV) else "so it is graded again with nothing beside it")
        return (f"the notebook's kernel did not start or answer in time ({reason}), before any cell of the "
                f"notebook ran: the grading machine's doing, not the code's, {again}")

    def launcher_env(self) -> dict:
        """What the kernel launcher reads of this step's limits (its cgroup), through its environment."""
        return {"COURSE_MEMORY_LIMIT_MB": str(self.memory_limit_mb), "COURSE_TASK_LIMIT": str(self.task_limit)}

    def create_kernel_manager(self):
        """A kernel started ahead is used when it fits (course.grading.autograde.spare_kernel)."""
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
        """The kernel's folder and cgroup go, whatever happened (a crashed run is swept later), and the
        client's channels are closed (this replaces nbclient's own clean-up, which closes them: a client
        left open warns "Could not destroy zmq context" when it is collected, and keeps its sockets)."""
        kc = getattr(self, "kc", None)
        if kc is not None:
            try:
                kc.stop_channels()
            except Exception as exc:  # the kernel is stopped below either way
                self.log.debug("kernel client not closed: %s", exc)
            self.kc = None
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
        _close_zmq(km)

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

    def _kernel_group(self):
        proc = getattr(getattr(getattr(self, "km", None), "provisioner", None), "process", None)
        return cgroup.Group.named(f"{cgroup.PREFIX}{proc.pid}-kernel") if proc is not None and proc.pid else None

    def _time_spent(self, exc) -> "cputime.Spent | None":
        """CPU beside wall time over the limit ``exc`` reports (the notebook's, or the cell's); None when
        ``exc`` is not a time-out."""
        whole = isinstance(exc, SubmissionTimeout) or (type(exc).__name__ == "CellTimeoutError" and
                                                       time.monotonic() - self._started >= self.submission_timeout - 1)
        cell = type(exc).__name__ == "CellTimeoutError"
        start = getattr(self, "_cpu_notebook" if whole else "_cpu_cell", None) if whole or cell else None
        return start.spent(self._kernel_group()) if start is not None else None

    async def _async_handle_timeout(self, timeout, cell=None):
        """A cell past its limit: its error says what CPU the kernel had meanwhile (measured before the
        interrupt), and a starved one is recorded for the batch to grade again alone."""
        start = getattr(self, "_cpu_cell", None)
        spent = start.spent(self._kernel_group()) if start is not None else None
        reply = await super()._async_handle_timeout(timeout, cell)
        why = cputime.verdict_text(f"the cell ran past its {timeout} s limit", spent)
        if reply is not None:  # interrupted, and the notebook goes on: the cell's error says why
            reply["content"] = {**reply["content"], "evalue": why, "traceback": [f"CellTimeoutError: {why}"]}
        root, assignment, student = getattr(self, "_who", (None, "", "?"))
        if spent is not None and spent.starved:
            incidents.record(root, assignment, student, incidents.STARVED, f"a cell timed out: {why}", self.log)
        return reply

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
    # (Also: a kernel that answered is ready; a failure before that is not the submission's.)
    def start_new_kernel_client(self):
        kc = super().start_new_kernel_client()
        self._kernel_ready = True
        self._lock_ipc()
        return kc

    async def async_start_new_kernel_client(self):
        kc = await super().async_start_new_kernel_client()
        self._kernel_ready = True
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
        self._cpu_cell = cputime.sample(self._kernel_group())
        self._cpu_notebook = getattr(self, "_cpu_notebook", None) or self._cpu_cell
        return await super().async_execute_cell(cell, cell_index, execution_count, store_history)

    # nbclient binds execute_cell to its own async_execute_cell: without this, the sync path that
    # nbconvert's preprocess() takes would never check the deadline above
    execute_cell = run_sync(async_execute_cell)
