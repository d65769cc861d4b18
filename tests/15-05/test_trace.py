"""Hidden checks for trace_mismatches (exercise 1).

Expected flags come from the judge's own torch.jit.trace of its own copy of each model.
"""
import importlib.util
import sys
from pathlib import Path

if "course_15_05_judge" not in sys.modules:
    _s = importlib.util.spec_from_file_location("course_15_05_judge", Path(__file__).with_name("judge.py"))
    sys.modules["course_15_05_judge"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_15_05_judge"])
J = sys.modules["course_15_05_judge"]

import pytest
import torch

from course.checks import expect

pytestmark = pytest.mark.task("trace_mismatches")


def _run(student, kind, hidden, gen, example, inputs, names):
    state = J.random_state(kind, hidden, gen)
    want = J.trace_flags(J.P.build(kind, hidden, state), example, inputs)
    res = student.call("trace_flags", kind=kind, hidden=hidden, state=state, example=example, inputs=inputs)
    what = f"trace_mismatches({kind}(hidden={hidden}), example={names[0]}, inputs=[{', '.join(names[1:])}])"
    return res, want, what


def _flags_equal(res, want, what):
    got = res["flags"]
    expect(isinstance(got, list) and len(got) == len(want),
           f"{what}: expected a list of {len(want)} flags, got {J.show(got)} (a {res['container']})")
    plain = [bool(v) if isinstance(v, (bool, torch.Tensor)) and getattr(v, "numel", lambda: 1)() == 1 else v
             for v in got]
    expect(plain == want, f"{what}: expected {want} (True where the trace disagrees with the eager model), "
                          f"got {got}")


def test_baked_branch_detected(student, gen):
    """BranchyNet traced on one branch: the inputs on the other branch are flagged, the others are not"""
    for example_side in ("dark", "bright"):
        make = J.dark if example_side == "dark" else J.bright
        example = make(3, gen)
        inputs = [J.dark(3, gen), J.bright(3, gen), J.bright(5, gen), J.dark(2, gen)]
        names = [f"a {example_side} batch", "a dark batch", "a bright batch", "a bright batch of 5",
                 "a dark batch of 2"]
        _flags_equal(*_run(student, "BranchyNet", 16, gen, example, inputs, names))


def test_tie_input(student, gen):
    """a batch whose mean is exactly 0.5 takes the non-inverting branch (flagged only for a bright trace)"""
    for example_side in ("dark", "bright"):
        make = J.dark if example_side == "dark" else J.bright
        inputs = [J.tie(3, gen), J.bright(3, gen)]
        names = [f"a {example_side} batch", "a batch with mean exactly 0.5", "a bright batch"]
        _flags_equal(*_run(student, "BranchyNet", 8, gen, make(3, gen), inputs, names))


def test_small_difference_counts(student, gen):
    """a branch that changes the logits by about 5e-4 relative is a disagreement (torch.allclose tolerances)"""
    inputs = [J.bright(4, gen), J.dark(4, gen), J.bright(2, gen)]
    names = ["a dark batch", "a bright batch (outputs differ by a factor 1.0005)", "a dark batch",
             "a bright batch of 2"]
    _flags_equal(*_run(student, "SubtleNet", 16, gen, J.dark(4, gen), inputs, names))


def test_faithful_trace(student, gen):
    """a model without a branch: no input is flagged"""
    inputs = [J.dark(3, gen), J.bright(3, gen), J.tie(1, gen), J.bright(7, gen)]
    names = ["a bright batch", "a dark batch", "a bright batch", "a batch with mean 0.5", "a bright batch of 7"]
    _flags_equal(*_run(student, "PlainNet", 12, gen, J.bright(3, gen), inputs, names))


@pytest.mark.task("trace_mismatches", weight=0.4)  # a task-aware forger could know its right answer: worth less
def test_python_bools(student, gen):
    """the result is a list of Python bools, one per input"""
    inputs = [J.dark(2, gen), J.bright(2, gen)]
    res, want, what = _run(student, "BranchyNet", 8, gen, J.dark(2, gen), inputs,
                           ["a dark batch", "a dark batch", "a bright batch"])
    got = res["flags"]
    expect(res["container"] == "list", f"{what}: expected a list, got a {res['container']}")
    expect(isinstance(got, list) and len(got) == 2 and all(type(v) is bool for v in got),
           f"{what}: expected Python bools like [False, True], got {got!r}")


@pytest.mark.task("trace_mismatches", weight=0.4)  # a task-aware forger could know its right answer: worth less
def test_no_tracer_warning_escapes(student, gen):
    """no TracerWarning escapes the function (it would be printed to stderr)"""
    res, want, what = _run(student, "BranchyNet", 8, gen, J.dark(2, gen), [J.bright(2, gen)],
                           ["a dark batch", "a bright batch"])
    expect(not res["escaped"], f"{what}: {len(res['escaped'])} TracerWarning(s) escaped from your function; "
                               f"ignore that category inside it with warnings.catch_warnings()")


@pytest.mark.task("trace_mismatches", weight=0.4)  # a task-aware forger could know its right answer: worth less
def test_no_grad(student, gen):
    """the model runs without autograd (every forward call, tracing included, under torch.no_grad())"""
    res, want, what = _run(student, "PlainNet", 8, gen, J.dark(2, gen), [J.bright(2, gen), J.dark(2, gen)],
                           ["a dark batch", "a bright batch", "a dark batch"])
    seen = res["grad_enabled"]
    expect(len(seen) > 0, f"{what}: the model's forward was never called")
    expect(not any(seen), f"{what}: gradients were enabled in {sum(map(bool, seen))} of the model's "
                          f"{len(seen)} forward calls; run the trace and the comparisons under torch.no_grad()")
