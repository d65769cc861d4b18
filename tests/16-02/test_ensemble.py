"""Hidden checks of ensemble_forward (exercise 6), against the judge's own models (course.judge.probelib.build_model)
run one by one, with the models' state and forward calls recorded in the worker."""
import importlib.util
import sys
from pathlib import Path

if "course_16_02_probes" not in sys.modules:  # the probes' own stand-in for an optimizer step, used as the judge's twin
    _s = importlib.util.spec_from_file_location("course_16_02_probes", Path(__file__).with_name("probes.py"))
    sys.modules["course_16_02_probes"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_16_02_probes"])
step = sys.modules["course_16_02_probes"].step  # p -> 0.125 - p / 2, floating buffers x 1.5, in place
embedding_model = sys.modules["course_16_02_probes"].embedding_model  # nn.Embedding, Flatten, nn.Linear (float32)
act_model = sys.modules["course_16_02_probes"].act_model  # nn.Sequential(Linear, BatchNorm1d, Tanh or ReLU, Linear)
scaled_model = sys.modules["course_16_02_probes"].scaled_model  # Linear, Tanh, Linear, times a non-persistent buffer

import pytest  # noqa: E402
import torch  # noqa: E402

from course.judge.expect import expect, expect_close, expect_equal  # noqa: E402
from course.judge.probelib import build_model  # noqa: E402

pytestmark = pytest.mark.task("ensemble")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def specs_of(gen, m, norm=True, single=False):
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    base = {"arg": ["x", "inputs", "batch"][draw(0, 3)], "in": draw(2, 5), "out": draw(1, 4),
            "hidden": [draw(2, 5) for _ in range(draw(1, 3))], "norm": norm, "dropout": True, "single": single}
    return [dict(base, seed=draw(0, 2**30)) for _ in range(m)]


def run(student, what, specs, x, per_model):
    res = student.call("ensemble", specs=specs, x=x, per_model=per_model)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    return res


def member(spec):
    """The judge's twin of the probe's model: build_model(spec), a bias-free nn.Linear for spec["single"], the
    probes' embedding_model(spec) for spec["vocab"], their act_model(spec) for spec["act"], or their scaled_model(spec)
    for spec["scaled"]."""
    if spec.get("vocab"):
        return embedding_model(spec).double().eval()
    if spec.get("act"):
        return act_model(spec).double().eval()
    if spec.get("scaled"):
        return scaled_model(spec).double().eval()
    if not spec.get("single"):
        return build_model(spec).double().eval()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec["seed"])
        return torch.nn.Linear(spec["in"], spec["out"], bias=False).double().eval()


def one_by_one(specs, x, per_model, stepped=False):
    models = [member(s) for s in specs]
    for m in models if stepped else ():
        step(m)
    with torch.no_grad():
        return torch.stack([m(x[i] if per_model else x) for i, m in enumerate(models)])


# B == M with per_model=False (the flag, not x's shape, says whether x is shared) and M == 1 with per_model=True
@pytest.mark.parametrize("m,b,per_model,single", [(3, 3, False, False), (1, 2, False, False), (4, 1, False, False),
                                                   (3, 4, True, False), (1, 1, True, False), (3, 2, False, True)])
def test_matches_models_one_by_one(student, gen, m, b, per_model, single):
    """the result stacks each model's output on the shared batch (B == M included), or on its own batch with
    per_model=True (one model included), for models with buffers and dropout and for models of a single parameter;
    each carries gradients to x and leaves the models as they were"""
    specs = specs_of(gen, m, single=single)
    shape = (m, b, specs[0]["in"]) if per_model else (b, specs[0]["in"])
    x = torch.randn(shape, generator=gen, dtype=f64)
    what = f"ensemble_forward({m} models, x of shape {shape}, per_model={per_model})"
    want = one_by_one(specs, x, per_model)
    w = torch.randn(want.shape, generator=gen, dtype=f64)
    res = student.call("ensemble", specs=specs, x=x, per_model=per_model, w=w)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    expect_equal(tuple(res["out"].shape), tuple(want.shape), f"the shape of {what}")
    expect_close(res["out"], want, what + " (row m: models[m] on " + ("x[m])" if per_model else "the whole x)"),
                 **TOL)
    expect_x_grad(res, specs, x, per_model, w, what)
    expect_models_unchanged(res, what, specs)


