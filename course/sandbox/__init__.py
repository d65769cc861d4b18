"""Where submission code runs: a bubblewrap sandbox, plus resource limits.

Inside the sandbox a submission sees the operating system (/usr, /sys and an
allow-list of /etc: no keys, no shadow file) read-only, the Python installation
and the ``course`` package. Graded as root, each sandbox runs as a uid of its own,
drawn from ``COURSE_SANDBOX_UIDS``, with no capabilities, so root-only
files stay closed to it even where they are visible. It can write only
to private, size-capped tmpfs mounts (/tmp, whose /tmp/work is its HOME and
working folder, and /dev/shm): they exist in the sandbox's mount namespace and
nowhere else, vanish with it, and trusted code never reads them. Nothing else on
the machine is mounted: not the course folder (solutions, tests, gradebook,
other students), other copies of it, home folders or data disks; there is no
network; it can still use a GPU (the /dev/nvidia* devices are passed through).
Its environment is an allow-list (no grader secrets or paths). Each sandbox has
its own IPC, PID, network and UTS namespaces (message queues, SysV IPC, abstract
sockets and process lists are its own) and a seccomp filter (``seccomp.py``:
no keyring, ptrace, bpf, perf, mounts or new namespaces). Graded as root, every read-only tree and
device node is the sandbox's own inode (``overlay.py``: no lock is shared by two sandboxes), and every
sandboxed process has its share of the node's kernel tables (open files, tasks: ``_rlimits``). The
/proc files that count for the whole node (``/proc/stat``, ``loadavg``, ``uptime`` and others) are
still copies of the sandbox's own (``procfiles.py``). Graded as root, the kernel also counts a few native
calls of a sandbox's tasks from outside it (``native_calls.py``: uprobes on libtorch), a record no reply
of the worker can rewrite. Works
without root where unprivileged user namespaces are allowed (Debian's bubblewrap does).

``COURSE_SANDBOX``: ``on`` (default when grading; refuse if unavailable),
``off`` (explicit opt-out, said loudly), ``auto`` (use it if it works).
"""
from __future__ import annotations

import functools
import glob
import os
import resource
import shutil
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

from .. import REPO_ROOT
from .. import settings
from .procs import TreeRss


class SandboxUnavailable(RuntimeError):
    pass


def _existing(paths):
    seen, out = set(), []
    for p in paths:
        if p and os.path.exists(p):
            rp = os.path.realpath(p)
            for q in (p, rp):
                if q not in seen:
                    seen.add(q)
                    out.append(q)
    return out


