"""Kernel launcher used under autograde: an ipykernel inside the bubblewrap sandbox.

Started by jupyter_client from the ``course-sandbox`` kernelspec as
``python -m course.sandbox_kernel -f CONNECTION_FILE``. The kernel talks over
IPC sockets next to the connection file (the sandbox has no network), sees
only its own notebook folder (read-write) besides the system, Python and the
``course`` package, and is killed with its whole process tree when the
launcher dies.
"""
import os
import sys


def main() -> None:
    args = sys.argv[1:]
    conn = args[args.index("-f") + 1]
    runtime_dir = os.path.dirname(os.path.abspath(conn))
    cwd = os.getcwd()
    kernel = [sys.executable, "-m", "ipykernel_launcher", "-f", conn, "--HistoryManager.hist_file=:memory:"]
    from course import sandbox
    argv = sandbox.bwrap_argv(cwd, extra_binds=[runtime_dir], keep_cwd=True)
    # Inside the sandbox the parent pid is not visible; --die-with-parent covers it.
    argv = argv[:-1] + ["--setenv", "JPY_PARENT_PID", "1", "--"] + kernel
    os.environ.update(MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
    import resource
    import signal
    cap = 64 * 2**20  # an oversized file write fails instead of filling the disk
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
