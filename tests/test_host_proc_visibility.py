"""Twelfth red team, found open: every account of the grading machine reads what a sandboxed process shows in the
host's /proc. A sandbox's processes are the host's processes too (a pid namespace hides the host from them, not
them from the host), and /proc/<pid>/comm, cmdline, stat and status are readable by every account unless /proc is
mounted with ``hidepid``. A judge worker (the submission's own code runs there, with the compiled probes and each
call's hidden inputs) can write 15 bytes at a time into its name (``prctl(PR_SET_NAME)``) or rewrite its own
argument area, and set its threads' count and its address space's size exactly; a student's shell polling /proc
reads them live: the hidden code and inputs that no feedback budget sees (docs/security.md, twelfth red team).
Only the machine closes it (``mount -o remount,hidepid=invisible,gid=<admins> /proc``), so this is an expected
failure where /proc hides nothing, and skipped where it does. About 2 s each way a sandbox is made."""
import os
import secrets
import subprocess
import sys
import textwrap

import pytest

from course import sandbox
from tests.sandbox_launchers import _template, launcher  # noqa: F401  (each test: bwrap and a template's child)


def _hidden_by_the_machine() -> bool:
    with open("/proc/mounts") as fh:
        return any(line.split()[1] == "/proc" and "hidepid=" in line and "hidepid=0" not in line for line in fh)


pytestmark = [pytest.mark.skipif(sandbox.probe() is not None, reason=f"no sandbox here: {sandbox.probe()}"),
              pytest.mark.skipif(os.geteuid() != 0, reason="reads /proc as another account (setpriv): root only"),
              pytest.mark.skipif(_hidden_by_the_machine(), reason="this machine's /proc hides other accounts' processes")]

NAMER = r"""
import ctypes, sys
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)  # PR_SET_NAME: what any submission's code may do
print("named", flush=True)
sys.stdin.readline()
"""


@pytest.mark.xfail(strict=True, reason="open (docs/security.md, twelfth red team): the host's /proc shows a sandbox's "
                                       "processes to every account; mount it with hidepid")
def test_another_account_reads_nothing_a_sandbox_writes_into_its_process_name(launcher):
    mark = secrets.token_hex(7)  # 14 characters: a process name holds 15
    namer = subprocess.Popen(sandbox.bwrap_argv() + [sys.executable, "-I", "-c", textwrap.dedent(NAMER), mark],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = namer.stdout.readline()
        assert line.strip() == "named", line + namer.stderr.read()[-2000:]
        seen = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c",
                               f"cat /proc/[0-9]*/comm 2>/dev/null | grep -c {mark}"],
                              capture_output=True, text=True, timeout=60).stdout.strip()
    finally:
        namer.stdin.close()
        namer.wait(timeout=30)
    assert seen in ("", "0"), (f"another account (nobody) read the name {mark!r} that a sandboxed process gave itself, "
                               f"in the host's /proc ({seen} process(es)): a channel out of every sandbox to any "
                               "account of the machine")
