"""Hidden checks of accumulate_grads (exercise 1): the judge's own full-batch backward on the same model."""
import math

import pytest
import torch
import torch.nn.functional as F
from hypothesis import HealthCheck, given, settings, strategies as st

from course.judge.expect import expect, expect_close, expect_equal, fail
from course.judge.strategies import build_model, model_specs, relayout

pytestmark = pytest.mark.task("accumulate")
f64 = torch.float64
FN = "accumulate_grads"
LOSSES = {"mse": F.mse_loss, "cross_entropy": F.cross_entropy, "smooth_l1": F.smooth_l1_loss}


def make_batch(spec, loss, n, gen, layout="contiguous"):
    x = relayout(torch.randn(n, spec["in"], generator=gen, dtype=f64), layout)
    if loss == "cross_entropy":
        y = torch.randint(0, spec["out"], (n,), generator=gen)
    else:
        y = torch.randn(n, spec["out"], generator=gen, dtype=f64) * 2
    return x, y


class SharedAndUnused(torch.nn.Module):
    """The judge's copy of probes._SharedAndUnused: the spec's model, then two square layers sharing one weight,
    and a head that the forward never calls (same seeds, so the same weights on both sides)."""

    def __init__(self, inner, width, seed):
        super().__init__()
        self.inner = inner
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.first = torch.nn.Linear(width, width).double()
            self.second = torch.nn.Linear(width, width).double()
            self.unused_head = torch.nn.Linear(width, 1).double()
        self.second.weight = self.first.weight

    def forward(self, x):
        return self.second(torch.tanh(self.first(self.inner(x))))


class TokenIds(torch.nn.Module):
    """The judge's copy of probes._TokenIds: an embedding of int64 token ids (N, 2), summed, then the spec's model."""

    def __init__(self, inner, vocab, width, seed):
        super().__init__()
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.embed = torch.nn.Embedding(vocab, width).double()
        self.inner = inner

    def forward(self, ids):
        return self.inner(self.embed(ids).sum(dim=1))


def expected(spec, loss, x, y, pre_grads, frozen=(), mode="train", shared_and_unused=False, token_vocab=None):
    model = build_model(spec)
    if shared_and_unused:
        model = SharedAndUnused(model, spec["out"], spec["seed"] + 1)
    if token_vocab is not None:
        model = TokenIds(model, token_vocab, spec["in"], spec["seed"] + 2)
    model.train(mode == "train")
    for i, p in enumerate(model.parameters()):
        p.requires_grad_(i not in frozen)
    for p, g in zip(model.parameters(), pre_grads):
        p.grad = None if g is None else g.clone()
    value = LOSSES[loss](model(x), y)
    value.backward()
    return value.item(), {n: p.grad for n, p in model.named_parameters()}


def no_pre(spec):
    return [None] * len(list(build_model(spec).parameters()))


def run(student, spec, loss, x, y, k, pre_grads=None, mode="train", frozen=(), shared_and_unused=False,
        token_vocab=None):
    pre = pre_grads if pre_grads is not None else no_pre(spec)
    extra = {"shared_and_unused": True} if shared_and_unused else {}
    if token_vocab is not None:
        extra["token_vocab"] = token_vocab
    return student.call("accumulate_run", spec=spec, loss=loss, x=x, y=y, micro_batches=k, pre_grads=pre,
                        mode=mode, frozen=list(frozen), **extra)


def check_grads(res, want, what):
    for name, g in want.items():
        got = res["grads"].get(name)
        if g is None:  # a frozen parameter: backward() leaves its .grad None
            expect(got is None, f"{what}: parameter '{name}' (requires_grad=False) has a .grad afterwards; a "
                                "full-batch backward() leaves it None")
            continue
        if got is None:
            fail(f"{what}: parameter '{name}' has .grad None afterwards; expected the full-batch gradient")
        expect_close(got, g, f"{what}: .grad of parameter '{name}'", atol=1e-10, rtol=1e-8)


