"""Hidden checks for the fixed bug-zoo snippets (15-09, judge side): behaviour, never source."""
import runpy
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from hypothesis import HealthCheck, given, settings, strategies as st

from course.judge.adapter import StudentError
from course.judge.expect import expect, expect_close, expect_equal, fail
from course.judge.strategies import build_model, model_specs

PROBES = runpy.run_path(str(Path(__file__).with_name("probes.py")))
pytestmark = pytest.mark.task("zoo")


def test_tanh_loss_value_and_gradients(student, gen):
    """fixed_tanh_loss returns ((tanh(x @ w) + 1)**2).mean() and backward through it gives autograd's gradients"""
    x = torch.randn(5, 4, generator=gen, dtype=torch.float64)
    w = torch.randn(4, 3, generator=gen, dtype=torch.float64)
    r = student.call("zoo_tanh", x=x, w=w)
    xr, wr = x.clone().requires_grad_(True), w.clone().requires_grad_(True)
    want = ((torch.tanh(xr @ wr) + 1) ** 2).mean()
    gx, gw = torch.autograd.grad(want, (xr, wr))
    expect_close(r["loss"], want.detach(), "fixed_tanh_loss(x, w) for x (5, 4), w (4, 3)", atol=1e-12, rtol=1e-10)
    expect(not r["error"]["raised"], f"backward through fixed_tanh_loss(x, w) raised {r['error']['type']}: "
                                     f"{r['error']['message'][:200]}")
    expect_close(r["gw"], gw, "w.grad after fixed_tanh_loss(x, w).backward()", atol=1e-12, rtol=1e-10)
    expect_close(r["gx"], gx, "x.grad after fixed_tanh_loss(x, w).backward()", atol=1e-12, rtol=1e-10)
    expect_loss_off_device(student, gen, "tanh")


LOSS_DTYPES = ["float16", "bfloat16", "float32", "float64"]


# a tensor made without device= (h + torch.ones(h.shape), torch.maximum(h, torch.zeros(h.shape))) is on the CPU in
# float32: with inputs on a GPU (here the meta stand-in) the loss raises, and in float16 it comes back in float32
def expect_loss_off_device(student, gen, which):
    dtype = LOSS_DTYPES[int(torch.randint(0, len(LOSS_DTYPES), (1,), generator=gen))]
    call = ("fixed_tanh_loss(x, w) for x (4, 3), w (3, 2)" if which == "tanh" else
            "fixed_two_layer_loss(x, w1, w2) for x (4, 3), w1 (3, 5), w2 (5, 2)")
    what = f"{call} on device='meta' in torch.{dtype} (the inputs' device stands in for a GPU)"
    r = student.call("zoo_loss_off_device", which=which, dtype=dtype)
    expect(r["error"] is None, f"{what} raised {r['error']}: a tensor made without device= sits on the CPU, "
                               f"whatever device the inputs are on")
    expect_equal((r["device"], r["dtype"], r["shape"]), ("meta", f"torch.{dtype}", []),
                 f"{what}: (device, dtype, shape) of the loss (the inputs' device and dtype, a 0-dim tensor)")


def test_two_layer_gradients_reach_both_weights(student, gen):
    """fixed_two_layer_loss returns ((relu(x @ w1) @ w2)**2).mean() with gradients reaching w1 and w2"""
    x = torch.randn(6, 4, generator=gen, dtype=torch.float64)
    w1 = torch.randn(4, 5, generator=gen, dtype=torch.float64)
    w2 = torch.randn(5, 2, generator=gen, dtype=torch.float64)
    r = student.call("zoo_two_layer", x=x, w1=w1, w2=w2)
    a, b = w1.clone().requires_grad_(True), w2.clone().requires_grad_(True)
    want = ((torch.relu(x @ a) @ b) ** 2).mean()
    g1, g2 = torch.autograd.grad(want, (a, b))
    expect_close(r["loss"], want.detach(), "fixed_two_layer_loss(x, w1, w2)", atol=1e-12, rtol=1e-10)
    expect(not r["error"]["raised"], f"backward through fixed_two_layer_loss raised {r['error']['type']}")
    expect(r["g1"] is not None, "w1.grad is None after fixed_two_layer_loss(x, w1, w2).backward(): the graph is cut "
                                "between w1 and the loss")
    expect_close(r["g1"], g1, "w1.grad after fixed_two_layer_loss(x, w1, w2).backward()", atol=1e-12, rtol=1e-10)
    expect_close(r["g2"], g2, "w2.grad after fixed_two_layer_loss(x, w1, w2).backward()", atol=1e-12, rtol=1e-10)
    expect_loss_off_device(student, gen, "two_layer")