SYSTEM_PATHS = ("/usr", "/sys", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What Python, PyTorch, IPython and the CUDA loader read from /etc; everything else (shadow, SSH
# host keys, TLS private keys, hub secrets) is absent from the sandbox.
ETC_ALLOW = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "passwd", "group",
             "nsswitch.conf", "hosts", "host.conf", "alternatives", "os-release", "mime.types",
             "ssl/certs", "ssl/openssl.cnf", "fonts", "matplotlibrc", "python3", "python3.11")


def uid_range() -> tuple[int, int]:
    """The uids sandboxes are drawn from when grading as root (``COURSE_SANDBOX_UIDS``, ``first-last``)."""
    raw = settings.current().sandbox_uids
    try:
        lo, hi = (int(x) for x in raw.split("-", 1))
    except ValueError:
        raise SandboxUnavailable(f"COURSE_SANDBOX_UIDS={raw!r} is not a range first-last of uids") from None
    if not 0 < lo <= hi < 2**32 - 1 or hi - lo < 1000:
        raise SandboxUnavailable(f"COURSE_SANDBOX_UIDS={raw!r}: give at least 1000 uids above 0 and below 2**32-1")
    return lo, hi


def _uids_in_use() -> set[int]:
    out = set()
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                out.add(os.stat(f"/proc/{e}").st_uid)
            except OSError:
                pass
    return out


def new_account() -> tuple[int, int] | None:
    """A (uid, gid) of its own for one sandbox when the grader is root: drawn at random from
    ``uid_range()``, no account of this machine and no live process's, so that nothing the kernel
    keeps per uid (keyring, inotify and message-queue quotas, pipe buffers, process counts) is shared
    by two sandboxes, this run's or a later one's (as IOI's isolate gives each box its own uid).
    None when not root: the sandbox then maps the grader's own account into a user namespace of its
    own, the most an unprivileged bubblewrap can do."""
    if os.geteuid() != 0:
        return None
    import pwd
    import secrets
    lo, hi = uid_range()
    busy = _uids_in_use()
    for _ in range(100):
        uid = lo + secrets.randbelow(hi - lo + 1)
        if uid in busy:
            continue
        try:
            pwd.getpwuid(uid)
            continue
        except KeyError:
            return uid, uid
    raise SandboxUnavailable(f"no free uid found in COURSE_SANDBOX_UIDS={settings.current().sandbox_uids}")


def separate_account() -> bool:
    """Whether sandboxes run as accounts of their own (the grader is root)."""
    return os.geteuid() == 0


def hidden_paths() -> list[str]:
    """Folders masked even if a visible path contains them: the course itself, temp dirs, and
    COURSE_SANDBOX_HIDE (os.pathsep-separated)."""
    extra = [p for p in settings.current().sandbox_hide.split(os.pathsep) if p]
    return _existing([str(REPO_ROOT), "/tmp", "/var/tmp", *extra])


# What of course/ a sandbox sees: the student package (notebooks import it) and the worker side of the
# judge (the fork server, the worker, its clean copy, the probes' helpers, the frame format and the limits it
# reads with). The grader, the judge's own side and the authoring tools are absent.
SANDBOX_COURSE = ("__init__.py", "plain.py", "student", "judge/__init__.py", "judge/forkserver.py", "judge/worker.py",
                  "judge/pristine.py", "judge/probelib.py", "judge/seal", "wire.py")
_VIEW: str | None = None


def course_view(dest: str | None = None) -> str:
    """A copy of the SANDBOX_COURSE files, mounted read-only as ``course/`` in every sandbox. Made in
    ``dest`` (a kernel's own folder, removed with it), or once per process in a temporary folder."""
    global _VIEW
    if dest is None and _VIEW and os.path.isdir(_VIEW):
        return _VIEW
    from .. import fstree
    from . import tempdirs
    root = dest or tempdirs.make("courseview")
    os.makedirs(root, exist_ok=True)
    os.chmod(root, 0o755)  # safe: a folder this process just made, read by the sandbox's account
    src = REPO_ROOT / "course"
    for rel in SANDBOX_COURSE:
        if (src / rel).is_dir():
            shutil.copytree(src / rel, os.path.join(root, rel),  # safe: the course's own files, our own folder
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            shutil.copyfile(src / rel, os.path.join(root, rel))  # safe: as above
    # readable by the sandbox's account whatever the checkout's modes and this process's umask (copytree
    # copies a folder's mode, copyfile creates under the umask: a course root closed to other accounts, or
    # an instructor's umask 077, would leave the view unreadable to every sandbox)
    for here, dirs, files in os.walk(root):
        for d in dirs:
            os.chmod(os.path.join(here, d), 0o755, follow_symlinks=False)  # safe: folders this process just made
        for f in files:
            os.chmod(os.path.join(here, f), 0o644, follow_symlinks=False)  # safe: files this process just wrote
    if dest is None:
        import atexit
        atexit.register(fstree.remove, root)
        _VIEW = root
    return root


def visible_paths() -> list[str]:
    """Read-only paths the submission may see: Python, its packages, the course package (as the
    view of it that ``course_view`` makes)."""
    paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable)),
             sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], str(REPO_ROOT / "course")]
    paths += [p for p in sys.path if p and os.path.isdir(p) and "site-packages" in p]
    return _existing(paths)


