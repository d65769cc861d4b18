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
    node-wide pools  io_setup (fs.aio-max-nr, no per-user share), memfd_secret (splits the kernel's
                     direct map for the whole node): ENOSYS, as on a kernel without them
    sockets          AF_VSOCK and AF_ALG (as Docker), netlink other than NETLINK_ROUTE (getifaddrs)
    personality      only the values Docker allows (none that changes how memory is mapped)
    prctl            PR_TASK_PERF_EVENTS_DISABLE/ENABLE: they would stop the judge's count of native calls
                     (``course/sandbox/native_calls.py``), which is attached to the sandbox's tasks from outside
    newer calls      numbers this libseccomp cannot name: lsm_*, open_tree_attr, 470-511 (ENOSYS)

The read-only files a sandbox sees (Python, /usr) are the same files in every sandbox. Their page cache
is shared: ``posix_fadvise`` (which could evict a page another sandbox then tests) succeeds without
effect, and a read that only says whether a page is cached (``RWF_NOWAIT``) is refused (EOPNOTSUPP).
Locks stay real (gloo's FileStore, SQLite and filelock need them on a sandbox's own files, and a filter
cannot tell which file a lock is on); graded as root, each sandbox sees its own overlay of those files
(``overlay.py``), so a lock on them stays inside it.

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
    "migrate_pages", "move_pages", "process_madvise",
)
ABSENT = ("io_setup", "memfd_secret")  # ENOSYS: as on a kernel built without them
# x86_64 and aarch64 share the numbers from 424 on: lsm_get/set_self_attr, lsm_list_modules, open_tree_attr,
# and calls newer than this list (a deny-list lets unknown calls through; these it does not)
UNNAMED = (459, 460, 461, 467, *range(470, 512))
AF_ALG, AF_VSOCK, AF_NETLINK, NETLINK_ROUTE = 38, 40, 16, 0
# personality values Docker's default profile allows: PER_LINUX, UNAME26, PER_LINUX32 and both, the query
PERSONALITY_OK = (0x0, 0x8, 0x20000, 0x20008, 0xFFFFFFFF)
F_NOTIFY = 1026
PR_TASK_PERF_EVENTS_DISABLE, PR_TASK_PERF_EVENTS_ENABLE = 31, 32
RWF_NOWAIT = 8
CLONE_NEW = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET (| NEWTIME below)
CLONE_NEWTIME = 0x80


class SeccompUnavailable(RuntimeError):
    pass


def _personality_refused() -> list[tuple[int, int]]:
    """(mask, value) pairs, one comparison each (libseccomp compares an argument once a rule), that
    together match exactly the 32-bit values outside PERSONALITY_OK. The allowed values are 0, 0xFFFFFFFF
    and the combinations of bits 3 and 17; of the other 30 bits, a value that is neither all clear nor
    all set has, going round them, a set bit followed by a clear one; all set and 3 or 17 clear is the
    rest."""
    other = [b for b in range(32) if b not in (3, 17)]
    out = []
    for i, b in enumerate(other):
        c = other[(i + 1) % len(other)]
        out.append(((1 << b) | (1 << c), 1 << b))
    for cleared in (1 << 3, 1 << 17, (1 << 3) | (1 << 17)):
        out.append((0xFFFFFFFF, 0xFFFFFFFF & ~cleared))
    return out


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
    for name in ABSENT:
        try:
            f.add_rule(sc.ERRNO(errno.ENOSYS), name)
        except (ValueError, RuntimeError, OSError):
            pass
    if os.uname().machine in ("x86_64", "aarch64"):
        for nr in UNNAMED:
            f.add_rule(sc.ERRNO(errno.ENOSYS), nr)
    for family in (AF_ALG, AF_VSOCK):
        f.add_rule(sc.ERRNO(errno.EPERM), "socket", sc.Arg(0, sc.EQ, family))
    f.add_rule(sc.ERRNO(errno.EPERM), "socket", sc.Arg(0, sc.EQ, AF_NETLINK), sc.Arg(2, sc.NE, NETLINK_ROUTE))
    for mask, value in _personality_refused():
        f.add_rule(sc.ERRNO(errno.EPERM), "personality", sc.Arg(0, sc.MASKED_EQ, mask, value))
    f.add_rule(sc.ERRNO(errno.EPERM), "personality", sc.Arg(0, sc.GT, 0xFFFFFFFF))
    for flag in [1 << b for b in range(32) if (CLONE_NEW | CLONE_NEWTIME) >> b & 1]:
        f.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")  # its flags are in memory a filter cannot read
    f.add_rule(sc.ERRNO(errno.EPERM), "fcntl", sc.Arg(1, sc.EQ, F_NOTIFY))
    for option in (PR_TASK_PERF_EVENTS_DISABLE, PR_TASK_PERF_EVENTS_ENABLE):
        f.add_rule(sc.ERRNO(errno.EPERM), "prctl", sc.Arg(0, sc.EQ, option))
    f.add_rule(sc.ERRNO(0), "fadvise64")
    for name in ("preadv2", "pwritev2"):  # (fd, iov, iovcnt, pos_l, pos_h, flags)
        f.add_rule(sc.ERRNO(errno.EOPNOTSUPP), name, sc.Arg(5, sc.MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT))
    import tempfile
    with tempfile.TemporaryFile() as fh:
        f.export_bpf(fh)
        fh.seek(0)
        return fh.read()


_FILE: str | None = None


def _usable(path: str, data: bytes) -> bool:
    """``path`` is a plain file of this account's, writable by no one else, holding exactly ``data``. Opened
    without waiting: the name is in a folder every account may write, and a FIFO another one made there would
    hold a plain open (and every sandbox with it) until someone opens it for writing."""
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            return False
        return os.read(fd, len(data) + 1) == data
    finally:
        os.close(fd)


def program_file() -> str:
    """A file holding ``program()``, read by the shell that starts bwrap: one per filter, named by its
    hash in the temporary folder and shared by every process of this account (so none is left behind by a
    process that dies), used only while it is this account's, unwritable by others and holds exactly
    the program; otherwise a private copy in a folder of this process's own."""
    global _FILE
    data = program()
    if _FILE and _usable(_FILE, data):
        return _FILE
    import hashlib
    import tempfile
    tmp = tempfile.gettempdir()
    path = os.path.join(tmp, f"course-seccomp.{hashlib.sha256(data).hexdigest()[:24]}.{os.geteuid()}.bpf")
    if not _usable(path, data):
        fd, fresh = tempfile.mkstemp(prefix="course-seccomp.", dir=tmp)
        try:
            os.write(fd, data)
            os.fchmod(fd, 0o444)
        finally:
            os.close(fd)
        try:
            os.replace(fresh, path)  # atomic: a reader sees the old file or the whole new one
        except OSError:
            os.unlink(fresh)
        if not _usable(path, data):  # someone else's file in the way: a private copy instead
            from .. import fstree
            from . import tempdirs
            import atexit
            folder = tempdirs.make("seccomp")
            path = os.path.join(folder, "filter.bpf")
            with open(path, "wb") as fh:
                fh.write(data)
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
