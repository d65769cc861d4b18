"""Hidden checks of QATLinear (exercise 5): its forward and gradients against the judge's own computation with
PyTorch's observers and torch.fake_quantize_per_tensor_affine, and a training run the judge repeats in float."""
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.ao.quantization import observer as tob

from course.judge.expect import expect, expect_close, expect_equal
from course.student.data import SyntheticImages

pytestmark = pytest.mark.task("qat")
TOL = {"atol": 1e-5, "rtol": 1e-5}


def reference(weight, bias, xs, modes, g, weights=None):
    """The text's QATLinear with PyTorch's observers and fake quantize: outputs, and the last call's gradients;
    with weights, call i uses weights[i]."""
    act = tob.MovingAverageMinMaxObserver(averaging_constant=0.01, dtype=torch.quint8)
    outs = []
    b = None if bias is None else bias.clone().requires_grad_(True)
    grads = None
    for i, (x, mode) in enumerate(zip(xs, modes)):
        w = (weight if weights is None else weights[i]).clone().requires_grad_(True)
        x = x.clone().requires_grad_(i == len(xs) - 1)
        if mode == "train":
            act(x)
        s, z = act.calculate_qparams()
        wobs = tob.MinMaxObserver(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)
        wobs(w)
        sw, _ = wobs.calculate_qparams()
        out = F.linear(torch.fake_quantize_per_tensor_affine(x, float(s), int(z), 0, 255),
                       torch.fake_quantize_per_tensor_affine(w, float(sw), 0, -128, 127), b)
        outs.append(out.detach())
        if i == len(xs) - 1:
            grads = torch.autograd.grad(out, [x, w] + ([b] if b is not None else []), g)
    return outs, grads


def run(student, gen, shape, bias, modes, what, shrink=False, lead=(5,), inputs=None, zero_last=True):
    """lead: the leading dimensions of every input, (..., K) as F.linear takes them; inputs: (weight, bias, xs, g)
    built by the caller instead of drawn here."""
    m, k = shape
    lead = tuple(lead)
    if inputs is None:
        weight = torch.randn(m, k, generator=gen) * 0.3
        b = torch.randn(m, generator=gen) if bias else None
        xs = [torch.randn(lead + (k,), generator=gen) * (1 + 2 * i) + i for i in range(len(modes))]
        g = torch.randn(lead + (m,), generator=gen)
    else:
        weight, b, xs, g = inputs
    # shrink: the weight's range narrows from call to call, as training changes it (s_w from the current weight)
    weights = [weight / (1 + i) for i in range(len(modes))] if shrink else None
    if shrink and zero_last:  # and at last all zero: the weight's scale is eps (the observer's floor), not 0
        weights[-1] = torch.zeros_like(weight)
    res = student.call("qat_forward", weight=weight, bias=b, xs=xs, modes=modes, g=g, weights=weights)
    outs, grads = reference(weight, b, xs, modes, g, weights)
    expect(isinstance(res.get("outs"), (list, tuple)) and len(res["outs"]) == len(modes),
           f"{what}: the probe's reply has {len(res['outs']) if isinstance(res.get('outs'), (list, tuple)) else 'no'} outputs, "
           f"expected one per call ({len(modes)})")
    for i, (got, want, mode) in enumerate(zip(res["outs"], outs, modes)):
        expect(isinstance(got, torch.Tensor) and tuple(got.shape) == tuple(want.shape),
               f"{what}: the output for input {i} of shape {lead + (k,)} ({mode} mode) has shape "
               f"{tuple(got.shape) if isinstance(got, torch.Tensor) else got}, expected {tuple(want.shape)} "
               f"(F.linear's: the input's leading dimensions kept)")
        expect_close(got, want, f"{what}: the output for input {i} ({mode} mode; inputs of growing range, "
                     f"so the observer's moving average matters)", **TOL)
    return res, grads


@pytest.mark.parametrize("shape,bias", [((3, 6), True), ((4, 1), False)], ids=["bias", "no-bias"])
def test_training_forward(student, gen, shape, bias):
    """in training mode each call updates the observer and fake-quantizes input (uint8) and the current weight (int8,
    symmetric, its scale from that weight alone, an all-zero weight's floored at eps)"""
    m, k = shape
    what = (f"QATLinear({k}, {m}, bias={bias}) called on five inputs (5, {k}) in training mode, its weight halved, "
            f"then a third, then a quarter of the first between calls (s_w from the current weight), then all zero "
            f"(s_w is the observer's eps floor, not 0)")
    res, _ = run(student, gen, shape, bias, ["train"] * 5, what, shrink=True)
    expect(res["is_linear"], f"QATLinear({k}, {m}) is not a subclass of nn.Linear")
    expect_equal(res["params"], ["bias", "weight"] if bias else ["weight"], f"the parameters of QATLinear({k}, {m}, "
                 f"bias={bias})")
    expect(res["observer_is_student"], f"QATLinear's act_observer is a {res['observer']}, not your RangeObserver")