def check_loss(res, want, what):
    got = res["loss"]
    expect(isinstance(got, float), f"{what} returned {got!r} ({type(got).__name__}), not a Python float")
    expect_close(torch.tensor(got, dtype=f64), torch.tensor(want, dtype=f64),
                 f"the loss {what} returns (the full batch's loss)", atol=1e-10, rtol=1e-8)


def check_backward_per_micro_batch(res, n, what):
    """Each micro-batch's backward() reaches its output once, before the model is called on the next one."""
    events, sizes = res["events"], res["sizes"]
    forwards = [e for e in events if e.startswith("f")]
    expect(len(forwards) == len(sizes) and sum(sizes) == n,
           f"{what}: the model was called {len(forwards)} times on micro-batches of sizes {sizes}; expected pieces "
           f"covering the {n} samples once")
    readable = ", ".join(("forward " if e[0] == "f" else "backward ") + str(int(e[1:]) + 1) for e in events)
    for j in range(len(forwards)):
        count = events.count(f"b{j}")
        expect(count == 1, f"{what}: backward() reached the output of micro-batch {j + 1} {count} times (calls in "
                           f"order: {readable}); expected once, by backward() on that micro-batch's weighted loss")
        if j + 1 < len(forwards):
            expect(events.index(f"b{j}") < events.index(f"f{j + 1}"),
                   f"{what}: the model was called on micro-batch {j + 2} before backward() ran on micro-batch "
                   f"{j + 1}'s weighted loss (calls in order: {readable}); clause: backward() on each micro-batch's "
                   "weighted loss before the next micro-batch's forward, so that only one micro-batch's graph is "
                   "alive at a time (one backward() on the sum keeps them all)")
    for j, count in enumerate(res["alive_at_forward"][1:len(forwards)], start=1):
        expect(count == 0, f"{what}: when the model was called on micro-batch {j + 1}, {count} tensor(s) that earlier "
                           f"micro-batches' graphs saved for backward were still alive (calls in order: {readable}); "
                           "expected none: clause: backward() on each weighted loss before the next forward, so that "
                           "only one micro-batch's graph is alive at a time (backward() frees a graph's saved tensors "
                           "unless retain_graph=True keeps them)")


def check_sizes(sizes, n, k, what):
    """At most k micro-batches, each of 1 to ceil(n / k) samples."""
    cap = math.ceil(n / k)
    expect(all(isinstance(s, int) and 0 < s <= cap for s in sizes),
           f"{what}: the model was called on micro-batches of sizes {sizes}; each must hold 1 to {cap} samples")
    expect(len(sizes) <= k, f"{what}: the model was called on {len(sizes)} micro-batches of sizes {sizes}; expected "
                            f"at most micro_batches={k} (clause: split the batch into at most micro_batches "
                            f"consecutive micro-batches of at most ceil(N / micro_batches) = {cap} samples each)")


def describe(spec, loss, n, k, layout="contiguous"):
    return (f"{FN}(model, F.{loss}_loss, (inputs, targets), micro_batches={k}) with N={n} samples "
            f"(a nested model, forward argument '{spec['arg']}', hidden widths {spec['hidden']}, inputs {layout})"
            ).replace("F.cross_entropy_loss", "F.cross_entropy")


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=model_specs(out_features=(2, 4), norm=False, dropout=False), loss=st.sampled_from(sorted(LOSSES)),
       n=st.integers(2, 11), k=st.integers(2, 5), layout=st.sampled_from(["contiguous", "transposed", "strided",
                                                                          "offset"]),
       seed=st.integers(0, 2**31 - 1))
