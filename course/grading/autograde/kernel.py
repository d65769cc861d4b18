"""The kernel manager autograde uses: every kernel gets a folder of its own, made by trusted code.

    <runtime>/k-XXXX/connection.json   written here, before the kernel starts; read-only inside
    <runtime>/k-XXXX/ipc/               the kernel's IPC sockets (the sandbox binds them here)

No kernel sees another kernel's folder or keys, and a kernel that leaves links or junk in its
``ipc/`` cannot affect the next one: the whole folder is removed when the kernel is cleaned up
(``fstree.remove``: no link followed, any depth), along with its cgroup. Where the sandbox runs as
an account of its own (grading as root), ``ipc/`` is handed to root once the kernel's sockets exist,
so the kernel cannot add anything to it; elsewhere its whole tree is watched (``ipc_usage``).
"""
from __future__ import annotations

import os
import tempfile

from jupyter_client.manager import AsyncKernelManager

from ... import fstree
from ... import sandbox


def runtime_root() -> str:
    root = os.environ.get("COURSE_KERNEL_ROOT") or os.environ.get("JUPYTER_RUNTIME_DIR") or tempfile.gettempdir()
    os.makedirs(root, mode=0o700, exist_ok=True)
    return root


class SandboxKernelManager(AsyncKernelManager):
    kernel_dir: str | None = None
    adopted = None  # a spare_kernel.Spare this manager runs instead of launching a kernel

    def adopt(self, spare) -> None:
        """Run ``spare`` (a kernel started ahead, in a folder of its own) instead of launching one."""
        self.adopted, self.kernel_dir, self.connection_file = spare, spare.kernel_dir, spare.connection_file
        self.load_connection_file(spare.connection_file)
        self._connection_file_written = True  # the spare has read it: it is not written again

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        spare, p = self.adopted, self.provisioner
        if spare is None:
            return await super()._async_launch_kernel(kernel_cmd, **kw)
        p.process, p.pid, p.cwd = spare.proc, spare.proc.pid, kw.get("cwd")
        p.pgid = spare.proc.pid  # started as the leader of a new session
        self._reconcile_connection_info(p.connection_info)

    async def _async_pre_start_kernel(self, **kw):
        if self.kernel_dir is None:
            self.kernel_dir = tempfile.mkdtemp(prefix="k-", dir=runtime_root())
            os.mkdir(os.path.join(self.kernel_dir, "ipc"), 0o700)
            self.connection_file = os.path.join(self.kernel_dir, "connection.json")
            if self.transport == "ipc":
                self.ip = os.path.join(self.kernel_dir, "ipc", "kernel")
        return await super()._async_pre_start_kernel(**kw)

    def ipc_usage(self) -> fstree.Usage:
        """Entries, bytes and depth of the whole tree under this kernel's ipc folder (lstat only)."""
        if not self.kernel_dir:
            return fstree.Usage()
        return fstree.usage(os.path.join(self.kernel_dir, "ipc"))

    def lock_ipc(self) -> bool:
        """Once the kernel's sockets exist, take ``ipc/`` back from the sandbox's account: the
        sockets stay usable, but nothing new can be created there. False where the sandbox runs
        as the grader's own account (then only watching is possible)."""
        if not self.kernel_dir or not sandbox.separate_account():
            return False
        ipc = os.path.join(self.kernel_dir, "ipc")
        fd = os.open(ipc, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            os.fchown(fd, 0, 0)
            os.fchmod(fd, 0o755)
        finally:
            os.close(fd)
        return True

    def copy_output(self, limit: int = 1_000_000) -> None:
        """What the sandbox wrote on its descriptors 1 and 2 (``k-XXXX/kernel.log``, course.sandbox.kernel),
        into this process's stderr (the submission's log under the runner): each line marked as the kernel's
        and escaped, at most ``limit`` bytes. Nothing is followed; the file goes with the folder."""
        from ...plain import one_line
        from ...sandbox.kernel import OUTPUT
        if not self.kernel_dir:
            return
        try:
            fd = os.open(os.path.join(self.kernel_dir, OUTPUT), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return
        try:
            size = os.fstat(fd).st_size
            data = os.read(fd, min(size, limit)) if size else b""
        finally:
            os.close(fd)
        if not data:
            return
        text = "".join(f"[kernel output] {one_line(ln, 2000)}\n"
                       for ln in data.decode("utf-8", "replace").splitlines())
        if size > len(data):
            text += f"[kernel output] ... {size - len(data)} more bytes not copied\n"
        import sys
        sys.stderr.write(text)
        sys.stderr.flush()

    def remove_folder(self) -> None:
        self.copy_output()
        if self.adopted is not None:
            self.adopted.discard()  # its process (if still running) and its folder
        if self.kernel_dir:
            fstree.remove(self.kernel_dir)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        try:
            await super()._async_cleanup_resources(restart=restart)
        finally:
            if not restart:
                self.remove_folder()
