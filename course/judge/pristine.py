"""A fresh interpreter for probes, without paying for a new Python process.

Some checks must run a file the submission saved in a process that has never
seen the submission's code (``torch.jit.load`` of a saved model, with no class
available). Starting ``python`` and importing torch costs seconds. Instead, the
worker forks a *pristine* copy of itself before it loads any submission cell:
it holds torch (preloaded by the zygote) and nothing of the student's. Only
workers whose probes use ``run_fresh`` fork it (``Worker.add_probes``): each
fork and exit costs about 30 ms of CPU, once per notebook loaded. Each
request forks the pristine copy once more, runs the given source as
``__main__`` in that child, and reports its exit code and the end of its
output. The submission's cells never ran in it, so it is a fresh interpreter
for every purpose a check has (same sandbox, same limits, same student).

Worker side: ``start()`` once, before any submission code runs.
Probe side: ``run_fresh(source, argv, cwd, timeout)``, which falls back to a
real ``python -I -c`` process where there is no pristine copy (a worker
started without it, or in-process checking).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

_CHANNEL: tuple[int, int] | None = None  # (requests to the pristine copy, its replies)


def started() -> bool:
    return _CHANNEL is not None


def start(close: tuple[int, ...] = ()) -> None:
    """Fork the pristine copy (call before the submission's code runs). ``close``: descriptors the
    copy must not hold (the worker's protocol with the judge: nothing run in a fresh copy may write
    a frame there)."""
    global _CHANNEL
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(req_w)
        os.close(rep_r)
        for fd in close:
            os.close(fd)
        code = 0
        try:
            _serve(req_r, rep_w)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(req_r)
    os.close(rep_w)
    _CHANNEL = (req_w, rep_r)


def _serve(req_r: int, rep_w: int) -> None:
    requests = os.fdopen(req_r, "r")
    replies = os.fdopen(rep_w, "w", buffering=1)
    for line in requests:  # EOF when the worker exits
        req = json.loads(line)
        replies.write(json.dumps(_run_one(req)) + "\n")


def _run_one(req: dict) -> dict:
    log = os.path.join(req["cwd"], ".fresh-output")
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.chdir(req["cwd"])
            sys.argv = ["-c", *req["argv"]]
            exec(compile(req["source"], "<fresh>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            import traceback
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    deadline = time.monotonic() + req["timeout"]
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            code = None
            break
        time.sleep(0.01)
    try:
        with open(log, "rb") as f:
            f.seek(max(0, os.path.getsize(log) - 4000))
            tail = f.read().decode("utf-8", "replace")
        os.unlink(log)
    except OSError:
        tail = ""
    return {"code": code, "output": tail}


def run_fresh(source: str, argv: list[str], cwd: str, timeout: float) -> tuple[int | None, str]:
    """Run ``source`` as ``__main__`` in a fresh interpreter; (exit code or None on timeout, output tail)."""
    if _CHANNEL is not None:
        req_w, rep_r = _CHANNEL
        try:
            os.write(req_w, (json.dumps({"source": source, "argv": argv, "cwd": cwd, "timeout": timeout})
                             + "\n").encode())
            reply = _read_line(rep_r, timeout + 10)
            if reply is not None:
                return reply["code"], reply["output"]
        except (OSError, ValueError):
            pass
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    try:
        done = subprocess.run([sys.executable, "-I", "-c", source, *argv], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, ""
    return done.returncode, (done.stdout + done.stderr)[-4000:]


def _read_line(fd: int, timeout: float) -> dict | None:
    import select
    buf = b""
    deadline = time.monotonic() + timeout
    while not buf.endswith(b"\n"):
        r, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not r:
            return None
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        buf += chunk
    return json.loads(buf)
