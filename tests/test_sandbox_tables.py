"""Issue 38: every node-wide kernel table has a per-sandbox share. One sandboxed process once opened
19,950 files in 0.33 s; with 1024 tasks a sandbox that is 20 M files against the node's fs.file-max
(2.5 M here), after which every unprivileged process of the node, other students' kernels included,
gets ENFILE. Linux AIO contexts come from one node-wide pool (fs.aio-max-nr) with no per-user share."""
import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from course import sandbox, settings
from course.sandbox import cgroup

pytestmark = pytest.mark.skipif(sandbox.probe() is not None, reason=f"no sandbox here: {sandbox.probe()}")

FILE_MAX = int(open("/proc/sys/fs/file-max").read().split()[0])

OPENER = r"""
import errno, json, os, resource, time
t0, n, err = time.monotonic(), 0, None
fds = []
while n < 100000:
    try:
        fds.append(os.open("/tmp/work", os.O_RDONLY))
        n += 1
    except OSError as exc:
        err = exc.errno
        break
print(json.dumps({"opened": n, "errno": err, "seconds": time.monotonic() - t0,
                  "memlock": resource.getrlimit(resource.RLIMIT_MEMLOCK),
                  "msgqueue": resource.getrlimit(resource.RLIMIT_MSGQUEUE),
                  "sigpending": resource.getrlimit(resource.RLIMIT_SIGPENDING)}))
"""


def _run(code: str, env: dict | None = None) -> dict:
    r = subprocess.run(sandbox.bwrap_argv(env=env) + [sys.executable, "-I", "-c", textwrap.dedent(code)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


def test_a_sandboxed_process_stops_at_its_share_of_the_file_table():
    got = _run(OPENER)
    assert got["errno"] == 24, got  # EMFILE: its own limit, not the node's ENFILE
    assert got["seconds"] < 2, got
    # four sandboxes a worker (kernel, spare kernel, zygote, spare zygote), each at its task cap,
    # every task at its open-file limit: under half the node's table
    assert got["opened"] * 4 * settings.current().task_limit <= FILE_MAX // 2, got
    assert got["opened"] >= 32, got  # enough for Python, torch and ipykernel
    for name in ("memlock", "msgqueue", "sigpending"):
        soft, hard = got[name]
        assert 0 <= soft == hard < 2**31, (name, got)  # fixed, finite, and not to be raised


def test_a_worker_with_half_the_cores_gets_half_the_files(monkeypatch):
    whole = sandbox.open_files_limit()
    monkeypatch.setenv("COURSE_CPU_SHARE", str(len(os.sched_getaffinity(0)) / 2))
    half = sandbox.open_files_limit()
    if whole < sandbox.FILES_MAX:
        assert half <= whole // 2 + 1
    assert half * sandbox.SANDBOXES_PER_WORKER * settings.current().task_limit <= FILE_MAX // 4 or \
        half == sandbox.FILES_MIN


@pytest.mark.skipif(cgroup.available() is not None, reason="no cgroups with memory and pids here")
def test_a_workers_slice_caps_the_tasks_of_all_its_sandboxes(monkeypatch):
    sl = cgroup.Slice.create("tabletest", 1.0, 2**30)
    if sl is None:
        pytest.skip("no CPU slice here")
    try:
        pids = [d for k, d in sl.dirs if k in ("v2", "pids")]
        assert pids, sl.dirs
        assert open(os.path.join(pids[0], "pids.max")).read().strip() == \
            str(sandbox.SANDBOXES_PER_WORKER * settings.current().task_limit)
        monkeypatch.setenv(cgroup.SLICE_ENV, sl.name)
        g = cgroup.Group.create("tabletest", 2**30, 64)
        try:
            inner = [d for k, d in g.dirs if k in ("v2", "pids")]
            assert inner and inner[0].startswith(pids[0] + os.sep), (g.dirs, pids)
        finally:
            g.remove()
    finally:
        sl.remove()


AIO = r"""
import ctypes, json
libc = ctypes.CDLL(None, use_errno=True)
ctx = ctypes.c_ulong(0)
r = libc.syscall(206, 1, ctypes.byref(ctx))  # io_setup(1, &ctx), x86_64
print(json.dumps({"io_setup": r, "errno": ctypes.get_errno()}))
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="syscall number of x86_64")
def test_linux_aio_contexts_from_the_node_wide_pool_are_refused():
    got = _run(AIO)
    assert got["io_setup"] == -1 and got["errno"] == 38, got  # ENOSYS: as on a kernel without AIO
