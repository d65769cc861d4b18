"""Hidden checks of per_sample_grads (exercise 5), against the judge's own loop of single-example backward passes on
the same model (course.judge.probelib.build_model), with the model's state and calls recorded in the worker."""
import pytest
import torch
import torch.nn.functional as F

from course.judge.expect import expect, expect_close, expect_equal
from course.judge.probelib import build_model

pytestmark = pytest.mark.task("per_sample")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def spec_of(gen, norm=True, dropout=True):
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    return {"arg": ["x", "inputs", "batch"][draw(0, 3)], "in": draw(2, 5), "out": draw(2, 4),
            "hidden": [draw(2, 5) for _ in range(draw(1, 3))], "norm": norm, "dropout": dropout, "seed": draw(0, 2**30)}


def data(gen, spec, n, loss):
    x = torch.randn(n, spec["in"], generator=gen, dtype=f64)
    y = torch.randn(n, spec["out"], generator=gen, dtype=f64) if loss == "mse" else \
        torch.randint(0, spec["out"], (n,), generator=gen)
    return x, y


def loop_grads(spec, x, y, loss, frozen=()):
    """The judge's per-example gradients: one backward pass per example, on its own copy of the model."""
    model = build_model(spec).double().eval()
    for name, p in model.named_parameters():
        p.requires_grad_(name not in frozen)
    loss_fn = F.mse_loss if loss == "mse" else F.cross_entropy
    rows = {k: [] for k, p in model.named_parameters() if p.requires_grad}
    for i in range(len(x)):
        names = list(rows)
        gs = torch.autograd.grad(loss_fn(model(x[i:i + 1]), y[i:i + 1]), [dict(model.named_parameters())[k] for k in names])
        for k, g in zip(names, gs):
            rows[k].append(g)
    return {k: torch.stack(v) for k, v in rows.items()}


def run(student, what, spec, x, y, loss, frozen=()):
    res = student.call("per_sample", spec=spec, x=x, y=y, loss=loss, frozen=list(frozen))
    expect("error" not in res, f"{what} raised {res.get('error')}")
    return res


def expect_grads(res, want, what):
    expect_equal(sorted(res["out"]), sorted(want), f"the keys of {what} (one per parameter that requires grad)")
    for k, g in want.items():
        expect(isinstance(res["out"][k], torch.Tensor), f"{what}['{k}'] is {res['out'][k]}, not a tensor")
        expect_equal(tuple(res["out"][k].shape), tuple(g.shape), f"the shape of {what}['{k}'] (N, *param.shape)")
        expect_close(res["out"][k], g, f"{what}['{k}'] against a loop of single-example backward passes", **TOL)


@pytest.mark.parametrize("loss,n", [("mse", 5), ("ce", 4), ("mse", 1)])
def test_matches_a_loop(student, gen, loss, n):
    """row i is the gradient of loss_fn(model(x[i:i+1]), y[i:i+1]) for a model with BatchNorm buffers and dropout
    in eval mode, N = 1 included"""
    spec = spec_of(gen)
    x, y = data(gen, spec, n, loss)
    what = f"per_sample_grads(model, {'F.mse_loss' if loss == 'mse' else 'F.cross_entropy'}, x ({n}, {spec['in']}), y)"
    res = run(student, what, spec, x, y, loss)
    expect_grads(res, loop_grads(spec, x, y, loss), what)


