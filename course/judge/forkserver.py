"""Start submission workers by forking a process that has already imported torch.

Importing torch (and dynamo, torchvision, IPython) costs several seconds per
process; a judge run that loads many notebooks, or restarts a crashed worker,
would pay that every time. The zygote imports them once, inside the same
sandbox a worker would get, and forks one worker per notebook. It never runs
a tensor operation or touches CUDA, so its children start clean.

Scope: one zygote per judge process. Grading runs one judge process per
submission, so forked workers never share a sandbox with another student's.

Judge side: ``ForkServer.spawn()`` returns a ``ForkedWorker`` that behaves like
the ``subprocess.Popen`` of a worker (pid, stdin, stdout, poll, wait, kill).
Zygote side: ``main()``, started by the judge, never imported there.
"""
from __future__ import annotations

import ast
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

FD_ENV = "COURSE_ZYGOTE_FD"
PRELOAD_ENV = "COURSE_WORKER_PRELOAD"  # comma-separated; set per assignment by ``preload_for``
# What every worker needs (the worker's own cell runner included); an assignment adds what its notebook imports.
# torch._dynamo too: an optimizer's constructor, torch.func's transforms, FlopCounterMode and
# use_deterministic_algorithms import it on first use, 1.6-2.5 s of CPU in every worker of almost every topic.
BASE = ("torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.utils.data", "numpy",
        "IPython.core.interactiveshell", "IPython.core.inputtransformer2", "torch._dynamo")
PRELOAD = BASE + ("torch.fx", "torchvision", "matplotlib.pyplot", "tqdm.auto")  # unknown assignment
HEAVY = ("torch", "torchvision", "numpy", "matplotlib", "tqdm", "triton")  # packages worth importing ahead
# (triton: 16-01's notebook imports it at the top, about 0.11 s of CPU a worker after torch)
# Calls that import heavy modules on first use (gradcheck: sympy through symbolic_shapes, ~1 s; the first
# torch.cond or torch.export: AOT autograd, dynamo's backends, export's tracer, ~0.7 s of 0.96 s).
_GRAPHS = ("torch._dynamo", "torch._functorch.aot_autograd", "torch._functorch.compilers",
           "torch._dynamo.backends.debugging", "torch._dynamo.repro.after_dynamo", "torch.export._trace")
LAZY = {"gradcheck": ("torch.fx.experimental.symbolic_shapes",), "gradgradcheck": ("torch.fx.experimental.symbolic_shapes",),
        "compile": _GRAPHS, "cond": _GRAPHS, "export": _GRAPHS}
# Modules whose first use imports another heavy one: forward-mode AD (torch.func.jvp, fwAD.dual_level) imports
# torch._decomp.decompositions_for_jvp, which scripts its decompositions: about 0.3 s of CPU in every 16-02 worker.
IMPLIES = {"torch.autograd.forward_ad": ("torch._decomp.decompositions_for_jvp",),
           "torch.func": ("torch._decomp.decompositions_for_jvp",)}
_GRAPHS_WARM = False  # warm_graphs() has run in this process (or in the template it was forked from)


