"""Hidden checks of per_sample_grads (exercise 5), against the judge's own loop of single-example backward passes on
the same model (course.judge.probelib.build_model), with the model's state and calls recorded in the worker."""
import importlib.util
import sys
from pathlib import Path

if "course_16_02_probes" not in sys.modules:  # the probes' own stand-in for an optimizer step, used as the judge's twin
    _s = importlib.util.spec_from_file_location("course_16_02_probes", Path(__file__).with_name("probes.py"))
    sys.modules["course_16_02_probes"] = importlib.util.module_from_spec(_s)
    _s.loader.exec_module(sys.modules["course_16_02_probes"])
step = sys.modules["course_16_02_probes"].step  # p -> 0.125 - p / 2, floating buffers x 1.5, in place
LOSSES = sys.modules["course_16_02_probes"].LOSSES  # mse, ce, rows: a loss written for a batch (see below), soft_ce
LOSS_NAMES = {"mse": "F.mse_loss", "ce": "F.cross_entropy",
              "rows": "a batch loss ((out - y) ** 2).flatten(1).sum(1).mean()",
              "soft_ce": "F.cross_entropy with soft labels (y of class probabilities, (N, C))"}

import pytest  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from course.judge.expect import expect, expect_close, expect_equal  # noqa: E402
from course.judge.probelib import build_model  # noqa: E402

pytestmark = pytest.mark.task("per_sample")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def spec_of(gen, norm=True, dropout=True):
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    return {"arg": ["x", "inputs", "batch"][draw(0, 3)], "in": draw(2, 5), "out": draw(2, 4),
            "hidden": [draw(2, 5) for _ in range(draw(1, 3))], "norm": norm, "dropout": dropout, "seed": draw(0, 2**30)}


def data(gen, spec, n, loss, lead=()):
    """x (n, *lead, in) and y: (n, *lead, out) for mse and rows, class ids (n,) for ce, class probabilities
    (n, out) for soft_ce."""
    x = torch.randn(n, *lead, spec["in"], generator=gen, dtype=f64)
    y = torch.randn(n, *lead, spec["out"], generator=gen, dtype=f64) if loss != "ce" else \
        torch.randint(0, spec["out"], (n,), generator=gen)
    if loss == "soft_ce":
        y = torch.softmax(y, -1)
    return x, y


def loop_grads(spec, x, y, loss, frozen=(), stepped=False):
    """The judge's per-example gradients: one backward pass per example, on its own copy of the model (stepped
    first, if asked)."""
    model = build_model(spec).double().eval()
    if stepped:
        step(model)
    for name, p in model.named_parameters():
        p.requires_grad_(name not in frozen)
    loss_fn = LOSSES[loss]
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


def expect_model_unchanged(res, what, spec):
    """The model's state after the call against before it, every entry named by the judge's own twin of the model
    (build_model(spec)): a reply with fewer entries than the model has compares nothing less. The probe set a .grad
    on every other parameter and put the model in eval mode."""
    twin = build_model(spec)
    params, buffers = [k for k, _ in twin.named_parameters()], [k for k, _ in twin.named_buffers()]
    before, after = res["before"], res["after"]
    for when, state in (("before", before), ("after", after)):
        expect_equal(sorted(state["params"]), sorted(params), f"the parameters recorded {when} {what}")
        expect_equal(sorted(state["buffers"]), sorted(buffers), f"the buffers recorded {when} {what}")
    expect_equal(sorted(before["grads"]), sorted(params[::2]), f"the parameters whose .grad was set before {what}")
    expect_equal(after["training"], [], f"the modules in training mode after {what} (the model was in eval mode)")
    expect_equal(sorted(after["grads"]), sorted(before["grads"]), f"the parameters whose .grad is set after {what}")
    for k, g in before["grads"].items():
        expect_close(after["grads"][k], g, f"the .grad of '{k}' after {what} (unchanged)", atol=0, rtol=0)
    for kind in ("params", "buffers"):
        for k, t in before[kind].items():
            expect_close(after[kind][k], t, f"the model's {kind[:-1]} '{k}' after {what} (unchanged)", atol=0, rtol=0)


