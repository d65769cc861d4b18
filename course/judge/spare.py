"""A worker zygote started ahead of the judge session that will use it.

A submission's worker must start in a fresh sandbox: a new bwrap, a new Python, torch imported
again (about 2 s, on the critical path of every autograde). The judge server
(``course.judge.server``) therefore starts the *next* submission's zygote while the current
one is being judged: a fresh sandbox, its own cgroup, nothing run in it yet. The next session,
forked from the server, takes it over (``take``) and forks its one worker from it; the
server forgets it at that fork (``handed_off``) and starts another. A spare is used by one
session only, and only when it was started with exactly the sandbox, environment and limits
that session would have used; otherwise the session discards it and starts its worker as
before. ``COURSE_SPARE_ZYGOTE=0`` turns this off.

Not imported with ``course.judge.adapter``: its defaults read COURSE_* limits at import, and the
server must not fix them for the sessions it forks.
"""
from __future__ import annotations

import os

from .. import settings


def file_limit() -> int:
    """Bytes a worker may write to one file (ProcessStudent's default too)."""
    return settings.current().file_limit_mb * 2**20


_SPARE: tuple | None = None  # (key, ForkServer, cgroup Group or None)
_HANDED: list = []  # the server's handles on zygotes it gave away, reaped when they exit
_N = 0


def enabled() -> bool:
    return settings.current().spare_zygote


def worker_env() -> dict:
    """The allow-listed environment of a submission's worker (and of its zygote)."""
    from .. import sandbox
    from .forkserver import PRELOAD_ENV
    preload = {PRELOAD_ENV: os.environ[PRELOAD_ENV]} if os.environ.get(PRELOAD_ENV) else {}
    return sandbox.clean_env(COURSE_FAST="1", COURSE_GRADING="1", NBGRADER_EXECUTION="autograde", **preload)


def key(sandboxed: bool, file_limit: int, memory_limit: int, tasks: int, env: dict) -> tuple:
    return sandboxed, file_limit, memory_limit, tasks, tuple(sorted(env.items()))


def _limits() -> tuple[int, int]:
    limits = settings.current()
    return limits.memory_limit_mb * 2**20, limits.task_limit


def prestart(session_env: dict) -> None:
    """In the judge server: start a zygote for a session that will run with ``session_env`` (the
    one before it is the best guess). Never raises: without a spare, the session starts its own."""
    global _SPARE, _N
    discard()
    if not session_env or not _enabled_in(session_env):
        return
    saved = dict(os.environ)
    try:
        os.environ.clear()
        os.environ.update(session_env)
        from .. import sandbox
        from ..sandbox import cgroup
        from .forkserver import ForkServer
        sandboxed = sandbox.resolve("on")  # a single-notebook session (grading) asks for the sandbox
        env, (memory, tasks) = worker_env(), _limits()
        _N += 1
        group = cgroup.Group.create(f"z{_N}", memory, tasks)
        try:
            server = ForkServer(sandboxed, env, file_limit(), wait=False, group=group)
        except Exception:
            if group is not None:
                group.remove()
            raise
        _SPARE = (key(sandboxed, file_limit(), memory, tasks, env), server, group)
    except Exception:
        _SPARE = None
    finally:
        os.environ.clear()
        os.environ.update(saved)


def wait_ready() -> bool:
    """Block until the zygote started ahead has preloaded (before a batch's first submission, so that
    it does not wait for it); False, and no spare, if it failed to start."""
    spare = _SPARE
    if spare is None:
        return False
    try:
        spare[1]._await_ready()
        return True
    except Exception:
        discard()
        return False


def _enabled_in(env: dict) -> bool:
    return env.get("COURSE_SPARE_ZYGOTE", "1") not in ("0", "off")


def handed_off() -> bool:
    """In the judge server, right after forking a session: that session owns the spare now (True if
    there was one)."""
    global _SPARE
    handed = _SPARE is not None
    if handed:
        _SPARE[1].release()
        _HANDED.append(_SPARE[1:])
        _SPARE = None
    _tidy_handed()
    return handed


def session_ended() -> None:
    """In the judge server, once the session has exited: its zygote (and any earlier) goes too."""
    _tidy_handed(wait=True)


def _tidy_handed(wait: bool = False) -> None:
    """Reap the zygotes of finished sessions and remove what they leave (a session killed at its time
    limit cannot: its zygote's folder and cgroup are the server's to remove)."""
    from .. import fstree
    keep = []
    for server, group in _HANDED:
        if server.proc.poll() is None and not wait:
            keep.append((server, group))
            continue
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
        fstree.remove(str(server.root))
        if group is not None:
            group.remove()
    _HANDED[:] = keep


def take(wanted: tuple):
    """In a session: (ForkServer, group) of the spare if it matches ``wanted`` (see ``key``), else None
    (a spare that does not match is discarded)."""
    global _SPARE
    spare, _SPARE = _SPARE, None
    if spare is None:
        return None
    if spare[0] != wanted or not spare[1].alive():
        _close(spare)
        return None
    return spare[1], spare[2]


def discard() -> None:
    """Close the spare, if any."""
    global _SPARE
    spare, _SPARE = _SPARE, None
    if spare is not None:
        _close(spare)


def shutdown() -> None:
    """In the judge server, at its end: the spare, and whatever the zygotes it handed out left."""
    discard()
    _tidy_handed(wait=True)


def _close(spare) -> None:
    try:
        spare[1].close()
    finally:
        if spare[2] is not None:
            spare[2].remove()
