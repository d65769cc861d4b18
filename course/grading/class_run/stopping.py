"""Stopping a grading run cleanly on SIGINT (Ctrl-C) or SIGTERM (a scheduler, ``kill``).

``install()`` (the pipeline's main) replaces Python's KeyboardInterrupt with a handler that marks
the run as stopping and at once kills every process this one started, however deep (runners, judge
servers and their zygotes, kernels, bubblewrap sandboxes): the run's children are listed with
psutil and killed together, and this process becomes their subreaper, so that nothing re-parented
while they die escapes the sweep. Workers then take no new submission and start no process;
the pipeline prints one line and exits with 128 + the signal's number.
"""
from __future__ import annotations

import ctypes
import os
import signal
import threading
import time

_STOP = threading.Event()
_SIGNAL = [0]
PR_SET_CHILD_SUBREAPER = 36


def requested() -> bool:
    return _STOP.is_set()


def exit_code() -> int:
    return 128 + (_SIGNAL[0] or signal.SIGINT)


def install() -> None:
    """SIGINT and SIGTERM stop the run (main thread only, as Python's signal handlers are)."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _on_signal)


def _on_signal(signum, frame) -> None:
    _SIGNAL[0] = _SIGNAL[0] or signum
    _STOP.set()
    end_children()


def end_children(within: float = 2.0) -> None:
    """SIGKILL every descendant of this process, again while new ones appear, and reap them."""
    import psutil

    try:  # orphans of the processes killed below come back to this process, not to PID 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    me = psutil.Process()
    deadline = time.monotonic() + within
    while True:
        try:
            procs = me.children(recursive=True)
        except psutil.Error:
            procs = []
        alive = [p for p in procs if _alive(p)]
        for p in alive:
            try:
                p.kill()
            except psutil.Error:
                pass
        psutil.wait_procs(alive, timeout=0.2)
        _reap()
        if not alive or time.monotonic() > deadline:
            return


def _alive(p) -> bool:
    import psutil
    try:
        return p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _reap() -> None:
    """Collect the exit status of dead children nobody waits for (orphans adopted above)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
