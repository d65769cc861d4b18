"""A sandboxed kernel started ahead, so the next notebook does not wait for one to boot.

Starting the ``course-sandbox`` kernel and importing torch in it takes about 2 s of a submission's
time. When a notebook has run, ``prestart`` launches the next kernel the same way jupyter_client
would (its own ``k-XXXX/`` folder, connection file and key, the kernelspec's command, a new process
group), while the judge and nbgrader finish the current submission. The next notebook's kernel
manager adopts it (``SandboxKernelManager.adopt``) when it was started for the same kernelspec and
the same environment; otherwise it is discarded. Each spare serves one notebook: it is never reused,
and no code but the launcher's and the kernel's own start-up has run in it. Used in the nbgrader
runner (``make grade``, batches, the benchmark), where notebook follows notebook; off with
``COURSE_SPARE_KERNEL=0``.
"""
from __future__ import annotations

import atexit
import os
import subprocess
import tempfile
import threading
from dataclasses import dataclass

from ... import sandbox
from ... import settings
from ...sandbox import cgroup
from ... import fstree

# The key holds every variable the launcher, the sandbox or the kernel's Python can read (course and
# nbgrader settings, what the sandbox passes in, Python's and the loader's own), except where this
# nbgrader command found the kernelspec and keeps kernel folders (new folders for each command that
# loads the configuration): the kernelspec's content is in the key instead.
PREFIXES = ("COURSE_", "NBGRADER_", "LC_", "PYTHON", "LD_")
VOLATILE = ("JUPYTER_PATH", "JUPYTER_RUNTIME_DIR", "COURSE_KERNEL_ROOT")


@dataclass
class Spare:
    key: tuple
    kernel_dir: str
    connection_file: str
    proc: subprocess.Popen

    def alive(self) -> bool:
        return self.proc.poll() is None

    def discard(self) -> None:
        """Its process tree, its cgroup (made by the launcher, named by its pid) and its folder."""
        pid = self.proc.pid
        sandbox.kill_tree(self.proc)
        cgroup.Group.named(f"{cgroup.PREFIX}{pid}-kernel").remove()
        fstree.remove(self.kernel_dir)


_lock = threading.Lock()
_spare: Spare | None = None
started = 0  # how many spares this process has started (for tests and the benchmark)


_wanted = False  # this process grades notebook after notebook (the nbgrader runner)


def use_in_this_process(wanted: bool = True) -> None:
    """Called by a process that runs many nbgrader commands (course.grading.class_run.runner): there a kernel
    started ahead is used by the next notebook; in a one-off nbgrader command, or after a batch's last
    notebook, it would be wasted (``wanted=False``)."""
    global _wanted
    _wanted = wanted


def enabled() -> bool:
    return _wanted and settings.current().spare_kernel


def _spec(kernel_name: str):
    from jupyter_client.kernelspec import KernelSpecManager
    return KernelSpecManager().get_kernel_spec(kernel_name)


def _key(kernel_name: str, spec) -> tuple:
    env = tuple(sorted((k, v) for k, v in os.environ.items() if k not in VOLATILE and
                       (k.startswith(PREFIXES) or k in sandbox.ENV_ALLOW)))
    return kernel_name, tuple(spec.argv), tuple(sorted(spec.env.items())), env


def prestart(kernel_name: str, runtime_root: str) -> None:
    """Start the next notebook's kernel now (replacing a spare that was not used)."""
    global _spare, started
    if not enabled():
        return
    from jupyter_client.connect import write_connection_file

    spec = _spec(kernel_name)
    kernel_dir = tempfile.mkdtemp(prefix="k-", dir=runtime_root)
    try:
        os.mkdir(os.path.join(kernel_dir, "ipc"), 0o700)
        conn = os.path.join(kernel_dir, "connection.json")
        write_connection_file(conn, ip=os.path.join(kernel_dir, "ipc", "kernel"), transport="ipc",
                              kernel_name=kernel_name)
        argv = [a.replace("{connection_file}", conn) for a in spec.argv]
        env = {**os.environ, **spec.env}
        # not this command's output: the runner points it at the current submission's log, and the
        # next submission's code would write there
        proc = subprocess.Popen(argv, env=env, cwd=kernel_dir, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
    except Exception:
        fstree.remove(kernel_dir)
        raise
    with _lock:
        old, _spare = _spare, Spare(_key(kernel_name, spec), kernel_dir, conn, proc)
        started += 1
    if old is not None:
        old.discard()


def wait_ready(timeout: float = 60) -> bool:
    """Block until the kernel started ahead answers (its preloads done), so that a batch's first
    notebook does not wait for it to boot; False if it did not answer in time."""
    with _lock:
        spare = _spare
    if spare is None:
        return False
    from jupyter_client import BlockingKernelClient
    client = BlockingKernelClient(connection_file=spare.connection_file)
    client.load_connection_file()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=timeout)
        return True
    except RuntimeError:
        return False
    finally:
        client.stop_channels()


def take(kernel_name: str) -> Spare | None:
    """The spare, if it was started for this kernelspec and environment and is still running; it is
    then the caller's. A spare that does not fit is discarded."""
    global _spare
    with _lock:
        spare, _spare = _spare, None
    if spare is None:
        return None
    if spare.key == _key(kernel_name, _spec(kernel_name)) and spare.alive():
        return spare
    spare.discard()
    return None


def discard() -> None:
    global _spare
    with _lock:
        spare, _spare = _spare, None
    if spare is not None:
        spare.discard()


atexit.register(discard)