def test_losses_of_one_example_with_one_feature(student, gen):
    """fixed_tanh_loss and fixed_two_layer_loss for x of shape (1, 1): one example with one feature is no
    special case (the loss, not x, comes back)"""
    x = torch.randn(1, 1, generator=gen, dtype=torch.float64)
    w = torch.randn(1, 3, generator=gen, dtype=torch.float64)
    w1 = torch.randn(1, 4, generator=gen, dtype=torch.float64)
    w2 = torch.randn(4, 2, generator=gen, dtype=torch.float64)
    r = student.call("zoo_tanh", x=x, w=w)
    expect(isinstance(r["loss"], torch.Tensor), f"fixed_tanh_loss(x, w) for x (1, 1), w (1, 3) returned "
                                                 f"{r['loss']}, expected a tensor")
    expect_close(r["loss"], ((torch.tanh(x @ w) + 1) ** 2).mean(), "fixed_tanh_loss(x, w) for x (1, 1), w (1, 3)",
                 atol=1e-12, rtol=1e-10)
    r = student.call("zoo_two_layer", x=x, w1=w1, w2=w2)
    expect(isinstance(r["loss"], torch.Tensor), f"fixed_two_layer_loss(x, w1, w2) for x (1, 1) returned "
                                                 f"{r['loss']}, expected a tensor")
    expect_close(r["loss"], ((torch.relu(x @ w1) @ w2) ** 2).mean(),
                 "fixed_two_layer_loss(x, w1, w2) for x (1, 1), w1 (1, 4), w2 (4, 2)", atol=1e-12, rtol=1e-10)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_add_positions_on_meta(student, gen, dtype):
    """fixed_add_positions keeps x's device and dtype (checked with meta tensors)"""
    shape = [int(torch.randint(1, 4, (1,), generator=gen)), int(torch.randint(2, 9, (1,), generator=gen)), 3]
    r = student.call("zoo_positions_meta", shape=shape, dtype=dtype)
    what = f"fixed_add_positions(x) for x = torch.empty({tuple(shape)}, device='meta', dtype=torch.{dtype})"
    expect(r["error"] is None, f"{what} raised {r['error']}")
    expect_equal((r["device"], r["dtype"], r["shape"]), ("meta", f"torch.{dtype}", shape),
                 f"{what}: (device, dtype, shape) of the result")


# k / seq written as k * (1.0 / seq) (a Python division) raises ZeroDivisionError for seq = 0, where
# torch.arange(0) / 0 is simply empty
def test_add_positions_empty_sequence(student, gen):
    """fixed_add_positions for an empty sequence (x of shape (batch, 0, dim)) returns the empty x + k / seq, of
    x's dtype and on x's device"""
    dtype = ["float16", "bfloat16", "float32", "float64"][int(torch.randint(0, 4, (1,), generator=gen))]
    shape = [int(torch.randint(1, 4, (1,), generator=gen)), 0, int(torch.randint(1, 5, (1,), generator=gen))]
    r = student.call("zoo_positions_meta", shape=shape, dtype=dtype)
    what = (f"fixed_add_positions(x) for x = torch.empty({tuple(shape)}, device='meta', dtype=torch.{dtype}) (a "
            f"sequence of length 0: no position k, so x + k / seq is x's empty shape)")
    expect(r["error"] is None, f"{what} raised {r['error']}")
    expect_equal((r["device"], r["dtype"], r["shape"]), ("meta", f"torch.{dtype}", shape),
                 f"{what}: (device, dtype, shape) of the result")


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_add_positions_values(student, gen, dtype):
    """fixed_add_positions adds k / seq to every feature of position k"""
    # not a power of two: k / seq rounded to float32 and widened differs from k / seq in float64 (a float32 arange
    # divided, then cast to x's dtype)
    seq = [3, 5, 6, 7, 9, 10, 11][int(torch.randint(0, 7, (1,), generator=gen))]
    x = torch.randn(2, 4, seq, generator=gen, dtype=dtype).transpose(1, 2)  # (2, seq, 4), non-contiguous
    r = student.call("zoo_positions_values", x=x)
    got = r["out"]
    want = x + (torch.arange(seq, dtype=torch.float64) / seq).to(dtype).view(seq, 1)
    expect(not r["x_changed"], f"fixed_add_positions(x) for a {dtype} x of shape (2, {seq}, 4) changed x itself "
                               f"(an in-place add); expected x left as it was (the result is x + k / seq, "
                               f"computed out of place)")
    expect(isinstance(got, torch.Tensor) and got.dtype == dtype,
           f"fixed_add_positions(x) for a {dtype} x should return a {dtype} tensor, got "
           f"{getattr(got, 'dtype', type(got).__name__)}")
    tol = 1e-12 if dtype == torch.float64 else 1e-6
    expect_close(got, want, f"fixed_add_positions(x) for x of shape (2, {seq}, 4)", atol=tol, rtol=tol)


