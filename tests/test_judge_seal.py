"""course/judge/seal/: a submission that rebinds the judge's own objects in its worker fails the call (red team 23
left it open: ``Recorder.verdict`` rebound through sys.modules kept 00-01's result_dtype at 7/7).

In process on a module and class of this file's own (the worker's seal is taken in ``Worker.serve``, before any cell:
the judged examples are tests/submissions/00-01/rt24_*, failing before the seal, and the hostile forge_* specs)."""
import builtins
import types

import pytest

from course.judge import seal


def _judge():
    """A small stand-in for the judge's module: a class with methods, a function with defaults and a closure."""
    mod = types.ModuleType("judge_stand_in")
    exec("import threading\n"
         "class Recorder:\n"
         "    def __init__(self):\n"
         "        self.hidden = []\n"
         "    def verdict(self):\n"
         "        return self.hidden or None\n"
         "    @staticmethod\n"
         "    def switch(on):\n"
         "        return on\n"
         "def make():\n"
         "    def inner(x, _check=len):\n"
         "        return helper(x)\n"
         "    return inner\n"
         "def helper(x):\n"
         "    return isinstance(x, int)\n"
         "class Local(threading.local):\n"
         "    depth = 0\n"
         "    def enter(self):\n"
         "        self.depth += 1\n"
         "inner = make()\n", mod.__dict__)
    rec, local = mod.Recorder(), mod.Local()
    return mod, rec, local


def _changes(mod, rec, local):
    return seal.take([mod], (rec, local), (), with_builtins=False)


def test_nothing_changed_is_silent_and_data_may_change():
    mod, rec, local = _judge()
    sealed = _changes(mod, rec, local)
    rec.hidden.append("aten::add")  # the judge's own data, changing as it works
    rec.hidden = ["x"]
    local.depth = 3
    assert seal.changed(sealed) == []


@pytest.mark.parametrize("attack, named", [
    (lambda m, r, l: setattr(m.Recorder, "verdict", lambda self: None), "Recorder.verdict"),
    (lambda m, r, l: setattr(r, "verdict", lambda: None), "Recorder.verdict (on the instance)"),
    (lambda m, r, l: setattr(l, "enter", lambda: None), "Local.enter (on the instance)"),
    (lambda m, r, l: setattr(m, "helper", lambda x: True), "helper"),
    (lambda m, r, l: setattr(m.helper, "__code__", (lambda x: True).__code__), "helper.__code__"),
    (lambda m, r, l: setattr(m.inner, "__defaults__", (print,)), "inner.__defaults__"),
    (lambda m, r, l: m.__dict__.__setitem__("isinstance", lambda a, b: True),
     "isinstance (a builtin's name among the judge's globals)"),
    (lambda m, r, l: setattr(r, "__class__", type("Other", (), {})), "the class of the judge's Recorder"),
    (lambda m, r, l: setattr(m.Recorder, "switch", staticmethod(lambda on: True)), "Recorder.switch"),
])
def test_a_rebinding_is_named_and_put_back(attack, named):
    mod, rec, local = _judge()
    sealed = _changes(mod, rec, local)
    before = (mod.Recorder.__dict__["verdict"], mod.helper, mod.helper.__code__, mod.inner.__defaults__)
    attack(mod, rec, local)
    assert named in seal.changed(sealed)
    assert seal.changed(sealed) == []  # put back
    assert (mod.Recorder.__dict__["verdict"], mod.helper, mod.helper.__code__, mod.inner.__defaults__) == before
    assert type(rec) is mod.Recorder and "verdict" not in vars(rec)


def test_a_closure_cell_holding_code_is_held():
    mod, rec, local = _judge()
    outer = types.ModuleType("closure_owner")
    exec("def make(fn):\n    def call():\n        return fn()\n    return call\n", outer.__dict__)
    outer.call = outer.make(mod.helper)
    sealed = seal.take([outer], (), (), with_builtins=False)
    outer.call.__closure__[0].cell_contents = print
    assert "a closure of the judge's" in seal.changed(sealed)
    assert outer.call.__closure__[0].cell_contents is mod.helper


def test_a_wrapper_the_judge_installed_on_another_module():
    other = types.ModuleType("library")
    other.run = lambda: "theirs"

    def wrapped():
        return "judged"
    other.run = wrapped
    sealed = seal.take([], (), [(other, "run", wrapped)], with_builtins=False)
    other.run = lambda: "theirs again"
    assert "library.run" in seal.changed(sealed)
    assert other.run is wrapped


def test_a_builtin_rebound():
    sealed = seal.take([], (), (), with_builtins=True)
    real = builtins.isinstance
    try:
        builtins.isinstance = lambda a, b: True
        assert "isinstance" in seal.changed(sealed)
    finally:
        builtins.isinstance = real
    assert builtins.isinstance is real


def test_the_worker_seals_its_own_modules_and_instances():
    """What Worker._seal holds: the judge's worker, wire and probelib modules, the Recorder class and instance, the
    RecordFunction switch's wrapper on PyTorch, the thread-start wrappers."""
    import torch
    from course.judge import worker
    w = worker.Worker.__new__(worker.Worker)
    w.probes, w.recorder = {}, worker.Recorder()
    w.recorder.watch_spawning()
    sealed = w._seal()
    assert seal.changed(sealed) == []
    saved = (worker.Recorder.verdict, worker.send, torch._C._autograd._enable_record_function)
    try:
        worker.Recorder.verdict = lambda self, threads=True: None
        worker.send = print
        torch._C._autograd._enable_record_function = worker._Quiet.switch
        found = seal.changed(sealed)
    finally:
        restored = (worker.Recorder.verdict, worker.send, torch._C._autograd._enable_record_function)
        worker.Recorder.verdict, worker.send, torch._C._autograd._enable_record_function = saved
    assert {"Recorder.verdict", "send"} <= set(found) and any("_enable_record_function" in f for f in found), found
    assert restored == saved