def warm_graphs() -> None:
    """The first torch.cond and torch.export of a process, once for all its children: past their imports (_GRAPHS),
    dynamo's and export's first use sets up lazily (about 0.2 s of CPU in each kernel and worker of a topic that
    calls them, issue 40). Run by a grading worker's template and the judge server, which fork many children; not
    by a zygote, which serves one submission when grading (it would cost more than it saves). A tiny model of the
    course's own is called eagerly through torch.cond and exported; then torch._dynamo.reset() drops its compiled
    code and guards, and the RNG, grad mode, warning filters and environment are as before. Nothing of a
    submission or a hidden suite is involved; no thread is started."""
    global _GRAPHS_WARM
    if _GRAPHS_WARM:
        return
    _GRAPHS_WARM = True
    import warnings

    import torch

    class _Branch(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(3, 2)

        def forward(self, x):
            return torch.cond(x.sum() > 0, lambda t: self.lin(t + 1), lambda t: self.lin(t - 1), (x,))

    environ = dict(os.environ)  # inductor's cache_dir() names this process's TMPDIR in TORCHINDUCTOR_CACHE_DIR
    with warnings.catch_warnings(), torch.random.fork_rng(devices=[]):
        warnings.simplefilter("ignore")
        try:
            model = _Branch().eval()
            with torch.no_grad():
                model(torch.ones(2, 3))
            torch.export.export(model, (torch.ones(2, 3),))
        except Exception:  # only speed is lost
            pass
        finally:
            torch._dynamo.reset()
            torch._dynamo.utils.counters.clear()  # as a fresh process has them
            os.environ.clear()
            os.environ.update(environ)  # a child finds its own TMPDIR's, as a fresh process would


def _wants_graphs(names) -> bool:
    return "torch.export._trace" in names


def _graded_code(tree):
    """The nodes of ``tree`` that run under grading: not inside an ``if run_demos():`` block."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "run_demos" in ast.unparse(child.test):
                stack.extend(child.orelse)
            else:
                stack.append(child)


def preload_for(assignment: str | None) -> str:
    """The modules a worker zygote for ``assignment`` imports ahead: BASE, what the student's notebook
    imports from HEAVY packages, and what the calls it or the topic's probes make outside demo blocks import
    on first use (LAZY). A zygote is started ahead on a spare core, but a 2-core grader has no spare
    core: torchvision alone costs about 1.5 s of CPU per submission, wasted on the topics that never use it
    (a module imported later by the submission costs only that worker). Under a grading worker's template
    (course/sandbox/template.py) torch's modules are imported there, once."""
    from .. import RELEASE_DIR, TESTS_DIR
    found = sorted((RELEASE_DIR / assignment).glob("*.ipynb")) if assignment else []
    if not found:
        return ",".join(PRELOAD)
    sources = ["".join(c.get("source", "")) for c in json.loads(found[0].read_text()).get("cells", [])
               if c.get("cell_type") == "code"]
    probes = TESTS_DIR / assignment / "probes.py"
    sources += [probes.read_text()] if probes.exists() else []
    names = list(BASE)
    for src in sources:
        try:
            tree = ast.parse(src)
        except SyntaxError:  # magics: the worker's transformer handles them; nothing to learn here
            continue
        for node in _graded_code(tree):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            mods = [m for m in mods if m.split(".")[0] in HEAVY]
            if isinstance(node, ast.Call):
                f = node.func
                called = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if called in LAZY and (called.startswith("grad") or ast.unparse(f).startswith("torch.")):
                    mods += LAZY[called]  # torch.compile(...), torch.cond(...), any gradcheck(...)
            names += [m for m in mods if m not in names]
    for m in list(names):
        names += [i for i in IMPLIES.get(m, ()) if i not in names]
    return ",".join(names)


# ----------------------------------------------------------------- zygote side

def _child(ctl: socket.socket, req: dict, fds: list[int]) -> None:
    from . import worker
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    ctl.close()
    os.setpgid(0, 0)
    fd_in, fd_out, fd_log, fd_status = fds
    os.close(fd_status)  # the zygote's, to report this child's exit
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(fd_log, 1)
    os.dup2(fd_log, 2)
    for fd in (devnull, fd_log):
        os.close(fd)
    os.makedirs(req["dir"], exist_ok=True)
    os.chdir(req["dir"])
    os.environ.update(HOME=req["dir"], TMPDIR=req["dir"])
    tempfile.tempdir = None
    import random
    random.seed()  # a fresh process would not share the zygote's random state
    try:
        import numpy
        numpy.random.seed()
    except ImportError:
        pass
    try:
        worker.serve(fd_in, fd_out)
    finally:
        sys.stdout.flush()
        os._exit(0)


def main() -> None:
    ctl = socket.socket(fileno=int(os.environ.pop(FD_ENV)))
    import importlib
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in filter(None, os.environ.get(PRELOAD_ENV, ",".join(PRELOAD)).split(",")):
            try:
                importlib.import_module(name)
            except Exception as exc:  # a missing optional package only costs speed
                print(f"zygote: could not preload {name}: {exc}", file=sys.stderr)
    from . import worker
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        worker.warm()  # the shell and caches each worker would build first, built once here
    import gc
    gc.freeze()  # the preloaded modules outlive every worker: no collection walks them again
    status_fds: dict[int, int] = {}  # child pid -> the pipe its exit code is written to

    def reap(*_):
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.waitstatus_to_exitcode(status)
            fd = status_fds.pop(pid, None)
            if fd is not None:
                try:
                    os.write(fd, str(code).encode())
                except OSError:
                    pass
                os.close(fd)

    signal.signal(signal.SIGCHLD, reap)
    ctl.send(b'{"ready": true}')
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(ctl, 65536, 4)
        except OSError:
            return
        if not msg:
            return
        req = json.loads(msg)
        sys.stdout.flush()
        sys.stderr.flush()
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGCHLD])
        pid = os.fork()
        if pid == 0:
            for fd in status_fds.values():  # other workers' exit pipes stay with the zygote
                os.close(fd)
            _child(ctl, req, fds)
        status_fds[pid] = fds[3]
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGCHLD])
        for fd in fds[:3]:
            os.close(fd)
        ctl.send(json.dumps({"pid": pid}).encode())


