"""A template process per grading worker: torch imported once, every sandbox forked from it (issue 40).

Without it each submission starts two fresh Pythons that import torch (about 2.4 s of CPU each): its
kernel and its judge worker's zygote, each in a bubblewrap sandbox. The template is started once, by
root, with an allow-listed environment; it imports torch, the kernel's and the judge worker's modules
(``PRELOAD``) and nothing of any submission or hidden suite, then waits on a Unix socket in a folder
only root can open. For each request it forks a child that enters a world of its own *before* it
reads a byte of the submission, the same world ``bwrap_argv`` builds:

    A (host pid namespace, root, never runs submission code)
      joins the sandbox's cgroup; unshare(mount, pid, ipc, net, uts, cgroup); forks B; waits for B or
      for the requester to hang up (then kills B, and so the whole pid namespace)
    B (pid 1 of the new namespace)
      a new root on a tmpfs: every read-only tree an overlay of its own (own inodes, as overlay.py),
      /etc's allow-list, its own /dev nodes and devpts, /proc (its node-wide counters covered by still
      copies: procfiles.py), size-capped /tmp (/tmp/work) and
      /dev/shm, the course view, the requester's binds; pivot_root; loopback up; a new session;
      rlimits (sandbox._rlimits' values); no capabilities, setgroups([]), setresgid/setresuid to a
      uid of the pool; PR_SET_NO_NEW_PRIVS and seccomp.program()'s filter; the allow-listed env;
      every other descriptor closed; says "entered", then forks C and reaps until C exits
    C  the payload: ``exec`` (an argv, as after bwrap), ``call`` (a function of a preloaded module, in
      this already-warm interpreter: the kernel, the judge worker's zygote) or ``python`` (source text)

The template has no thread when it forks (checked before every fork; a request is refused
otherwise), shares no writable memory with a child (fork copies), and no descriptor of it stays open
in one (A closes all but the request's). Root only: not root, ``bwrap_argv`` is the path (and
``COURSE_SANDBOX_TEMPLATE=off`` keeps it for root too). ``COURSE_TEMPLATE_SOCKET`` names a running
template to the grader's processes (the kernel launcher, the judge's zygote).
"""
from __future__ import annotations

import ctypes
import errno
import glob
import json
import os
import select
import signal
import socket
import stat
import struct
import subprocess
import sys
import time

SOCKET_ENV = "COURSE_TEMPLATE_SOCKET"
# the sandbox environment's folders, which the template itself (root, on the host) takes from a folder of its own
HOST_PATHS = ("HOME", "TMPDIR", "IPYTHONDIR", "MPLCONFIGDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")
# pseudo-terminals a child may hold (its devpts' max; grading uses none): every instance draws on the node's 4,096
# (3,072 without the host's reserve), whose exhaustion (ENOSPC) another sandbox would see
PTYS = 16
PRELOAD = ("torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.utils.data", "numpy",
           "IPython.core.interactiveshell", "IPython.core.inputtransformer2", "ipykernel.kernelapp",
           "ipykernel.ipkernel", "course.judge.forkserver", "course.judge.worker",
           # every optimizer's constructor, torch.func's transforms and use_deterministic_algorithms import
           # dynamo on first use: 1.6-2.5 s of CPU in each kernel and worker, once here instead
           "torch._dynamo",
           # every notebook imports pyplot (about 1.2 s in its kernel and again in its judge's zygote); imported
           # with a configuration folder of the template's own, and re-pointed in each child (_fresh_matplotlib)
           "matplotlib.pyplot")

CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWPID, CLONE_NEWNET = 0x08000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = \
    1, 2, 4, 8, 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_DUMPABLE, PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, PR_CAP_AMBIENT = 4, 1, 24, 38, 22, 47
SECCOMP_MODE_FILTER, PR_CAP_AMBIENT_CLEAR_ALL = 2, 4
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


class TemplateError(RuntimeError):
    pass