def expect_x_grad(res, specs, x, per_model, w, what):
    """The gradient of <w, result> with respect to x that the probe sent, against the judge's loop."""
    what = f"the gradient of <w, {what}> with respect to x"
    expect(isinstance(res.get("x_grad"), torch.Tensor), f"{what}: {res.get('x_grad')} (torch.stack([m(x) for m in "
           f"models]) carries gradients to x; do not run the models under torch.no_grad() or detach the result)")
    xr = x.clone().requires_grad_(True)
    out = torch.stack([member(s)(xr[i] if per_model else xr) for i, s in enumerate(specs)])
    (want,) = torch.autograd.grad((out * w).sum(), xr)
    expect_close(res["x_grad"], want, what, **TOL)


def expect_models_unchanged(res, what, specs):
    """Each model's state after the call against before it, the models counted and every entry named by the judge's
    own twins (member(spec)): a reply with fewer models or entries compares nothing less."""
    expect_equal((len(res["before"]), len(res["after"])), (len(specs), len(specs)),
                 f"the number of models whose state was recorded before and after {what}")
    for i, spec in enumerate(specs):
        twin = member(spec)
        for when in ("before", "after"):
            for kind, names in (("params", twin.named_parameters()), ("buffers", twin.named_buffers())):
                expect_equal(sorted(res[when][i][kind]), sorted(k for k, _ in names),
                             f"the {kind} of model {i} recorded {when} {what}")
        expect_equal(res["before"][i]["training"], [], f"the modules of model {i} in training mode before {what}")
    for i, (before, after) in enumerate(zip(res["before"], res["after"])):
        expect_equal(after["training"], before["training"], f"the modules of model {i} in training mode after {what}")
        expect_equal(sorted(after["grads"]), [], f"the parameters of model {i} whose .grad is set after {what}")
        expect_equal(after["frozen"], before["frozen"], f"the parameters of model {i} with requires_grad False after "
                     f"{what} (a model left frozen is no longer trained)")
        for kind in ("params", "buffers"):
            for k, t in before[kind].items():
                expect_close(after[kind][k], t, f"model {i}'s {kind[:-1]} '{k}' after {what} (unchanged)", atol=0, rtol=0)


def test_result_carries_gradients_to_x(student, gen):
    """the result is differentiable with respect to x, as torch.stack([m(x) for m in models]) is: the gradient of
    <w, result> with respect to x is the loop's"""
    specs = specs_of(gen, 3)
    x = torch.randn(4, specs[0]["in"], generator=gen, dtype=f64)
    w = torch.randn(3, 4, specs[0]["out"], generator=gen, dtype=f64)
    what = "ensemble_forward(3 models, x) with x requiring grad"
    res = student.call("ensemble", specs=specs, x=x, per_model=False, w=w)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_x_grad(res, specs, x, False, w, what)


def test_a_later_call_sees_the_models_as_they_are(student, gen):
    """a second call on the same models, after an in-place step of their parameters and buffers (an optimizer
    step), runs the models as they are then (nothing kept from the first call)"""
    specs = specs_of(gen, 3)
    x = torch.randn(4, specs[0]["in"], generator=gen, dtype=f64)
    what = "ensemble_forward(3 models, x)"
    res = student.call("ensemble", specs=specs, x=x, per_model=False, again=True)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], one_by_one(specs, x, False), what, **TOL)
    what = "a second ensemble_forward(models, x) on the same list, after every parameter p of every model became " \
           "0.125 - p / 2 and every floating buffer b 1.5 b in place (an optimizer step's stand-in)"
    expect("error2" not in res, f"{what} raised {res.get('error2')}")
    expect(isinstance(res["out2"], torch.Tensor), f"{what} returned {res['out2']}, not a tensor")
    expect_close(res["out2"], one_by_one(specs, x, False, stepped=True), what + " (the models as they are at this "
                 "call: torch.stack([m(x) for m in models]) now)", **TOL)