# ------------------------------------------------------------------ judge side

class ForkedWorker:
    """The judge's handle on one forked worker, shaped like subprocess.Popen. Its exit code comes
    from the zygote through a pipe of its own (no host folder is writable from the sandbox)."""

    def __init__(self, pid: int, fd_w: int, fd_r: int, fd_status: int, log_path: Path):
        self.pid, self.log_path = pid, log_path
        self.stdin = open(fd_w, "wb")
        self.stdout = open(fd_r, "rb", buffering=0)
        os.set_blocking(fd_status, False)
        self._status_fd: int | None = fd_status
        self._status, self._code, self._lock = b"", None, threading.Lock()
        self.returncode: int | None = None

    def _exit_status(self) -> int | None:
        """The code the zygote wrote, once it has closed the pipe; None before. Thread-safe: the judge
        and its memory watcher both poll."""
        with self._lock:
            fd = self._status_fd
            if fd is None:
                return self._code
            while len(self._status) <= 64:
                try:
                    chunk = os.read(fd, 64)
                except BlockingIOError:
                    return None
                except OSError:
                    chunk = b""
                if not chunk:
                    break  # closed: the code is complete (or the zygote died without writing it)
                self._status += chunk
            os.close(fd)
            self._status_fd = None
            try:
                self._code = int(self._status.decode("ascii", "replace").strip())
            except ValueError:
                self._code = None
            return self._code

    def poll(self) -> int | None:
        if self.returncode is not None:
            return self.returncode
        self.returncode = self._exit_status()
        if self.returncode is not None:
            return self.returncode
        from ..sandbox import procs
        if procs.state(self.pid) not in ("Z", "X"):
            return None
        end = time.monotonic() + 2.0  # exited: the zygote is about to reap it and write its status
        while time.monotonic() < end:
            self._await_status(0.05)
            self.returncode = self._exit_status()
            if self.returncode is not None:
                return self.returncode
        self.returncode = -signal.SIGKILL  # status lost (the zygote died with it)
        return self.returncode

    def _await_status(self, seconds: float) -> None:
        """Sleep up to ``seconds``, waking as soon as the zygote writes the exit code (the status pipe turns
        readable): a fixed 50 ms sleep here was most of closing a worker, once per notebook judged."""
        import select
        fd = self._status_fd
        try:
            if fd is not None:
                select.select([fd], [], [], seconds)
                return
        except (OSError, ValueError):  # closed meanwhile by the memory watcher's poll
            pass
        time.sleep(seconds)

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            left = 0.05 if deadline is None else min(0.05, deadline - time.monotonic())
            if left <= 0:
                raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout)
            self._await_status(left)
        return self.returncode

    def kill(self) -> None:
        if self.pid > 1 and self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)

    def close_pipes(self) -> None:
        for f in (self.stdin, self.stdout):
            try:
                f.close()
            except OSError:
                pass
        with self._lock:
            if self._status_fd is not None:
                os.close(self._status_fd)
                self._status_fd = None


class ForkServerError(RuntimeError):
    pass