# long: arange(0, 1, 1 / seq) (positions by a float step) has ceil(1 / (1 / seq)) elements, and 1 / (1 / seq) rounds
# above seq for seq = 49, 98, 103, 107, 196, 197, ...: seq + 1 positions, which do not broadcast against x
def test_add_positions_long_sequence(student, gen):
    """fixed_add_positions on longer sequences adds k / seq at each of the seq positions"""
    seq = [49, 98, 103, 107, 196, 197][int(torch.randint(0, 6, (1,), generator=gen))]
    dtype = [torch.float32, torch.float64][int(torch.randint(0, 2, (1,), generator=gen))]
    x = torch.randn(2, 3, seq, generator=gen, dtype=dtype).transpose(1, 2)  # (2, seq, 3), non-contiguous
    what = f"fixed_add_positions(x) for a {dtype} x of shape (2, {seq}, 3)"
    try:
        r = student.call("zoo_positions_values", x=x)
    except StudentError as e:  # the submission's own error (a broadcast of seq + 1 positions) is the finding
        fail(f"{what}: {e}; expected x + k / seq for k = 0 .. {seq - 1}, {seq} positions (the text: 'returns "
             f"x + k / seq at position k')")
    got = r["out"]
    want = x + (torch.arange(seq, dtype=torch.float64) / seq).to(dtype).view(seq, 1)
    expect(isinstance(got, torch.Tensor) and tuple(got.shape) == (2, seq, 3),
           f"{what} returned {getattr(got, 'shape', type(got).__name__)}, expected shape (2, {seq}, 3)")
    tol = 1e-12 if dtype == torch.float64 else 1e-6
    expect_close(got, want, what, atol=tol, rtol=tol)


def train_batches(gen, n):
    return [(torch.randn(5, 6, generator=gen), torch.randint(0, 3, (5,), generator=gen)) for _ in range(n)]


def judge_train(state, batches, lr, frozen=()):
    model = PROBES["zoo_model"](0)
    model.load_state_dict(state)
    for name, p in model.named_parameters():
        if name in frozen:
            p.requires_grad_(False)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for xb, yb in batches:
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, model.state_dict()


def test_train_matches_sgd(student, gen):
    """fixed_train takes one SGD step per batch on that batch's cross-entropy alone (stale .grad or not)"""
    state = PROBES["zoo_model"](int(torch.randint(0, 10_000, (1,), generator=gen))).state_dict()
    batches = train_batches(gen, 4)
    stale = [torch.randn(v.shape, generator=gen) for v in state.values()]  # weight, bias, weight, bias
    r = student.call("zoo_train", state=state, batches=batches, lr=0.5, stale=stale)
    want_losses, want_state = judge_train(state, batches, 0.5)
    for name, w in want_state.items():
        expect_close(r["state"][name], w, f"parameter '{name}' after fixed_train(model, 4 batches, lr=0.5) for a "
                     f"model whose .grad an earlier backward had already set (each step must use the gradient of "
                     f"its own batch alone)", atol=1e-6, rtol=1e-5)


