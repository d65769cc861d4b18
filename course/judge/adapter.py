"""The adapter hidden tests use to talk to a submission (judge side).

Tests never import student code. They call ``student.call("probe_name", **kwargs)``;
the probe (from the assignment's ``probes.py``) runs next to the submission
and returns plain data, which the test compares here, in a process the
submission cannot touch.

Two transports share one interface:
- ``ProcessStudent``: a worker process (sandboxed when grading) that loads a
  notebook's code once; per-call timeouts, a memory watchdog, restart after
  a crash or a hang.
- ``InProcessStudent``: probes run directly on a live namespace; used by the
  in-notebook ``run_hidden`` when nobody is grading.
"""
from __future__ import annotations

import atexit
import copy
import functools
import io
import marshal
import os
import select
import struct
import subprocess
import threading
import time
from pathlib import Path

import torch

from ..sandbox import cgroup, cputime, native_calls, procs, tempdirs
from .. import fstree
from .. import plain, sandbox
from .. import settings
from .. import notebook as nbtools
from . import expect, spare
from .. import wire
from .seal import code as torch_code
from .worker_text import WorkerText


class StudentFailure(AssertionError):
    """A check failed because the submission misbehaved (raised, hung, crashed)."""


def error_report(err) -> dict:
    """A worker's error report as three strings of bounded length, whatever shape it came in."""
    err = err if isinstance(err, dict) else {}

    def text(key, limit):
        value = err.get(key)
        return plain.cap(value if isinstance(value, str) else "" if value is None else repr(value)[:limit], limit)

    return {"type": text("type", 80) or "Error", "message": text("message", 600), "trace": text("trace", 600)}


class StudentError(StudentFailure):
    def __init__(self, probe: str, err: dict, hint: str = ""):
        self.err = err = error_report(err)
        where = f"\n  at {err['trace']}" if err["trace"] else ""
        detail = err["message"] or ("not implemented yet?" if err["type"] == "NotImplementedError" else "")
        super().__init__(f"your code raised {err['type']}: {detail}{where}{hint}")


class CourseError(RuntimeError):
    """The checks themselves cannot run (a probe file that does not compile or load, a worker that
    failed before any of the submission's code ran): a grading error, never the student's."""


class GraderOverloaded(CourseError):
    """The judge's own work did not finish on this machine (its reference ranks formed no group, or ran past
    their deadline): a grading error that the batch answers by grading the submission again alone."""


@functools.lru_cache(maxsize=64)
def compile_probes(name: str, source: str) -> bytes:
    """The probes as the worker receives them: compiled code without docstrings, never their source
    text, so nothing in the worker's memory can be copied back out as the probe file. Compiled once per
    judge and source (about 14 ms of CPU, paid for each notebook a verdict run loaded)."""
    import marshal
    try:
        code = compile(source, f"<probes {name}>", "exec", optimize=2)
    except SyntaxError as exc:
        raise CourseError(f"the hidden checks' probes (tests/{name}/probes.py) do not compile: line "
                          f"{exc.lineno}: {exc.msg}") from None
    return marshal.dumps(code)


@functools.lru_cache(maxsize=64)
def _forks_ranks(code: bytes) -> bool:
    """Whether compiled probes import fork_ranks (their calls then start ranks of their own)."""
    return "fork_ranks" in marshal.loads(code).co_names


class StudentTimeout(StudentFailure):
    pass


class StudentCrashed(StudentFailure):
    pass


def _read_exact(fd: int, n: int, deadline: float, proc: subprocess.Popen) -> bytes:
    """``n`` bytes from the worker by the deadline. The pieces are joined once at the end: a worker that
    shrinks its pipe to one page and sends a large frame would otherwise make each read copy everything
    read before it (quadratic: a 16 MiB frame cost the judge seconds of CPU, a 512 MiB one the whole call
    limit on a core outside any sandbox's share)."""
    parts, got = [], 0
    while got < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        r, _, _ = select.select([fd], [], [], min(left, 0.5))
        if not r:
            if proc.poll() is not None:
                raise EOFError
            continue
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise EOFError
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


