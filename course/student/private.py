"""What a student's Jupyter keeps out of classmates' reach on a machine the class shares.

Two defaults of the stack are open to other accounts there: jupyter_client runs each kernel on TCP ports
of 127.0.0.1, and any account that finds them (``/proc/net/tcp`` names their owner) can subscribe to the
kernel's IOPub channel, which publishes every cell's code and output unencrypted (the key only signs);
and torch.compile caches generated code, which it later imports, in ``/tmp/torchinductor_<user>``, a name
a classmate can create first. ``kernels_on_private_sockets`` and ``private_torch_cache`` change both.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile


def private_folder() -> str:
    """A fresh folder only this account can open (0o700), short enough for socket paths; removed at exit."""
    folder = tempfile.mkdtemp(prefix="course-kernel-")
    atexit.register(shutil.rmtree, folder, True)  # safe: this account's own 0700 folder, removed by the same account
    return folder


def kernels_on_private_sockets(kernel_manager) -> None:
    """A Jupyter server's kernels talk over Unix sockets in a private folder, not TCP (POSIX only)."""
    if os.name != "posix":
        return
    from traitlets.config import Config

    kernel_manager.connection_dir = private_folder()
    kernel_manager.update_config(Config({"KernelManager": {"transport": "ipc"}}))


def private_torch_cache(environ=os.environ, fallback: bool = True) -> None:
    """torch.compile's cache (TORCHINDUCTOR_CACHE_DIR, read by kernels started from this process) in
    this account's own cache folder, unless it is already set; a fresh private folder when the home is
    not this account's (``fallback``; else torch's default stays)."""
    if environ.get("TORCHINDUCTOR_CACHE_DIR"):
        return
    home = os.path.expanduser("~")
    try:
        mine = os.stat(home).st_uid == os.geteuid() and not os.stat(home).st_mode & 0o022
    except OSError:
        mine = False
    base = environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    if mine and os.path.realpath(base).startswith(os.path.realpath(home) + os.sep):
        environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(base, "torchinductor")
    elif fallback:
        environ["TORCHINDUCTOR_CACHE_DIR"] = private_folder()