# a "safety" clip_grad_norm_ (or any rescaling of the step) changes nothing on small random batches: here the first
# layer's weights are 1e-4 times the usual and the inputs 1e4 times, so the first batch's gradient norm is in the
# thousands while the forward pass is the usual one
def test_train_large_gradient_is_not_clipped(student, gen):
    """fixed_train takes the plain SGD step also on a batch whose gradient norm is in the thousands (no clipping
    or rescaling)"""
    state = {k: v.clone() for k, v in PROBES["zoo_model"](int(torch.randint(0, 10_000, (1,), generator=gen)))
             .state_dict().items()}
    state["0.weight"] *= 1e-4
    batches = [(x * 1e4, y) for x, y in train_batches(gen, 3)]
    r = student.call("zoo_train", state=state, batches=batches, lr=0.5)
    want_losses, want_state = judge_train(state, batches, 0.5)
    model = PROBES["zoo_model"](0)
    model.load_state_dict(state)
    F.cross_entropy(model(batches[0][0]), batches[0][1]).backward()
    norm = float(torch.cat([p.grad.reshape(-1) for p in model.parameters()]).norm())
    for name, w in want_state.items():
        expect_close(r["state"][name], w, f"parameter '{name}' after fixed_train(model, 3 batches, lr=0.5) where the "
                     f"first batch's gradient has norm {norm:.4g} (inputs of size ~1e4, first-layer weights ~1e-4): "
                     f"'one plain SGD step (torch.optim.SGD(model.parameters(), lr=lr)) per batch on the "
                     f"cross-entropy of that batch alone' takes the whole gradient, unclipped", atol=1e-6, rtol=1e-5)


# a step written by hand (p -= lr * p.grad for every parameter) is torch.optim.SGD's step, except that SGD skips a
# parameter whose .grad is None: a frozen layer's parameters (or any the forward pass does not use) get no gradient,
# and the hand-written step raises TypeError on them
def test_train_with_a_frozen_layer(student, gen):
    """fixed_train on a model whose first layer is frozen (requires_grad False: its parameters get no gradient) takes
    SGD's step, which leaves them alone and updates the others"""
    state = PROBES["zoo_model"](int(torch.randint(0, 10_000, (1,), generator=gen))).state_dict()
    batches = train_batches(gen, 3)
    frozen = ["0.weight", "0.bias"]
    what = ("fixed_train(model, 3 batches, lr=0.5) for a model whose first Linear is frozen "
            "(model[0].requires_grad_(False): after backward its parameters' .grad is None)")
    try:
        r = student.call("zoo_train", state=state, batches=batches, lr=0.5, frozen=frozen)
    except StudentError as e:  # the submission's own error (TypeError from p.grad None) is the finding
        fail(f"{what}: {e}; expected torch.optim.SGD's plain step, which skips a parameter whose .grad is None (the "
             f"text: 'runs one plain SGD step (torch.optim.SGD(model.parameters(), lr=lr)) per batch')")
    want_losses, want_state = judge_train(state, batches, 0.5, frozen)
    for name, w in want_state.items():
        expect_close(r["state"][name], w, f"parameter '{name}' after {what}", atol=1e-6, rtol=1e-5)
    expect_close(torch.tensor([v if v is not None else float("nan") for v in r["values"]], dtype=torch.float64),
                 torch.tensor(want_losses, dtype=torch.float64), f"the losses of {what}", atol=1e-6, rtol=1e-5)


def test_train_returns_float_losses(student, gen):
    """fixed_train returns the batch losses as a list of Python floats"""
    state = PROBES["zoo_model"](int(torch.randint(0, 10_000, (1,), generator=gen))).state_dict()
    batches = train_batches(gen, 3)
    r = student.call("zoo_train", state=state, batches=batches, lr=0.1)
    want_losses, _ = judge_train(state, batches, 0.1)
    expect(r["kind"] == "list", f"fixed_train returned a {r['kind']}, expected a list")
    expect(r["types"] == ["float"] * 3, f"fixed_train returned elements of types {r['types']}, expected 3 Python "
                                        f"floats (loss.item())")
    expect_close(torch.tensor(r["values"], dtype=torch.float64), torch.tensor(want_losses, dtype=torch.float64),
                 "the losses fixed_train returned", atol=1e-6, rtol=1e-5)


PREDICT_MODULES = ["", "bn", "drop", "lin", "out"]  # sorted names of PredictNet().named_modules(), the judge's own list