def usable() -> str | None:
    """None when a template can make sandboxes here (root, overlayfs), else why not."""
    if os.geteuid() != 0:
        return "not root: sandboxes are made by bubblewrap in a user namespace"
    if os.uname().machine not in SYS_PIVOT_ROOT:
        return f"no pivot_root number known for {os.uname().machine}"
    from . import overlay
    if not overlay.usable():
        return "overlayfs cannot be mounted here"
    return None


def wanted() -> bool:
    """Whether sandboxes should come from a template here: ``COURSE_SANDBOX_TEMPLATE`` on, and root."""
    from .. import settings
    return settings.current().sandbox_template and usable() is None


# ------------------------------------------------------------------ requester side

def request(*, payload: str, argv: list[str] = (), target: str = "", code: str = "", env: dict | None = None,
            extra_binds=(), ro_files=(), view: str | None = None, account=None, group=None,
            file_limit: int | None = None, tmp_mb: int | None = None, shm_mb: int | None = None,
            stage_dir: str | None = None) -> dict:
    """What a child needs, computed where the settings are (the template's own environment is clean):
    the same inputs as ``bwrap_argv``. ``payload``: ``exec`` (``argv``) or ``call`` (``target``,
    ``module:function``, run with ``sys.argv = argv``) or ``python`` (source ``code``, run likewise). ``group``: a cgroup.Group the child joins.
    ``stage_dir``: unused (bwrap_argv's; a child's overlays are mounted in its own namespace)."""
    from .. import REPO_ROOT, settings
    from . import (clean_env, course_view, hidden_paths, new_account, open_files_limit, visible_paths,
                   MEMLOCK_BYTES, MSGQUEUE_BYTES, SIGPENDING)
    s = settings.current()
    account = account or new_account()
    if account is None:
        raise TemplateError("a template makes sandboxes only when the grader is root")
    visible = sorted(visible_paths(), key=len)
    under = lambda p, q: p.startswith(q.rstrip("/") + "/")  # noqa: E731
    masked = [h for h in sorted(hidden_paths(), key=len) if any(under(h, v) for v in visible)]
    n = open_files_limit()
    return dict(payload=payload, argv=list(argv), target=target, code=code, env=clean_env() if env is None else dict(env),
                visible=visible, masked=masked, course=str(REPO_ROOT / "course"), view=view or course_view(),
                binds=list(extra_binds), ro_files=[list(x) for x in ro_files], account=list(account),
                tmp=(s.sandbox_tmp_mb if tmp_mb is None else tmp_mb) * 2**20,
                shm=(s.sandbox_shm_mb if shm_mb is None else shm_mb) * 2**20,
                rlimits={"NOFILE": n, "MEMLOCK": MEMLOCK_BYTES, "MSGQUEUE": MSGQUEUE_BYTES, "SIGPENDING": SIGPENDING,
                         "CORE": 0, "NPROC": s.task_limit, **({"FSIZE": file_limit} if file_limit else {})},
                cgroup=[list(d) for d in group.dirs] if group is not None else None)


class Child:
    """The requester's handle on one sandbox of the template, shaped like subprocess.Popen (pid, poll,
    wait, kill). ``pid`` is A's (the host side of the sandbox: killing it kills the whole sandbox).
    Closing the handle (or the requester's exit) ends the sandbox too: the connection is its lifeline."""

    def __init__(self, conn: socket.socket, pid: int):
        self.conn, self.pid, self.returncode = conn, pid, None
        self.args = ["template-child", str(pid)]

    def _read(self, block: bool) -> dict | None:
        try:
            self.conn.setblocking(block)
            data = self.conn.recv(65536)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:
            data = b""
        return json.loads(data) if data else {"exit": None}

    def poll(self) -> int | None:
        if self.returncode is not None:
            return self.returncode
        if self.conn.fileno() < 0:
            return self.returncode
        while True:
            msg = self._read(block=False)
            if msg is None:
                return None
            if "exit" in msg:
                self.returncode = -signal.SIGKILL if msg["exit"] is None else msg["exit"]
                return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(self.args, timeout)
            select.select([self.conn], [], [], left)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.kill()  # A forwards nothing: the sandbox ends whole

    def close(self) -> None:
        try:
            self.conn.close()
        except OSError:
            pass