def embedding_model(spec):
    """The judge's twin of the probe's model of token ids: nn.Embedding, flattened, then nn.Linear."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec["seed"])
        return torch.nn.Sequential(torch.nn.Embedding(spec["vocab"], spec["dim"]), torch.nn.Flatten(),
                                   torch.nn.Linear(spec["dim"] * spec["len"], spec["out"])).double().eval()


def test_integer_inputs(student, gen):
    """x of integer token ids (an nn.Embedding model) reaches the model as it is; row i is still right"""
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    spec = {"vocab": draw(5, 9), "dim": draw(2, 4), "len": draw(2, 4), "out": draw(2, 4), "seed": draw(0, 2**30)}
    n = 3
    x = torch.randint(0, spec["vocab"], (n, spec["len"]), generator=gen)
    y = torch.randn(n, spec["out"], generator=gen, dtype=f64)
    what = f"per_sample_grads(nn.Embedding model, F.mse_loss, x int64 token ids {tuple(x.shape)}, y)"
    res = run(student, what, spec, x, y, "mse")
    model = embedding_model(spec)
    names = [k for k, _ in model.named_parameters()]
    rows = {k: [] for k in names}
    for i in range(n):
        gs = torch.autograd.grad(F.mse_loss(model(x[i:i + 1]), y[i:i + 1]), list(model.parameters()))
        for k, g in zip(names, gs):
            rows[k].append(g)
    expect_grads(res, {k: torch.stack(v) for k, v in rows.items()}, what + " (x is the model's input as it is: "
                 "casting it to the parameters' dtype breaks an nn.Embedding)")


@pytest.mark.parametrize("case", ["first and last", "all but one"])
def test_frozen_parameters_left_out(student, gen, case):
    """frozen parameters (requires_grad False) get no entry and stay frozen; the others are still right, one alone
    included"""
    spec = spec_of(gen, norm=True)
    x, y = data(gen, spec, 3, "mse")
    names = [k for k, _ in build_model(spec).named_parameters()]
    frozen = [names[0], names[-1]] if case == "first and last" else names[:-2] + names[-1:]
    what = f"per_sample_grads(model with {frozen} frozen, F.mse_loss, x (3, {spec['in']}), y)"
    res = run(student, what, spec, x, y, "mse", frozen)
    expect_grads(res, loop_grads(spec, x, y, "mse", frozen), what)
    expect_equal(res["after"]["frozen"], res["before"]["frozen"], f"the frozen parameters after {what} (the model "
                 f"is left as it was: requires_grad unchanged on every parameter)")


def test_model_runs_under_vmap(student, gen):
    """the model is called as often for N = 6 as for N = 2 (it runs batched under vmap, not once per example)"""
    spec = spec_of(gen)
    counts = []
    for n in (2, 6):
        x, y = data(gen, spec, n, "mse")
        what = f"per_sample_grads(model, F.mse_loss, x ({n}, {spec['in']}), y)"
        res = run(student, what, spec, x, y, "mse")
        counts.append(res["calls"])
        expect_grads(res, loop_grads(spec, x, y, "mse"), what)
    expect(counts[0] == counts[1], f"per_sample_grads called the model {counts[0]} times for N = 2 and {counts[1]} "
           f"times for N = 6: run it once under vmap, not once per example")


def test_model_left_as_it_was(student, gen):
    """parameters, buffers, .grad fields (set on every other parameter, None on the rest) and every module's mode
    are unchanged afterwards"""
    spec = spec_of(gen)
    x, y = data(gen, spec, 4, "ce")
    what = f"per_sample_grads(model, F.cross_entropy, x (4, {spec['in']}), y) on a model whose parameters " \
           f"have .grad fields set on every other one"
    res = student.call("per_sample", spec=spec, x=x, y=y, loss="ce", grads=True)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_grads(res, loop_grads(spec, x, y, "ce"), what)
    before, after = res["before"], res["after"]
    expect_equal(after["training"], before["training"], f"the modules in training mode after {what}")
    expect_equal(sorted(after["grads"]), sorted(before["grads"]), f"the parameters whose .grad is set after {what}")
    for k, g in before["grads"].items():
        expect_close(after["grads"][k], g, f"the .grad of '{k}' after {what} (unchanged)", atol=0, rtol=0)
    for kind in ("params", "buffers"):
        for k, t in before[kind].items():
            expect_close(after[kind][k], t, f"the model's {kind[:-1]} '{k}' after {what} (unchanged)", atol=0, rtol=0)