def judge_predict(state, x):
    torch.manual_seed(1234)
    model = PROBES["PredictNet"]()
    model.load_state_dict(state)
    model.eval()
    with torch.no_grad():
        return F.softmax(model(x), dim=1), model.bn.running_mean.clone()


def judge_logits(state, x):
    torch.manual_seed(1234)
    model = PROBES["PredictNet"]()
    model.load_state_dict(state)
    with torch.no_grad():
        return model.eval()(x)


def predict_state(gen):
    torch.manual_seed(int(torch.randint(0, 10_000, (1,), generator=gen)))
    m = PROBES["PredictNet"]()
    with torch.no_grad():  # non-trivial running statistics, so eval and train modes differ
        m.bn.running_mean.normal_()
        m.bn.running_var.uniform_(0.5, 2.0)
    return m.state_dict()


# from_eval: logits in the hundreds (the output layer's weights scaled up and its bias shifted). A softmax written out as
# exp(z) / exp(z).sum(1) overflows float32's exp above about 88 and gives inf / inf = NaN; F.softmax subtracts the
# row's maximum first. (from_train keeps the usual logits, so that dropout left on still shows in the probabilities.)
@pytest.mark.parametrize("start_training", [True, False], ids=["from_train", "from_eval"])
def test_predict_in_eval_mode(student, gen, start_training):
    """fixed_predict_proba gives evaluation-mode softmax probabilities without a graph and leaves BN statistics alone
    (finite probabilities for logits in the hundreds too)"""
    state = predict_state(gen)
    x = torch.randn(7, 6, generator=gen)
    if not start_training:  # a spread of tens to hundreds, and every row's largest logit above 100
        state["out.weight"] = state["out.weight"] * (20 + 20 * torch.rand((), generator=gen))
        state["out.bias"] = state["out.bias"] + (150 + 150 * torch.rand((), generator=gen))
        low = float(judge_logits(state, x).max(dim=1).values.min())
        if low < 100:
            state["out.bias"] = state["out.bias"] + (100 - low)
        assert float(judge_logits(state, x).max(dim=1).values.min()) > 90, "judge: exp of every row's top logit overflows"
    r = student.call("zoo_predict", state=state, x=x, start_training=start_training)
    want, running = judge_predict(state, x)
    expect(r["error"] is None, str(r["error"]))
    mode = "a model in training mode" if start_training else \
        (f"a model in eval mode whose logits reach {float(judge_logits(state, x).abs().max()):.4g} in size (float32: "
         f"exp of such logits overflows, so subtract the row's maximum first, as F.softmax does)")
    expect_close(r["p1"], want, f"fixed_predict_proba(model, x) for {mode} (dropout and batch norm in eval mode)",
                 atol=1e-6, rtol=1e-5)
    expect_close(r["p2"], want, f"a second fixed_predict_proba(model, x) for {mode}", atol=1e-6, rtol=1e-5)
    expect(not r["requires_grad"], "fixed_predict_proba(model, x) returned a tensor that requires grad: no graph "
                                   "should be built (torch.no_grad)")
    expect_close(r["running_mean"], running, "the batch-norm running mean after fixed_predict_proba (it must not "
                 "be updated)", atol=0, rtol=0)


# detaching the probabilities after a forward pass that autograd recorded; or set_grad_enabled(False) ...
# set_grad_enabled(True), which turns recording on inside a caller's no_grad block
def test_predict_builds_no_graph_and_keeps_grad_mode(student, gen):
    """fixed_predict_proba runs the forward pass itself with autograd off (not a detach afterwards) and leaves
    the caller's grad mode as it was"""
    state = predict_state(gen)
    x = torch.randn(5, 6, generator=gen)
    r = student.call("zoo_predict", state=state, x=x, start_training=True)
    expect(r["error"] is None, str(r["error"]))
    expect(not r["graph_built"], "fixed_predict_proba(model, x) for a model in training mode: autograd was recording "
                                 "while model(x) ran (grad mode on, the model's output required grad): the clause "
                                 "'computed ... without building a graph' asks for the forward pass under "
                                 "torch.no_grad(), not a .detach() of its result")
    expect(not r["grad_mode_after_no_grad_call"],
           "fixed_predict_proba(model, x) called inside the caller's `with torch.no_grad():` block: afterwards "
           "torch.is_grad_enabled() is True in that block, expected False (as the caller set it). Use a "
           "`with torch.no_grad():` block, which restores the mode it found, not set_grad_enabled(True)")