MAX_EXPANDED = 2**24  # tensor elements a reply may hold beyond one per byte sent (expanded views; checks
# convert and flatten replies, so a reply's elements are what it costs the judge's memory)
MAX_RECORDS = 10_000  # records in one reply's zip (torch.save writes a few, and one per tensor storage)


def stored_frame(payload: bytes) -> bytes:
    """A reply frame as ``torch.load`` may read it, or NotPlain. ``torch.save`` writes a zip of stored
    records, but torch's reader also inflates deflated ones, to the size the zip's directory claims and
    in the judge's own memory: a frame of a few hundred kB made of deflated zeros became gigabytes there,
    outside every sandbox's cap. So a zip is read here with Python's reader, every record must be stored
    (its size as written, together no more than the frame), and torch reads a zip written again from those
    records, never the worker's own directory, after each pickle in it has been walked (``plain.scan_pickle``: no
    dict or set of more entries than a reply needs). A frame in torch's format from before 1.6 is refused: no
    torch.save of this course writes it."""
    import zipfile
    if payload[:4] != b"PK\x03\x04":  # how torch.load tells its zip format from the older one
        raise plain.NotPlain("not a zip: torch.save has written one since 1.6")
    try:
        with zipfile.ZipFile(io.BytesIO(payload)) as zin:
            infos = zin.infolist()
            if len(infos) > MAX_RECORDS:
                raise plain.NotPlain(f"more than {MAX_RECORDS} records in its zip")
            if len({i.filename for i in infos}) != len(infos):
                raise plain.NotPlain("two records of the same name in its zip")
            total = 0
            for info in infos:
                if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
                    raise plain.NotPlain(f"a compressed record in its zip ({plain.one_line(info.filename, 80)}): "
                                         "torch.save writes them stored")
                total += info.file_size
                if total > len(payload):
                    raise plain.NotPlain("its zip claims more bytes than the frame holds")
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zout:
                for info in infos:
                    record = zin.read(info)
                    if info.filename.endswith(".pkl"):  # the value (data.pkl) and torch's byte order records
                        plain.scan_pickle(record)
                    zout.writestr(info.filename, record)
    except plain.NotPlain:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
            NotImplementedError, RuntimeError) as exc:
        raise plain.NotPlain(f"its zip does not read: {plain.one_line(str(exc), 120)}") from None
    return out.getvalue()


def _frame(msg: dict) -> bytes:
    """A request as the worker reads it: ``wire``'s format where it writes the value, else torch.save's."""
    try:
        return wire.dumps(msg)
    except wire.Unencodable:  # code objects of probes, Parameters, a state_dict with _metadata
        bio = io.BytesIO()
        torch.save(msg, bio)
        return bio.getvalue()


def _value_of(payload: bytes):
    """A reply frame's value, read as data: ``wire``'s reader, or torch's weights-only one over a rewritten zip."""
    if wire.is_frame(payload):
        return wire.loads(payload, max_elements=len(payload) + MAX_EXPANDED)
    return torch.load(io.BytesIO(stored_frame(payload)), weights_only=True)


def _write_all(fd: int, data: bytes, deadline: float, proc: subprocess.Popen, fd_back: int) -> int:
    """Write a request by the deadline; return how many bytes came back meanwhile (dropped). Nothing
    the worker sends before it has read the whole request can answer it: an honest worker sends
    nothing then, but a submission can write frames of its own until the pipe back is full, and then
    the worker never reads; draining that pipe, and the deadline, keep the judge from waiting forever."""
    os.set_blocking(fd, False)
    view, dropped = memoryview(data), 0
    while view:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        r, w, _ = select.select([fd_back], [fd], [], min(left, 0.5))
        if r:
            chunk = os.read(fd_back, 1 << 16)
            if not chunk:
                raise EOFError
            dropped += len(chunk)
        if not w:
            if not r and proc.poll() is not None:
                raise EOFError
            continue
        try:
            view = view[os.write(fd, view):]
        except BlockingIOError:
            continue
        except (BrokenPipeError, OSError):
            raise EOFError from None
    return dropped


_SERVERS: dict = {}  # (sandboxed, file limit, zygote key) -> ForkServer, one per judge process


