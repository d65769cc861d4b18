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
    conn = os.path.abspath(args[args.index("-f") + 1])
    import json
    info = json.load(open(conn))
    socket_dir = os.path.dirname(os.path.abspath(info.get("ip", "")))
    # Only the private IPC folder made by course.grading.config is shared with the kernel: never a
    # general folder such as /tmp, where the connection file itself may live.
    if info.get("transport") != "ipc" or not os.path.basename(socket_dir).startswith("course-kernels-"):
        sys.exit(f"course-sandbox kernel: expected IPC sockets in a private course-kernels-* folder, got "
                 f"transport={info.get('transport')!r} ip={info.get('ip')!r}")
    private_conn = os.path.join(socket_dir, "connection.json")
    with open(private_conn, "w") as fh:
        json.dump(info, fh)
    cwd = os.getcwd()
    kernel = [sys.executable, "-m", "ipykernel_launcher", "-f", private_conn, "--HistoryManager.hist_file=:memory:"]
    from course import sandbox
    argv = sandbox.bwrap_argv(cwd, extra_binds=[socket_dir], keep_cwd=True)
    # Inside the sandbox the parent pid is not visible; --die-with-parent covers it.
    # IPython's profile and the font caches of matplotlib and fontconfig go to the sandbox's private
    # /tmp, not into the graded folder (and from there into the student's feedback).
    private = {"IPYTHONDIR": "/tmp/.ipython", "MPLCONFIGDIR": "/tmp/.matplotlib", "XDG_CACHE_HOME": "/tmp/.cache",
               "XDG_CONFIG_HOME": "/tmp/.config", "JPY_PARENT_PID": "1"}
    argv = argv[:-1] + [a for k, v in private.items() for a in ("--setenv", k, v)] + ["--"] + kernel
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