def spawn(req: dict, fds: list[int], path: str | None = None, timeout: float = 60) -> Child:
    """Ask the template at ``path`` (default: ``COURSE_TEMPLATE_SOCKET``) for a sandbox; ``fds`` become its
    descriptors 0, 1, 2, 3, ... Returns once the child has entered its world (TemplateError if it did not)."""
    path = path or os.environ.get(SOCKET_ENV)
    if not path:
        raise TemplateError(f"no template: {SOCKET_ENV} is not set")
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    conn.settimeout(timeout)
    try:
        conn.connect(path)
        socket.send_fds(conn, [json.dumps(req).encode()], list(fds))
        first = json.loads(conn.recv(65536) or b'{"error": "the template hung up"}')
        if "error" in first:
            raise TemplateError(first["error"])
        entered = json.loads(conn.recv(65536) or b'{"error": "the sandbox exited while it was set up"}')
        if "error" in entered:
            raise TemplateError(entered["error"])
    except (OSError, socket.timeout, ValueError) as exc:
        conn.close()
        raise TemplateError(f"the template did not make the sandbox: {exc}") from None
    except TemplateError:
        conn.close()
        raise
    return Child(conn, first["pid"])


def argv(path: str, **bwrap_kw) -> list[str]:
    """A command prefix shaped like ``bwrap_argv(**bwrap_kw)``: the command after it runs (exec) in a
    sandbox of the template at ``path``, with this process's descriptors 0-2; its exit code is the
    command's. For callers that start a command line (tests, tools); the grader's own use ``spawn``."""
    from .. import REPO_ROOT
    req = request(payload="exec", **bwrap_kw)
    return [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); "
            f"from course.sandbox.template import run_cli; run_cli()", path, json.dumps(req), "--"]


def run_cli() -> None:
    path, req, sep, *cmd = sys.argv[1:]
    req = json.loads(req)
    req["argv"] = cmd
    try:
        child = spawn(req, [0, 1, 2], path)
    except TemplateError as exc:
        sys.exit(f"sandbox: {exc}")
    code = child.wait()
    sys.exit(code if code >= 0 else 128 - code)


