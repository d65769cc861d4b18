"""Hidden checks of evaluate (exercise 4): values against the judge's own eval-mode run of the same model,
the real behaviours of inference tensors and no_grad outputs, and what the call leaves behind."""
import importlib.util
import sys
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

from course.judge.expect import expect, expect_close, fail
from course.judge.strategies import build_model, model_specs


if "course_00_02_graphs" not in sys.modules:  # the probes' vary_model, applied here by the judge too
    _s = importlib.util.spec_from_file_location("course_00_02_graphs", Path(__file__).with_name("probes.py"))
    sys.modules["course_00_02_graphs"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_00_02_graphs"])
G = sys.modules["course_00_02_graphs"]

pytestmark = pytest.mark.task("evaluate")


def modes_for(model, gen):
    """Mixed per-submodule train/eval flags, the model's own flag drawn too (a model in eval mode may hold
    submodules in training mode, which model.eval() must still switch)."""
    n = len(list(model.modules()))
    return [bool(v) for v in torch.randint(0, 2, (n,), generator=gen)]


def run(student, spec, gen, keep, fail_call=False, grad_enabled=True, root_eval=False):
    model = build_model(spec)
    modes = modes_for(model, gen)
    if root_eval:  # the model in eval mode, every submodule under it in training mode
        modes = [False] + [True] * (len(modes) - 1)
    x = torch.randn(int(torch.randint(1, 5, (1,), generator=gen)), spec["in"], generator=gen)
    res = student.call("run_evaluate", spec=spec, x=x, keep=keep, train_modes=modes, fail=fail_call,
                       grad_enabled=grad_enabled)
    what = f"evaluate(model, x, keep_for_autograd={keep}) for {spec_text(spec)}"
    expect(res.get("modes_after") == modes, f"{what}: afterwards the train/eval flags of model.modules() were "
                                           f"{res.get('modes_after')}, expected them as before the call: {modes}")
    model.eval()
    with torch.no_grad():
        want = model(x)
    return res, want, x


def check_common(res, want, what):
    if res["error"]:
        fail(f"{what} raised {res['error']}")
    if not isinstance(res["out"], torch.Tensor):
        fail(f"{what}: expected a tensor, got {res['out']}")
    expect_close(res["out"], want, f"{what} (compared with model.eval(); model(x))", atol=1e-6, rtol=1e-5)
    expect(not res["requires_grad"] and not res["has_grad_fn"], f"{what}: the output requires grad or has a grad_fn")
    expect(not res["module_changes"], f"{what} left the model changed: {'; '.join(res['module_changes'][:3])}")
    expect(not res["global_changes"], f"{what} left global state changed: {'; '.join(res['global_changes'][:3])}")


def spec_text(spec):
    return (f"a model of widths {spec['in']}-{'-'.join(map(str, spec['hidden']))}-{spec['out']} "
            f"(BatchNorm {spec['norm']}, dropout {spec['dropout']}, forward argument '{spec['arg']}')")


@settings(max_examples=5, deadline=None)
@given(spec=model_specs(), seed=st.integers(0, 2**31 - 1))
def test_inference_mode(student, spec, seed):
    """keep_for_autograd=False: eval-mode values, an inference tensor, unusable in autograd later"""
    gen = torch.Generator().manual_seed(seed)
    res, want, x = run(student, spec, gen, keep=False)
    what = f"evaluate(model, x) for {spec_text(spec)} and x of shape {tuple(x.shape)}"
    check_common(res, want, what)
    expect(res["is_inference"], f"{what}: the output is not an inference tensor (run it under torch.inference_mode())")
    expect(res["inside"] and res["inside"][0] == [False, True],
           f"{what}: during model(x), (grad mode, inference mode) were {res['inside'][:1]}, expected [False, True]")
    expect(res["later_autograd"]["raised"], f"{what}: the output could be saved for backward later; an inference "
                                            f"tensor cannot")


@settings(max_examples=5, deadline=None)
@given(spec=model_specs(), seed=st.integers(0, 2**31 - 1))
def test_no_grad(student, spec, seed):
    """keep_for_autograd=True: eval-mode values, an ordinary tensor, usable in autograd and in place"""
    gen = torch.Generator().manual_seed(seed)
    res, want, x = run(student, spec, gen, keep=True)
    what = f"evaluate(model, x, keep_for_autograd=True) for {spec_text(spec)} and x of shape {tuple(x.shape)}"
    check_common(res, want, what)
    expect(not res["is_inference"], f"{what}: the output is an inference tensor; run it under torch.no_grad()")
    expect(res["inside"] and res["inside"][0] == [False, False],
           f"{what}: during model(x), (grad mode, inference mode) were {res['inside'][:1]}, expected [False, False]")
    for key, use in (("later_autograd", "used in autograd later"), ("later_inplace", "modified in place")):
        err = res[key]
        expect(not err["raised"], f"{what}: the output cannot be {use}: {err['type']}: {err['message'][:150]}")


@pytest.mark.parametrize("keep", [False, True])
def test_restores_after_error(student, gen, keep):
    """modes are restored when model(x) raises"""
    spec = {"arg": "features", "in": 5, "out": 3, "hidden": [4, 3], "norm": True, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, _, _ = run(student, spec, gen, keep=keep, fail_call=True)
    what = (f"evaluate(model, x, keep_for_autograd={keep}) for {spec_text(spec)} and an x of the wrong width "
            f"(model(x) raises)")
    expect(res["error"] is not None, f"{what}: expected the model's error to come out, the call returned normally")
    if res["error"].startswith("NotImplementedError"):
        fail(f"{what}: your code raised NotImplementedError (not implemented yet?), expected the model's RuntimeError")
    expect(res["error"].startswith("RuntimeError"), f"{what}: expected the model's RuntimeError to come out, got "
                                                    f"{res['error'][:200]}")
    expect(not res["module_changes"], f"{what} left the model changed: {'; '.join(res['module_changes'][:3])}")
    expect(not res["global_changes"], f"{what} left global state changed: {'; '.join(res['global_changes'][:3])}")


@pytest.mark.parametrize("keep", [False, True])
def test_called_with_grad_off(student, gen, keep):
    """grad mode off before the call is still off after it; the model in eval mode with its submodules in
    training mode gives model.eval(); model(x)'s values and keeps those flags"""
    spec = {"arg": "input", "in": 4, "out": 2, "hidden": [3], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    res, want, x = run(student, spec, gen, keep=keep, grad_enabled=False, root_eval=True)
    what = (f"evaluate(model, x, keep_for_autograd={keep}) called inside torch.no_grad() (grad mode off) for "
            f"{spec_text(spec)}, the model in eval mode and every submodule under it in training mode, and x of "
            f"shape {tuple(x.shape)}")
    check_common(res, want, what)


@pytest.mark.parametrize("keep", [False, True])
def test_other_train_dependent_layer(student, gen, keep):
    """a random layer that is not an nn.Dropout (nn.AlphaDropout), every submodule in training mode: the values
    of model.eval(); model(x)"""
    spec = {"arg": "inputs", "in": 5, "out": 3, "hidden": [6, 4], "norm": False, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    x = torch.randn(4, spec["in"], generator=gen)
    _all_in_training_mode(student, spec, G.vary_model(build_model(spec), "alpha"), x, keep, "alpha",
                          f"evaluate(model, x, keep_for_autograd={keep}) for {spec_text(spec)} with nn.AlphaDropout "
                          f"in place of each nn.Dropout, every submodule in training mode, x of shape {tuple(x.shape)}")


@pytest.mark.parametrize("keep", [False, True])
def test_batchnorm_in_training_mode(student, gen, keep):
    """a model with BatchNorm1d, every submodule in training mode: the values of model.eval(); model(x) (the
    running statistics, not the batch's), and the running statistics left as they were"""
    spec = {"arg": "input", "in": 5, "out": 3, "hidden": [6, 4], "norm": True, "dropout": True,
            "seed": int(torch.randint(0, 2**31 - 1, (1,), generator=gen))}
    x = torch.randn(4, spec["in"], generator=gen) * 3 + 2  # batch statistics far from the running ones (0 and 1)
    _all_in_training_mode(student, spec, build_model(spec), x, keep, None,
                          f"evaluate(model, x, keep_for_autograd={keep}) for {spec_text(spec)}, every submodule (the "
                          f"BatchNorm1d layers too) in training mode, x of shape {tuple(x.shape)}")


def _all_in_training_mode(student, spec, model, x, keep, variant, what):
    """evaluate on ``model`` (the judge's copy of the worker's) with every submodule in training mode: the values
    of model.eval(); model(x), and every flag True again afterwards."""
    modes = [True] * len(list(model.modules()))
    extra = {"variant": variant} if variant else {}
    res = student.call("run_evaluate", spec=spec, x=x, keep=keep, train_modes=modes, **extra)
    model.eval()
    with torch.no_grad():
        want = model(x)
    check_common(res, want, what)
    expect(res.get("modes_after") == modes, f"{what}: afterwards the train/eval flags of model.modules() were "
                                           f"{res.get('modes_after')}, expected them all True as before the call")


def test_model_without_parameters(student, gen):
    """a model with no parameters (dropout then tanh, in training mode): the values of model.eval(); model(x)"""
    x = torch.randn(3, 4, generator=gen)
    for keep in (False, True):
        what = (f"evaluate(nn.Sequential(nn.Dropout(0.5), nn.Tanh()), x, keep_for_autograd={keep}) for a model "
                f"with no parameters in training mode and x of shape (3, 4)")
        res = student.call("evaluate_parameterless", x=x, keep=keep)
        if res["error"]:
            fail(f"{what} raised {res['error']}; a model need not have parameters")
        if not isinstance(res["out"], torch.Tensor):
            fail(f"{what}: expected a tensor, got {res['out']}")
        expect_close(res["out"], x.tanh(), f"{what} (compared with model.eval(); model(x), which is x.tanh())",
                     atol=1e-6, rtol=1e-5)
        expect(res["modes_after"] == [True, True, True], f"{what}: afterwards the train flags of model.modules() "
                                                         f"were {res['modes_after']}, expected [True, True, True]")


@pytest.mark.parametrize("keep", [False, True])
def test_layer_with_own_train(student, gen, keep):
    """a layer whose train() override does more than set .training: the values of model.eval(); model(x)"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    x = torch.randn(3, 4, generator=gen)
    model = G.train_override_model(seed)
    model.eval()
    with torch.no_grad():
        want = model(x)
    what = (f"evaluate(model, x, keep_for_autograd={keep}) for nn.Sequential(nn.Linear(4, 5), EvalScale(), "
            f"nn.Dropout(0.5), nn.Linear(5, 3)) in training mode, where EvalScale overrides train(): train(False) "
            f"makes it multiply by 2, train(True) by 1 (as layers that merge weights for inference do), x of shape "
            f"(3, 4)")
    res = student.call("evaluate_train_override", seed=seed, x=x, keep=keep)
    if res["error"]:
        fail(f"{what} raised {res['error']}")
    if not isinstance(res["out"], torch.Tensor):
        fail(f"{what}: expected a tensor, got {res['out']}")
    expect_close(res["out"], want, f"{what} (compared with model.eval(); model(x): switch modes through "
                 f"model.eval() or .train(False), which call each layer's train(), not by setting .training)",
                 atol=1e-6, rtol=1e-5)
    expect(res["modes_after"] == [True] * 5, f"{what}: afterwards the train flags of model.modules() were "
                                             f"{res['modes_after']}, expected them all True as before the call")


@pytest.mark.parametrize("keep", [False, True])
def test_model_with_hooks(student, gen, keep):
    """a model with a forward pre-hook and a forward hook on itself (as weight_norm or a wrapper registers): the
    values of model.eval(); model(x), hooks included"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    x = torch.randn(3, 4, generator=gen)
    model = G.hooked_model(seed)
    model.eval()
    with torch.no_grad():
        want = model(x)
    what = (f"evaluate(model, x, keep_for_autograd={keep}) for model = Sequential(Linear(4, 5), Dropout(0.5), "
            f"Linear(5, 3)) in training mode with a forward pre-hook (input * 2) and a forward hook (output + 0.5) "
            f"registered on the model, x of shape (3, 4)")
    res = student.call("evaluate_hooked", seed=seed, x=x, keep=keep)
    if res["error"]:
        fail(f"{what} raised {res['error']}")
    if not isinstance(res["out"], torch.Tensor):
        fail(f"{what}: expected a tensor, got {res['out']}")
    expect_close(res["out"], want, f"{what} (compared with model.eval(); model(x), which runs the model's hooks: call "
                 f"model(x), not model.forward(x))", atol=1e-6, rtol=1e-5)
    expect(res["modes_after"] == [True] * 4, f"{what}: afterwards the train flags of model.modules() were "
                                             f"{res['modes_after']}, expected them all True as before the call")


def test_keep_by_position(student, gen):
    """keep_for_autograd given by position, evaluate(model, x, True) and evaluate(model, x, False): the signature is
    evaluate(model, x, keep_for_autograd=False)"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    x = torch.randn(3, 4, generator=gen)
    model = G.train_override_model(seed)
    model.eval()
    with torch.no_grad():
        want = model(x)
    for keep in (False, True):
        what = (f"evaluate(model, x, {keep}) (keep_for_autograd by position, as the signature evaluate(model, x, "
                f"keep_for_autograd=False) allows) for nn.Sequential(nn.Linear(4, 5), EvalScale(), nn.Dropout(0.5), "
                f"nn.Linear(5, 3)) in training mode, x of shape (3, 4)")
        res = student.call("evaluate_positional", seed=seed, x=x, keep=keep)
        if res["error"]:
            fail(f"{what} raised {res['error']}")
        if not isinstance(res["out"], torch.Tensor):
            fail(f"{what}: expected a tensor, got {res['out']}")
        expect_close(res["out"], want, f"{what} (compared with model.eval(); model(x))", atol=1e-6, rtol=1e-5)
        expect(res["is_inference"] == (not keep), f"{what}: the output is {'' if res['is_inference'] else 'not '}an "
                                                  f"inference tensor; expected {'not ' if keep else ''}one")


def test_shared_submodule(student, gen):
    """a submodule shared by two parents, in training mode under a parent in eval mode: values of model.eval();
    model(x), and every flag as before"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    x = torch.randn(3, 4, generator=gen)
    model = G.shared_model(seed)
    model.eval()
    with torch.no_grad():
        want = model(x)
    for keep in (False, True):
        what = (f"evaluate(model, x, keep_for_autograd={keep}) for model = Sequential(Sequential(S, Tanh()), "
                f"Sequential(S, ReLU()), Linear(4, 3)) with S = Sequential(Linear(4, 4), Dropout(0.5)) shared by the "
                f"two inner Sequentials, the flags of model.modules() {G.SHARED_MODES} (S and its layers in training "
                f"mode, its second parent in eval mode), x of shape (3, 4)")
        res = student.call("evaluate_shared", seed=seed, x=x, keep=keep)
        if res["error"]:
            fail(f"{what} raised {res['error']}")
        if not isinstance(res["out"], torch.Tensor):
            fail(f"{what}: expected a tensor, got {res['out']}")
        expect_close(res["out"], want, f"{what} (compared with model.eval(); model(x))", atol=1e-6, rtol=1e-5)
        expect(res["modes_after"] == G.SHARED_MODES,
               f"{what}: afterwards the flags of model.modules() were {res['modes_after']}, expected "
               f"{G.SHARED_MODES} as before the call (every submodule is left in the mode it was in, even when they "
               f"differ: a parent's train(mode) also sets a module it shares with another parent; set each module's "
               f"own flag back)")


@pytest.mark.parametrize("keep", [False, True])
def test_restores_after_interrupt(student, gen, keep):
    """modes are restored when model(x) raises KeyboardInterrupt (not an Exception), and it goes through"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    x = torch.randn(2, 4, generator=gen)
    what = (f"evaluate(model, x, keep_for_autograd={keep}) for Sequential(Linear(4, 5), Dropout(0.5), a layer whose "
            f"forward raises KeyboardInterrupt) with the flags of model.modules() {G.INTERRUPT_MODES}")
    res = student.call("evaluate_interrupted", seed=seed, x=x, keep=keep)
    expect(res["error"] == "KeyboardInterrupt", f"{what}: expected the KeyboardInterrupt to come out, got "
                                                f"{res['error'] or 'a normal return'}")
    expect(res["modes_after"] == res["modes_before"],
           f"{what}: afterwards the flags were {res['modes_after']}, expected {res['modes_before']} as before the call "
           f"(Every submodule is left in the mode it was in before the call, also when model(x) raises, a "
           f"KeyboardInterrupt too: restore in finally, not in except Exception)")
    expect(res["grad_modes_after"] == res["grad_modes_before"],
           f"{what}: afterwards (grad mode, inference mode) were {res['grad_modes_after']}, expected "
           f"{res['grad_modes_before']} as before the call")