class ForkServer:
    def __init__(self, sandboxed: bool, env: dict, file_limit: int, start_timeout: float = 180, *,
                 wait: bool = True, group=None):
        """``wait=False``: return at once; the first ``spawn`` waits for the zygote to be ready.
        ``group``: the cgroup the zygote (and so every worker it forks) runs in."""
        from .. import sandbox
        self.sandboxed, self.env, self.file_limit = sandboxed, env, file_limit
        self._owner, self._start_timeout, self._ready = os.getpid(), start_timeout, False
        from ..sandbox import tempdirs
        # root/ holds the logs and is never mounted in the sandbox: the zygote writes no host folder.
        self.root = Path(tempdirs.make("zygote"))
        self._n = 0
        self._log = open(self.root / "zygote.log", "w+b")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {**env, FD_ENV: str(theirs.fileno())}
        if not sandboxed:
            (self.root / "work").mkdir()
        self.proc = self._from_template(env, theirs, group) if sandboxed else None
        if self.proc is None:
            argv = sandbox.worker_argv(sandboxed, entry="course.judge.forkserver", env=env)
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                                         cwd=self.root, env=env, pass_fds=[theirs.fileno()],
                                         preexec_fn=sandbox.limits_preexec(file_limit, group))
        theirs.close()
        self.sock = ours
        if wait:
            self._await_ready()

    def _from_template(self, env: dict, theirs: socket.socket, group):
        """The zygote as a child of the grading worker's template (``course/sandbox/template.py``), which
        imported torch already; None where there is none (bubblewrap then starts a fresh one)."""
        from ..sandbox import template
        if not os.environ.get(template.SOCKET_ENV) or not template.wanted():
            return None
        req = template.request(payload="call", target="course.judge.forkserver:main", argv=["forkserver"],
                               env={**env, FD_ENV: "3"}, group=group, file_limit=self.file_limit)
        devnull = os.open(os.devnull, os.O_RDONLY)
        try:
            return template.spawn(req, [devnull, self._log.fileno(), self._log.fileno(), theirs.fileno()])
        except template.TemplateError as exc:
            self._log.write(f"no zygote from the template ({exc}): a fresh one instead\n".encode())
            self._log.flush()
            return None
        finally:
            os.close(devnull)

    def _await_ready(self) -> None:
        if not self._ready:
            self._reply(self._start_timeout, "starting")
            self._ready = True

    def _reply(self, timeout: float, what: str) -> dict:
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(4096)
        except (OSError, socket.timeout) as exc:
            raise ForkServerError(f"the worker zygote did not answer while {what}: {exc}") from None
        if not data:
            raise ForkServerError(f"the worker zygote exited while {what}")
        return json.loads(data)

    def alive(self) -> bool:
        if os.getpid() == self._owner:
            return self.proc.poll() is None
        from ..sandbox import procs  # a session that took over a spare: the zygote is not its child
        return procs.pid_alive(self.proc.pid) and procs.state(self.proc.pid) not in ("Z", "X")

    def release(self) -> None:
        """The process that started the zygote gives it away (to a session it forked): close its own
        ends, leave the zygote running (``proc`` stays, to reap it)."""
        for f in (self.sock, self._log):
            try:
                f.close()
            except OSError:
                pass

    def spawn(self, timeout: float = 60) -> ForkedWorker:
        self._await_ready()
        self._n += 1
        inner_dir = f"/tmp/work/w{self._n}" if self.sandboxed else str(self.root / "work" / f"w{self._n}")
        log_path = self.root / f"w{self._n}.log"
        r_in, w_in = os.pipe()
        r_out, w_out = os.pipe()
        r_st, w_st = os.pipe()
        log = os.open(log_path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            socket.send_fds(self.sock, [json.dumps({"dir": inner_dir}).encode()], [r_in, w_out, log, w_st])
        except OSError as exc:
            for fd in (r_in, w_in, r_out, w_out, log, r_st, w_st):
                os.close(fd)
            raise ForkServerError(f"the worker zygote is gone: {exc}") from None
        for fd in (r_in, w_out, log, w_st):
            os.close(fd)
        try:
            ns_pid = self._reply(timeout, "forking a worker")["pid"]
        except ForkServerError:
            for fd in (w_in, r_out, r_st):
                os.close(fd)
            raise
        host_pid = ns_pid
        if self.sandboxed:
            from ..sandbox import procs
            matches = [p for p in procs.descendants(self.proc.pid) if (procs.ns_pids(p) or [None])[-1] == ns_pid]
            host_pid = matches[0] if matches else -1
        return ForkedWorker(host_pid, w_in, r_out, r_st, log_path)

    def close(self) -> None:
        from .. import sandbox
        try:
            self.sock.close()
        except OSError:
            pass
        sandbox.kill_tree(self.proc)
        if hasattr(self.proc, "conn"):  # a template's child: its lifeline
            self.proc.close()
        self._log.close()
        from .. import fstree
        fstree.remove(str(self.root))


if __name__ == "__main__":
    main()