def _system_binds(stage=None) -> list[str]:
    """The operating system, read-only. Everything else on the machine (other copies of the course,
    backups, home folders, data disks) is simply absent: an allow-list, not a deny-list. ``stage``: the
    sandbox's own overlays (``overlay.Stage``), when there are."""
    own = stage.tree if stage is not None else (lambda p: p)
    argv = []
    for p in SYSTEM_PATHS:
        if os.path.islink(p):
            argv += ["--symlink", os.readlink(p), p]
        elif os.path.isdir(p):
            argv += ["--ro-bind", own(p), p]
    if os.path.isdir("/sys/fs/cgroup"):  # every sandbox's cgroup counters (tasks, memory): a channel between them
        argv += ["--tmpfs", "/sys/fs/cgroup", "--remount-ro", "/sys/fs/cgroup"]
    argv += ["--dir", "/etc"]
    etc = own("/etc")
    for name in ETC_ALLOW:
        p = os.path.join("/etc", name)
        if os.path.exists(p):
            real = os.path.realpath(p)  # os-release and alternatives' entries are links to /usr
            src = (os.path.join(etc, os.path.relpath(real, "/etc")) if real.startswith("/etc/") else
                   own(real) if os.path.isdir(real) else os.path.join(own(os.path.dirname(real)), os.path.basename(real)))
            argv += ["--ro-bind", src, p]
    return argv


DEV_NODES = ("null", "zero", "full", "random", "urandom", "tty")  # what bwrap's --dev binds from the host


# Kernel tables shared by the whole node (docs/security.md, "Kernel tables"): each sandbox gets a share.
SANDBOXES_PER_WORKER = 4  # a kernel, a spare kernel, a judge worker's zygote and a spare zygote
NODE_FILES_FOR_SANDBOXES = 0.5  # of fs.file-max; the other half stays the grader's and the machine's
FILES_MIN, FILES_MAX = 64, 1024  # open files of one process: Python, torch and ipykernel need ~40
MEMLOCK_BYTES = 8 * 2**20  # locked pages are charged to the sandbox's memory cgroup as well
MSGQUEUE_BYTES = 819200  # POSIX message queue bytes of the sandbox's uid (Linux's default)
SIGPENDING = 1024  # queued signals of the sandbox's uid


def _file_max() -> int:
    try:
        return int(open("/proc/sys/fs/file-max").read().split()[0])
    except (OSError, ValueError, IndexError):
        return 2**20


def worker_fraction() -> float:
    """The share of the node one grading worker's sandboxes get (its cores over the node's); 1 outside a batch."""
    from .cputime import share
    return min(1.0, share() / max(1, len(os.sched_getaffinity(0))))


