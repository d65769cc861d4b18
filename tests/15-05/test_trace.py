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

from course.judge.expect import expect

pytestmark = pytest.mark.task("trace_mismatches")


def _run(student, kind, hidden, gen, example, inputs, names, train=False, warn=False, outer_no_grad=False):
    state = J.random_state(kind, hidden, gen)
    want = J.expected_flags(kind, hidden, state, example, inputs, train=train)
    res = student.call("trace_flags", kind=kind, hidden=hidden, state=state, example=example, inputs=inputs,
                       train=train, warn=warn, outer_no_grad=outer_no_grad)
    mode = ".train()" if train else ""
    what = (f"trace_mismatches({kind}(hidden={hidden}){mode}, example={names[0]}, "
            f"inputs=[{', '.join(names[1:])}])")
    return res, want, what


def _mixed(gen, kinds, n):
    """n batches (sizes 1..5) whose kinds ("dark", "bright", "tie") are drawn per student, each kind at
    least once: which inputs a trace gets wrong, so the right flags, differ from student to student."""
    while True:
        picks = [kinds[i] for i in torch.randint(0, len(kinds), (n,), generator=gen).tolist()]
        if set(picks) == set(kinds):
            break
    sizes = torch.randint(1, 6, (n,), generator=gen).tolist()
    label = {"dark": "a dark batch", "bright": "a bright batch", "tie": "a batch with mean exactly 0.5"}
    return ([getattr(J, k)(b, gen) for k, b in zip(picks, sizes)],
            [f"{label[k]} of {b}" for k, b in zip(picks, sizes)])


def _flags_equal(res, want, what):
    got = res["flags"]
    expect(isinstance(got, list) and len(got) == len(want),
           f"{what}: expected a list of {len(want)} flags, got {J.show(got)} (a {res['container']})")
    plain = [bool(v) if isinstance(v, (bool, torch.Tensor)) and getattr(v, "numel", lambda: 1)() == 1 else v
             for v in got]
    expect(plain == want, f"{what}: expected {want} (True where the trace disagrees with the eager model), "
                          f"got {got}")


def test_baked_branch_detected(student, gen):
    """BranchyNet traced on one branch: the inputs on the other branch are flagged, the others are not (the
    example's first image is on the other branch: the trace is of the whole example); called twice on one model
    object, once with an example of each branch, and with an empty batch among the inputs"""
    kind, hidden = "BranchyNet", 16
    state = J.random_state(kind, hidden, gen)
    calls, names = [], []
    for example_side, other_side in (("dark", "bright"), ("bright", "dark")):
        # one image of the other side, then three of this side: the batch's mean takes this side's branch, a
        # trace on the first image alone (example[:1]) the other one
        example = torch.cat([getattr(J, other_side)(1, gen), getattr(J, example_side)(3, gen)])
        inputs, labels = _mixed(gen, ["dark", "bright"], 6)
        # a batch of 0 images: the trace and BranchyNet both give a (0, 10) tensor, which torch.allclose calls close
        at = int(torch.randint(0, len(inputs) + 1, (1,), generator=gen))
        inputs.insert(at, torch.zeros(0, 1, 28, 28))
        labels.insert(at, "an empty batch (0 images)")
        calls.append((example, inputs))
        names.append([f"a batch of one {other_side} image then three {example_side} ones (its mean takes the "
                      f"{example_side} branch)"] + labels)
    got = student.call("trace_flags_calls", kind=kind, hidden=hidden, state=state, calls=calls)
    expect(isinstance(got, list) and len(got) == len(calls),
           f"trace_mismatches called {len(calls)} times: expected {len(calls)} results, got {J.show(got)}")
    for i, ((example, inputs), call_names, res) in enumerate(zip(calls, names, got)):
        want = J.expected_flags(kind, hidden, state, example, inputs)
        what = (f"trace_mismatches({kind}(hidden={hidden}), example={call_names[0]}, "
                f"inputs=[{', '.join(call_names[1:])}])")
        if i:
            what += (" (the second call on the same model object, after a call whose example took the other branch: "
                     "each call traces the model on its own example)")
        _flags_equal(res, want, what)


def test_tie_input(student, gen):
    """a batch whose mean is exactly 0.5 takes the non-inverting branch (flagged only for a bright trace)"""
    for example_side in ("dark", "bright"):
        make = J.dark if example_side == "dark" else J.bright
        inputs, names = _mixed(gen, ["tie", "bright", "dark"], 6)
        _flags_equal(*_run(student, "BranchyNet", 8, gen, make(3, gen), inputs, [f"a {example_side} batch"] + names))