def test_matches_full_batch(student, spec, loss, n, k, layout, seed):
    """the accumulated .grad of every parameter and the returned loss equal one full-batch backward"""
    spec = dict(spec, double=True)
    x, y = make_batch(spec, loss, n, torch.Generator().manual_seed(seed), layout)
    res = run(student, spec, loss, x, y, k)
    want_loss, want = expected(spec, loss, x, y, no_pre(spec))
    what = describe(spec, loss, n, k, layout)
    check_grads(res, want, what)
    check_loss(res, want_loss, what)
    check_sizes(res["sizes"], n, k, what)
    check_backward_per_micro_batch(res, n, what)
    expect(not res["params_changed"], f"{what} changed the values of parameters {res['params_changed']}")
    expect(not res["changes"], f"{what} left changes behind: {'; '.join(res['changes'])}")
    expect(torch.equal(res["x_after"], x) and torch.equal(res["y_after"], y),
           f"{what} changed the inputs or targets it was given")


@pytest.mark.parametrize("n,k", [(10, 4), (7, 2), (5, 3)])
def test_uneven_last_micro_batch(student, gen, n, k):
    """a smaller last micro-batch is weighted by its share of the samples, not by 1/micro_batches"""
    spec = {"arg": "inputs", "in": 3, "out": 2, "hidden": [4], "norm": False, "dropout": False, "seed": 7,
            "double": True}
    x, y = make_batch(spec, "mse", n, gen)
    y[-1] += 25.0  # the last sample's loss dominates: a wrong weight of the last micro-batch shows at once
    res = run(student, spec, "mse", x, y, k)
    want_loss, want = expected(spec, "mse", x, y, no_pre(spec))
    what = describe(spec, "mse", n, k) + f" (last micro-batch of {n - (k - 1) * math.ceil(n / k)} sample(s))"
    check_grads(res, want, what)
    check_loss(res, want_loss, what)


def test_adds_to_existing_grads(student, gen):
    """the call adds the full-batch gradient to what .grad held before, as backward() does"""
    spec = {"arg": "features", "in": 4, "out": 3, "hidden": [5, 3], "norm": False, "dropout": False, "seed": 3,
            "double": True}
    x, y = make_batch(spec, "cross_entropy", 8, gen)
    shapes = [p.shape for p in build_model(spec).parameters()]
    pre = [torch.randn(s, generator=gen, dtype=f64) for s in shapes]
    pre[1] = None
    res = run(student, spec, "cross_entropy", x, y, 3, pre_grads=pre)
    _, want = expected(spec, "cross_entropy", x, y, pre)
    check_grads(res, want, describe(spec, "cross_entropy", 8, 3) +
                " on a model whose parameters already held a .grad (all but the second)")


@pytest.mark.parametrize("n,k", [(3, 5), (1, 3), (1, 1), (6, 6), (10, 3)])
def test_micro_batch_sizes(student, gen, n, k):
    """the model sees at most k consecutive micro-batches, each sample once, none empty, none above ceil(N/k)"""
    spec = {"arg": "data", "in": 3, "out": 1, "hidden": [3], "norm": False, "dropout": False, "seed": 11,
            "double": True}
    x, y = make_batch(spec, "mse", n, gen)
    res = run(student, spec, "mse", x, y, k)
    what = describe(spec, "mse", n, k)
    sizes = res["sizes"]
    check_sizes(sizes, n, k, what)
    expect_equal(sum(sizes), n, f"{what}: the number of samples the model saw over all its calls")
    want_loss, want = expected(spec, "mse", x, y, no_pre(spec))
    check_grads(res, want, what)
    check_loss(res, want_loss, what)


@pytest.mark.parametrize("n,k,mode", [(7, 3, "train"), (9, 4, "eval")])
def test_backward_after_each_forward(student, gen, n, k, mode):
    """each micro-batch's weighted loss gets its own backward() before the next micro-batch's forward"""
    spec = {"arg": "inputs", "in": 3, "out": 2, "hidden": [4], "norm": mode == "eval", "dropout": False,
            "seed": 23, "double": True}
    x, y = make_batch(spec, "mse", n, gen)
    res = run(student, spec, "mse", x, y, k, mode=mode)
    what = describe(spec, "mse", n, k) + f" on a model in {mode} mode"
    check_backward_per_micro_batch(res, n, what)
    want_loss, want = expected(spec, "mse", x, y, no_pre(spec), mode=mode)
    check_grads(res, want, what)
    check_loss(res, want_loss, what)