# rows-3-rank3: a loss written for a batch, each example's error summed over all but dim 0 and then averaged over
# the batch, gets out and y with their batch dimension (x[i:i+1], y[i:i+1]), not one example squeezed; soft-ce-3: a
# target row of its own dimensions (class probabilities (C,)) gets its batch dimension back too (y[i:i+1], (1, C)):
# F.cross_entropy reads a (C,) target against a (1, C) output as a batch of C
@pytest.mark.parametrize("loss,n,lead", [("mse", 5, ()), ("ce", 4, ()), ("mse", 1, ()), ("rows", 3, (2,)),
                                         ("soft_ce", 3, ())],
                         ids=["mse-5", "ce-4", "mse-1", "rows-3-rank3", "soft-ce-3"])
def test_matches_a_loop(student, gen, loss, n, lead):
    """row i is the gradient of loss_fn(model(x[i:i+1]), y[i:i+1]) for a model with BatchNorm buffers and dropout
    in eval mode, N = 1 included, and for x of shape (N, 2, in) (an example of two rows, fed to the model as x[i:i+1]
    is, not flattened) with a loss written for a batch (it gets out and y with their batch dimension of 1); each
    call leaves the model's parameters, buffers, .grad fields and mode as they were"""
    spec = spec_of(gen, norm=not lead)  # BatchNorm1d takes (N, C) only: the rank-3 model has none
    x, y = data(gen, spec, n, loss, lead)
    what = f"per_sample_grads(model, {LOSS_NAMES[loss]}, x {tuple(x.shape)}, y " \
        f"{tuple(y.shape)}) on a model whose parameters have .grad fields set on every other one" + \
        (" (row i: the model on x[i:i+1] of shape (1, 2, in), as x has it, and loss_fn(out, y[i:i+1]) on the "
         "batch of one, as loss_fn takes a batch)" if lead else "")
    res = student.call("per_sample", spec=spec, x=x, y=y, loss=loss, grads=True)
    expect("error" not in res, f"{what} raised {res.get('error')}" + (" (clause: row i is the gradient of "
           "loss_fn(model(x[i:i+1]), y[i:i+1]): y[i] gets its batch dimension back, whatever its shape)"
           if loss == "soft_ce" else ""))
    expect_grads(res, loop_grads(spec, x, y, loss), what)
    expect_model_unchanged(res, what, spec)


def embedding_model(spec):
    """The judge's twin of the probe's model of token ids: nn.Embedding, flattened, then nn.Linear; with
    spec["tied"], nn.Embedding then an nn.Linear back to the vocabulary sharing the embedding's weight, flattened."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec["seed"])
        if spec.get("tied"):
            emb, head = torch.nn.Embedding(spec["vocab"], spec["dim"]), torch.nn.Linear(spec["dim"], spec["vocab"])
            head.weight = emb.weight
            return torch.nn.Sequential(emb, head, torch.nn.Flatten()).double().eval()
        return torch.nn.Sequential(torch.nn.Embedding(spec["vocab"], spec["dim"]), torch.nn.Flatten(),
                                   torch.nn.Linear(spec["dim"] * spec["len"], spec["out"])).double().eval()


def loop_named(model, x, y):
    """The judge's per-example gradients of F.mse_loss for each of model.named_parameters(), by a loop."""
    names = [k for k, _ in model.named_parameters()]
    rows = {k: [] for k in names}
    for i in range(len(x)):
        gs = torch.autograd.grad(F.mse_loss(model(x[i:i + 1]), y[i:i + 1]), list(model.parameters()))
        for k, g in zip(names, gs):
            rows[k].append(g)
    return {k: torch.stack(v) for k, v in rows.items()}


def test_integer_inputs(student, gen):
    """x of integer token ids (an nn.Embedding model) reaches the model as it is; row i is still right"""
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    spec = {"vocab": draw(5, 9), "dim": draw(2, 4), "len": draw(2, 4), "out": draw(2, 4), "seed": draw(0, 2**30)}
    n = 3
    x = torch.randint(0, spec["vocab"], (n, spec["len"]), generator=gen)
    y = torch.randn(n, spec["out"], generator=gen, dtype=f64)
    what = f"per_sample_grads(nn.Embedding model, F.mse_loss, x int64 token ids {tuple(x.shape)}, y)"
    res = run(student, what, spec, x, y, "mse")
    expect_grads(res, loop_named(embedding_model(spec), x, y), what + " (x is the model's input as it is: "
                 "casting it to the parameters' dtype breaks an nn.Embedding)")