def test_small_difference_counts(student, gen):
    """a branch that changes the logits by about 5e-4 relative is a disagreement (torch.allclose tolerances)"""
    inputs, names = _mixed(gen, ["dark", "bright"], 6)
    names = ["a dark batch"] + [n + " (outputs differ by a factor 1.0005)" if "bright" in n else n for n in names]
    _flags_equal(*_run(student, "SubtleNet", 16, gen, J.dark(4, gen), inputs, names))


def test_default_tolerances(student, gen):
    """a branch that shifts every logit by 3e-5 is a disagreement: torch.allclose with its default
    tolerances (atol=1e-8, rtol=1e-5), not a looser one"""
    inputs, names = _mixed(gen, ["dark", "bright"], 5)
    names = ["a dark batch"] + [n + " (logits shifted by 3e-5)" if "bright" in n else n for n in names]
    _flags_equal(*_run(student, "NudgeNet", 12, gen, J.dark(3, gen), inputs, names))


def test_tolerance_relative_to_eager_output(student, gen):
    """torch.allclose(traced_output, eager_output) in that order: its relative tolerance comes from the eager
    output (float64 logits near 1000 that a branch scales by 1 + 1.000005e-5: only one order flags them)"""
    # either side of the trace tells the two orders apart (each flags where the other does not): one trace per student
    example_side = ("dark", "bright")[int(torch.randint(0, 2, (1,), generator=gen))]
    make = J.dark if example_side == "dark" else J.bright
    inputs, names = _mixed(gen, ["dark", "bright"], 4)
    inputs = [x.double() for x in inputs]
    names = [f"a float64 {example_side} batch"] + [n.replace("a ", "a float64 ", 1) for n in names]
    res, want, what = _run(student, "EdgeNet", 8, gen, make(3, gen).double(), inputs, names)
    _flags_equal(res, want, what + " (logits near 1000 that the two branches give a factor 1 + 1.000005e-5 apart: "
                                   "within rtol=1e-5 of the larger, beyond it of the smaller, so the eager output "
                                   "must be allclose's second argument)")


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (no flag): worth little
def test_rounding_difference_is_no_mismatch(student, gen):
    """outputs that differ by about 5e-6 relative (within torch.allclose's default tolerances, not within tighter
    ones such as torch.testing.assert_close's) are not flagged"""
    inputs = [J.bright(3, gen), J.dark(2, gen)]
    names = ["a dark batch", "a bright batch (logits near 100 that differ by a factor 1.000005: about 5e-4, within "
             "allclose's 1e-8 + 1e-5 |logit|)", "a dark batch"]
    _flags_equal(*_run(student, "RoundingNet", 12, gen, J.dark(3, gen), inputs, names))


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (no flag): worth little
def test_faithful_trace(student, gen):
    """a model without a branch: no input is flagged"""
    inputs = [J.dark(3, gen), J.bright(3, gen), J.tie(1, gen), J.bright(7, gen)]
    names = ["a bright batch", "a dark batch", "a bright batch", "a batch with mean 0.5", "a bright batch of 7"]
    _flags_equal(*_run(student, "PlainNet", 12, gen, J.bright(3, gen), inputs, names))


