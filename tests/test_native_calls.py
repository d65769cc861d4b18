"""Native calls counted by the kernel, outside the submission's process (course/sandbox/native_calls.py, issue 38).

The relay of tests/submissions/_hostile/_forge.py rewrites any reply of the worker, including what the worker's own
record says ran. These tests show the count kept by the kernel follows a worker's threads and processes, and that
00-02's "must not use torch.autograd" check fails a relayed forgery with it, which it did not before (the same
forgery with the count off keeps that check)."""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from course import REPO_ROOT
from course.sandbox import native_calls

pytestmark = pytest.mark.skipif(native_calls.why_unavailable() is not None,
                                reason=f"no native count here: {native_calls.why_unavailable()}")

CHILD = r'''
import os, sys, threading, torch
sys.stdin.readline()
def backward():
    x = torch.randn(3, requires_grad=True)
    (x * x).sum().backward()
if sys.argv[1] == "use":
    t = threading.Thread(target=backward); t.start(); t.join()   # a thread started after the count opened
    if os.fork() == 0:                                            # a process, counted after it exits
        backward(); os._exit(0)
    os.wait()
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        fwAD.make_dual(torch.randn(2), torch.randn(2))
else:
    (torch.randn(3) * 2).sum()
print("done", flush=True)
sys.stdin.readline()
'''


@pytest.mark.parametrize("mode", ["use", "none"])
def test_count_follows_threads_and_processes(mode):
    proc = subprocess.Popen([sys.executable, "-c", CHILD, mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        while "torch" not in open(f"/proc/{proc.pid}/maps").read() and time.monotonic() < deadline:
            time.sleep(0.1)  # torch imported: the count opens on a process that has done nothing yet
        watch = native_calls.watch(proc.pid)
        assert watch is not None
        assert watch.read() == {"autograd_engine": 0, "forward_ad": 0, "dtype_rules": 0}
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "done"
        want = {"autograd_engine": 2, "forward_ad": 1} if mode == "use" else {"autograd_engine": 0, "forward_ad": 0}
        want["dtype_rules"] = 0
        assert watch.read() == want
        watch.close()
    finally:
        proc.kill()
        proc.wait()


def test_off_switch(monkeypatch):
    monkeypatch.setenv("COURSE_NATIVE_CALLS", "off")
    assert native_calls.watch(os.getpid()) is None


def _one_check(tmp_path, native: str, spec: str, topic: str, task: str, k: str):
    from course.grading.class_run import submissions
    from course.judge.suite import run_suite
    nb = tmp_path / f"{native}.ipynb"
    submissions.write(REPO_ROOT / "tests" / "submissions" / topic / spec, nb, topic)
    old = os.environ.get("COURSE_NATIVE_CALLS")
    os.environ["COURSE_NATIVE_CALLS"] = native
    try:
        res = run_suite(topic, [str(nb)], sandbox="auto", seed=20261203, tasks=[task], pytest_args=("-k", k),
                        timeout=600)
    finally:
        if old is None:
            os.environ.pop("COURSE_NATIVE_CALLS")
        else:
            os.environ["COURSE_NATIVE_CALLS"] = old
    assert not res.error, res.error
    [check] = res.for_notebook(str(nb))
    return check


FORGERIES = {  # a relay rewrites the worker's record of what ran: the kernel's count still fails the check
    "00-02 engine": ("rt26_engine_autograd_relay.py", "00-02", "engine", "does_not_use_torch_autograd",
                     "autograd's engine (a backward pass) ran"),
    "00-01 result_dtype": ("rt26_rd_result_type_relay.py", "00-01", "result_dtype", "builds_the_table_itself",
                           "PyTorch's own promotion (torch.result_type"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_relayed_forgery_of_the_record(tmp_path, name):
    """counted, the check fails with the count; with the count off, the same forgery keeps the check (the worker's
    own record was rewritten): the count is what fails it"""
    spec, topic, task, k, words = FORGERIES[name]
    counted = _one_check(tmp_path, "on", spec, topic, task, k)
    assert counted.status == "failed" and words in counted.message, counted.message
    forged = _one_check(tmp_path, "off", spec, topic, task, k)
    assert forged.status == "passed", forged.message