@pytest.mark.parametrize("start_training", [True, False], ids=["from_train", "from_eval"])
def test_predict_restores_mode(student, gen, start_training):
    """fixed_predict_proba leaves every module in the mode it was in (a training model with a frozen batch norm,
    an eval model with dropout on)"""
    state = predict_state(gen)
    x = torch.randn(4, 6, generator=gen)
    r = student.call("zoo_predict", state=state, x=x, start_training=start_training)
    expect(r["error"] is None, str(r["error"]))
    want, _ = judge_predict(state, x)
    expect_close(r["p1"], want, "fixed_predict_proba(model, x)", atol=1e-6, rtol=1e-5)
    expect(len(r["children_training"]) == len(PREDICT_MODULES) - 1 and r["training_after"] == start_training
           and all(t == start_training for t in r["children_training"]),
           f"after fixed_predict_proba the model's training flag is {r['training_after']} (children "
           f"{r['children_training']}); it was {start_training} before")
    # mixed modes: fine-tuning keeps a batch norm in eval mode inside a training model (MC dropout the reverse)
    flip, what = ("bn", "a training model whose batch norm is frozen in eval mode") if start_training else \
        ("drop", "an eval model whose dropout is left in training mode")
    r = student.call("zoo_predict", state=state, x=x, start_training=start_training, flip=flip)
    expect(r["error"] is None, str(r["error"]))
    expect_close(r["p1"], want, f"fixed_predict_proba(model, x) for {what} (every module in eval mode)",
                 atol=1e-6, rtol=1e-5)
    expect(sorted(r["modes"]) == PREDICT_MODULES, f"after fixed_predict_proba on {what}, the probe reported the "
                                                   f"modes of {sorted(r['modes'])}, expected {PREDICT_MODULES}")
    before = {n: (n == flip) != start_training for n in PREDICT_MODULES}
    changed = sorted(n or "(the model itself)" for n, t in r["modes"].items() if t != before[n])
    expect(not changed, f"after fixed_predict_proba on {what}, these modules changed mode: {changed}; put each "
                        f"module back in its own mode (model.train(was) sets every submodule to the model's mode)")


# restoring the modes after the forward pass without try/finally: a model(x) that raises (a batch of the wrong
# width) leaves the model in evaluation mode, and the caller's training loop then trains without dropout
def test_predict_restores_mode_when_model_raises(student, gen):
    """fixed_predict_proba leaves every module in the mode it was in also when model(x) raises"""
    state = predict_state(gen)
    width = int(torch.randint(2, 6, (), generator=gen))  # PredictNet takes 6 features
    # last, a forward pass interrupted by Ctrl-C: a KeyboardInterrupt is no Exception, so modes put back in
    # `except Exception:` (not in finally:) stay as eval() left them
    for start_training, flip, interrupt in [(True, None, False), (False, None, False), (True, "bn", False),
                                            (True, "bn", True)]:
        r = student.call("zoo_predict_error", state=state, width=6 if interrupt else width,
                         start_training=start_training, flip=flip, interrupt=interrupt)
        what = (f"fixed_predict_proba(model, x) for a model in {'training' if start_training else 'eval'} mode"
                f"{' whose batch norm is frozen in eval mode' if flip else ''} and " +
                ("an x of shape (3, 6) (model(x) raises KeyboardInterrupt after its first layer: Ctrl-C)" if interrupt
                 else f"an x of shape (3, {width}) (the model takes 6 features: model(x) raises)"))
        if interrupt:
            expect(r["error"]["type"] == "KeyboardInterrupt",
                   f"{what}: expected the KeyboardInterrupt to propagate, got {r['error']['type'] or 'nothing'}")
        expect(sorted(r["modes"]) == PREDICT_MODULES, f"after {what}, the probe reported the modes of "
                                                       f"{sorted(r['modes'])}, expected {PREDICT_MODULES}")
        before = {n: (n == flip) != start_training for n in PREDICT_MODULES}
        changed = sorted(n or "(the model itself)" for n, t in r["modes"].items() if t != before[n])
        expect(not changed, f"after {what}, these modules changed mode: {changed}; the clause 'leaves every module "
                            f"of the model in the mode it was in, also when model(x) raises' asks for the modes to "
                            f"be put back in a finally block (it raised {r['error']['type'] or 'nothing'})"
                            + ("; `except Exception:` misses a KeyboardInterrupt" if interrupt else ""))
        expect(r["grad_mode"], f"after {what}, torch.is_grad_enabled() is False: grad mode was on before the call")


