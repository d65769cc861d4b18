"""The judge never blocks on a worker's pipes: a request is written by its deadline, and what a
worker sends before it has read the request (frames a submission writes of its own) is drained."""
import subprocess
import sys
import time

import pytest

from course.judge.adapter import _write_all

FLOOD = ("import os, sys, time\n"
         "os.write(1, b'x' * (1 << 20))  # fills the pipe back long before the judge reads it\n"
         "time.sleep(60)\n")
DEAF = "import time; time.sleep(60)  # never reads its stdin\n"


def _worker(code):
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def test_a_worker_that_floods_its_pipe_back_is_drained_not_waited_on():
    proc = _worker("import os, sys\nos.write(1, b'x' * (1 << 18))\nsys.stdin.buffer.read(1 << 18)\n")
    try:
        t0 = time.monotonic()
        dropped = _write_all(proc.stdin.fileno(), b"r" * (1 << 18), time.monotonic() + 30, proc,
                             proc.stdout.fileno())
        assert dropped > 0 and time.monotonic() - t0 < 20
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("code", [FLOOD, DEAF], ids=["flooding", "deaf"])
def test_a_request_nobody_reads_ends_at_its_deadline(code):
    proc = _worker(code)
    try:
        t0 = time.monotonic()
        with pytest.raises(TimeoutError):
            _write_all(proc.stdin.fileno(), b"r" * (1 << 20), time.monotonic() + 2, proc, proc.stdout.fileno())
        assert time.monotonic() - t0 < 10
    finally:
        proc.kill()
        proc.wait()