def test_consecutive_in_order(student, gen):
    """micro-batches are consecutive slices of the batch, in order"""
    spec = {"arg": "x", "in": 2, "out": 1, "hidden": [2], "norm": False, "dropout": False, "seed": 5,
            "double": True}
    n, k = int(torch.randint(7, 12, (), generator=gen)), int(torch.randint(2, 5, (), generator=gen))
    x, y = make_batch(spec, "mse", n, gen)
    x[:, 0] = torch.randperm(50, generator=gen)[:n].to(f64)  # each sample tagged by a distinct number
    res = run(student, spec, "mse", x, y, k)
    order = [v for piece in res["first_column"] for v in piece]
    expect(order == x[:, 0].tolist(),
           f"{describe(spec, 'mse', n, k)} with the samples tagged {x[:, 0].tolist()} (in batch order): the model "
           f"saw them as {res['first_column']}; expected consecutive pieces covering the batch once, in order")


def test_leaves_model_and_globals(student, gen):
    """parameters, train/eval mode, grad mode and the inputs are as before the call"""
    spec = {"arg": "batch", "in": 3, "out": 2, "hidden": [4, 2], "norm": False, "dropout": False, "seed": 1,
            "double": True}
    x, y = make_batch(spec, "smooth_l1", 6, gen)
    x0, y0 = x.clone(), y.clone()
    for mode in ("eval", "train", "mixed"):
        res = run(student, spec, "smooth_l1", x, y, 4, mode=mode)
        what = describe(spec, "smooth_l1", 6, 4) + (" on a model in train mode whose first submodule is in eval mode"
                                                    if mode == "mixed" else f" on a model in {mode} mode")
        expect(not res["params_changed"], f"{what} changed the values of parameters {res['params_changed']}")
        expect(not res["changes"], f"{what} left changes behind: {'; '.join(res['changes'])}")
        expect(torch.equal(res["x_after"], x0) and torch.equal(res["y_after"], y0),
               f"{what} changed the inputs or targets it was given")


def test_frozen_parameter_keeps_no_grad(student, gen):
    """a frozen parameter (requires_grad=False) ends with .grad None, as after one full-batch backward()"""
    spec = {"arg": "inputs", "in": 3, "out": 2, "hidden": [4], "norm": False, "dropout": False, "seed": 13,
            "double": True}
    x, y = make_batch(spec, "mse", 7, gen)
    frozen = (0,)  # the first layer's weight
    res = run(student, spec, "mse", x, y, 3, frozen=frozen)
    want_loss, want = expected(spec, "mse", x, y, no_pre(spec), frozen=frozen)
    what = describe(spec, "mse", 7, 3) + " with the first layer's weight frozen (requires_grad=False)"
    check_grads(res, want, what)
    check_loss(res, want_loss, what)


def test_eval_mode_model(student, gen):
    """a model in eval mode (batch norm with running statistics, dropout) gets the gradient of its eval-mode forward, its buffers unchanged"""
    spec = {"arg": "inputs", "in": 3, "out": 2, "hidden": [5, 4], "norm": True, "dropout": True, "seed": 17,
            "double": True}
    x, y = make_batch(spec, "mse", 9, gen)
    res = run(student, spec, "mse", x, y, 3, mode="eval")
    want_loss, want = expected(spec, "mse", x, y, no_pre(spec), mode="eval")
    what = describe(spec, "mse", 9, 3) + " on a model in eval mode (BatchNorm1d with running statistics, Dropout)"
    check_grads(res, want, what)
    check_loss(res, want_loss, what)
    expect(not res["changes"], f"{what} left changes behind: {'; '.join(res['changes'])}")