@pytest.mark.parametrize("start_training", [True, False], ids=["from_train", "from_eval"])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=model_specs(norm=True, dropout=True), seed=st.integers(0, 2**31 - 1))
# a module two levels down (a block, or a layer inside one) in the other mode: remembering the modes of the model and
# its direct children only, and putting each child back with child.train(mode), which recurses, resets it
def test_predict_nested_model(student, spec, start_training, seed):
    """fixed_predict_proba on any model: dropout and batch norm nested inside blocks are in evaluation mode
    too, and every module is left in the mode it was in (one nested module in the other mode)"""
    x = torch.randn(5, spec["in"], generator=torch.Generator().manual_seed(seed))
    model = build_model(spec).eval()
    with torch.no_grad():
        want = F.softmax(model(x), dim=1)
    buffers = {n: b.clone() for n, b in model.named_buffers()}
    nested = [n for n, _ in model.named_modules() if "." in n]
    flip = nested[seed % len(nested)]
    r = student.call("zoo_predict_spec", spec=spec, x=x, start_training=start_training, flip=flip)
    expect(r["error"] is None, str(r["error"]))
    mode = "training" if start_training else "evaluation"
    other = "evaluation" if start_training else "training"
    what = (f"fixed_predict_proba(model, x) for a model in {mode} mode whose Dropout and BatchNorm1d layers sit "
            f"two levels down (model.body[i][j], hidden widths {spec['hidden']}), with model.{flip} (and what it "
            f"holds) in {other} mode")
    expect_close(r["p1"], want, f"{what} (every dropout and batch norm in eval mode)", atol=1e-6, rtol=1e-5)
    expect_close(r["p2"], want, f"a second {what}", atol=1e-6, rtol=1e-5)
    before = {n: start_training != (n == flip or n.startswith(flip + ".")) for n, _ in model.named_modules()}
    expect(sorted(r["modes"]) == sorted(before), f"after {what}, the model's modules are {sorted(r['modes'])}, "
                                                 f"expected {sorted(before)}")
    wrong = sorted(n or "(the model itself)" for n, t in r["modes"].items() if t != before[n])
    expect(not wrong, f"after {what}, these modules changed mode: {wrong} (put each module back in its own mode: "
                      f"child.train(mode) sets everything below the child to that mode too)")
    for n, b in buffers.items():
        expect_equal(r["buffers"][n], b, f"buffer {n!r} after {what} (it must not be updated)")


# float64: F.softmax(..., dtype=torch.float32) (or a .float() "for precision") gives a float64 model float32
# probabilities; the broken version's F.softmax(model(x), dim=1) keeps model(x)'s dtype
def test_predict_softmax_over_classes(student, gen):
    """fixed_predict_proba takes the softmax over dimension 1, the classes (as the broken version does), also for
    (N, classes, L) outputs, in model(x)'s dtype (float32 and float64 models)"""
    torch.manual_seed(int(torch.randint(0, 10_000, (1,), generator=gen)))
    model = PROBES["PerPositionNet"]().eval()
    x = torch.randn(2, 3, 5, generator=gen)
    for dtype in (torch.float32, torch.float64):
        model, x = model.to(dtype), x.to(dtype)
        with torch.no_grad():
            want = F.softmax(model(x), dim=1)
        r = student.call("zoo_predict_per_position", state=model.state_dict(), x=x)
        expect(isinstance(r["p"], torch.Tensor), f"fixed_predict_proba(model, x) returned {r['p']}, expected a tensor")
        tol = 1e-6 if dtype == torch.float32 else 1e-12
        expect_close(r["p"], want, f"fixed_predict_proba(model, x) for a {dtype} per-position classifier with outputs "
                     f"of shape (2, 4 classes, 5 positions): probabilities over dim 1, the classes, in model(x)'s "
                     f"dtype (as F.softmax(model(x), dim=1) in the broken version)", atol=tol, rtol=tol,
                     check_dtype=True)
