"""Kernel launcher used under autograde: an ipykernel inside the bubblewrap sandbox.

Started by jupyter_client from the ``course-sandbox`` kernelspec as
``python -m course.sandbox.kernel -f CONNECTION_FILE``, where the connection file lies in a
per-kernel folder made by ``course.grading.autograde.kernel.SandboxKernelManager``:

    k-XXXX/connection.json   read-only inside the sandbox (at /run/kernel/connection.json)
    k-XXXX/ipc/              the kernel's IPC sockets: the only host folder it can write, and
                             only until its sockets exist (see SandboxKernelManager.lock_ipc)

The kernel's working folder is the sandbox's private tmpfs (/tmp/work), not the graded folder:
nothing it writes is ever read, copied or followed by the grader. It imports torch as it boots
(``COURSE_KERNEL_PRELOAD``), before any notebook cell. Its environment is an
allow-list, its memory (tmpfs included) and task count are capped by a cgroup where the machine
allows it, and it is killed with its whole process tree when the launcher dies.
"""
import json
import os
import sys

CONN_INSIDE = "/run/kernel/connection.json"
OUTPUT = "kernel.log"  # in the kernel's folder: what the sandbox writes on its descriptors 1 and 2


def refuse(why: str) -> None:
    sys.exit(f"course-sandbox kernel: {why}")


def _no_terminal() -> None:
    """Descriptors 0-2 that are a terminal become /dev/null. jupyter_client hands the kernel the grader's
    stdout and stderr, and ipykernel keeps copies: under ``nbgrader autograde`` in a terminal, a submission
    could read what the instructor types there, write escape sequences to it and change its settings."""
    null = None
    for fd in (0, 1, 2):
        if os.isatty(fd):
            if null is None:
                null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
            os.dup2(null, fd)  # inheritable: the sandbox's 0-2
    if null is not None and null > 2:
        os.close(null)


def _own_output(kdir: str) -> None:
    """Descriptors 1 and 2 that are a file or pipe of the grader's (the runner points them at the submission's
    log) become ``k-XXXX/kernel.log``, which no sandbox sees: with the log's own descriptor a kernel could
    truncate it and write lines that look like the grader's. SandboxKernelManager copies the file into the
    log, each line marked and escaped, once the kernel is gone. /dev/null (a kernel started ahead) stays."""
    import stat
    out = None
    for fd in (1, 2):
        try:
            if stat.S_ISCHR(os.fstat(fd).st_mode):
                continue
        except OSError:
            continue
        if out is None:
            out = os.open(os.path.join(kdir, OUTPUT), os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW
                          | os.O_CLOEXEC, 0o600)
        os.dup2(out, fd)
    if out is not None and out > 2:
        os.close(out)