def test_each_call_runs_its_own_models(student, gen):
    """two ensembles one after the other, of one class (nn.Sequential) and the same parameter and buffer names and
    shapes but another activation between the layers (Tanh, then ReLU): each call runs its own models (nothing kept
    from an earlier call, the architecture's skeleton included)"""
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    base = {"in": draw(2, 5), "hidden": draw(3, 6), "out": draw(2, 4)}
    first = [dict(base, act="tanh", seed=draw(0, 2**30)) for _ in range(2)]
    second = [dict(base, act="relu", seed=draw(0, 2**30)) for _ in range(3)]
    x = torch.randn(4, base["in"], generator=gen, dtype=f64)
    what = f"ensemble_forward(2 models nn.Sequential(Linear({base['in']}, {base['hidden']}), BatchNorm1d, Tanh, " \
           f"Linear(..., {base['out']})), x of shape {tuple(x.shape)})"
    res = student.call("ensemble", specs=first, x=x, per_model=False, then_specs=second)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_close(res["out"], one_by_one(first, x, False), what, **TOL)
    what = "the next call, ensemble_forward(3 other models of the same class and the same parameter and buffer " \
           "names and shapes, with ReLU where the first ones have Tanh, the same x)"
    expect("error3" not in res, f"{what} raised {res.get('error3')}")
    expect(isinstance(res.get("out3"), torch.Tensor), f"{what} returned {res.get('out3')}, not a tensor")
    expect_close(res["out3"], one_by_one(second, x, False), what + " (clause: the result is torch.stack([m(x) for m "
                 "in models]) of the models of this call: a module skeleton kept from an earlier call, keyed by the "
                 "class or the names and shapes, runs the earlier models' activation)", **TOL)


def test_one_batched_call(student, gen):
    """the number of forward calls is the same for 2 models as for 17 (one vmap call, not a loop over models nor
    one call per chunk of models)"""
    counts = []
    for m in (2, 17):
        specs = specs_of(gen, m)
        x = torch.randn(3, specs[0]["in"], generator=gen, dtype=f64)
        res = run(student, f"ensemble_forward({m} models, x)", specs, x, False)
        counts.append(res["calls"])
        expect_close(res["out"], one_by_one(specs, x, False), f"ensemble_forward({m} models, x)", **TOL)
    expect(counts[0] == counts[1], f"ensemble_forward ran module forwards {counts[0]} times for 2 models and "
           f"{counts[1]} times for 17: run them in one call under vmap, not one by one or one chunk at a time "
           f"(vmap's chunk_size)")


def test_buffers_outside_the_state_dict(student, gen):
    """models with a buffer registered with persistent=False (in named_buffers(), not in state_dict()), its values
    drawn per model: each model runs with its own (stack_module_state stacks every buffer)"""
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    base = {"scaled": True, "in": draw(2, 5), "hidden": draw(2, 5), "out": draw(2, 4)}
    specs = [dict(base, seed=draw(0, 2**30)) for _ in range(3)]
    x = torch.randn(4, base["in"], generator=gen, dtype=f64)
    what = f"ensemble_forward(3 models Linear, Tanh, Linear times a buffer 'scale' ({base['out']},) registered with " \
           f"persistent=False, x of shape {tuple(x.shape)})"
    res = run(student, what, specs, x, False)
    expect_close(res["out"], one_by_one(specs, x, False), what + " (each model with its own 'scale': a buffer "
                 "outside the state dict is still one of the model's buffers; stack_module_state stacks it, a stack "
                 "of state_dict()s leaves it out)", **TOL)
    expect_models_unchanged(res, what, specs)


def test_models_left_as_they_were(student, gen):
    """every model's parameters (values and requires_grad, two frozen ones in each model included), buffers, .grad
    fields and mode are unchanged afterwards"""
    specs = specs_of(gen, 3)
    names = [k for k, _ in member(specs[0]).named_parameters()]
    specs = [dict(s, frozen=[names[0], names[-1]]) for s in specs]  # the same parameters frozen in every model
    x = torch.randn(4, specs[0]["in"], generator=gen, dtype=f64)
    what = f"ensemble_forward(3 models, x), {[names[0], names[-1]]} frozen in each model"
    res = run(student, what, specs, x, False)
    expect_close(res["out"], one_by_one(specs, x, False), what, **TOL)
    expect_models_unchanged(res, what, specs)