def test_python_bools(student, gen):
    """the result is a list of Python bools, one per input"""
    inputs, names = _mixed(gen, ["dark", "bright"], 5)
    res, want, what = _run(student, "BranchyNet", 8, gen, J.dark(2, gen), inputs, ["a dark batch"] + names)
    got = res["flags"]
    expect(res["container"] == "list", f"{what}: expected a list, got a {res['container']}")
    expect(isinstance(got, list) and len(got) == 5 and all(type(v) is bool for v in got),
           f"{what}: expected Python bools like [False, True, True, False, True], got {got!r}")
    _flags_equal(res, want, what)


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (none): worth little
def test_no_tracer_warning_escapes(student, gen):
    """no TracerWarning escapes, yet only that category is ignored (the model's own warnings still reach the
    caller), and the warning filters are the same after the call as before (no global filterwarnings), and the
    caller's own filters still hold inside (torch.jit's deprecation FutureWarning, silenced by the caller, is not
    printed); also for a TracerWarning about a Python float, not a boolean"""
    res, want, what = _run(student, "BranchyNet", 8, gen, J.dark(2, gen), [J.bright(2, gen)],
                           ["a dark batch", "a bright batch"], warn=True)
    expect(not res["escaped"], f"{what}: {len(res['escaped'])} TracerWarning(s) escaped from your function; "
                               f"ignore that category inside it with warnings.catch_warnings()")
    own = res["own_escaped"]
    expect(len(own) > 0 and all(own),
           f"{what}, with a model whose forward warns (a UserWarning): {own.count(False)} of its {len(own)} "
           f"warnings did not reach the caller; ignore only torch.jit.TracerWarning (e.g. "
           f"warnings.simplefilter('ignore', torch.jit.TracerWarning)), not every warning")
    expect(not res["filters_left"], f"{what}: after the call, the process's warning filters hold what your "
                                    f"function added: {res['filters_left']}; set the filter inside "
                                    f"`with warnings.catch_warnings():` so it ends with the function")
    # round 25: simplefilter("always") inside the function overrides the caller's filters, and the deprecation
    # FutureWarning that the caller (the notebook's setup cell) silences is printed to stderr on every call
    dep = res.get("deprecations", ["(not reported)"])
    expect(not dep, f"{what}, called under a filter that ignores torch.jit's deprecation FutureWarning (as the "
                    f"notebook's setup cell installs): {len(dep)} such warning(s) still came through, e.g. "
                    f"{dep[:1]!r}; the task: calling it \"prints nothing to stderr\": add only the filter for "
                    f"torch.jit.TracerWarning inside catch_warnings(), on top of the caller's filters (no "
                    f"simplefilter('always') or resetwarnings())")
    # a TracerWarning about a Python float (not a boolean): the whole category is to be ignored, not one message
    res, want, what = _run(student, "ScalarNet", 8, gen, J.dark(2, gen), [J.bright(2, gen)],
                           ["a dark batch", "a bright batch"])
    expect(not res["escaped"], f"{what}, a model whose forward reads float(x.mean()): {len(res['escaped'])} "
                               f"TracerWarning(s) escaped (expected none: that one is about converting a tensor to a "
                               f"Python float); ignore the category torch.jit.TracerWarning, whatever its message")


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (none): worth little
def test_no_grad(student, gen):
    """the model is traced once, and every forward call, tracing included, runs under torch.no_grad()"""
    res, want, what = _run(student, "PlainNet", 8, gen, J.dark(2, gen),
                           [J.bright(2, gen), J.dark(2, gen), J.bright(1, gen)],
                           ["a dark batch", "a bright batch", "a dark batch", "a bright batch"])
    seen = res["grad_enabled"]
    expect(len(seen) > 0, f"{what}: the model's forward was never called")
    expect(not any(seen), f"{what}: gradients were enabled in {sum(map(bool, seen))} of the model's "
                          f"{len(seen)} forward calls; run the trace and the comparisons under torch.no_grad()")
    # one torch.jit.trace runs forward under the tracer once, and once more for its own check_trace
    expect(res["traced_calls"] <= 2,
           f"{what}: the model's forward ran {res['traced_calls']} times under torch.jit's tracer for 3 inputs; "
           f"trace it once, on example, and run that one trace on every input")


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (still disabled): worth little
def test_grad_mode_restored(student, gen):
    """called inside the caller's own torch.no_grad() block, the call leaves gradients disabled there (the mode
    it found is restored, not switched on)"""
    res, want, what = _run(student, "PlainNet", 8, gen, J.dark(2, gen), [J.bright(2, gen)],
                           ["a dark batch", "a bright batch"], outer_no_grad=True)
    _flags_equal(res, want, what)
    expect(res.get("grad_after") is False,
           f"{what}, called inside `with torch.no_grad():`: after the call, torch.is_grad_enabled() is "
           f"{res.get('grad_after')} in the caller's block (expected False, the mode it was in); the task: \"Run "
           f"everything ... under torch.no_grad()\": a `with torch.no_grad():` block restores the caller's mode, "
           f"torch.set_grad_enabled(True) at the end does not")


