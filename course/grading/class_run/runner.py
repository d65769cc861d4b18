"""Run nbgrader commands in one long-lived process instead of one process each.

Starting nbgrader costs about 2 s of imports per command, and every autograde process used to
start its own judge server (about 4 s more). The runner imports nbgrader once and runs each
command in-process, the way nbgrader's own test-suite does (``NbGraderApp.instance()``,
``initialize``, ``start``, ``reset``); the judge server it starts serves every later autograde.
Each command gets the caller's environment and working folder, and its output (the nbgrader log
and anything a kernel writes to stderr) goes to the command's log file, as with a subprocess.

``COURSE_NBGRADER_RUNNER=0`` runs every command in a process of its own instead.
"""
from __future__ import annotations

import functools
import json
import os
import select
import signal
import subprocess
import sys
import traceback

from ... import settings


def serve() -> None:
    """Runner loop: one JSON request per line on stdin, one JSON reply per line on stdout."""
    # Ctrl-C in a terminal reaches the whole job; the pipeline ends this process and everything below it
    # (course.grading.class_run.stopping), which inherit the ignore: no KeyboardInterrupt half way through a command
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # nothing printed between commands can reach the protocol
    from nbgrader.apps.nbgraderapp import NbGraderApp  # noqa: F401  (the import this process is for)
    from ..autograde import spare_kernel
    spare_kernel.use_in_this_process()  # notebook follows notebook here: start each next kernel ahead
    out.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        out.write(json.dumps({"code": _warm(req) if req.get("warm") else _run_one(req)}) + "\n")


# The nbgrader commands that run a notebook in a (sandboxed) kernel; the others (generate_assignment,
# generate_feedback, export, ...) never start a sandbox, so they get no template.
KERNEL_COMMANDS = frozenset({"autograde", "validate", "generate_solution"})

_TEMPLATE = None  # this grading worker's sandbox template (course/sandbox/template.py), when wanted


def _template_preload(assignment: str | None) -> tuple[str, ...]:
    """The template's preloads: its own, and torch's modules that this assignment's judge workers import ahead
    (``forkserver.preload_for``: what its notebook and probes import, gradcheck's sympy among them), so that
    neither its kernels nor its zygotes import them per submission. Other packages are left to the zygote
    (matplotlib reads its configuration folder as it is imported)."""
    from ...judge.forkserver import preload_for
    from ...sandbox import template
    extra = [m for m in preload_for(assignment).split(",") if m.split(".")[0] == "torch"] if assignment else []
    return tuple(dict.fromkeys([*template.PRELOAD, *extra]))


def _template_env(assignment: str | None = None) -> None:
    """With ``COURSE_SANDBOX_TEMPLATE`` on (root), the kernels and judge zygotes of this worker's commands are
    forked from one template, started at the first command: it is named in the environment they inherit.
    A template that cannot start leaves them to bubblewrap, with one line in the command's log."""
    global _TEMPLATE
    from ...sandbox import template
    if not template.wanted():
        return
    if _TEMPLATE is None or _TEMPLATE.proc.poll() is not None:
        if _TEMPLATE is not None:
            _TEMPLATE.close()  # it died: its folder goes before another starts
        try:
            _TEMPLATE = template.Template(_template_preload(assignment))
            import atexit
            atexit.register(_TEMPLATE.close)  # its folder goes with this runner (sockets, log), not left in /tmp
        except template.TemplateError as exc:
            print(f"sandbox template: {exc}; sandboxes are started by bubblewrap", file=sys.stderr)
            _TEMPLATE = None
            return
    os.environ.update(_TEMPLATE.env())


def _warm(req: dict) -> int:
    """Before the first submission: import the grading steps and start the judge server, so that the
    first submission of a batch waits no longer than the others."""
    try:
        os.environ.clear()
        os.environ.update(req["env"])
        _template_env(req.get("assignment"))
        from ..autograde import preprocessors  # noqa: F401  (nbgrader's and nbclient's imports come with it)
        from ..autograde import spare_kernel
        from ...judge import server, suite
        if req.get("cwd"):
            _prestart_kernel(req["cwd"])  # boots while the judge server and the zygote start
        judge = server.shared()
        if judge is None:
            return 1
        # The first submission's worker zygote and kernel, ready before its clock starts: a cold start
        # charged to one student would bring that student nearer the time limit than the others.
        judge.prestart(suite.session_env(req.get("assignment")), wait=True)
        if req.get("cwd"):
            spare_kernel.wait_ready()
        return 0
    except Exception:
        return 1


def _prestart_kernel(root: str) -> None:
    """The first notebook's kernel, started the way autograde will start it (the course's configuration
    loaded, nbgrader's execution flag and the kernel limits set), so that it is adopted."""
    from traitlets.config.loader import PyFileConfigLoader

    from ... import sandbox
    from ..autograde import spare_kernel
    from ..autograde.kernel import runtime_root
    from ..autograde.preprocessors import SafeExecute

    if not os.path.exists(os.path.join(root, "nbgrader_config.py")) or not sandbox.resolve():
        return
    saved = dict(os.environ)
    try:
        ex = SafeExecute(config=PyFileConfigLoader("nbgrader_config.py", path=root).load_config())
        os.environ.update(NBGRADER_EXECUTION="autograde", **ex.launcher_env())
        spare_kernel.prestart("course-sandbox", runtime_root())
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _expect_more(more: bool | str) -> None:
    """Whether another command follows this one: if not, nothing is started ahead for it (a kernel
    and a worker zygote cost about 5 s of CPU that a batch's last submission would waste). A string is the
    next command's assignment: the worker zygote started ahead preloads for it, so the first submission of a
    topic graded after another one in this worker does not wait for a cold zygote (issue 40)."""
    from ..autograde import spare_kernel
    from ...judge import server
    spare_kernel.use_in_this_process(bool(more))
    if isinstance(more, str):
        from ...judge.forkserver import PRELOAD_ENV
        more = os.environ.get(PRELOAD_ENV) or _preload_for(more)  # set by hand: a benchmark's A/B
    judge = server._SERVER
    if judge is not None:
        judge.next_expected = more


