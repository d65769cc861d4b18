"""The system calls a sandbox may not make: a seccomp filter that bubblewrap loads (``--seccomp FD``).

Modelled on Docker's default profile, as a deny-list (EPERM): what a notebook never needs and what
would join two sandboxes or reach the machine. The kernel keyring first: it is scoped to a uid and
outlives every process, so without this one submission could leave a key that another reads.

    keyrings         add_key, request_key, keyctl
    other processes  ptrace, process_vm_readv/writev, kcmp, pidfd_getfd
    namespaces       unshare, setns, clone/clone3 with CLONE_NEW* (clone3: ENOSYS, so libc uses clone)
    the kernel       bpf, perf_event_open, userfaultfd, io_uring_*, kexec_*, *_module, iopl, ioperm,
                     syslog, acct, quotactl, lookup_dcookie, reboot, swapon/off, vhangup, sysfs, ustat
    file systems     mount, umount2, pivot_root, chroot, fsopen, fsmount, fsconfig, fspick, move_mount,
                     open_tree, mount_setattr, name_to_handle_at, open_by_handle_at, fanotify_init
    clocks           settimeofday, clock_settime, clock_adjtime, adjtimex
    watching files   inotify_add_watch, fcntl F_NOTIFY (the files a sandbox sees are every sandbox's)

File locks (``flock``, fcntl's record and open-file-description locks) are kept on the file, and the
read-only files a sandbox sees (Python, /usr) are the same files in every sandbox: a lock one sandbox
takes another can test, a channel. They succeed without effect (errno 0), so code that locks its own
files (torch.compile's caches, filelock) runs as if it held the lock. The page cache of those files is
shared too: ``posix_fadvise`` (which could evict a page another sandbox then tests) succeeds without
effect, and a read that only says whether a page is cached (``RWF_NOWAIT``) is refused (EOPNOTSUPP).

Calls of another architecture (32-bit ``int 0x80``, x32) kill the process (libseccomp's default for a
foreign architecture). The filter is compiled once per process with libseccomp (``pyseccomp``).
"""
from __future__ import annotations

import errno
import functools
import os

DENIED = (
    "add_key", "request_key", "keyctl",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "unshare", "setns",
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "create_module",
    "iopl", "ioperm", "syslog", "acct", "quotactl", "quotactl_fd", "lookup_dcookie", "reboot",
    "swapon", "swapoff", "vhangup", "sysfs", "ustat", "uselib", "nfsservctl", "_sysctl",
    "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsmount", "fsconfig", "fspick", "move_mount",
    "open_tree", "mount_setattr", "name_to_handle_at", "open_by_handle_at", "fanotify_init",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "inotify_add_watch",
)
F_NOTIFY = 1026
RWF_NOWAIT = 8
LOCK_CMDS = (5, 6, 7, 36, 37, 38)  # F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW
CLONE_NEW = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET (| NEWTIME below)
CLONE_NEWTIME = 0x80


class SeccompUnavailable(RuntimeError):
    pass


@functools.lru_cache(maxsize=1)
def program() -> bytes:
    """The compiled BPF program (bytes), as ``bwrap --seccomp`` reads it."""
    try:
        import pyseccomp as sc
    except (ImportError, OSError) as exc:  # OSError: libseccomp.so.2 missing
        raise SeccompUnavailable(f"libseccomp is not usable ({exc}): pip install pyseccomp; "
                                 f"apt-get install libseccomp2") from None
    f = sc.SyscallFilter(sc.ALLOW)
    for name in DENIED:
        try:
            f.add_rule(sc.ERRNO(errno.EPERM), name)
        except (ValueError, RuntimeError, OSError):
            pass  # a call this architecture does not have
    for flag in [1 << b for b in range(32) if (CLONE_NEW | CLONE_NEWTIME) >> b & 1]:
        f.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")  # its flags are in memory a filter cannot read
    f.add_rule(sc.ERRNO(errno.EPERM), "fcntl", sc.Arg(1, sc.EQ, F_NOTIFY))
    f.add_rule(sc.ERRNO(0), "flock")  # locks: done, without effect (see the docstring)
    f.add_rule(sc.ERRNO(0), "fadvise64")
    for name in ("preadv2", "pwritev2"):  # (fd, iov, iovcnt, pos_l, pos_h, flags)
        f.add_rule(sc.ERRNO(errno.EOPNOTSUPP), name, sc.Arg(5, sc.MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT))
    for cmd in LOCK_CMDS:
        f.add_rule(sc.ERRNO(0), "fcntl", sc.Arg(1, sc.EQ, cmd))
    import tempfile
    with tempfile.TemporaryFile() as fh:
        f.export_bpf(fh)
        fh.seek(0)
        return fh.read()


_FILE: str | None = None


def program_file() -> str:
    """A file holding ``program()``, written once per process (read by the shell that starts bwrap)."""
    global _FILE
    if _FILE and os.path.isfile(_FILE):
        return _FILE
    from . import tempdirs
    folder = tempdirs.make("seccomp")
    path = os.path.join(folder, "filter.bpf")
    with open(path, "wb") as fh:
        fh.write(program())
    os.chmod(path, 0o444)
    import atexit
    from . import fstree
    atexit.register(fstree.remove, folder)
    _FILE = path
    return path


FD = 9  # the descriptor the filter is read from


def wrap(bwrap_argv: list[str]) -> list[str]:
    """``bwrap_argv`` with ``--seccomp 9`` added, started through /bin/sh, which opens the filter file on
    descriptor 9 and becomes bwrap (so every way of starting a sandbox passes the filter, whatever
    descriptors the caller keeps)."""
    argv = list(bwrap_argv)
    argv[1:1] = ["--seccomp", str(FD)]
    return ["/bin/sh", "-c", f'exec {FD}<"$0" && exec "$@"', program_file(), *argv]