def open_files_limit() -> int:
    """RLIMIT_NOFILE of every sandboxed process: tasks x files of all the sandboxes one worker may
    hold at once stays under that worker's share of half the node's ``fs.file-max``, so that no
    submission can make every other process of the node fail with ENFILE (clamped to
    [FILES_MIN, FILES_MAX]; FILES_MIN only on a node whose file-max is below ~1 M per worker)."""
    tasks = SANDBOXES_PER_WORKER * settings.current().task_limit
    share = int(_file_max() * NODE_FILES_FOR_SANDBOXES * worker_fraction())
    return max(FILES_MIN, min(FILES_MAX, share // tasks))


def _rlimits(account) -> list[str]:
    """prlimit's options for the sandbox's per-process and per-uid tables; the count of processes of a
    uid of its own (root) as well, which bounds tasks where no cgroup does."""
    n = open_files_limit()
    opts = [f"--nofile={n}:{n}", f"--memlock={MEMLOCK_BYTES}:{MEMLOCK_BYTES}",
            f"--msgqueue={MSGQUEUE_BYTES}:{MSGQUEUE_BYTES}", f"--sigpending={SIGPENDING}:{SIGPENDING}", "--core=0:0"]
    if account is not None:
        t = settings.current().task_limit
        opts.append(f"--nproc={t}:{t}")
    return opts


WORKDIR = "/tmp/work"  # inside the sandbox: HOME, TMPDIR and the working folder
# Environment variables a sandboxed process may inherit; everything else (salts, grader paths,
# JUPYTER_*, tokens) is dropped.
ENV_ALLOW = {"PATH", "LANG", "LANGUAGE", "TZ", "TERM", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
             "NVIDIA_DRIVER_CAPABILITIES", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "PYTORCH_CUDA_ALLOC_CONF",
             "CUBLAS_WORKSPACE_CONFIG", "COURSE_ALLOW_CPU_GRADING", "COURSE_FAST", "COURSE_NO_DOWNLOAD",
             "PYTHONUNBUFFERED", "PYTHONHASHSEED"}


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a sandboxed process: allow-listed variables, private HOME/TMPDIR and caches."""
    env = {k: v for k, v in os.environ.items() if k in ENV_ALLOW or k.startswith("LC_")}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.update(HOME=WORKDIR, TMPDIR=WORKDIR, USER="student", LOGNAME="student", PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg",
               IPYTHONDIR="/tmp/.ipython", MPLCONFIGDIR="/tmp/.matplotlib", XDG_CACHE_HOME="/tmp/.cache",
               XDG_CONFIG_HOME="/tmp/.config")
    env.update(extra)
    return env


def _parent_dirs(dests) -> list[str]:
    """Folders leading to the mount points, made traversable by the sandbox's account (bubblewrap
    would make them 0700, which only root inside could cross)."""
    fixed = ("/usr", "/sys", "/etc", "/dev", "/proc") + SYSTEM_PATHS  # read-only or made by bubblewrap
    parents = set()
    for d in dests:
        p = os.path.dirname(d.rstrip("/"))
        while p not in ("/", "") and not any(p == f or p.startswith(f + "/") for f in fixed):
            parents.add(p)
            p = os.path.dirname(p)
    argv = []
    for p in sorted(parents, key=lambda q: (q.count("/"), q)):
        argv += ["--perms", "0755", "--dir", p]
    return argv


def bwrap_argv(extra_binds: list[str] = (), ro_files: list[tuple[str, str]] = (), env: dict | None = None,
               tmp_mb: int | None = None, shm_mb: int | None = None, view: str | None = None,
               account: tuple[int, int] | None = None, stage_dir: str | None = None) -> list[str]:
    """bwrap command prefix. Writable: the private tmpfs /tmp (work folder /tmp/work) and /dev/shm,
    plus ``extra_binds`` (host folders made by trusted code that it never reads back through).
    ``ro_files``: (host file, path inside) pairs, read-only. ``env``: the whole environment inside.
    ``course/`` is ``view`` (see ``course_view``), made for this process if not given. ``account``: the
    (uid, gid) to run as when root (``new_account()``, drawn here if not given). ``stage_dir``: an empty
    folder for the mount point of its overlays (``overlay.py``), for a caller that execs away. Every
    sandbox loads the seccomp filter of ``seccomp.py``."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        raise SandboxUnavailable("bubblewrap (bwrap) is not installed: apt-get install bubblewrap")
    tmp = (settings.current().sandbox_tmp_mb if tmp_mb is None else tmp_mb) * 2**20
    shm = (settings.current().sandbox_shm_mb if shm_mb is None else shm_mb) * 2**20
    account = account or new_account()
    from . import overlay
    stage = overlay.stage(stage_dir) if account is not None else None  # root: inodes of the sandbox's own
    own = stage.tree if stage is not None else (lambda p: p)  # noqa: E731
    if account is None:  # unprivileged: a user namespace mapping the grader's account, no capabilities
        isolate = ["--unshare-all", "--cap-drop", "ALL"]
    else:  # root: no user namespace (its root would own root's files); setpriv drops to the account below
        isolate = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    argv = [bwrap, *_system_binds(stage), "--dev", "/dev", "--perms", "1777", "--size", str(shm), "--tmpfs", "/dev/shm",
            "--proc", "/proc", "--perms", "1777", "--size", str(tmp), "--tmpfs", "/tmp", "--perms", "1777",
            "--dir", WORKDIR, *isolate, "--die-with-parent", "--new-session"]
    from . import procfiles  # the node's counters in /proc: a still copy of the sandbox's own
    masks = stage.proc_files() if stage is not None else procfiles.shared_folder()
    for name, path in masks.items():
        argv += ["--ro-bind", path, "/proc/" + name]
    if stage is not None:
        for name in DEV_NODES:
            argv += ["--dev-bind", stage.device("/dev/" + name), "/dev/" + name]
    for dev in sorted(glob.glob("/dev/nvidia*")) + sorted(glob.glob("/dev/dri/*")):
        argv += ["--dev-bind", stage.device(dev) if stage is not None else dev, dev]
    visible = sorted(visible_paths(), key=len)
    under = lambda p, q: p.startswith(q.rstrip("/") + "/")
    masked = [h for h in sorted(hidden_paths(), key=len) if any(under(h, v) for v in visible)]
    argv += _parent_dirs([*visible, *masked, *extra_binds, *(inner for _, inner in ro_files)])
    course = str(REPO_ROOT / "course")
    source = lambda p: own((view or course_view()) if p == course else p)  # noqa: E731
    for p in visible:
        argv += ["--ro-bind", source(p), p]
    for p in masked:  # mask what a visible folder happens to contain ...
        argv += ["--tmpfs", p]
    for p in visible:  # ... then re-expose the visible folders inside the mask
        if any(under(p, m) for m in masked):
            argv += ["--ro-bind", source(p), p]
    for p in extra_binds:
        argv += ["--bind", p, p]
    for host, inner in ro_files:
        argv += ["--ro-bind", host, inner]
    argv += ["--chdir", WORKDIR, "--clearenv"]
    for k, v in sorted((clean_env() if env is None else env).items()):
        argv += ["--setenv", k, v]
    argv.append("--")
    prlimit = shutil.which("prlimit", path="/usr/bin:/bin")
    if not prlimit:
        raise SandboxUnavailable("prlimit (util-linux) is needed to set the sandbox's resource limits")
    argv += [prlimit, *_rlimits(account), "--"]
    if account is not None:
        setpriv = shutil.which("setpriv", path="/usr/bin:/bin")
        if not setpriv:
            raise SandboxUnavailable("setpriv (util-linux) is needed to drop root in the sandbox")
        argv += [setpriv, f"--reuid={account[0]}", f"--regid={account[1]}", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    from . import seccomp
    try:
        argv = seccomp.wrap(argv)
    except seccomp.SeccompUnavailable as exc:
        raise SandboxUnavailable(str(exc)) from None
    return stage.wrap(argv) if stage is not None else argv


@functools.lru_cache(maxsize=1)
def probe() -> str | None:
    """None when the sandbox works here, else the reason it does not."""
    try:
        argv = bwrap_argv()
    except SandboxUnavailable as exc:
        return str(exc)
    try:
        r = subprocess.run(argv + [sys.executable, "-c", "print('ok')"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap failed to start: {exc}"
    if r.returncode != 0 or r.stdout.strip() != "ok":
        return "bubblewrap failed: " + (r.stderr.strip().splitlines() or ["no output"])[-1]
    return None


def mode() -> str:
    m = settings.current().sandbox.lower()
    if m not in ("on", "off", "auto"):
        raise ValueError(f"COURSE_SANDBOX must be on, off or auto, not {m!r}")
    return m


def limits_preexec(file_limit_bytes: int, group=None):
    """Run in the child before exec: own process group, capped file writes, no core dumps, and the
    cgroup ``group`` (memory and task caps) when there is one."""
    def _apply():
        if group is not None:
            group.add()
        os.setsid()
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an oversized write fails instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit_bytes, file_limit_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return _apply


def kill_tree(proc: subprocess.Popen) -> None:
    if not proc.pid or proc.pid <= 1:
        return  # a forked worker whose pid was never known: nothing safe to signal
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def worker_argv(sandboxed: bool, entry: str, env: dict | None = None, extra_binds: list[str] = ()) -> list[str]:
    """Command for untrusted-side code: ``entry`` is the module whose ``main()`` runs (the judge's
    worker, or its fork server)."""
    py = [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); "
          f"from {entry} import main; main()"]
    return (bwrap_argv(extra_binds=extra_binds, env=env) + py) if sandboxed else py


def resolve(requested: str | None = None) -> bool:
    """Decide whether to sandbox; raise SandboxUnavailable when it is required but cannot be set up."""
    m = (requested or mode()).lower()
    if m == "off":
        return False
    reason = probe()
    if reason is None:
        return True
    if m == "auto":
        return False
    raise SandboxUnavailable(
        f"the grading sandbox cannot be set up here ({reason}). Install bubblewrap, or set "
        f"COURSE_SANDBOX=off to grade WITHOUT isolation (submissions could then read solutions).")


__all__ = ["SandboxUnavailable", "resolve", "probe", "worker_argv", "limits_preexec", "TreeRss",
           "kill_tree", "Path"]
