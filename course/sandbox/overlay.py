"""Each sandbox's own inodes for the read-only files every sandbox sees.

A file lock (``flock``, fcntl record and OFD locks) belongs to an inode: a lock one sandbox takes on
the Python binary another could test, a channel between two live sandboxes. So when grading as root,
every read-only tree a sandbox sees (/usr, /sys, /etc, Python, the venv, the course view) is a
read-only overlay mount of its own, and each device node (/dev/null, the GPUs) a node of its own made
with ``mknod``: different inodes in every sandbox, so locks on them stay inside it, while locks on its
own files (gloo's FileStore, SQLite, filelock in /tmp) are real as before. The mounts are made in a
private mount namespace (``unshare --mount``) by a shell that then becomes the seccomp launcher and
bubblewrap (0.8 has no ``--ro-overlay``); they vanish with it. A descriptor 0, 1 or 2 that is the
host's /dev/null is reopened on the sandbox's own. The same staging tmpfs holds the sandbox's own copies
of the node-wide /proc files (``procfiles.py``).

Not root: bubblewrap maps the grader's account into a user namespace of its own, and these mounts are
not made (docs/security.md: the lock channel stays open there).
"""
from __future__ import annotations

import functools
import os
import shlex
import shutil
import stat
import subprocess

_BAD = (",", ":", "\\", "\n")  # overlayfs would split a lowerdir at these
_INLINE = 16384  # bytes of a /proc copy written by the script itself; longer ones are copied from a file


class Stage:
    """The overlays and device nodes of one sandbox: host path -> path under the staging folder."""

    def __init__(self, folder: str):
        self.folder = folder
        self.lines = ["set -e", f"mount -t tmpfs -o mode=0755,size=1m course-stage {shlex.quote(folder)}",
                      f"mkdir {shlex.quote(os.path.join(folder, 'empty'))} {shlex.quote(os.path.join(folder, 'dev'))}"]
        self.trees: dict[str, str] = {}
        self.devices: dict[str, str] = {}

    def tree(self, host: str) -> str:
        """A read-only overlay of the folder ``host`` (the folder itself where overlayfs cannot name it)."""
        if host in self.trees:
            return self.trees[host]
        if not os.path.isdir(host) or any(c in host for c in _BAD):
            return host
        inner = os.path.join(self.folder, str(len(self.trees)))
        empty = os.path.join(self.folder, "empty")
        self.lines += [f"mkdir {shlex.quote(inner)}",
                       f"mount -t overlay course-ro -o {shlex.quote(f'ro,lowerdir={host}:{empty}')} {shlex.quote(inner)}"]
        self.trees[host] = inner
        return inner

    def device(self, host: str) -> str:
        """A node of its own for the device ``host`` (the same device, another inode)."""
        if host in self.devices:
            return self.devices[host]
        try:
            st = os.stat(host)
        except OSError:
            return host
        kind = "c" if stat.S_ISCHR(st.st_mode) else "b" if stat.S_ISBLK(st.st_mode) else None
        if kind is None:
            return host
        inner = os.path.join(self.folder, "dev", str(len(self.devices)))
        self.lines += [f"mknod -m {stat.S_IMODE(st.st_mode):o} {shlex.quote(inner)} {kind} "
                       f"{os.major(st.st_rdev)} {os.minor(st.st_rdev)}"]
        self.devices[host] = inner
        return inner

    def proc_files(self) -> dict[str, str]:
        """Files of its own for the node-wide /proc files (``procfiles.py``): /proc name -> path to bind."""
        from . import procfiles
        if not hasattr(self, "_proc"):
            folder = os.path.join(self.folder, "proc")
            self._proc = {}
            self.lines.append(f"mkdir {shlex.quote(folder)}")
            for name, data in procfiles.contents().items():
                path = self._proc[name] = os.path.join(folder, procfiles.file_name(name))
                if len(data) < _INLINE:
                    self.lines.append(f"printf '%s' {shlex.quote(data.decode())} > {shlex.quote(path)}")
                else:  # /proc/interrupts of a large node: too long for one argument of the script
                    self.lines.append(f"cat {shlex.quote(procfiles.shared_folder()[name])} > {shlex.quote(path)}")
                self.lines.append(f"chmod 0444 {shlex.quote(path)}")
        return self._proc

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` started by a shell in a private mount namespace that first makes the mounts and nodes."""
        null = shlex.quote(self.device("/dev/null"))
        lines = self.lines + [f"if [ /proc/self/fd/{fd} -ef /dev/null ]; then exec {fd}{op}{null}; fi"
                              for fd, op in ((0, "<"), (1, ">"), (2, ">"))]
        script = "\n".join(lines + ['exec "$@"'])
        return [shutil.which("unshare", path="/usr/bin:/bin"), "--mount", "--propagation", "private", "--",
                "/bin/sh", "-c", script, "course-stage", *argv]


@functools.lru_cache(maxsize=1)
def _folder() -> str:
    """This process's empty mount point for its sandboxes' staging tmpfs (mounted in their namespaces
    only), removed when it exits (a process that execs away passes a folder of its own: ``stage``)."""
    import atexit
    from . import tempdirs
    folder = tempdirs.make("stage")
    atexit.register(_rmdir, folder)
    return folder


def _rmdir(folder: str) -> None:
    try:
        os.rmdir(folder)
    except OSError:
        pass  # swept later (tempdirs.sweep)


@functools.lru_cache(maxsize=1)
def usable() -> bool:
    """Whether per-sandbox overlays can be made here: root, ``unshare`` and overlayfs over /usr."""
    if os.geteuid() != 0 or not shutil.which("unshare", path="/usr/bin:/bin"):
        return False
    from . import tempdirs
    folder = tempdirs.make("stage")
    stage = Stage(folder)
    stage.tree("/usr")
    stage.device("/dev/null")
    try:
        r = subprocess.run(stage.wrap(["/bin/true"]), capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    finally:
        _rmdir(folder)
    return r.returncode == 0


def stage(folder: str | None = None) -> Stage | None:
    """A new Stage for one sandbox, or None where they cannot be made (not root, no overlayfs).
    ``folder``: an empty folder of the caller's for the mount point (default: this process's)."""
    if not usable():
        return None
    if folder is not None:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    return Stage(folder or _folder())
