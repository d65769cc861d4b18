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