def test_eval_freezes_observer(student, gen):
    """in eval mode the observer is left as it is and its range is used, the range it has now (after more training
    too), while the weight's scale is still taken from the current weight at every call; inputs (2, 3, K) keep their
    leading dimensions"""
    what = ("QATLinear(6, 3) called on inputs (2, 3, 6): two in training mode, two wider ones in eval mode, one more "
            "in training mode and one in eval mode again (the range after that training call), its weight divided by "
            "2, 3, 4, 5, 6 before the calls after the first (s_w from the current weight, in eval mode too)")
    run(student, gen, (3, 6), True, ["train", "train", "eval", "eval", "train", "eval"], what, lead=(2, 3),
        shrink=True, zero_last=False)


def half_level_weight(gen, m, k):
    """A weight (m, k) whose largest element is positive and the largest in magnitude, nudged by an ulp at a time
    until PyTorch's symmetric int8 fake quantize puts it on round(127.5) = 128 (halves to even: the scale is
    amax / 127.5), clamped to 127, so that its straight-through gradient is zero; its smallest element is the
    negative of it, on round(-127.5) = -128, the lowest level, kept (its gradient passes)."""
    w = torch.randn(m, k, generator=gen) * 0.3
    flat = w.view(-1)
    i = int(flat.abs().argmax())
    j = int(flat.argmin()) if int(flat.argmin()) != i else int(flat.argmax())
    flat[i] = flat[i].abs() + 0.05
    for _ in range(200):
        flat[j] = -flat[i]
        obs = tob.MinMaxObserver(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)
        obs(w)
        sw, _ = obs.calculate_qparams()
        wr = w.clone().requires_grad_(True)
        torch.fake_quantize_per_tensor_affine(wr, float(sw), 0, -128, 127).sum().backward()
        if wr.grad.view(-1)[i] == 0:
            break
        flat[i] = torch.nextafter(flat[i], torch.tensor(float("inf")))
    return w


def edge_inputs(gen, mode, m, k, lead):
    """Three inputs for QATLinear(k, m): the last one holds 0, values on the grid's ends (levels 0 and 255) and
    0.48 and 0.52 of a step either side of each (kept and clamped, by the qparams it is quantized with), besides
    draws. In training mode all three are positive (as after a ReLU: the grid then starts at 0, below the observed
    minimum, and the last input holds values between the two); in eval mode they have both signs."""
    weight = half_level_weight(gen, m, k)
    b = torch.randn(m, generator=gen)
    pos = mode == "train"
    xs = [torch.randn(lead + (k,), generator=gen) * (1 + 2 * i) + i for i in range(2)]
    if pos:
        xs = [x.abs() + 0.5 for x in xs]
    act = tob.MovingAverageMinMaxObserver(averaging_constant=0.01, dtype=torch.quint8)
    for x in xs:
        act(x)
    lo, hi = float(act.min_val), float(act.max_val)
    span = hi - lo
    top = hi + span  # the last input's largest value, past the grid's end
    bottom = 0.0 if pos else lo - span
    if pos:  # watching the last input moves the range (its extremes are 0 and top) before it is quantized
        act(torch.tensor([bottom, top]))
    s, z = act.calculate_qparams()
    s, z = float(s), int(z)
    ends = [255 - z + d for d in (0.0, 0.48, 0.52, -0.48)]  # level 0 is x = 0 when all inputs are positive
    ends += [] if pos else [-z + d for d in (0.0, -0.48, -0.52, 0.48)]
    edges = [bottom, top, 0.0] + ([lo / 2, lo * 0.9] if pos else []) + (torch.tensor(ends, dtype=torch.float64) * s).tolist()
    n = int(torch.Size(lead + (k,)).numel())
    fill = torch.rand(n, generator=gen, dtype=torch.float64) * (hi + 0.2 * span - lo) + lo
    fill[:len(edges)] = torch.tensor(edges, dtype=torch.float64)
    last = fill[torch.randperm(n, generator=gen)].to(torch.float32).reshape(lead + (k,))
    return weight, b, xs + [last], torch.randn(lead + (m,), generator=gen)


