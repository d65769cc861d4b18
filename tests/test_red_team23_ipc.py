"""Red team 23 (issue 38): two sandboxes alive at once share no IPC object. One sandbox makes a SysV shared-memory
segment, message queue and semaphore set under a fixed key, a POSIX message queue, a file in /dev/shm, an abstract
unix socket and a UDP socket on the loopback; another, while the first lives, looks for each by its name. The
sandbox unshares the IPC and network namespaces and mounts a private /dev/shm (course/sandbox), so the second finds
nothing: a hidden probe or input one submission's worker reads cannot be handed to another's feedback this way.
The sender reports what it could make, so that a filter refusing them all would not pass this test unseen."""
import pytest

from course import sandbox
from tests.sandbox_launchers import _template, launcher  # noqa: F401  (each test: bwrap and a template's child)
from tests.test_sandbox_channels import _python

pytestmark = [pytest.mark.skipif(sandbox.probe() is not None, reason=f"no sandbox here: {sandbox.probe()}"),
              pytest.mark.usefixtures("launcher")]

_COMMON = r"""
import ctypes, ctypes.util, errno, json, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
rt = ctypes.CDLL(ctypes.util.find_library("rt") or "librt.so.1", use_errno=True)
rt.mq_open.restype = ctypes.c_int
KEY = 0x52543233
IPC_CREAT, IPC_EXCL = 0o1000, 0o2000
"""

SENDER = _COMMON + r"""
made = {}
made["shm"] = libc.shmget(KEY, 4096, IPC_CREAT | IPC_EXCL | 0o666) >= 0
made["msg"] = libc.msgget(KEY, IPC_CREAT | IPC_EXCL | 0o666) >= 0
made["sem"] = libc.semget(KEY, 1, IPC_CREAT | IPC_EXCL | 0o666) >= 0
made["mq"] = rt.mq_open(b"/rt23", os.O_CREAT | os.O_RDWR, 0o666, None) >= 0
try:
    with open("/dev/shm/rt23", "w") as f:
        f.write("secret")
    made["devshm"] = True
except OSError:
    made["devshm"] = False
a = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    a.bind("\0rt23"); a.listen(1); made["abstract"] = True
except OSError:
    made["abstract"] = False
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    u.bind(("127.0.0.1", 23230)); made["udp"] = True
except OSError:
    made["udp"] = False
print("ready " + json.dumps(made), flush=True)
sys.stdin.read()
"""

RECEIVER = _COMMON + r"""
found = {}
found["shm"] = libc.shmget(KEY, 0, 0) >= 0
found["msg"] = libc.msgget(KEY, 0) >= 0
found["sem"] = libc.semget(KEY, 0, 0) >= 0
found["mq"] = rt.mq_open(b"/rt23", os.O_RDONLY, 0, None) >= 0
found["devshm"] = os.path.exists("/dev/shm/rt23")
a = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    a.connect("\0rt23"); found["abstract"] = True
except OSError:
    found["abstract"] = False
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    u.bind(("127.0.0.1", 23230)); found["udp"] = False  # the port is free here: the sender's is not this one
except OSError:
    found["udp"] = True
print(json.dumps(found))
"""


def test_ipc_objects_are_each_sandboxs_own():
    import json
    import subprocess
    proc = subprocess.Popen(sandbox.bwrap_argv() + _python(SENDER), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("ready "), line + proc.stderr.read()[-2000:]
        made = json.loads(line.split(" ", 1)[1])
        r = subprocess.run(sandbox.bwrap_argv() + _python(RECEIVER), capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr[-2000:]
        found = json.loads(r.stdout.strip().splitlines()[-1])
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    # what the sender could make (a filter refusing them all would make this test pass without meaning)
    assert sum(made.values()) >= 5, f"a sandbox could make few of the IPC objects this test looks for: {made}"
    shared = sorted(k for k, v in found.items() if v)
    assert not shared, f"a sandbox found another live sandbox's IPC objects: {shared} (made: {made})"
