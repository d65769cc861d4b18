"""The kernel manager autograde uses: every kernel gets a folder of its own, made by trusted code.

    <runtime>/k-XXXX/connection.json   written here, before the kernel starts; read-only inside
    <runtime>/k-XXXX/ipc/               the kernel's IPC sockets (the sandbox binds them here)

No kernel sees another kernel's folder or keys, and a kernel that leaves links or junk in its
``ipc/`` cannot affect the next one: the whole folder is removed when the kernel is cleaned up
(``shutil.rmtree`` does not follow links), along with its cgroup.
"""
from __future__ import annotations

import os
import shutil
import tempfile

from jupyter_client.manager import AsyncKernelManager


def runtime_root() -> str:
    root = os.environ.get("COURSE_KERNEL_ROOT") or os.environ.get("JUPYTER_RUNTIME_DIR") or tempfile.gettempdir()
    os.makedirs(root, mode=0o700, exist_ok=True)
    return root


class SandboxKernelManager(AsyncKernelManager):
    kernel_dir: str | None = None

    async def _async_pre_start_kernel(self, **kw):
        if self.kernel_dir is None:
            self.kernel_dir = tempfile.mkdtemp(prefix="k-", dir=runtime_root())
            os.mkdir(os.path.join(self.kernel_dir, "ipc"), 0o700)
            self.connection_file = os.path.join(self.kernel_dir, "connection.json")
            if self.transport == "ipc":
                self.ip = os.path.join(self.kernel_dir, "ipc", "kernel")
        return await super()._async_pre_start_kernel(**kw)

    def ipc_usage(self) -> tuple[int, int]:
        """(entries, bytes) in this kernel's ipc folder, from lstat only (nothing is opened)."""
        if not self.kernel_dir:
            return 0, 0
        n = size = 0
        try:
            with os.scandir(os.path.join(self.kernel_dir, "ipc")) as it:
                for e in it:
                    n += 1
                    try:
                        size += e.stat(follow_symlinks=False).st_size
                    except OSError:
                        pass
        except OSError:
            pass
        return n, size

    def remove_folder(self) -> None:
        if self.kernel_dir:
            shutil.rmtree(self.kernel_dir, ignore_errors=True)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        try:
            await super()._async_cleanup_resources(restart=restart)
        finally:
            if not restart:
                self.remove_folder()