@pytest.mark.parametrize("mode", ["train", "eval"])
def test_gradients(student, gen, mode):
    """gradients reach x, weight and bias through the straight-through estimator, as PyTorch's fake quantize gives
    (inputs (5, 12), or single vectors (12,)), on inputs that hold 0, the grid's ends and values half a step either
    side of them, after all-positive inputs in training mode (the grid starts at 0, below the observed minimum)
    and inputs of both signs in eval mode, with a weight whose largest element lands on the clamped half level 127.5
    and whose smallest on -127.5 (level -128, kept)"""
    lead = (5,) if mode == "train" else ()  # in eval mode, inputs of one vector (12,) each
    signs = "all-positive" if mode == "train" else "both-signed"
    what = (f"QATLinear(12, 3) after two training calls on {signs} inputs, then one in {mode} mode, on an input "
            f"{lead + (12,)} holding 0, the grid's ends (levels 0 and 255) and values 0.48 and 0.52 of a step "
            f"either side of them, its weight's largest element positive and on the half level 127.5 (clamped to "
            f"127), its smallest on -127.5 (level -128, kept)")
    inputs = edge_inputs(gen, mode, 3, 12, lead)
    res, grads = run(student, gen, (3, 12), True, ["train", "train", mode], what, lead=lead, inputs=inputs)
    got = res.get("grads")
    expect(isinstance(got, list) and len(got) == 3, f"{what}: the output has no autograd graph")
    for name, gr, want in zip(["x", "weight", "bias"], got, grads):
        expect(isinstance(gr, torch.Tensor), f"{what}: no gradient reached {name}")
        expect_close(gr, want, f"{what}: the gradient of <g, output> with respect to {name} (clause: gradients "
                     f"reach x, the weight and the bias through the straight-through estimator: zero exactly where "
                     f"the input's or the weight's level was clamped)", **TOL)


def test_uses_own_fake_quantize(student, gen):
    """built on the notebook's fake_quantize and RangeObserver: no fake-quantize op of PyTorch runs in forward, and
    none of PyTorch's observers (training and eval mode)"""
    res = student.call("qat_ops", x=torch.randn(4, 5, generator=gen))
    used = [op for op in res["ops"] if "fake_quant" in op or "quantize_per" in op]
    expect(not used, f"QATLinear's forward ran PyTorch's fake quantization ({', '.join(used)}): use your fake_quantize")
    expect(not res["observers"], f"QATLinear(5, 3)'s forward on x (4, 5), in training and in eval mode, called "
           f"PyTorch's observers ({', '.join(res['observers'])}); the text: \"Build it on your RangeObserver and "
           f"fake_quantize\", s_w from \"a fresh RangeObserver(torch.int8, symmetric=True)\"")


def test_on_another_device(student, gen):
    """on inputs and parameters on another device (meta, the grader's GPU stand-in) the outputs of both modes and the
    weight's gradient are there"""
    shape = [int(torch.randint(1, 5, (), generator=gen)), int(torch.randint(2, 7, (), generator=gen))]
    for bias in (True, False):
        res = student.call("qat_on_meta", shape=shape, bias=bias)
        what = (f"QATLinear({shape[1]}, 3, bias={bias}) built on the device of x {shape}, one call in training mode, "
                f"one in eval mode and a backward, on the meta device (or, where the code reads values, on the CPU "
                f"with meta as the default device)")
        expect("error" not in res, f"{what} (the grader's stand-in for a GPU: a tensor made without device= lands "
               f"elsewhere than x and the weight) raised {res.get('error')}: the text's \"Every tensor it creates is "
               f"on x's device\"")
        want = [shape[:1] + [3], shape[:1] + [3], [3, shape[1]]]
        expect(res["devices"] == ["meta"] * 3 and res["shapes"] == want,
               f"{what}: expected the two outputs and the weight's gradient of shapes {want} on x's device, got "
               f"shapes {res['shapes']} on {res['devices']}")


def data(n, train, seed):
    ds = SyntheticImages("fashionmnist", train=train, size=n, seed=seed)
    xs, ys = zip(*(ds[i] for i in range(n)))
    return torch.stack(xs).reshape(n, -1), torch.tensor(ys)


