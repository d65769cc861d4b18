"""Workers forked from the zygote (course/judge/forkserver.py) behave like fresh worker processes:
each starts from a clean state, a crash or a hang in one is reported and costs only that one,
and the others keep answering."""
import pytest

from course import sandbox
from course.judge.forkserver import ForkedWorker
from course.judge.adapter import ProcessStudent, StudentCrashed, StudentTimeout

PROBES = {"t": '''
import os
def value(ns):
    return ns["value"]()
def patched(ns):
    import torch
    return torch.allclose is ns.get("_original_allclose", torch.allclose)
def exit_now(ns):
    os._exit(3)
def spin(ns):
    while True:
        pass
'''}


def make(code: str) -> ProcessStudent:
    return ProcessStudent([code], PROBES, sandboxed=sandbox.probe() is None, fork=True, call_timeout=5)


def test_forked_workers_are_isolated_and_survive_each_other():
    tamper = make("import torch\n_original_allclose = torch.allclose\ntorch.allclose = lambda *a, **k: True\n"
                  "value = lambda: 1")
    honest = make("value = lambda: 2")
    crash, hang = make("value = lambda: 3"), make("value = lambda: 4")
    try:
        assert tamper.call("value") == 1 and tamper.call("patched") is False
        assert isinstance(tamper.proc, ForkedWorker), "the worker was not forked from the zygote"
        assert honest.call("value") == 2 and honest.call("patched") is True  # the patch stayed in its worker
        with pytest.raises(StudentCrashed, match="exit code 3"):
            crash.call("exit_now")
        with pytest.raises(StudentTimeout):
            hang.call("spin")
        assert honest.call("value") == 2
        assert crash.call("value") == 3  # restarted after the crash, from the same zygote
        assert not any("fork server" in e for s in (tamper, honest, crash, hang) for e in s.events)
    finally:
        for s in (tamper, honest, crash, hang):
            s.close()


def test_zygote_imports_ahead_what_the_assignment_imports(monkeypatch):
    """The zygote preloads the assignment's own imports (15-05 imports torch.export) and what its graded
    calls import on first use, and not the heavy modules no graded code of that assignment needs
    (torchvision costs ~1.5 s CPU each time). torch._dynamo is in every list: an optimizer's constructor, torch.func
    and FlopCounterMode import it on first use (1.6-2.5 s in each worker that did not have it)."""
    from course.judge import adapter
    from course.judge.forkserver import PRELOAD, PRELOAD_ENV, preload_for
    assert "torch.export" in preload_for("15-05").split(",")
    # its first torch.cond / torch.export imports AOT autograd and export's tracer (~0.7 s in each kernel and worker)
    assert {"torch._functorch.aot_autograd", "torch.export._trace"} <= set(preload_for("15-05").split(","))
    plain = preload_for("15-01").split(",")
    assert "torchvision" not in plain and "torch._dynamo" in plain and "torch" in plain
    assert "torch.fx.experimental.symbolic_shapes" in plain  # gradcheck imports it on first use (~1 s)
    assert "torchvision" not in preload_for("00-03").split(",")
    assert preload_for(None) == ",".join(PRELOAD)  # an unknown assignment: everything, as before
    monkeypatch.setenv(PRELOAD_ENV, "torch,numpy")
    for server in adapter._SERVERS.values():  # a zygote of this test's own, with the list above
        server.close()
    adapter._SERVERS.clear()
    s = ProcessStudent(["value = lambda: 1"], {"t": "import sys\ndef loaded(ns):\n    return sorted("
                       "m for m in ('torchvision', 'numpy', 'matplotlib.pyplot') if m in sys.modules)\n"},
                       sandboxed=sandbox.probe() is None, fork=True, call_timeout=5)
    try:
        assert s.call("loaded") == ["numpy"]
        assert isinstance(s.proc, ForkedWorker), "the worker was not forked from the zygote"
    finally:
        s.close()
        for server in adapter._SERVERS.values():
            server.close()
        adapter._SERVERS.clear()


def test_warm_graphs_leaves_nothing_behind():
    """The first torch.cond/torch.export, run once in a template, zygote or judge server (forkserver.warm_graphs):
    afterwards no thread more (a template forks only with one), the same torch RNG state, grad mode, warning
    filters and environment (inductor names its TMPDIR cache there), and dynamo as a fresh process has it (no
    compiled frame, empty counters)."""
    import subprocess
    import sys

    from course import REPO_ROOT
    code = """
import os, warnings, torch, torch._dynamo, torch.export._trace
from course.judge import forkserver
threads = lambda: len(os.listdir("/proc/self/task"))
before = (threads(), torch.get_rng_state(), torch.is_grad_enabled(), list(warnings.filters), dict(os.environ))
forkserver.warm_graphs()
after = (threads(), torch.get_rng_state(), torch.is_grad_enabled(), list(warnings.filters), dict(os.environ))
print(before[0] == after[0] == 1, torch.equal(before[1], after[1]), before[2:] == after[2:],
      not torch._dynamo.utils.counters, forkserver._GRAPHS_WARM)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=REPO_ROOT,
                       env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT), "OPENBLAS_NUM_THREADS": "1"})
    assert r.stdout.split() == ["True"] * 5, r.stdout + r.stderr[-2000:]
