"""Run hidden-check sessions by forking a judge that has already imported torch and pytest.

Autograde judges every submission in a fresh pytest process; importing torch,
pytest, hypothesis and the plugin costs about 5 s each time. The server
imports them once and forks one pytest session per submission. Everything it
runs is the instructor's code (the submission itself still runs in a sandboxed
worker started by that session), and each session is a new process, so no
state leaks from one submission's judging to the next.

``COURSE_JUDGE_SERVER=0`` turns it off (a plain subprocess per submission).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from .. import settings

# Not course.judge.adapter: its defaults read COURSE_* limits at import, and each session brings its own env.
PRELOAD = ("torch", "torch._dynamo", "pytest", "hypothesis", "numpy", "course.judge.pytest_plugin", "course.judge.expect")


def main() -> None:
    """Server loop: one JSON request per line on stdin, one JSON reply per line on stdout."""
    import importlib
    import warnings
    out = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in PRELOAD:
            importlib.import_module(name)
    from ..sandbox import tempdirs
    from . import spare
    _scan_constants()
    # What was preloaded lives as long as the server: keep it out of every collection (a full one over
    # torch's objects takes about 0.1 s) in the sessions forked from here.
    import gc
    gc.freeze()
    import atexit
    atexit.register(spare.shutdown)
    running: dict = {}
    import threading
    threading.Thread(target=_end_with_parent, args=(os.getppid(), running), daemon=True).start()
    out.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("prestart"):  # before the first session: start its worker's zygote now
            spare.prestart(req["env"])
            if req.get("wait"):
                spare.wait_ready()
            out.write(json.dumps({"code": 0}) + "\n")
            continue
        _warm(req["env"])
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 3
            try:
                import ctypes
                ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: never outlive the server
                if os.getppid() == 1:
                    os._exit(code)
                log = os.open(req["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.dup2(log, 1)
                os.dup2(log, 2)
                os.chdir(req["cwd"])
                os.environ.clear()
                os.environ.update(req["env"])
                os.setpgid(0, 0)
                import pytest
                from . import pytest_plugin
                pytest_plugin.EXIT_AFTER_SESSION = True
                code = int(pytest.main(req["args"]))
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        try:
            os.setpgid(pid, pid)  # also done by the child: a kill right after the fork finds the group
        except OSError:
            pass
        running["session"] = pid
        out.write(json.dumps({"pid": pid}) + "\n")
        handed = spare.handed_off()  # the session owns the spare now; start the next one while it runs
        nxt = req.get("next", True)  # False: no session follows (a batch's last submission)
        if nxt:  # a string: the next session's preloads (another assignment's), for its zygote
            from .forkserver import PRELOAD_ENV
            spare.prestart({**req["env"], PRELOAD_ENV: nxt} if isinstance(nxt, str) else req["env"])
        _, status = os.waitpid(pid, 0)
        running.pop("session", None)
        spare.session_ended()  # its zygote, if the session could not close it (killed at its limit)
        tempdirs.remove_of(pid)  # its course view and staging folder: os._exit and SIGKILL skip its exit handlers
        out.write(json.dumps({"code": os.waitstatus_to_exitcode(status), "spare": handed}) + "\n")


def _end_with_parent(parent: int, running: dict) -> None:
    """A thread of the server: once the process that started it is gone without closing it (a grader's pytest or
    pipeline killed, `timeout`'s SIGTERM), end the session running now and the server, instead of judging on as
    an orphan for minutes (seen: a killed verdict run's session still forking workers 18 minutes later)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    pid = running.get("session")
    if pid:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    from . import spare
    try:
        spare.shutdown()
    finally:
        os._exit(1)


_WARMED: set[str] = set()


def _warm(env: dict) -> None:
    """Import here, once per server, the torch modules that the session's assignment imports ahead in its
    workers (``forkserver.preload_for``, in the session's env): its hidden suite uses the same machinery
    (15-05's judge exports its own programs: the first torch.export imports ~0.7 s of CPU in every session)."""
    import gc
    import importlib
    import warnings
    from .forkserver import PRELOAD_ENV
    names = [m for m in env.get(PRELOAD_ENV, "").split(",") if m.split(".")[0] == "torch" and m not in _WARMED]
    if not names:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            _WARMED.add(name)
            try:
                importlib.import_module(name)
            except Exception:  # the session imports it itself, or does without
                pass
    from .forkserver import _wants_graphs, warm_graphs
    if _wants_graphs(names):
        warm_graphs()  # the session's own exports (15-05 exports its references) skip the first use's set-up
    gc.freeze()  # as at start: no collection in a session walks what the server imported


def _scan_constants() -> None:
    """Hypothesis draws some inputs from the constants of the local modules loaded (course's, here), and scans
    every module new since its last scan, once in each session (about 0.3 s of CPU there): scanned here, each
    session forked from the server scans only what it imports itself (the hidden suite). Same constants."""
    try:
        from hypothesis.internal.conjecture.providers import _get_local_constants
    except ImportError:  # another hypothesis: each session scans for itself
        return
    _get_local_constants()


class JudgeServer:
    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from course.judge.server import main; main()"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_repo(), os.environ.get("PYTHONPATH")]))})
        self.sessions = 0  # sessions run to completion (tests check the server was really used)
        self.spares = 0  # sessions that were handed a worker zygote started ahead (course.judge.spare)
        self.next_expected = True  # False: the next session run is the last one (no zygote started ahead)
        if self._line(120) != {"ready": True}:
            self.close()
            raise RuntimeError("the judge server did not start")

    def _line(self, timeout: float) -> dict | None:
        import select
        r, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not r:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def run(self, args: list[str], env: dict, cwd: str, log: str, timeout: float) -> int | None:
        """Run one pytest session in a fork; its exit code, or None if it ran past ``timeout``.
        Raises RuntimeError (and shuts the server down) when the server misbehaves."""
        try:
            code = self._run(args, env, cwd, log, timeout)
        except (RuntimeError, OSError, ValueError) as exc:
            self.close()
            raise RuntimeError(str(exc)) from None
        self.sessions += code is not None
        return code

    def _run(self, args, env, cwd, log, timeout):
        self.proc.stdin.write(json.dumps({"args": args, "env": env, "cwd": cwd, "log": log,
                                          "next": self.next_expected}) + "\n")
        self.proc.stdin.flush()
        started = self._line(30)
        if not started:
            raise RuntimeError("the judge server did not fork a session")
        deadline = time.monotonic() + timeout
        while True:
            done = self._line(max(0.1, min(5.0, deadline - time.monotonic())))
            if done is not None:
                self.spares += bool(done.get("spare"))
                return done["code"]
            if not self.alive():
                raise RuntimeError("the judge server exited")
            if time.monotonic() > deadline:
                for kill in (os.killpg, os.kill):
                    try:
                        kill(started["pid"], signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                self._line(30)  # the server reports the killed session
                return None

    def prestart(self, env: dict, timeout: float = 60, wait: bool = False) -> bool:
        """Start the zygote of the next session's worker now (before the first submission of a batch);
        ``wait``: return once it has preloaded."""
        try:
            self.proc.stdin.write(json.dumps({"prestart": True, "env": env, "wait": wait}) + "\n")
            self.proc.stdin.flush()
            return self._line(timeout) == {"code": 0}
        except (OSError, ValueError):
            return False

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)  # at end of input it discards its spare zygote (folder, cgroup)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.proc.wait()


def _repo() -> str:
    from .. import REPO_ROOT
    return str(REPO_ROOT)


_SERVER: JudgeServer | None = None


def shared() -> JudgeServer | None:
    """The process-wide server, started on first use; None when turned off or if it cannot start."""
    global _SERVER
    if not settings.current().judge_server:
        return None
    if _SERVER is None or not _SERVER.alive():
        try:
            _SERVER = JudgeServer()
        except Exception:
            _SERVER = None
            return None
        import atexit
        atexit.register(_SERVER.close)
    return _SERVER