def test_tied_weights(student, gen):
    """a parameter that two modules share (tied weights) has one entry, under its named_parameters() name, whose
    rows are its whole gradient (both uses)"""
    draw = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    spec = {"vocab": draw(4, 7), "dim": draw(2, 4), "len": draw(2, 4), "tied": True, "seed": draw(0, 2**30)}
    n = 3
    x = torch.randint(0, spec["vocab"], (n, spec["len"]), generator=gen)
    y = torch.randn(n, spec["len"] * spec["vocab"], generator=gen, dtype=f64)
    what = f"per_sample_grads(model, F.mse_loss, x int64 token ids {tuple(x.shape)}, y) for a model whose " \
           f"nn.Embedding ('0.weight') and output nn.Linear ('1.weight') share one weight"
    res = run(student, what, spec, x, y, "mse")
    expect_grads(res, loop_named(embedding_model(spec), x, y), what + " (the shared weight is one parameter: "
                 "named_parameters() lists it once, and its gradient sums both uses)")


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
    expect_equal(res["after"]["frozen"], sorted(frozen), f"the frozen parameters after {what} (the model "
                 f"is left as it was: requires_grad unchanged on every parameter)")


def test_a_later_call_sees_the_model_as_it_is(student, gen):
    """a second call on the same model, after an in-place step of its parameters and buffers and a change of which
    parameters are frozen, and with another loss_fn, gives the gradients of that loss on the model as it is then,
    and a third call with the first loss_fn (the model and its frozen parameters as in the second) that loss's
    (nothing kept from an earlier call)"""
    spec = spec_of(gen)
    x, y = data(gen, spec, 3, "mse")
    names = [k for k, _ in build_model(spec).named_parameters()]
    frozen, then = names[:1], names[-1:]
    what = f"per_sample_grads(model with {frozen} frozen, F.mse_loss, x (3, {spec['in']}), y)"
    res = student.call("per_sample", spec=spec, x=x, y=y, loss="mse", frozen=frozen, then_frozen=then,
                       then_loss="rows")
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_grads(res, loop_grads(spec, x, y, "mse", frozen), what)
    what = f"a second per_sample_grads(model, {LOSS_NAMES['rows']}, x, y) on the same model, with that other " \
           f"loss_fn, after every parameter p became 0.125 - p / 2 and every floating buffer b 1.5 b in place (an " \
           f"optimizer step's stand-in) and {then} became the only frozen parameter"
    expect("error2" not in res, f"{what} raised or returned something else than a dict: {res.get('error2')}")
    expect_grads({"out": res["out2"]}, loop_grads(spec, x, y, "rows", then, stepped=True),
                 what + " (the model as it is at this call, and this call's loss_fn: clause: row i is the gradient "
                 "of loss_fn(model(x[i:i+1]), y[i:i+1]))")
    what = f"a third per_sample_grads(model, F.mse_loss, x, y) right after that second call, on the model as the " \
           f"second left it ({then} frozen), with F.mse_loss again"
    expect("error3" not in res, f"{what} raised or returned something else than a dict: {res.get('error3')}")
    expect_grads({"out": res["out3"]}, loop_grads(spec, x, y, "mse", then, stepped=True),
                 what + " (this call's loss_fn, not the one of the call before: clause: row i is the gradient of "
                 "loss_fn(model(x[i:i+1]), y[i:i+1]))")


def test_model_runs_under_vmap(student, gen):
    """the model is called as often for N = 70 as for N = 2 (it runs batched under vmap, not once per example nor
    once per chunk of examples)"""
    spec = spec_of(gen)
    counts = []
    for n in (2, 70):
        x, y = data(gen, spec, n, "mse")
        what = f"per_sample_grads(model, F.mse_loss, x ({n}, {spec['in']}), y)"
        res = run(student, what, spec, x, y, "mse")
        counts.append(res["calls"])
        expect_grads(res, loop_grads(spec, x, y, "mse"), what)
    expect(counts[0] == counts[1], f"per_sample_grads called the model {counts[0]} times for N = 2 and {counts[1]} "
           f"times for N = 70: run it once under vmap, not once per example or per chunk of examples (vmap's "
           f"chunk_size)")


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
    expect_model_unchanged(res, what, spec)