class Template:
    """One template process (the grading worker's): started here, ended by ``close`` or this process's exit."""

    def __init__(self, preload: tuple[str, ...] = PRELOAD, start_timeout: float = 300):
        from .. import REPO_ROOT
        from . import clean_env, tempdirs
        why = usable()
        if why:
            raise TemplateError(why)
        self.folder = tempdirs.make("template")  # 0700, root's: no sandbox account can reach the socket
        self.path = os.path.join(self.folder, "sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        listener.bind(self.path)
        listener.listen(64)
        os.makedirs(os.path.join(self.folder, "root"), mode=0o700)
        os.makedirs(os.path.join(self.folder, "links"), mode=0o700)
        self.log = open(os.path.join(self.folder, "template.log"), "w+b")
        # OpenBLAS (numpy) starts its thread pool as it loads: one thread, so the template has none to fork
        env = {**clean_env(), "COURSE_TEMPLATE_PRELOAD": ",".join(preload), "OPENBLAS_NUM_THREADS": "1"}
        # The template is root on the HOST: the sandbox's HOME, TMPDIR and caches (/tmp/work, /tmp/.config, ...)
        # would be folders of the host's shared /tmp that any account may make first, whose configuration what it
        # preloads reads as root (matplotlib's fc-list read a planted fonts.conf and wrote caches where it said).
        # Here they are a root-only folder of its own; each child takes the sandbox's from its request.
        own = os.path.join(self.folder, "home")
        os.makedirs(own, mode=0o700)
        env.update({k: own for k in HOST_PATHS if k in env})
        code = (f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); "
                f"from course.sandbox.template import main; main({listener.fileno()}, {os.path.join(self.folder, 'root')!r})")
        self.proc = subprocess.Popen([sys.executable, "-I", "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, env=env, cwd="/", pass_fds=[listener.fileno()])
        listener.close()
        r, _, _ = select.select([self.proc.stdout], [], [], start_timeout)
        line = self.proc.stdout.readline() if r else b""
        if line.strip() != b"ready":
            self.close()
            raise TemplateError(f"the template did not start: {self.error_text() or 'no answer'}")

    def error_text(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace").strip()[-2000:]

    def env(self) -> dict[str, str]:
        return {SOCKET_ENV: self.path}

    def spawn(self, req: dict, fds: list[int], timeout: float = 60) -> Child:
        return spawn(req, fds, self.path, timeout)

    def close(self) -> None:
        from .. import fstree
        if self.proc.poll() is None:
            self.proc.stdin.close()  # its lifeline: it exits; children already made live on
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        fstree.remove(self.folder)


# ------------------------------------------------------------------ template side

_libc = None


def _c():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
        _libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
        _libc.unshare.argtypes = [ctypes.c_int]
        _libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        _libc.syscall.restype = ctypes.c_long
    return _libc


def _check(r: int, what: str) -> None:
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, f"{what}: {os.strerror(e)}")


def _b(s):
    return None if s is None else os.fsencode(s)


def _mount(src, target, fstype, flags, data=None) -> None:
    _check(_c().mount(_b(src), _b(target), _b(fstype), flags, _b(data)), f"mount {fstype or src} on {target}")


def _prctl(op, a=0, b=0, c=0, d=0) -> int:
    r = _c().prctl(op, a, b, c, d)
    _check(r, f"prctl {op}")
    return r


def threads() -> int:
    return len(os.listdir("/proc/self/task"))


def main(listen_fd: int, root: str) -> None:
    """The template: preload, then fork one sandbox per request until the starter closes our stdin."""
    import importlib
    import warnings
    os.umask(0o022)
    listener = socket.socket(fileno=listen_fd)
    # matplotlib reads (and may write) its configuration folder as it is imported: here a folder of the
    # template's own, never the host's /tmp/.matplotlib that the sandbox's environment names
    child_mpl = os.environ.get("MPLCONFIGDIR")
    os.environ["MPLCONFIGDIR"] = os.path.join(os.path.dirname(root), "mpl")
    os.makedirs(os.environ["MPLCONFIGDIR"], mode=0o700, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in filter(None, os.environ.get("COURSE_TEMPLATE_PRELOAD", ",".join(PRELOAD)).split(",")):
            try:
                importlib.import_module(name)
            except Exception as exc:  # a missing optional package only costs speed
                print(f"template: could not preload {name}: {exc}", file=sys.stderr, flush=True)
    names = os.environ.get("COURSE_TEMPLATE_PRELOAD", ",".join(PRELOAD)).split(",")
    if "torch.export._trace" in names and "course.judge.forkserver" in sys.modules:
        sys.modules["course.judge.forkserver"].warm_graphs()  # the first torch.cond/export, once for every child
    os.environ.pop("MPLCONFIGDIR")
    if child_mpl is not None:
        os.environ["MPLCONFIGDIR"] = child_mpl
    from . import seccomp
    bpf = seccomp.program()
    import gc
    gc.collect()
    gc.freeze()  # children keep them frozen: no collection writes to (and so copies) the preloaded pages
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # its children (A) are reaped by the kernel
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        r, _, _ = select.select([listener, sys.stdin], [], [])
        if sys.stdin in r:
            return  # the starter is gone or closed us
        try:
            conn, _ = listener.accept()
        except OSError:
            continue
        try:
            conn.settimeout(10)
            msg, fds, _, _ = socket.recv_fds(conn, 1 << 20, 16)
            req = json.loads(msg)
        except (OSError, ValueError, socket.timeout) as exc:
            conn.close()
            print(f"template: a bad request: {exc}", file=sys.stderr, flush=True)
            continue
        _sweep_links(os.path.join(os.path.dirname(root), "links"))
        if threads() != 1:
            conn.send(json.dumps({"error": f"the template has {threads()} threads: it forks none"}).encode())
        else:
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                try:
                    _host_side(conn, fds, req, root, bpf)
                except BaseException as exc:
                    import traceback
                    try:
                        conn.send(json.dumps({"error": "".join(traceback.format_exception(exc))[-4000:]}).encode())
                    except OSError:
                        pass
                finally:
                    os._exit(127)
        for fd in fds:
            os.close(fd)
        conn.close()


def _sweep_links(folder: str) -> None:
    """Links of sandboxes killed without a word (SIGKILL to A) go, so a reused pid is never taken for one."""
    for name in os.listdir(folder):
        if name.isdigit() and not os.path.exists(f"/proc/{name}"):
            _unlink(os.path.join(folder, name))


def _host_side(conn: socket.socket, fds: list[int], req: dict, root: str, bpf: bytes) -> None:
    """A: in the host's namespaces, root. Never runs submission code."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    conn.settimeout(None)
    # the request's descriptors become 0, 1, 2, ... (through high numbers, so none overwrites another)
    import fcntl
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 1000) for fd in [*fds, conn.fileno()]]
    n = len(fds)
    for i, fd in enumerate(high):
        os.dup2(fd, i, inheritable=i < n)
    conn = socket.socket(fileno=n)
    os.closerange(n + 1, 1 << 16)  # the template's listener and stdin, the request's originals: none stays
    link = os.path.join(os.path.dirname(root), "links", str(os.getpid()))
    try:
        conn.send(json.dumps({"pid": os.getpid()}).encode())
        # the requester's process tree includes this sandbox (procs.scan reads the link): its memory
        # watch and kill_tree see it as they see a bwrap child
        peer = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[0]
        with open(link, "w") as fh:
            fh.write(str(peer))
        os.setpgid(0, 0)
        if req.get("cgroup"):
            for _, d in req["cgroup"]:
                with open(os.path.join(d, "cgroup.procs"), "w") as fh:
                    fh.write(str(os.getpid()))
        _check(_c().unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWPID | CLONE_NEWCGROUP),
               "unshare")
        st_r, st_w = os.pipe()
        alive_r, alive_w = os.pipe()  # EOF for B once A is gone (B's getppid() says 0 either way)
        b = os.fork()
        if b == 0:
            os.close(st_r)
            os.close(alive_w)
            conn.close()
            _sandbox_side(req, n, root, bpf, st_w, alive_r)
            os._exit(127)
        os.close(st_w)
        os.close(alive_r)
    except Exception as exc:
        conn.send(json.dumps({"error": f"sandbox set-up failed: {exc}"}).encode())
        _unlink(link)
        os._exit(125)
    for i in range(n):
        os.close(i)
    pidfd = os.pidfd_open(b)
    status = b""
    watch = [conn, pidfd, st_r]
    while True:
        r, _, _ = select.select(watch, [], [])
        if st_r in r:
            chunk = os.read(st_r, 4096)
            status += chunk
            if not chunk:
                watch.remove(st_r)
                os.close(st_r)
                text = status.decode("utf-8", "replace")
                conn.send(json.dumps({"entered": True} if text == "ok" else
                                     {"error": text or "the sandbox exited while it was set up"}).encode())
        if pidfd in r:
            _, st = os.waitpid(b, 0)
            _unlink(link)
            try:
                conn.send(json.dumps({"exit": os.waitstatus_to_exitcode(st)}).encode())
            except OSError:
                pass
            os._exit(0)
        if conn in r:
            try:
                data = conn.recv(4096)
            except OSError:
                data = b""
            if not data:  # the requester hung up: the sandbox ends (B is its pid 1)
                os.kill(b, signal.SIGKILL)
                os.waitpid(b, 0)
                _unlink(link)
                os._exit(0)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sandbox_side(req: dict, n: int, root: str, bpf: bytes, st_w: int, alive_r: int) -> None:
    """B: pid 1 of the sandbox's namespaces. Enters the sandbox, then forks the payload and reaps."""
    try:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if select.select([alive_r], [], [], 0)[0]:
            os._exit(125)  # A died before the line above
        os.close(alive_r)
        null = os.stat("/dev/null")
        _make_root(req, root)
        _own_null(n, (null.st_dev, null.st_ino))
        _loopback_up()
        os.setsid()
        os.umask(0o022)
        import resource
        for name, v in req["rlimits"].items():
            resource.setrlimit(getattr(resource, "RLIMIT_" + name), (v, v))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an oversized write fails instead of killing
        _drop_privileges(*req["account"])
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        _load_filter(bpf)
        os.environ.clear()
        os.environ.update(req["env"])
        os.chdir("/tmp/work")
        os.closerange(n, st_w)
        os.closerange(st_w + 1, 1 << 16)
        if threads() != 1:
            raise TemplateError("a thread was running at the fork")
    except BaseException as exc:
        try:
            os.write(st_w, f"the sandbox could not be entered: {exc}".encode()[:4000])
        finally:
            os._exit(125)
    os.write(st_w, b"ok")
    os.close(st_w)
    c = os.fork()
    if c == 0:
        _payload(req)
        os._exit(127)
    os.closerange(0, 1 << 16)  # pid 1 keeps none of the payload's descriptors (a pipe's EOF is the payload's)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    while True:  # pid 1: reap everything; end (and so the namespace) with the payload
        try:
            pid, st = os.wait()
        except ChildProcessError:
            os._exit(0)
        if pid == c:
            code = os.waitstatus_to_exitcode(st)
            os._exit(code if code >= 0 else 128 - code)


def _payload(req: dict) -> None:
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGCHLD, signal.SIGXFSZ):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    if req["payload"] == "exec":
        argv = req["argv"]
        try:
            os.execve(argv[0], argv, req["env"])
        except OSError as exc:
            os.write(2, f"sandbox: cannot run {argv[0]}: {exc}\n".encode())
            os._exit(127)
    import importlib
    import random
    random.seed()  # a fresh process would not share the template's random state
    try:
        import numpy
        numpy.random.seed()
    except ImportError:
        pass
    import tempfile
    tempfile.tempdir = None
    _fresh_matplotlib()
    module, _, func = req["target"].partition(":")
    sys.argv = list(req["argv"]) or [module]
    code = 0
    try:
        if req["payload"] == "python":  # source text (the isolation tests' probes), in this warm interpreter
            exec(compile(req["code"], "<sandbox>", "exec"), {"__name__": "__main__"})
        else:
            getattr(importlib.import_module(module), func)()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback
        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
    os._exit(code)


def _fresh_matplotlib() -> None:
    """A child's matplotlib, imported by the template, as a fresh import in the child's environment would
    have it: its configuration and cache folders found again from MPLCONFIGDIR (not the template's own
    folder, which no sandbox has), the backend from MPLBACKEND."""
    mpl = sys.modules.get("matplotlib")
    if mpl is None:
        return
    for name, fmt in (("get_configdir", "CONFIGDIR=%s"), ("get_cachedir", "CACHEDIR=%s")):
        found = getattr(mpl, name)
        setattr(mpl, name, mpl._logged_cached(fmt, getattr(found, "__wrapped__", found)))
    backend = os.environ.get("MPLBACKEND")
    dict.__setitem__(mpl.rcParams, "backend", backend or mpl.rcsetup._auto_backend_sentinel)
    tex = sys.modules.get("matplotlib.texmanager")
    if tex is not None:
        from pathlib import Path
        tex.TexManager._cache_dir = Path(mpl.get_cachedir(), "tex.cache")


def _overlay(host: str, dest: str, empty: str) -> None:
    if any(ch in host for ch in (",", ":", "\\", "\n")):
        _bind(host, dest, ro=True)
    else:
        _mount("course-ro", dest, "overlay", MS_RDONLY | MS_NOSUID | MS_NODEV, f"lowerdir={host}:{empty}")


def _bind(host: str, dest: str, ro: bool, dev: bool = False) -> None:
    _mount(host, dest, None, MS_BIND | MS_REC)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | (0 if dev else MS_NODEV) | (MS_RDONLY if ro else 0)
    _mount(None, dest, None, flags)


def _mkdirs(path: str) -> None:
    os.makedirs(path, mode=0o755, exist_ok=True)


def _touch(path: str) -> None:
    _mkdirs(os.path.dirname(path))
    if not os.path.exists(path):
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_NOFOLLOW, 0o644))