@atexit.register
def _close_servers() -> None:
    for server in _SERVERS.values():
        server.close()
    _SERVERS.clear()


FRESH_FOR_FILES = 3  # fresh workers a submission's module may get for files its calls left open


def _open_files_limits(pid: int | None) -> dict[int, int]:
    """Each process of a worker's tree (read before any cell runs) -> its soft RLIMIT_NOFILE ({} where unreadable)."""
    if not pid or pid <= 1:
        return {}
    out = {}
    for p in [pid] + procs.descendants(pid):
        try:
            with open(f"/proc/{p}/limits") as fh:
                line = next(x for x in fh if x.startswith("Max open files"))
            soft = line.split()[3]
            if soft.isdigit():
                out[p] = int(soft)
        except (OSError, StopIteration, IndexError):
            pass
    return out


class ProcessStudent:
    """A submission's code, loaded once in a worker process."""

    def __init__(self, cells: list[str], probes: dict[str, str], *, label: str = "submission",
                 sandboxed: bool | None = None,
                 load_timeout: float | None = None, call_timeout: float | None = None,
                 memory_limit: int | None = None,
                 file_limit: int | None = None, fork: bool = False):
        self.cells, self.probe_sources, self.label = cells, probes, label
        self.probe_code = {name: compile_probes(name, src) for name, src in probes.items()}
        self.rank_modules = {name for name, code in self.probe_code.items() if _forks_ranks(code)}
        self._claimed_no_group = False
        self.heard = WorkerText()  # what the worker sent, and how much of it feedback has shown
        self.course_error: str | None = None
        self.fork = fork  # fork workers from a zygote (worth it when one judge loads many notebooks)
        self.sandboxed = sandbox.resolve() if sandboxed is None else sandboxed
        limits = settings.current()
        self.load_timeout = limits.load_timeout if load_timeout is None else load_timeout
        self.call_timeout = limits.call_timeout if call_timeout is None else call_timeout
        self.memory_limit = limits.memory_limit_mb * 2**20 if memory_limit is None else memory_limit
        self.file_limit = spare.file_limit() if file_limit is None else file_limit
        self.proc: subprocess.Popen | None = None
        self.load_report: dict = {}
        self.broken: str | None = None  # set when the code cannot even be loaded
        self.events: list[str] = []  # one line per incident, for the grading log
        self.starved: list[str] = []  # time-outs while the machine was overloaded (graded again alone)
        self._seq = 0
        self._killed_for_memory = False
        self.native_events = native_calls.declared(probes.values())  # what this topic's checks read
        self.native = None  # native_calls.Watch: the kernel's count of the worker tree's native calls (root only)
        self.native_last: dict[str, int] | None = None  # what it counted during the last request
        self._files: dict[int, int] = {}  # the worker tree's processes at load -> their open-files limit
        self._crowded: str | None = None  # why the worker starts afresh before the next call (files left open)
        self._fresh_for_files = 0  # how many times it did (at most FRESH_FOR_FILES)
        self.zygote_key = "main"  # which of this judge's zygotes forks it (fork mode); "apart": see apart()

    def apart(self) -> "ProcessStudent":
        """The same notebook in another worker with a sandbox, memory and folders of its own (never this
        worker's zygote or spare): what runs there sees nothing of what ran here, only what the judge sends
        it. Its quotes count against this worker's budget. The caller closes it."""
        other = ProcessStudent(self.cells, self.probe_sources, label=self.label, sandboxed=self.sandboxed,
                               load_timeout=self.load_timeout, call_timeout=self.call_timeout,
                               memory_limit=self.memory_limit, file_limit=self.file_limit, fork=self.fork)
        other.zygote_key, other.heard = "apart", self.heard
        return other

    @classmethod
    def from_notebook(cls, path: str | Path, probes: dict[str, str], **kw) -> "ProcessStudent":
        nb = nbtools.read(path)
        return cls(nbtools.submission_code(nb), probes, label=Path(path).name, **kw)

    # ------------------------------------------------------------ process life
    def _start(self) -> None:
        # An allow-listed environment: no salt, no grader paths. Sandboxed, the worker writes only to
        # its private tmpfs; its log is a file of ours it never sees (it only has the descriptor).
        env = spare.worker_env()
        self.proc = self._from_spare(env) or self._fork(env)
        if self.proc is not None:
            self._tmp = None
            self._log = open(self.proc.log_path, "rb")
        else:
            self._tmp = tempdirs.make("worker")
            self._log = open(os.path.join(self._tmp, "worker.log"), "w+b")
            if not self.sandboxed:  # no isolation: it gets a folder of its own to write in
                os.mkdir(os.path.join(self._tmp, "work"))
                env.update(HOME=os.path.join(self._tmp, "work"), TMPDIR=os.path.join(self._tmp, "work"))
            self._group = cgroup.Group.create(f"w{id(self):x}{self._seq}", self.memory_limit,
                                              settings.current().task_limit)
            self.proc = subprocess.Popen(
                sandbox.worker_argv(self.sandboxed, "course.judge.worker", env=env), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._log, cwd=env["HOME"] if not self.sandboxed else self._tmp, env=env,
                preexec_fn=sandbox.limits_preexec(self.file_limit, self._group))
        self._killed_for_memory = False
        self._group = getattr(self, "_group", None)
        threading.Thread(target=self._watch_memory, args=(self.proc,), daemon=True).start()
        # The probes go first: nothing of the submission has run yet, so a failure here is the course's.
        import importlib.util
        for name, code in self.probe_code.items():
            try:
                self._request({"op": "probes", "name": name, "code": code, "magic": importlib.util.MAGIC_NUMBER},
                              self.load_timeout, what="loading the checks")
            except StudentFailure as exc:
                self.close()
                why = f"{exc.err['type']}: {exc.err['message']}" if isinstance(exc, StudentError) else str(exc)
                raise CourseError(f"the hidden checks' probes (tests/{name}/probes.py) could not be loaded in a "
                                  f"fresh worker: {plain.one_line(why, 400)}") from None
        # counted from here on, by the kernel, for every task the worker has now or starts later
        self.native = native_calls.watch(getattr(self.proc, "pid", None), self.native_events)
        self._files = _open_files_limits(getattr(self.proc, "pid", None))
        # where the kernel counts, the worker first seals torch's code against rewriting (course/judge/seal/code.py)
        pid = getattr(self.proc, "pid", None)
        before = torch_code.filters(pid) if self.native is not None and pid and pid > 1 else None
        reply = self._request({"op": "load", "cells": self.cells, "lock": self.native is not None}, self.load_timeout,
                              what="loading your notebook")
        self.load_report = reply
        if before is not None:
            # the lock as the kernel shows it from outside: a step that failed on this node (an old kernel, no
            # Landlock) is said, not silent; the worker's own report (reply["lock"]) is only its claim
            missing = torch_code.held(pid, before)
            if missing:
                claim = reply.get("lock") if isinstance(reply, dict) else None
                self.events.append(f"torch's code was not held still in this worker ({missing}; the worker reported "
                                   f"{plain.one_line(str(claim), 200)}): its native-call counts could be hidden by "
                                   f"rewriting torch's code")

    def _from_spare(self, env: dict):
        """The worker forked from the zygote the judge server started ahead for this session (a fresh
        sandbox and cgroup, used by this worker only), or None."""
        if self.fork or self.zygote_key != "main" or not spare.enabled():
            return None
        tasks = settings.current().task_limit
        took = spare.take(spare.key(self.sandboxed, self.file_limit, self.memory_limit, tasks, env))
        if took is None:
            return None
        self._zygote, self._group = took
        try:
            return self._zygote.spawn()
        except Exception as exc:
            self.events.append(f"the zygote started ahead failed ({plain.one_line(str(exc), 200)}); "
                               "starting a fresh worker process instead")
            self._close_zygote()
            return None

    def _close_zygote(self) -> None:
        """Close what this worker had of its own: a spare's zygote (it served this worker only) and the
        cgroup (noting whether the kernel killed something in it for memory)."""
        zygote, self._zygote = getattr(self, "_zygote", None), None
        if zygote is not None:
            zygote.close()
        group, self._group = getattr(self, "_group", None), None
        if group is not None:
            if group.oom_killed():
                self._killed_for_memory = True
            group.remove()

    def _fork(self, env: dict):
        """A worker forked from this judge's zygote, or None to start a fresh process instead. A worker kept
        apart gets a zygote of its own in a one-notebook session too where the grading worker has a template
        to fork it from: about 2 s of CPU less a 15-10 submission than a fresh Python importing torch (a
        zygote started cold would cost more than the fresh worker)."""
        if not (self.fork or self._apart_from_template()) or not settings.current().forkserver:
            return None
        from .forkserver import ForkServer, ForkServerError
        key = (self.sandboxed, self.file_limit, self.zygote_key)  # each key a sandbox of its own
        for attempt in range(2):
            server = _SERVERS.get(key)
            try:
                if server is None or not server.alive():
                    if server is not None:
                        server.close()
                    server = _SERVERS[key] = ForkServer(self.sandboxed, env, self.file_limit, self.load_timeout)
                return server.spawn()
            except ForkServerError as exc:
                self.events.append(f"worker fork server: {exc}; starting a fresh worker process instead")
                _SERVERS.pop(key, None)
                if server is not None:
                    server.close()
        return None

    def _apart_from_template(self) -> bool:
        from ..sandbox import template
        return self.zygote_key != "main" and self.sandboxed and bool(os.environ.get(template.SOCKET_ENV)) \
            and template.wanted()

    def _watch_memory(self, proc: subprocess.Popen) -> None:
        tasks = settings.current().task_limit
        group = getattr(self, "_group", None)
        # where the worker's cgroup holds both limits this is a second line, polled once a second (five times
        # a second it cost the judge a tenth of its CPU on a 15-08 verdict run: issue 40)
        held = group is not None and all(group.limits().values())
        procs.watch(lambda: proc, self.memory_limit, tasks, 1.0 if held else 0.2,
                    on_limit=lambda why: setattr(self, "_killed_for_memory", True))

    def close(self) -> None:
        if self.native is not None:
            self.native.close()
            self.native = None
        if self.proc is not None:
            sandbox.kill_tree(self.proc)
            if hasattr(self.proc, "close_pipes"):
                self.proc.close_pipes()
            self.proc = None
            self._log.close()
            self._close_zygote()
            if getattr(self, "_tmp", None):
                fstree.remove(self._tmp)
                self._tmp = None

    def _tail_log(self, n: int = 400) -> str:
        try:
            self._log.seek(0, io.SEEK_END)
            size = self._log.tell()
            self._log.seek(max(0, size - n))
            return self._log.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    # ---------------------------------------------------------------- protocol
    def _request(self, msg: dict, timeout: float, what: str):
        assert self.proc is not None
        self._seq += 1
        msg = {**msg, "seq": self._seq}
        data = _frame(msg)
        deadline = time.monotonic() + timeout
        started = cputime.sample(getattr(self, "_group", None))
        native_before = self.native.read() if self.native is not None else None
        self.native_last = None
        files_before = self._files_held() if msg["op"] == "call" else None
        fd = self.proc.stdout.fileno()
        sent = False
        while True:
            try:
                if not sent:
                    note = "its worker sent data nobody asked for (dropped)"
                    if _write_all(self.proc.stdin.fileno(), struct.pack(">Q", len(data)) + data, deadline, self.proc,
                                  fd) and note not in self.events:
                        self.events.append(note)
                    sent = True
                (n,) = struct.unpack(">Q", _read_exact(fd, 8, deadline, self.proc))
                if n > 512 * 2**20:
                    raise StudentCrashed(f"{what}: your code sent back an impossibly large result")
                payload = _read_exact(fd, n, deadline, self.proc)
                if native_before is not None:
                    self.native_last = {k: v - native_before[k] for k, v in self.native.read().items()}
                if files_before is not None:
                    self._crowded = self._files_crowded(files_before, what)
            except TimeoutError:
                spent = started.spent(getattr(self, "_group", None))
                self.events.append(cputime.verdict_text(f"timeout after {timeout:.0f} s while {what}", spent))
                message = cputime.verdict_text(f"your code did not finish within {timeout:.0f} s while {what} "
                                               f"(an endless loop, or far too slow)", spent)
                if spent.starved:
                    self.starved.append(message)
                self.close()
                raise StudentTimeout(message) from None
            except EOFError:
                return self._died(what)
            try:
                reply = plain.check(_value_of(payload), max_elements=len(payload) + MAX_EXPANDED)
            except plain.NotPlain as exc:
                # The frame was read whole and rejected; the worker stays (restarting it for every
                # check only costs time: its next reply is judged on its own).
                raise StudentCrashed(f"{what}: your code sent back a result the grader will not read: {exc}") from None
            except Exception:
                self.close()
                raise StudentCrashed(f"{what}: the result could not be read back (only tensors, numbers, "
                                     f"strings, lists and dicts can be returned)") from None
            if not isinstance(reply, dict) or reply.get("seq") != self._seq:
                # A frame that answers no request: an honest worker sends exactly one reply per request, so this
                # is the submission's own. Reading on would let it keep the judge decoding frames it writes at
                # almost no cost of its own (red team 14: a 1 MB frame of 45,000 keys, 0.1 ms to write again,
                # 100 ms for the judge to read, outside every sandbox's CPU share, call after call).
                self.events.append(f"{what}: its worker sent a frame that answers no request (stopped)")
                self.close()
                raise StudentCrashed(f"{what}: your code's worker sent back data the grader did not ask for "
                                     f"(a reply to no request); the worker was stopped")
            if reply.get("ok"):
                value = reply.get("value")
                self._hear(msg["op"], value)
                expect.remember_reply(value, len(payload))
                return value
            raw = reply.get("error")
            self.heard.hear(list(raw.values()) if isinstance(raw, dict) else raw)
            err = StudentError(msg.get("probe", "?"), error_report(raw), self._load_hint())
            if err.err["type"] == "HiddenFromProbe":  # hiding.py: ops ran out of sight of a probe's op log
                note = f"{what}: ops hidden from the check's op log ({plain.one_line(err.err['message'], 200)})"
                if note not in self.events and len(self.events) < 50:
                    self.events.append(note)
            if err.err["type"] == "RendezvousFailed":  # probelib: the ranks found no group: the machine's load
                self._no_group(msg, what)
            raise err

    def _no_group(self, msg: dict, what: str) -> None:
        """A worker that reports its forked ranks formed no gloo group has the submission graded again alone,
        once. The report is the submission's to write (any probe may raise a class of that name), so only a
        call of a probe module that forks ranks counts, once a worker, and in the judge's words only."""
        if msg.get("op") == "call" and msg.get("module") in self.rank_modules and not self._claimed_no_group:
            self._claimed_no_group = True
            self.starved.append(f"{what}: its forked ranks reported no gloo group after their retries")

    def _hear(self, op: str, value) -> None:
        """Record the text of a reply (what its check messages may quote)."""
        if op == "load" and isinstance(value, dict):  # names defined, and the load errors' reports
            self.heard.hear(value.get("defined"))
            for e in value.get("load_errors") or []:
                self.heard.hear(list(e.values()) if isinstance(e, dict) else e)
        elif op == "call":
            self.heard.hear(value)

    def _died(self, what: str):
        code = self.proc.poll() if self.proc else None
        if code is None and self.proc is not None:
            try:
                code = self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = None
        tail = self._tail_log()
        self.heard.hear(tail)
        self.close()
        if self._killed_for_memory:
            why = f"it used more than {self.memory_limit // 2**20} MiB of memory"
        elif code is not None and code < 0:
            why = f"it was killed by signal {-code}"
        else:
            why = f"the Python process exited (exit code {code})"
        self.events.append(f"worker died while {what}: {why}")
        last = plain.one_line(tail.splitlines()[-1], 200) if tail else ""
        raise StudentCrashed(f"your code stopped the grader's Python process while {what}: {why}"
                             + (f"; last output: {last}" if last else ""))

    def _load_hint(self) -> str:
        report = self.load_report if isinstance(self.load_report, dict) else {}
        errs = report.get("load_errors")
        if not isinstance(errs, list) or not errs:
            return ""
        e, cell = error_report(errs[0]), errs[0].get("cell") if isinstance(errs[0], dict) else None
        cell = cell if isinstance(cell, int) and not isinstance(cell, bool) else "?"
        more = f" (and {len(errs) - 1} more cell(s))" if len(errs) > 1 else ""
        return f"\n  note: while loading your notebook, code cell {cell} raised {e['type']}: {e['message'][:160]}{more}"

    # -------------------------------------------------------------- public API
    def _files_held(self) -> dict[int, int]:
        held = {}
        for pid in self._files:
            try:
                held[pid] = len(os.listdir(f"/proc/{pid}/fd"))
            except OSError:
                pass
        return held

    def _files_crowded(self, before: dict[int, int], what: str) -> str | None:
        """Why the worker must start afresh: a call left a process of it holding more files than before and more
        than half its open-files limit (files a task's code left open would make later checks, of any task,
        fail with 'Too many open files'). The call's own verdict stands; the next call gets a fresh worker, at
        most FRESH_FOR_FILES times (a notebook that holds its files from loading on is not reloaded again and
        again: its count does not grow during a call)."""
        if self._fresh_for_files >= FRESH_FOR_FILES:
            return None
        for pid, held in self._files_held().items():
            if held > self._files[pid] // 2 and held > before.get(pid, held):
                return f"its worker held {held} open files (limit {self._files[pid]}) after {what}"
        return None

    def ensure_loaded(self) -> None:
        if self.course_error:
            raise CourseError(self.course_error)
        if self.broken:
            raise StudentCrashed(self.broken)
        if self._crowded and self.proc is not None:
            self.events.append(f"{self._crowded}: started afresh before the next check")
            self._crowded = None
            self._fresh_for_files += 1
            self.close()
        if self.proc is None or self.proc.poll() is not None:
            try:
                self._start()
            except CourseError as exc:
                self.course_error = str(exc)
                raise
            except StudentFailure as exc:
                self.broken = f"your notebook could not be loaded: {exc}"
                raise StudentCrashed(self.broken) from None

    def call(self, probe: str, /, *, module: str | None = None, timeout: float | None = None, **kwargs):
        """Run ``probe(ns, **kwargs)`` next to the submission and return its plain-data result."""
        self.ensure_loaded()
        module = module or next(iter(self.probe_sources))
        return self._request({"op": "call", "module": module, "probe": probe, "kwargs": kwargs},
                             timeout or self.call_timeout, what=f"running check '{probe}'")