def test_shared_and_unused_parameters(student, gen):
    """a weight shared by two layers gets the full-batch gradient once, and a parameter the forward never uses keeps .grad None, as after one full-batch backward()"""
    spec = {"arg": "inputs", "in": 3, "out": 3, "hidden": [4], "norm": False, "dropout": False, "seed": 19,
            "double": True}
    x, y = make_batch(spec, "mse", 7, gen)
    n_params = len(list(SharedAndUnused(build_model(spec), 3, 20).parameters()))
    res = run(student, spec, "mse", x, y, 3, pre_grads=[None] * n_params, shared_and_unused=True)
    want_loss, want = expected(spec, "mse", x, y, [None] * n_params, shared_and_unused=True)
    what = (describe(spec, "mse", 7, 3) + " on a model whose layers 'first' and 'second' share one weight and whose "
            "'unused_head' the forward never calls (clause: every parameter's .grad holds the full-batch gradient, "
            "as a single full-batch backward() would)")
    for name, g in want.items():
        got = res["grads"].get(name)
        if g is None:
            expect(got is None, f"{what}: parameter '{name}' is never used by the forward, so backward() leaves its "
                                f".grad None; got a tensor")
        elif got is None:
            fail(f"{what}: parameter '{name}' has .grad None afterwards; expected the full-batch gradient")
        else:
            expect_close(got, g, f"{what}: .grad of parameter '{name}' (the shared weight is one parameter: its "
                                 "gradient counts once)" if name == "first.weight" else f"{what}: .grad of "
                                 f"parameter '{name}'", atol=1e-10, rtol=1e-8)
    check_loss(res, want_loss, what)


def test_untouched_parameters_keep_their_grad(student, gen):
    """a parameter that held a .grad before the call and gets no gradient from it (never used by the forward, or frozen) keeps that .grad, as after one full-batch backward()"""
    spec = {"arg": "inputs", "in": 3, "out": 3, "hidden": [4], "norm": False, "dropout": False, "seed": 29,
            "double": True}
    x, y = make_batch(spec, "mse", 7, gen)
    shapes = [p.shape for p in SharedAndUnused(build_model(spec), 3, 30).parameters()]
    pre = [torch.randn(s, generator=gen, dtype=f64) for s in shapes]
    frozen = (0,)  # the inner model's first weight: requires_grad=False, but a .grad set beforehand
    res = run(student, spec, "mse", x, y, 3, pre_grads=pre, frozen=frozen, shared_and_unused=True)
    want_loss, want = expected(spec, "mse", x, y, pre, frozen=frozen, shared_and_unused=True)
    what = (describe(spec, "mse", 7, 3) + " on a model whose every parameter held a .grad before the call, with "
            "'unused_head' never called by the forward and the first weight frozen (requires_grad=False) (clause: "
            "afterwards every parameter's .grad holds what it held before the call plus the full-batch gradient)")
    names = [n for n, _ in SharedAndUnused(build_model(spec), 3, 30).named_parameters()]
    untouched = {names[0]} | {n for n in names if n.startswith("unused_head")}
    for name, g in want.items():
        got = res["grads"].get(name)
        if got is None:
            fail(f"{what}: parameter '{name}' has .grad None afterwards; expected "
                 + ("the .grad it held before, unchanged (no gradient reaches it)" if name in untouched
                    else "what it held before plus the full-batch gradient"))
        expect_close(got, g, f"{what}: .grad of parameter '{name}'" + (" (no gradient reaches it: the .grad it held "
                     "before)" if name in untouched else ""), atol=1e-10, rtol=1e-8)
    check_loss(res, want_loss, what)


