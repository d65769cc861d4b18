"""The judge worker's recorder leaves PyTorch no reason to start threads after its baseline on a CPU machine.

PyTorch's autograd engine starts its device threads once, at the first backward of a process, for as many devices
as the registered device guards count. After a compiled backward (aot_autograd) a guard counts 8 devices (which one
was not identified), so a judge probe's first compiled backward made 8 `pt_autograd_*` threads after the recorder's baseline: a later check
that watches "threads the submission started earlier" (probelib.functions_entered) counted them, and under load one
still starting failed a correct 15-06 answer. It also marked the process unable to run autograd in a forked child
(15-08's and 16-04's ranks are forked from the worker). The recorder's start now runs one plain backward first.
Each case runs in a fresh Python: the engine's choice is made once per process.
"""
import subprocess
import sys

import pytest
import torch

from course import REPO_ROOT

SCRIPT = r"""
import os, sys
sys.path.insert(0, {root!r})
import torch
from course.judge.worker import Recorder

def names():
    return sorted(open(f"/proc/self/task/{{t}}/comm").read().strip() for t in os.listdir("/proc/self/task"))

if {watch}:
    rec = Recorder()
    rec.watch_spawning()
f = torch.compile(lambda x: (x.sin() * 2).sum(), backend="aot_eager")
x = torch.randn(3, requires_grad=True)
(g,) = torch.autograd.grad(f(x), x)
assert torch.allclose(g, 2 * x.detach().cos())
print("THREADS", ",".join(n for n in names() if n.startswith("pt_autograd")))
pid = os.fork()
if pid == 0:
    try:
        y = torch.ones(2, requires_grad=True)
        y.sum().backward()
        os._exit(0)
    except BaseException:
        os._exit(3)
_, status = os.waitpid(pid, 0)
print("CHILD", os.waitstatus_to_exitcode(status))
"""


def _run(watch: bool) -> tuple[list[str], int]:
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(root=str(REPO_ROOT), watch=watch)],
                         capture_output=True, text=True, timeout=300)
    lines = dict(ln.split(" ", 1) if " " in ln else (ln, "") for ln in out.stdout.splitlines()
                 if ln.startswith(("THREADS", "CHILD")))
    assert "CHILD" in lines, out.stdout[-2000:] + out.stderr[-2000:]
    return [n for n in lines["THREADS"].split(",") if n], int(lines["CHILD"])


@pytest.mark.skipif(torch.cuda.is_available(), reason="with a GPU the engine's threads are CUDA's, started by any first "
                    "backward and told apart by name once CUDA is up (worker._driver_thread); the warm-up is CPU-only")
def test_a_compiled_backward_starts_no_autograd_threads_in_a_worker():
    threads, child = _run(watch=True)
    assert threads == [], f"PyTorch started {threads} after the recorder's baseline"
    assert child == 0, "a child forked after a compiled backward could not run autograd"


def test_without_the_recorder_pytorch_starts_them():
    """The cause, so that the case above cannot pass for another reason: a process whose first backward is a
    compiled one gets the 8 threads and cannot run autograd in a forked child."""
    threads, child = _run(watch=False)
    assert len(threads) >= 1 and child != 0, (threads, child)