def test_nan_logits_are_flagged(student, gen):
    """an input whose logits hold NaN is flagged (torch.allclose's default equal_nan=False: NaN is not close)"""
    inputs, names = _mixed(gen, ["dark", "bright"], 5)
    for i in sorted(set(torch.randint(0, 5, (2,), generator=gen).tolist())):
        x = inputs[i]
        x.view(-1)[int(torch.randint(0, x.numel(), (1,), generator=gen))] = float("nan")
        names[i] += " with one NaN pixel"
    _flags_equal(*_run(student, "PlainNet", 8, gen, J.dark(3, gen), inputs, ["a dark batch"] + names))


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (every flag): worth little
def test_model_run_as_given(student, gen):
    """a model in training mode is traced and run as given (not switched to eval()): with dropout the trace and
    the eager call draw different masks, so every input is flagged, and the model is still in training mode"""
    inputs, names = _mixed(gen, ["dark", "bright"], 4)
    res, want, what = _run(student, "DropNet", 64, gen, J.dark(3, gen), inputs, ["a dark batch"] + names,
                           train=True)
    _flags_equal(res, want, what)
    all_modules = ["", "fc1", "drop", "fc2"]
    expect(res["training_after"] == all_modules,
           f"{what}: after the call, only {res['training_after']} of the modules {all_modules} are in training "
           f"mode; the function must run the model in the mode it was given and leave that mode as it found it")


def test_model_called_as_a_module(student, gen):
    """the eager model is called as `model(x)`, hooks included, as the trace records it (not `model.forward(x)`):
    a BranchyNet whose forward hook doubles the logits is flagged only on the other branch's inputs"""
    inputs, names = _mixed(gen, ["dark", "bright"], 5)
    res, want, what = _run(student, "HookNet", 8, gen, J.dark(3, gen), inputs, ["a dark batch"] + names)
    _flags_equal(res, want, what + " (a forward hook doubles its logits: calling the module runs it, and "
                                   "torch.jit.trace records it; model.forward(x) skips it)")


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (no flag): worth little
def test_equal_infinities_are_close(student, gen):
    """an input whose logits are infinite, the same in the trace and in eager mode, is not flagged
    (torch.allclose counts equal infinities as close)"""
    inputs, names = _mixed(gen, ["dark", "bright"], 4)
    for i in sorted(set(torch.randint(0, 4, (2,), generator=gen).tolist())):
        x = inputs[i]
        x.view(-1)[int(torch.randint(0, x.numel(), (1,), generator=gen))] = float("inf")
        names[i] += " with one +inf pixel"
    res, want, what = _run(student, "ScaleNet", 8, gen, J.dark(3, gen), inputs, ["a dark batch"] + names)
    _flags_equal(res, want, what + " (a model without a branch whose logits are scaled by each image's largest "
                                   "pixel: an infinite pixel gives the same infinite logits in the trace and in "
                                   "eager mode, which torch.allclose counts as close)")


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (empty): worth little
def test_no_inputs(student, gen):
    """an empty list of inputs gives an empty list of flags (one flag per input, none for none)"""
    res, want, what = _run(student, "PlainNet", 8, gen, J.dark(2, gen), [], ["a dark batch"])
    _flags_equal(res, want, what)
    expect(res["container"] == "list", f"{what}: expected a list, got a {res['container']}")


@pytest.mark.task("trace_mismatches", weight=0.1)  # its right answer is a constant (restored): worth little
def test_state_restored_when_the_call_raises(student, gen):
    """a call that raises (one input has rows of 783 pixels, which the model's first Linear refuses) still leaves
    the caller's gradients enabled and its warning filters as they were: torch.no_grad() and
    warnings.catch_warnings() are contexts, restored however the call ends"""
    inputs, names = _mixed(gen, ["dark", "bright"], 3)
    at = int(torch.randint(0, len(inputs) + 1, (1,), generator=gen))
    inputs.insert(at, torch.rand(2, 783, generator=gen))
    names.insert(at, "a batch of 2 rows of 783 pixels (the model's fc1 takes 784: its forward raises)")
    state = J.random_state("BranchyNet", 8, gen)
    res = student.call("trace_flags_raising", kind="BranchyNet", hidden=8, state=state, example=J.dark(2, gen),
                       inputs=inputs)
    what = (f"trace_mismatches(BranchyNet(hidden=8), example=a dark batch, inputs=[{', '.join(names)}]), called with "
            f"gradients enabled{' (it raised ' + res['raised'][:80] + ')' if res['raised'] else ''}")
    expect(res["grad_after"] is True,
           f"{what}: after the call, torch.is_grad_enabled() is {res['grad_after']} in the caller (expected True, the "
           f"mode it was called in); the task: \"Run everything ... under `torch.no_grad()`\": a `with "
           f"torch.no_grad():` block gives the caller's mode back when an error leaves it, torch.set_grad_enabled(False) "
           f"undone only before `return` does not")
    expect(not res["filters_left"],
           f"{what}: after the call, the caller's warning filters hold what the function added: "
           f"{res['filters_left']} (expected none); the task: ignore TracerWarning \"inside your function (with "
           f"`warnings.catch_warnings()`)\", which restores the filters however the call ends, an error included")