def test_integer_inputs(student, gen):
    """inputs that are not floating point (int64 token ids into an nn.Embedding) reach the model as given: the gradient and loss of the full batch"""
    spec = {"arg": "inputs", "in": 3, "out": 3, "hidden": [4], "norm": False, "dropout": False, "seed": 31,
            "double": True}
    vocab, n, k, loss = 11, 9, 4, "mse"
    ids = torch.randint(0, vocab, (n, 2), generator=gen)
    _, y = make_batch(spec, loss, n, gen)
    res = run(student, spec, loss, ids, y, k, pre_grads=[None] * (len(no_pre(spec)) + 1), token_vocab=vocab)
    want_loss, want = expected(spec, loss, ids, y, [None] * (len(no_pre(spec)) + 1), token_vocab=vocab)
    what = (describe(spec, loss, n, k) + f" on a model that starts with nn.Embedding({vocab}, 3), fed int64 token ids "
            "of shape (N, 2) (clause: the gradient of loss_fn(model(inputs), targets) on the full batch: the model gets "
            "the inputs as they were given, integer ones included)")
    check_grads(res, want, what)
    check_loss(res, want_loss, what)
    check_sizes(res["sizes"], n, k, what)


def test_float16_model(student, gen):
    """a float16 model whose micro-losses are large (about 2e4): the returned loss is the full batch's, finite (a micro-loss times n_j held in float16 passes 65504 and becomes inf), and the gradients are the full batch's, to float16 rounding"""
    n, k = 8, 2
    weight = (torch.rand(1, 3, generator=gen, dtype=f64) * 0.2 - 0.1).half()
    bias = torch.zeros(1, dtype=torch.float16)
    x = (torch.rand(n, 3, generator=gen, dtype=f64) * 2 - 1).half()
    y = (140 + torch.rand(n, 1, generator=gen, dtype=f64) * 4).half()
    res = student.call("accumulate_half", weight=weight, bias=bias, x=x, y=y, micro_batches=k)
    model = torch.nn.Linear(3, 1).half()
    with torch.no_grad():
        model.weight.copy_(weight)
        model.bias.copy_(bias)
    full = F.mse_loss(model(x), y)
    full.backward()
    what = (f"accumulate_grads(model, F.mse_loss, (x, y), {k}) on a float16 nn.Linear(3, 1) with {n} samples whose "
            f"targets are about 140 (each micro-loss about {full.item():.0f}, times n_j = {n // k} past float16's "
            "largest value, 65504)")
    expect(isinstance(res["loss"], float), f"{what}: returned {res['loss']!r}, not a Python float")
    expect_close(torch.tensor(res["loss"], dtype=f64), torch.tensor(full.item(), dtype=f64), f"{what}: the returned loss (the full batch's loss, a finite number; "
                                          "clause: return the full batch's loss as a Python float)", atol=0, rtol=1e-2)
    for name, p in model.named_parameters():
        expect_close(res["grads"][name], p.grad, f"{what}: the gradient of {name} (to float16 rounding)",
                     atol=0.5, rtol=1e-2)


def test_inputs_without_features(student, gen):
    """inputs with no features, shape (N, 0) (a first layer nn.Linear(0, 3), whose output is its bias): the batch size is still N, each micro-batch weighted by its share of the N samples"""
    spec = {"arg": "inputs", "in": 0, "out": 2, "hidden": [3], "norm": False, "dropout": False, "seed": 37,
            "double": True}
    n, k = 7, 3
    x, y = make_batch(spec, "mse", n, gen)
    res = run(student, spec, "mse", x, y, k)
    want_loss, want = expected(spec, "mse", x, y, no_pre(spec))
    what = (describe(spec, "mse", n, k) + " with inputs of shape (7, 0), no features (clause: batch is a pair of "
            "tensors whose first dimension is the batch size N; a weight by the share of elements, xb.numel() / "
            "inputs.numel(), divides 0 by 0)")
    check_grads(res, want, what)
    check_loss(res, want_loss, what)