@functools.lru_cache(maxsize=64)
def _preload_for(assignment: str) -> str:
    from ...judge.forkserver import preload_for
    return preload_for(assignment)


def _run_one(req: dict) -> int:
    from jupyter_core.application import NoStart
    from nbgrader.apps.nbgraderapp import NbGraderApp

    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    log = os.open(req["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    cwd = os.getcwd()
    os.environ.clear()
    os.environ.update(req["env"])
    if req["args"][:1] and req["args"][0] in KERNEL_COMMANDS:
        _template_env()  # else nothing here starts a sandbox: a template would cost ~10 s of CPU for nothing
    _expect_more(req.get("more", True))
    app = None
    try:
        os.chdir(req["cwd"])
        app = NbGraderApp.instance()
        app.initialize(req["args"])
        app.start()
        code = 0
    except NoStart:  # how jupyter apps end after running a subcommand
        code = 0
    except SystemExit as exc:  # nbgrader's fail(), the apps' exit codes, a refusing configuration
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            if app is not None:
                app.reset()
        except Exception:
            traceback.print_exc()
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)
        os.chdir(cwd)
    return code


class RunnerError(RuntimeError):
    pass


class Runner:
    def __init__(self, env: dict, start_timeout: float = 120):
        self.proc = subprocess.Popen([sys.executable, "-c", "from course.grading.class_run.runner import serve; serve()"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1, env=env)
        self.commands = 0  # commands run to completion (tests check the runner was really used)
        if self._line(start_timeout) != {"ready": True}:
            self.close()
            raise RunnerError("the nbgrader runner did not start")

    def _line(self, timeout: float | None) -> dict | None:
        r, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if r else ""
        return json.loads(line) if line else None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def run(self, args: list[str], *, cwd: str, env: dict, log: str, more: bool = True) -> int:
        """Run ``nbgrader <args>``; its exit code. Raises RunnerError (and stops the runner) if the
        runner itself fails, so the caller can run the command in a process of its own. ``more``: another
        command follows (else nothing is started ahead for one)."""
        try:
            self.proc.stdin.write(json.dumps({"args": args, "cwd": cwd, "env": env, "log": log,
                                              "more": more}) + "\n")
            self.proc.stdin.flush()
            reply = self._line(None)  # autograde sets its own time limits, per cell and per submission
        except (OSError, ValueError) as exc:
            reply, why = None, str(exc)
        else:
            why = "it exited"
        if not reply or "code" not in reply:
            self.close()
            raise RunnerError(f"the nbgrader runner failed ({why})")
        self.commands += 1
        return reply["code"]

    def warm(self, env: dict, timeout: float = 300, cwd: str | None = None, assignment: str | None = None) -> bool:
        """Start what the first command would start (the judge server, its worker zygote for
        ``assignment``, and for the course at ``cwd`` the first notebook's kernel); False if that failed."""
        try:
            self.proc.stdin.write(json.dumps({"warm": True, "env": env, "cwd": cwd, "assignment": assignment}) + "\n")
            self.proc.stdin.flush()
            reply = self._line(timeout)
        except (OSError, ValueError):
            return False
        return bool(reply) and reply.get("code") == 0

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


_RUNNER: Runner | None = None


def shared(env: dict) -> Runner | None:
    """This process's runner, started on first use; None when turned off or if it cannot start."""
    global _RUNNER
    if not settings.current().nbgrader_runner:
        return None
    if _RUNNER is None or not _RUNNER.alive():
        try:
            _RUNNER = Runner(env)
        except Exception:
            _RUNNER = None
            return None
        import atexit
        atexit.register(_RUNNER.close)
    return _RUNNER


def nbgrader(root, args: list[str], log, *, env: dict | None = None, use: Runner | None | bool = None,
             more: bool | str = True) -> int:
    """Run ``nbgrader <args>`` for the course at ``root``, appending its output to ``log``; its
    exit code. Uses ``use`` (a runner; False: none), else the shared runner, or a process of its own
    when the runner is off or fails. ``more=False``: the runner's last command of a batch; a string: the
    next command's assignment."""
    from . import stopping
    if stopping.requested():  # the run is stopping: nothing new starts
        return stopping.exit_code()
    if env is None:
        from ... import tool_env
        env = tool_env()
    full = [*args, f"--CourseDirectory.root={root}"]
    with open(log, "a") as fh:
        fh.write(f"$ nbgrader {' '.join(args)}\n")
    runner = (use or None) if use is not None else shared(env)
    if runner is not None:
        try:
            return runner.run(full, cwd=str(root), env=env, log=str(log), more=more)
        except RunnerError as exc:
            if stopping.requested():  # killed by the stop, not a failure to retry
                return stopping.exit_code()
            with open(log, "a") as fh:
                fh.write(f"{exc}; running the command in a process of its own\n")
    with open(log, "a") as fh:
        code = subprocess.run([sys.executable, "-m", "nbgrader", *full], cwd=root, stdout=fh,
                              stderr=subprocess.STDOUT, env=env).returncode
    return stopping.exit_code() if stopping.requested() else code
