"""Whether other accounts on the grading machine can read the grading sandboxes' processes in ``/proc``.

Without ``hidepid`` on the host's ``/proc``, every account reads every process's name, command line and
counters, a sandbox's too, whatever its namespaces: a judge worker could spell out what it holds there
(hidden inputs, probe code) for a student's shell to read while grading runs (docs/security.md, twelfth red
team). Only the machine's administrator can close it, so a class run says so in one line where it matters:
``/proc`` shows every process and accounts other than the grader's can log in.
"""
from __future__ import annotations

import os


def proc_hides_processes(mountinfo: str) -> bool:
    """Whether the ``/proc`` mount in ``mountinfo`` (the text of /proc/self/mountinfo) hides other accounts'
    processes (``hidepid=`` 1, 2, ``noaccess`` or ``invisible``; 0 or ``off``, or no option, shows them)."""
    for line in mountinfo.splitlines():
        fields = line.split()
        if len(fields) < 10 or fields[4] != "/proc" or " - proc " not in line:
            continue
        supers = line.split(" - ", 1)[1].split()
        opts = supers[2].split(",") if len(supers) > 2 else []
        pid = [o.split("=", 1)[1] for o in opts if o.startswith("hidepid=")]
        return bool(pid) and pid[-1] not in ("0", "off")
    return False


def _login_accounts(passwd: str, me: int) -> list[str]:
    """Accounts other than uid ``me`` that can log in (uid 1000 or more and a shell that is not nologin/false)."""
    out = []
    for line in passwd.splitlines():
        parts = line.split(":")
        if len(parts) < 7 or not parts[2].isdigit():
            continue
        uid, shell = int(parts[2]), parts[6].strip()
        if uid >= 1000 and uid != me and uid != 65534 and not shell.endswith(("nologin", "false")):
            out.append(parts[0])
    return out


def notice(mountinfo_path: str = "/proc/self/mountinfo", passwd_path: str = "/etc/passwd") -> str | None:
    """One line for the class run's log, or None when there is nothing to say."""
    try:
        with open(mountinfo_path) as f:
            hidden = proc_hides_processes(f.read())
        with open(passwd_path) as f:
            others = _login_accounts(f.read(), os.geteuid())
    except OSError:
        return None
    if hidden or not others:
        return None
    return (f"notice: /proc shows every process to the {len(others)} other login account(s) on this machine, the "
            f"grading sandboxes' names and counters too (a channel out of grading, docs/security.md); on a shared "
            f"machine the administrator closes it with `mount -o remount,hidepid=invisible /proc`")