def eval_logits(params, ranges, x):
    """The trained QAT model in eval mode, by the text, from its parameters and its observers' frozen ranges:
    PyTorch's observers give the parameters and torch.fake_quantize_per_tensor_affine quantizes."""
    w1, b1, w2, b2 = params
    for (lo, hi), w, b in zip(ranges, (w1, w2), (b1, b2)):
        act = tob.MovingAverageMinMaxObserver(averaging_constant=0.01, dtype=torch.quint8)
        act.min_val, act.max_val = lo.reshape(()), hi.reshape(())
        s, z = act.calculate_qparams()
        wobs = tob.MinMaxObserver(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)
        wobs(w)
        sw, _ = wobs.calculate_qparams()
        x = F.linear(torch.fake_quantize_per_tensor_affine(x, float(s), int(z), 0, 255),
                     torch.fake_quantize_per_tensor_affine(w, float(sw), 0, -128, 127), b)
        if w is w1:
            x = F.relu(x)
    return x


def test_training_run_close_to_float(student, gen):
    """the judge trains the float model and the QAT model from the same start: QAT test accuracy within 5 points;
    after training the first layer's observer holds the moving average of every training batch's range, and the
    eval-mode outputs are the fake-quantized model's with the observers' frozen ranges"""
    seed = int(torch.randint(0, 2**31 - 1, (), generator=gen))
    X, y = data(512, True, seed % 1000)
    Xt, yt = data(256, False, seed % 1000)
    torch.manual_seed(seed)
    float_model = nn.Sequential(nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))
    init = [p.detach().clone() for p in float_model.parameters()]
    steps, lr, batch = 60, 0.05, 32
    opt = torch.optim.SGD(float_model.parameters(), lr=lr, momentum=0.9)
    g = torch.Generator().manual_seed(seed)
    act = tob.MovingAverageMinMaxObserver(averaging_constant=0.01, dtype=torch.quint8)  # what layer 1's sees
    for _ in range(steps):
        idx = torch.randint(0, X.shape[0], (batch,), generator=g)
        act(X[idx])
        loss = F.cross_entropy(float_model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        float_acc = (float_model(Xt).argmax(1) == yt).float().mean().item()
    expect(float_acc > 0.5, f"the float model reached only {float_acc:.1%} (a grading error: the stand-in data should "
           f"be easy)")
    res = student.call("qat_train", init=init, X=X, y=y, Xt=Xt, steps=steps, lr=lr, batch=batch, seed=seed)
    logits = res["logits"]
    expect(isinstance(logits, torch.Tensor) and logits.shape == (yt.shape[0], 10), f"the QAT model's outputs: {logits}")
    qat_acc = (logits.argmax(1) == yt).float().mean().item()
    expect(qat_acc >= float_acc - 0.05, f"nn.Sequential(QATLinear(784, 64), nn.ReLU(), QATLinear(64, 10)) trained "
           f"{steps} SGD steps (batch {batch}, lr {lr}, momentum 0.9) on the stand-in FashionMNIST reached {qat_acc:.1%} "
           f"test accuracy in eval mode; the same model of nn.Linear from the same start reached {float_acc:.1%} "
           f"(at most 5 points less allowed)")
    what = f"after {steps} training steps of nn.Sequential(QATLinear(784, 64), nn.ReLU(), QATLinear(64, 10))"
    ranges = res["ranges"]
    expect(len(ranges) == 2 and all(isinstance(r, (list, tuple)) and len(r) == 2 for r in ranges) and len(res["params"]) == 4,
           f"{what}: the probe's reply has {len(ranges)} observer ranges and {len(res['params'])} parameters, "
           f"expected 2 and 4 (two layers)")
    lo, hi = ranges[0]
    expect(isinstance(lo, torch.Tensor) and isinstance(hi, torch.Tensor), f"{what}: the first layer's act_observer "
           f"has no min_val / max_val tensors ({lo}, {hi})")
    expect_close(torch.stack([lo.reshape(()), hi.reshape(())]), torch.stack([act.min_val, act.max_val]),
                 f"{what}: the first layer's act_observer range (min_val, max_val), against a moving average "
                 f"(c = 0.01) of the {steps} training batches' extremes (each training-mode forward watches its input)",
                 **TOL)
    expect(all(isinstance(t, torch.Tensor) for r in ranges for t in r), f"{what}: an act_observer without min_val / "
           f"max_val tensors")
    want = eval_logits(res["params"], ranges, Xt)
    close = torch.isclose(logits, want, rtol=1e-4, atol=1e-4).all(dim=1)
    expect(float(close.float().mean()) >= 0.95, f"{what}: the eval-mode outputs on {Xt.shape[0]} test images: only "
           f"{int(close.sum())} rows equal F.linear of the fake-quantized input and weight of each layer, with the "
           f"scale and zero point of its observer's frozen range (the model's own trained parameters)")