# integer token ids (nn.Embedding models): x reaches the models as it is (not cast to the parameters' dtype), of rank 1
# with a shared batch (not assumed (B, features): no unsqueeze(0).repeat(M, 1, 1)), of rank 4 with per_model=True;
# the shared case is called under the caller's torch.no_grad() (inference on token ids), as the stack would run there
@pytest.mark.parametrize("x_rank,per_model", [(1, False), (4, True)], ids=["ids(B,)-shared", "ids(M,B,2,3)-per_model"])
def test_token_ids_of_any_rank(student, gen, x_rank, per_model):
    """x of integer token ids reaches the models as it is, of any shape (B, ...): (B,) shared by every model, or
    (M, B, 2, 3) with per_model=True, for nn.Embedding models; the shared case called under torch.no_grad() runs
    the models without grad, as torch.stack([m(x) for m in models]) there (the caller's grad mode, no
    torch.enable_grad() of its own)"""
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    m, b = draw(2, 4), draw(2, 4)
    trailing = (2, 3) if x_rank == 4 else ()
    base = {"vocab": draw(5, 9), "dim": draw(2, 4), "len": 6 if trailing else 1, "out": draw(2, 4)}
    specs = [dict(base, seed=draw(0, 2**30)) for _ in range(m)]
    shape = ((m,) if per_model else ()) + (b,) + trailing
    x = torch.randint(0, base["vocab"], shape, generator=gen)
    what = f"ensemble_forward({m} nn.Embedding models, x int64 token ids of shape {shape}, per_model={per_model})" + \
        ("" if per_model else ", called under torch.no_grad()")
    res = student.call("ensemble", specs=specs, x=x, per_model=per_model, grad_enabled=per_model)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    want = one_by_one(specs, x, per_model)
    expect_equal(tuple(res["out"].shape), tuple(want.shape), f"the shape of {what}")
    expect_close(res["out"], want, what + " (torch.stack([m(x) for m in models]); x is the models' input as it is: "
                 "token ids are not cast to the parameters' dtype, and x need not be (B, features))", **TOL)
    expect_models_unchanged(res, what, specs)
    if not per_model:
        expect(res["grad_modes"] == [False] and res.get("out_requires_grad") is False, f"{what}: the models' "
               f"forward ran with torch.is_grad_enabled() {res['grad_modes']} and the result "
               f"{'requires' if res.get('out_requires_grad') else 'does not require'} grad, where "
               f"torch.stack([m(x) for m in models]) under the caller's torch.no_grad() runs without grad and "
               f"builds no graph (clause: compute it in the caller's grad mode, like that stack: no "
               f"torch.enable_grad() of your own)")


@pytest.mark.parametrize("per_model", [False, True], ids=["shared", "per_model"])
def test_grad_mode_on_for_data_x(student, gen, per_model):
    """with an x that does not require grad (data), called in grad mode, the models still run with grad enabled (as
    torch.stack([m(x) for m in models]) does): the result is not computed under torch.no_grad(), whatever x"""
    specs = specs_of(gen, 2)
    shape = (2, 3, specs[0]["in"]) if per_model else (3, specs[0]["in"])
    x = torch.randn(shape, generator=gen, dtype=f64)
    what = f"ensemble_forward(2 models, x of shape {shape}, per_model={per_model}) with x not requiring grad"
    res = run(student, what, specs, x, per_model)
    expect_close(res["out"], one_by_one(specs, x, per_model), what, **TOL)
    expect(True in res["grad_modes"], f"{what}: every forward call of the models ran with grad disabled (grad modes "
           f"seen by the models' forward hooks: {res['grad_modes']}), the caller's grad mode on (clause: do not "
           f"compute it under torch.no_grad(), also for an x that does not require grad)")