class InProcessStudent:
    """Probes run directly on a live namespace (a notebook kernel); no isolation."""

    def __init__(self, ns: dict, probes: dict[str, str]):
        import types
        self.ns = ns
        self.modules = {}
        for name, src in probes.items():
            mod = types.ModuleType(f"probes_{name}")
            exec(compile(src, f"<probes {name}>", "exec"), mod.__dict__)
            self.modules[name] = mod
        self.events: list[str] = []
        self.native_last = None  # no count from outside: the code runs in this process
        self.load_report = {"load_errors": []}

    def ensure_loaded(self) -> None:
        pass

    def apart(self) -> "InProcessStudent":
        """One live namespace (a student checking their own notebook): nothing to keep apart from."""
        return self

    def call(self, probe: str, /, *, module: str | None = None, timeout: float | None = None, **kwargs):
        from .worker import describe, global_settings, settings_leak
        mod = self.modules[module or next(iter(self.modules))]
        before = global_settings()
        try:
            value = getattr(mod, probe)(self.ns, **copy.deepcopy(kwargs))
        except Exception as exc:
            raise StudentError(probe, describe(exc)) from None
        leak = settings_leak(before, global_settings())
        if leak:
            raise StudentError(probe, leak)
        # Same contract as the worker: only plain data crosses back.
        bio = io.BytesIO()
        torch.save(value, bio)
        bio.seek(0)
        value = torch.load(bio, weights_only=True)
        expect.remember_reply(value, len(bio.getbuffer()))
        return value

    def close(self) -> None:
        pass
