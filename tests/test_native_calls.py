"""Native calls counted by the kernel, outside the submission's process (course/sandbox/native_calls.py, issue 38).

The relay of tests/submissions/_hostile/_forge.py rewrites any reply of the worker, including what the worker's own
record says ran. These tests show the count kept by the kernel follows a worker's threads and processes, and that
00-02's "must not use torch.autograd" check fails a relayed forgery with it, which it did not before (the same
forgery with the count off keeps that check)."""
import ast
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
    "00-02 engine, torch's code rewritten": ("rt27_engine_disarm_relay.py", "00-02", "engine",
                                             "does_not_use_torch_autograd", "autograd's engine (a backward pass) ran"),
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


REWRITE = r'''
import ctypes, os, sys, torch
sys.path.insert(0, sys.argv[3])
from course.sandbox import native_calls
lib = native_calls._library("libtorch_cpu.so")
prefix = "_ZN5torch8autograd6Engine7executeE"
off = native_calls.symbol_offsets(lib, [prefix])[prefix]
with open(lib, "rb") as fh:
    fh.seek(off)
    original = fh.read(1)
if sys.argv[2] == "locked":
    from course.judge.seal import code
    print(code.lock(), flush=True)
else:
    print("unlocked", flush=True)
at = None
for line in open("/proc/self/maps"):
    p = line.split()
    if len(p) == 6 and p[5] == lib and "x" in p[1]:
        lo, hi = (int(v, 16) for v in p[0].split("-"))
        if int(p[2], 16) <= off < int(p[2], 16) + hi - lo:
            at = lo + off - int(p[2], 16)
sys.stdin.readline()
libc = ctypes.CDLL(None, use_errno=True)
libc.mprotect.argtypes = libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
page, refused = at & ~4095, []
for how in sys.argv[1].split(","):
    if how == "mem":
        try:
            fd = os.open("/proc/self/mem", os.O_RDWR)
            os.pwrite(fd, original, at)
            os.close(fd)
        except OSError:
            refused.append(how)
    elif how == "madvise":
        if libc.madvise(page, 4096, 4) != 0:
            refused.append(how)
    elif how == "mprotect":
        if libc.mprotect(page, 4096, 7) == 0:
            ctypes.memmove(at, original, 1)
            libc.mprotect(page, 4096, 5)
        else:
            refused.append(how)
    elif how == "exec":
        try:
            os.execv(sys.executable, [sys.executable, "-c", "pass"])
        except OSError:
            refused.append(how)
x = torch.randn(3, requires_grad=True)
(x * x).sum().backward()
print("refused", ",".join(refused), flush=True)
sys.stdin.readline()
'''


@pytest.mark.parametrize("locked,how", [("unlocked", "mem"), ("unlocked", "madvise"), ("unlocked", "mprotect"),
                                        ("locked", "mem,madvise,mprotect,exec")])
def test_rewriting_torch_code_hides_its_calls(locked, how):
    """unlocked, each way of taking the breakpoint out of autograd's engine (its first byte written back through
    /proc/self/mem, its private page dropped, the page made writable) hides a backward pass from the count; after the
    worker's lock (course/judge/seal/code.py) each is refused, and so is exec, and the pass is counted"""
    proc = subprocess.Popen([sys.executable, "-c", REWRITE, how, locked, str(REPO_ROOT)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        state = proc.stdout.readline().strip()
        if locked == "locked":
            steps = ast.literal_eval(state)
            assert steps["proc"] == steps["calls"] == "ok" and steps["seal"].startswith("ok ("), steps
            smaps = open(f"/proc/{proc.pid}/smaps").read().split("\n")
            flags = [smaps[i + j] for i, line in enumerate(smaps) if line.endswith("/libtorch_cpu.so")
                     for j in range(1, 40) if i + j < len(smaps) and smaps[i + j].startswith("VmFlags:")][:1]
            assert flags and " sl" in flags[0] + " ", flags  # sealed, as the kernel shows it from outside
        watch = native_calls.watch(proc.pid, ("autograd_engine",))
        assert watch is not None
        proc.stdin.write("\n")
        proc.stdin.flush()
        refused = proc.stdout.readline().strip()
        counted = watch.read()["autograd_engine"]
        watch.close()
        if locked == "locked":
            assert refused == "refused mem,madvise,mprotect,exec" and counted == 1, (refused, counted)
        else:
            assert refused == "refused" and counted == 0, (refused, counted)
    finally:
        proc.kill()
        proc.wait()


LOCK_LATER = r'''
import sys
sys.path.insert(0, sys.argv[1])
import torch
from course.judge.seal import code
print("ready", flush=True)
sys.stdin.readline()
print(code.lock(), flush=True)
sys.stdin.readline()
'''


def test_the_judge_reads_the_lock_from_outside():
    """seal/code.held, which the judge runs on a counted worker after its load (adapter: one line in the run's
    events when it fails): before the lock it names the unsealed mappings of torch's libraries and the missing
    seccomp filter; after it, nothing (read from /proc, not from the worker's reply)"""
    from course.judge.seal import code
    proc = subprocess.Popen([sys.executable, "-c", LOCK_LATER, str(REPO_ROOT)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        before = code.filters(proc.pid)
        missing = code.held(proc.pid, before)
        assert missing and "mappings of torch's libraries unsealed" in missing and "no seccomp filter" in missing, \
            missing
        proc.stdin.write("\n")
        proc.stdin.flush()
        steps = ast.literal_eval(proc.stdout.readline().strip())
        assert steps["calls"] == "ok" and steps["seal"].startswith("ok ("), steps
        assert code.held(proc.pid, before) is None
        assert code.held(os.getpid(), code.filters(os.getpid())) is not None  # this process: torch mapped, unsealed
    finally:
        proc.kill()
        proc.wait()
