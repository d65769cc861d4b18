"""Twelfth red team: the node's count of pseudo-terminals in use (``/proc/sys/kernel/pty/nr``) was a channel
between two live sandboxes. Every sandbox has a devpts instance of its own, but all instances draw on one count,
which nothing else on a grading node moves (0 here) and which every sandbox could read: one sandbox opening 50
ptys for a 1 and closing them for a 0 carried 127 of 128 bits right at 10 ms a bit to another alive beside it
(about 100 bit/s, exact values 0 and 50, so more with levels; load 9 on 2 cores), beyond the ~15 bit/s the
section "What remains between two live sandboxes" allowed. Each sandbox now reads a still copy
(course/sandbox/procfiles.py), and a template's child holds at most ``template.PTYS`` of them (its devpts'
``max``), so none can fill the node's 3,072 either (whose ENOSPC would be the next one-bit signal). The TCP socket
count of /proc/net/sockstat carries as much and stays open (a strict xfail: it lives under every /proc/<pid>/net,
which no bind mount covers). Both ways a sandbox is made (tests/sandbox_launchers.py); about 2 s each."""
import json
import subprocess
import sys
import textwrap

import pytest

from course import sandbox
from course.sandbox import template
from tests.sandbox_launchers import _template, launcher  # noqa: F401  (each test: bwrap and a template's child)

pytestmark = pytest.mark.skipif(sandbox.probe() is not None, reason=f"no sandbox here: {sandbox.probe()}")

READER = r"""
import sys
read = lambda: open("/proc/sys/kernel/pty/nr").read().strip()
print(read(), flush=True)
sys.stdin.readline()
print(read(), flush=True)
"""

OPENER = r"""
import errno, json, os, sys
held, refused = [], None
for _ in range(int(sys.argv[1])):
    try:
        held.append(os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY))
    except OSError as exc:
        refused = errno.errorcode.get(exc.errno, str(exc.errno))
        break
print(json.dumps({"held": len(held), "refused": refused}), flush=True)
sys.stdin.readline()
"""


def _python(code: str, *args: str) -> list[str]:
    return [sys.executable, "-I", "-c", textwrap.dedent(code), *args]


def _start(code: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(sandbox.bwrap_argv() + _python(code, *args), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _read_while_another_holds(reader_source: str, opener_source: str, *args: str):
    """A sandbox reads a counter, another opens what it counts and holds it, the first reads again:
    (before, after, what the opener said it holds)."""
    reader = _start(reader_source)
    try:
        before = reader.stdout.readline().strip()
        assert before, reader.stderr.read()[-2000:]
        opener = _start(opener_source, *args)
        try:
            line = opener.stdout.readline()
            assert line.startswith("{"), line + opener.stderr.read()[-2000:]
            opened = json.loads(line)
            reader.stdin.write("go\n")
            reader.stdin.flush()
            after = reader.stdout.readline().strip()
        finally:
            opener.stdin.close()
            opener.wait(timeout=30)
    finally:
        reader.stdin.close()
        reader.wait(timeout=30)
    return before, after, opened


def test_the_nodes_pty_count_carries_nothing_between_sandboxes(launcher):
    before, after, opened = _read_while_another_holds(READER, OPENER, "40")
    assert opened["held"] > 0, f"the opening sandbox could not open a pty at all: {opened}"
    assert before == after, (f"/proc/sys/kernel/pty/nr read {before!r} then {after!r} in one sandbox while another "
                             f"held {opened['held']} ptys: the node's count is a channel between them (expected a "
                             "still copy)")


def test_a_template_child_holds_few_ptys(launcher):
    if launcher != "template":
        pytest.skip("bubblewrap's --dev mounts devpts with options of its own (no max): docs/security.md")
    opener = _start(OPENER, "200")
    try:
        line = opener.stdout.readline()
        assert line.startswith("{"), line + opener.stderr.read()[-2000:]
        opened = json.loads(line)
    finally:
        opener.stdin.close()
        opener.wait(timeout=30)
    assert opened["held"] == template.PTYS and opened["refused"] == "ENOSPC", (
        f"a template's child opened {opened['held']} of 200 ptys (then {opened['refused']}): expected "
        f"{template.PTYS}, its devpts' max, so that no sandbox can fill the node's count")


SOCKSTAT_READER = r"""
import sys
read = lambda: open("/proc/net/sockstat").read().split("alloc ")[1].split()[0]
print(read(), flush=True)
sys.stdin.readline()
print(read(), flush=True)
"""

SOCKETS = r"""
import json, socket, sys
held = [socket.socket() for _ in range(40)]
print(json.dumps({"held": len(held), "refused": None}), flush=True)
sys.stdin.readline()
"""


@pytest.mark.xfail(strict=True, reason="open (docs/security.md): /proc/net/sockstat's TCP alloc is the node's count "
                                       "of TCP sockets, under every /proc/<pid>/net, which no bind mount covers")
def test_the_nodes_tcp_socket_count_carries_nothing_between_sandboxes(launcher):
    before, after, _ = _read_while_another_holds(SOCKSTAT_READER, SOCKETS)
    assert before == after, (f"/proc/net/sockstat's TCP alloc read {before} then {after} in one sandbox while another "
                             "held 40 TCP sockets: the node's count is a channel between them")