def _target(new: str, p: str, is_dir: bool) -> str:
    t = new + p
    if is_dir:
        _mkdirs(t)
    else:
        _touch(t)
    return t


def _make_root(req: dict, root: str) -> None:
    """The sandbox's file system, as ``bwrap_argv`` lays it out, each read-only tree an overlay of its own."""
    from . import DEV_NODES, ETC_ALLOW, SYSTEM_PATHS
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    new = root
    _mount("course-root", new, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4m")
    stage = os.path.join(new, ".stage")  # detached with the old root; never reachable inside
    os.mkdir(stage, 0o700)
    _mount("course-stage", stage, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700,size=1m")
    empty = os.path.join(stage, "empty")
    os.mkdir(empty)
    for p in SYSTEM_PATHS:
        if os.path.islink(p):
            os.symlink(os.readlink(p), new + p)
        elif os.path.isdir(p):
            _overlay(p, _target(new, p, True), empty)
    if os.path.isdir("/sys/fs/cgroup"):  # every sandbox's cgroup counters: a channel between them
        _mount("course-cg", new + "/sys/fs/cgroup", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k")
    etc = os.path.join(stage, "etc")
    os.mkdir(etc)
    _overlay("/etc", etc, empty)
    _mkdirs(new + "/etc")
    for name in ETC_ALLOW:
        p = os.path.join("/etc", name)
        if not os.path.exists(p):
            continue
        real = os.path.realpath(p)
        src = os.path.join(etc, os.path.relpath(real, "/etc")) if real.startswith("/etc/") else new + real
        _bind(src, _target(new, p, os.path.isdir(real)), ro=True)
    # /dev: nodes of its own (own inodes), its own pseudo-terminals, /dev/shm
    dev = new + "/dev"
    _mkdirs(dev)
    _mount("course-dev", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k")
    for host in [f"/dev/{x}" for x in DEV_NODES] + sorted(glob.glob("/dev/nvidia*")) + sorted(glob.glob("/dev/dri/*")):
        try:
            st = os.stat(host)
        except OSError:
            continue
        if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
            _mkdirs(os.path.dirname(new + host))
            os.mknod(new + host, stat.S_IFMT(st.st_mode) | stat.S_IMODE(st.st_mode), st.st_rdev)
            os.chmod(new + host, stat.S_IMODE(st.st_mode))  # safe: just made by mknod in the tmpfs mounted above, in this sandbox's own mount namespace, before any submission code runs
    for name, to in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                     ("stderr", "/proc/self/fd/2"), ("core", "/proc/kcore"), ("ptmx", "pts/ptmx")):
        os.symlink(to, os.path.join(dev, name))
    os.mkdir(os.path.join(dev, "pts"))
    _mount("devpts", os.path.join(dev, "pts"), "devpts", MS_NOSUID | MS_NOEXEC, f"newinstance,ptmxmode=0666,mode=620,max={PTYS}")
    os.mkdir(os.path.join(dev, "shm"))
    _mount("course-shm", os.path.join(dev, "shm"), "tmpfs", MS_NOSUID | MS_NODEV, f"mode=1777,size={req['shm']}")
    _mkdirs(new + "/proc")
    _mount("proc", new + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    from . import procfiles  # the node's counters in /proc: still copies of the sandbox's own (inodes too)
    own_proc = os.path.join(stage, "proc")
    os.mkdir(own_proc)
    for name, data in procfiles.contents().items():
        path = os.path.join(own_proc, procfiles.file_name(name))
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o444)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        _bind(path, new + "/proc/" + name, ro=True)
    _mkdirs(new + "/tmp")
    _mount("course-tmp", new + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"mode=1777,size={req['tmp']}")
    os.mkdir(new + "/tmp/work")
    os.chmod(new + "/tmp/work", 0o1777)  # safe: just made by mkdir in the fresh tmpfs above, private to this mount namespace, before any submission code runs
    source = lambda p: req["view"] if p == req["course"] else p  # noqa: E731
    under = lambda p, q: p.startswith(q.rstrip("/") + "/")  # noqa: E731
    for p in req["visible"]:
        _overlay(source(p), _target(new, p, True), empty)
    for p in req["masked"]:
        _mount("course-mask", _target(new, p, True), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4k")
    for p in req["visible"]:
        if any(under(p, m) for m in req["masked"]):
            _overlay(source(p), _target(new, p, True), empty)
    for p in req["binds"]:
        _bind(p, _target(new, p, True), ro=False)
    for host, inner in req["ro_files"]:
        _bind(host, _target(new, inner, os.path.isdir(host)), ro=True)
    _check(_c().umount2(_b(stage), MNT_DETACH), "umount the staging folder")  # overlays keep their lower trees
    os.rmdir(stage)
    _mount(None, new, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, "mode=0755,size=4m")
    os.chdir(new)
    _check(_c().syscall(SYS_PIVOT_ROOT[os.uname().machine], b".", b"."), "pivot_root")
    _check(_c().umount2(b".", MNT_DETACH), "umount the old root")
    os.chdir("/")


def _own_null(n: int, host_null: tuple[int, int]) -> None:
    """A descriptor that is the host's /dev/null (a spare kernel writes nowhere) is reopened on the
    sandbox's own: two sandboxes would otherwise share the host's node (a lockable inode)."""
    import fcntl
    for fd in range(n):
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) == host_null:
            own = os.open("/dev/null", fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE)
            os.dup2(own, fd)
            os.close(own)


def _loopback_up() -> None:
    import fcntl
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        ifr = struct.pack("16sH22x", b"lo", 0)
        flags = struct.unpack("16sH22x", fcntl.ioctl(s.fileno(), SIOCGIFFLAGS, ifr))[1]
        fcntl.ioctl(s.fileno(), SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))
    finally:
        s.close()


def _drop_privileges(uid: int, gid: int) -> None:
    for cap in range(64):
        if _c().prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 and ctypes.get_errno() != errno.EINVAL:
            _check(-1, "drop the bounding set")
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    _prctl(PR_SET_DUMPABLE, 1)  # as after an exec: /proc/self is the sandbox's own (a uid change cleared it)
    caps = {k: v for k, v in (line.split(":", 1) for line in open("/proc/self/status") if line.startswith("Cap"))}
    if any(int(v, 16) for v in caps.values()) or os.getresuid() != (uid,) * 3 or os.getgroups():
        raise TemplateError(f"privileges not dropped: {caps}")


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _load_filter(bpf: bytes) -> None:
    buf = ctypes.create_string_buffer(bpf, len(bpf))
    prog = _SockFprog(len(bpf) // 8, ctypes.addressof(buf))
    r = _c().prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog), 0, 0)
    _check(r, "load the seccomp filter")