def main() -> None:
    _no_terminal()
    args = sys.argv[1:]
    conn = os.path.abspath(args[args.index("-f") + 1])
    kdir = os.path.dirname(conn)
    ipc = os.path.join(kdir, "ipc")
    with open(conn) as fh:
        info = json.load(fh)
    if not os.path.basename(kdir).startswith("k-") or info.get("transport") != "ipc" or \
            os.path.dirname(str(info.get("ip", ""))) != ipc or not os.path.isdir(ipc) or os.path.islink(ipc):
        refuse(f"expected a per-kernel folder k-*/ with IPC sockets in k-*/ipc, got transport="
               f"{info.get('transport')!r} ip={info.get('ip')!r}")
    _own_output(kdir)
    from course import REPO_ROOT, sandbox, settings
    from course.sandbox import cgroup
    account = sandbox.new_account()
    if account is not None:  # the sandbox's own uid reads its key and makes its sockets
        os.chown(conn, *account, follow_symlinks=False)
        os.chown(ipc, *account, follow_symlinks=False)
    env = sandbox.clean_env(PYTHONPATH=str(REPO_ROOT), JPY_PARENT_PID="1",
                            **{k: os.environ[k] for k in ("NBGRADER_EXECUTION", "NBGRADER_VALIDATING")
                               if k in os.environ})
    view = sandbox.course_view(os.path.join(kdir, "course"))  # removed with the kernel's folder
    from course.sandbox import template
    if account is not None and os.environ.get(template.SOCKET_ENV) and template.wanted():
        _from_template(conn, ipc, env, view, account)
        return
    argv = sandbox.bwrap_argv(extra_binds=[ipc], ro_files=[(conn, CONN_INSIDE)], env=env, view=view, account=account,
                              stage_dir=os.path.join(kdir, "stage"))  # removed with the kernel's folder
    argv += [sys.executable, "-m", "ipykernel_launcher", "-f", CONN_INSIDE, "--HistoryManager.hist_file=:memory:"]
    # torch is imported while the kernel boots (every notebook's first cell imports it), so that a
    # kernel started ahead (course.grading.autograde.spare_kernel) has done it; no name is left behind
    limits = settings.current()
    for module in filter(None, limits.kernel_preload.split(",")):
        if module.replace(".", "").replace("_", "").isalnum():
            argv.append(f"--IPKernelApp.exec_lines=import {module} as _course_preload; del _course_preload")
    import resource
    import signal
    cap = limits.file_limit_mb * 2**20  # an oversized write fails
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    group = cgroup.Group.create("kernel", limits.memory_limit_mb * 2**20, limits.task_limit)
    if group is not None:
        group.add()  # bwrap and everything it starts stay in the group after exec
    os.execve(argv[0], argv, {"PATH": os.environ.get("PATH", "/usr/bin:/bin")})


def _kernel_args() -> list[str]:
    """ipykernel's command line after the program name: the connection file, no history file, preloads."""
    from course import settings
    args = ["-f", CONN_INSIDE, "--HistoryManager.hist_file=:memory:"]
    for module in filter(None, settings.current().kernel_preload.split(",")):
        if module.replace(".", "").replace("_", "").isalnum():
            args.append(f"--IPKernelApp.exec_lines=import {module} as _course_preload; del _course_preload")
    return args


def _from_template(conn: str, ipc: str, env: dict, view: str, account) -> None:
    """The kernel as a child of the grading worker's template (``course/sandbox/template.py``): its
    interpreter has imported torch already. This launcher stays, as jupyter_client's handle on it: its
    exit (or kill) ends the sandbox, and it exits with the kernel's code."""
    from course import settings
    from course.sandbox import cgroup, template
    _die_with_parent()
    limits = settings.current()
    group = cgroup.Group.create("kernel", limits.memory_limit_mb * 2**20, limits.task_limit)
    req = template.request(payload="call", target="ipykernel.kernelapp:launch_new_instance",
                           # JPY_PARENT_PID as the bwrap path's kernel reads it (the template imported
                           # ipykernel without it): watch its parent, pid 1 of the sandbox; no connection banner
                           argv=["ipykernel_launcher", *_kernel_args(), "--IPKernelApp.parent_handle=1"],
                           env=env, extra_binds=[ipc],
                           ro_files=[(conn, CONN_INSIDE)], view=view, account=account, group=group,
                           file_limit=limits.file_limit_mb * 2**20)
    try:
        child = template.spawn(req, [0, 1, 2])
    except template.TemplateError as exc:
        refuse(str(exc))
    code = child.wait()
    sys.exit(code if code >= 0 else 128 - code)


def _die_with_parent() -> None:
    """As bwrap's --die-with-parent: this launcher is killed when the process that started it dies, so
    the hang-up ends its sandbox (a kernel whose grader died must not outlive it)."""
    import ctypes
    import signal
    expected = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG
        refuse(f"prctl(PR_SET_PDEATHSIG) failed: errno {ctypes.get_errno()}")
    if os.getppid() != expected:  # the parent died before the line above
        os._exit(1)


if __name__ == "__main__":
    main()
