"""Probes for 16-05: run next to the submission, return plain data only (nothing is compared here)."""
import contextlib

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._device import _device_constructors
from torch.utils._python_dispatch import TorchDispatchMode

from course.judge.probelib import capture_error, get, off_default_device, relative_device, relayout
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


# A custom op registered by the submission (torch.library) reaches the log as one op: what its kernel runs is inside
# the mode's own handling, out of every log (red team 21). Such an op is named with its namespace ("ns::name").
_PYTORCH_NAMESPACES = frozenset({"aten", "prims"})


class _OpLog(TorchDispatchMode):
    """Every aten op that runs: its name (an op of another registry as "ns::name"), the dtypes of its tensor inputs
    and of its first output."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        first = out[0] if isinstance(out, (list, tuple)) and out else out
        ins = [str(a.dtype) for a in args if isinstance(a, torch.Tensor)]
        name, ns = str(func.overloadpacket.__name__), getattr(func, "namespace", "aten")
        self.ops.append([name if ns in _PYTORCH_NAMESPACES else f"{ns}::{name}", ins,
                         str(first.dtype) if isinstance(first, torch.Tensor) else ""])
        return out


def _tensor(x):
    return x.detach().clone() if isinstance(x, torch.Tensor) else f"<{type(x).__name__}>"


def _meta_result(fn, tensors):
    """fn(*tensors) with the inputs off the default device (probelib.off_default_device: on the meta device, or, where
    fn needs values, on the CPU with meta as the default device). Each output's device relative to the inputs
    ("meta" when it is theirs), shape and dtype, or the error."""
    try:
        out, home = off_default_device(fn, tensors)
    except Exception as e:  # noqa: BLE001 - reported to the judge as data
        return {"error": f"{type(e).__name__}: {str(e)[:200]}"}
    outs = out if isinstance(out, (tuple, list)) else [out]
    return {"devices": [relative_device(t, home) if isinstance(t, torch.Tensor) else type(t).__name__ for t in outs],
            "shapes": [list(t.shape) if isinstance(t, torch.Tensor) else None for t in outs],
            "dtypes": [str(t.dtype) if isinstance(t, torch.Tensor) else None for t in outs]}


# ------------------------------------------------------------------ exercise 1: quantize / dequantize
def quant(ns, x, scale, zero_point, dtype, axis=None, layout="contiguous"):
    """quantize(x, ...) on x in the given memory layout; the op names that ran; whether x was left as it was."""
    x = relayout(x, layout)
    before = x.clone()
    params = [(t, t.clone()) for t in (scale, zero_point) if isinstance(t, torch.Tensor)]
    with _OpLog() as log:
        out = get(ns, "quantize")(x, scale, zero_point, getattr(torch, dtype), axis=axis) if axis is not None \
            else get(ns, "quantize")(x, scale, zero_point, getattr(torch, dtype))
    return {"out": _tensor(out), "ops": sorted({o[0] for o in log.ops}), "unchanged": bool(torch.equal(x, before)),
            "params_unchanged": all(t.dtype == b.dtype and torch.equal(t, b) for t, b in params)}


def dequant(ns, q, scale, zero_point, axis=None, layout="contiguous"):
    q = relayout(q, layout)
    before = q.clone()
    params = [(t, t.clone()) for t in (scale, zero_point) if isinstance(t, torch.Tensor)]
    with _OpLog() as log:
        out = get(ns, "dequantize")(q, scale, zero_point, axis=axis) if axis is not None \
            else get(ns, "dequantize")(q, scale, zero_point)
    return {"out": _tensor(out), "ops": sorted({o[0] for o in log.ops}), "unchanged": bool(torch.equal(q, before)),
            "params_unchanged": all(t.dtype == b.dtype and torch.equal(t, b) for t, b in params)}


def quant_on_meta(ns, shape, dtype, axis=None):
    """quantize then dequantize with x (and per channel the scale and zero point) off the default device."""
    qd = getattr(torch, dtype)
    gen = torch.Generator().manual_seed(len(shape))  # values only matter where the code reads them
    if axis is None:
        def go(x):
            q = get(ns, "quantize")(x, 0.1, 3, qd)
            return q, get(ns, "dequantize")(q, 0.1, 3)
        return _meta_result(go, (torch.randn(shape, generator=gen),))

    def go_channel(x, scale, zp):
        q = get(ns, "quantize")(x, scale, zp, qd, axis=axis)
        return q, get(ns, "dequantize")(q, scale, zp, axis=axis)
    c = shape[axis]
    return _meta_result(go_channel, (torch.randn(shape, generator=gen), torch.rand(c, generator=gen) * 0.1 + 0.01,
                                     torch.randint(0, 5, (c,), generator=gen)))


# ------------------------------------------------------------------ exercise 2: RangeObserver
_OBSERVER_ARGS = ("dtype", "symmetric", "ch_axis", "averaging_constant")  # the text's order of RangeObserver's arguments


def observe(ns, cfg, xs, grad=False, qparams_each=False, layouts=None, eval_mode=False, positional=False):
    """A RangeObserver(**cfg) fed the tensors xs in turn: what forward returned, min/max after each, the qparams.
    With qparams_each, calculate_qparams() is also called after each tensor (as QATLinear does on every call); with
    layouts, tensor i is given in the memory layout layouts[i % len(layouts)] (probelib.relayout); with eval_mode
    the observer is put in eval mode (.eval()) before the first tensor; with positional the arguments are passed by
    position in the text's order (dtype, symmetric, ch_axis, averaging_constant), those before the last one given
    filled with the text's defaults. An argument missing from cfg is left to the constructor's default."""
    cfg = dict(cfg)
    if "dtype" in cfg:
        cfg["dtype"] = getattr(torch, cfg["dtype"])
    if positional:
        defaults = {"dtype": torch.uint8, "symmetric": False, "ch_axis": None, "averaging_constant": None}
        n = max(_OBSERVER_ARGS.index(k) for k in cfg) + 1 if cfg else 0
        obs = get(ns, "RangeObserver")(*[cfg.get(k, defaults[k]) for k in _OBSERVER_ARGS[:n]])
    else:
        obs = get(ns, "RangeObserver")(**cfg)
    if eval_mode:
        obs.eval()
    same, graph, mins, maxs = [], [], [], []
    for i, x in enumerate(xs):
        x = relayout(x, layouts[i % len(layouts)]) if layouts else x.clone()
        x.requires_grad_(grad)
        out = obs(x)
        same.append(out is x)
        if qparams_each:
            obs.calculate_qparams()
        try:  # before a first non-empty tensor the text leaves the range open: reading it may raise
            mn, mx = getattr(obs, "min_val", None), getattr(obs, "max_val", None)
        except Exception:  # noqa: BLE001 - an unobserved range; the judge skips such steps
            mn = mx = None
        graph.append(any(isinstance(t, torch.Tensor) and (t.requires_grad or t.grad_fn is not None) for t in (mn, mx)))
        mins.append(_tensor(mn) if mn is not None else None)
        maxs.append(_tensor(mx) if mx is not None else None)
    res = obs.calculate_qparams()
    if not isinstance(res, (tuple, list)) or len(res) != 2:
        return {"error": f"calculate_qparams() returned {type(res).__name__}, not a pair", "same": same}
    scale, zp = res
    return {"same": same, "graph": graph, "mins": mins, "maxs": maxs, "scale": _tensor(scale), "zp": _tensor(zp),
            "is_module": isinstance(obs, torch.nn.Module)}


def observe_then_change(ns, cfg, xs):
    """A RangeObserver(**cfg) fed the tensors xs in turn; after each, that tensor is changed in place (x.add_(100),
    then x.neg_(), as a caller reusing its buffer or an optimizer stepping a weight does): min_val and max_val after
    the last change."""
    cfg = dict(cfg)
    cfg["dtype"] = getattr(torch, cfg["dtype"])
    obs = get(ns, "RangeObserver")(**cfg)
    for x in xs:
        x = x.clone()
        obs(x)
        with torch.no_grad():
            x.add_(100.0)
            x.neg_()
    return {"min": _tensor(getattr(obs, "min_val", None)), "max": _tensor(getattr(obs, "max_val", None))}


def observer_on_meta(ns, cfg, shape):
    """A RangeObserver(**cfg), moved to the inputs' device as a module is (.to), fed two tensors of `shape` off the
    default device: the devices (relative to the inputs), shapes and dtypes of min_val, max_val, the scale and the
    zero point, or the error."""
    cfg = dict(cfg)
    cfg["dtype"] = getattr(torch, cfg["dtype"])
    gen = torch.Generator().manual_seed(len(shape))

    def go(x1, x2):
        obs = get(ns, "RangeObserver")(**cfg).to(x1.device)
        obs(x1)
        obs(x2)
        scale, zp = obs.calculate_qparams()
        return obs.min_val, obs.max_val, scale, zp
    return _meta_result(go, (torch.randn(shape, generator=gen), torch.randn(shape, generator=gen) * 3 + 1))


@contextlib.contextmanager
def _torch_observer_calls():
    """A list that fills with the torch.ao.quantization observers' methods called inside the block."""
    import torch.ao.quantization.observer as tob
    calls = []
    names = ["MinMaxObserver", "PerChannelMinMaxObserver", "MovingAverageMinMaxObserver",
             "MovingAveragePerChannelMinMaxObserver", "UniformQuantizationObserverBase"]
    spied = []
    for n in names:
        cls = getattr(tob, n)
        for attr in ("forward", "_calculate_qparams", "calculate_qparams"):
            if attr in cls.__dict__:
                orig = cls.__dict__[attr]
                spied.append((cls, attr, orig))
                setattr(cls, attr, (lambda o, nm: lambda *a, **k: (calls.append(nm), o(*a, **k))[1])(orig, f"{n}.{attr}"))
    try:
        yield calls
    finally:
        for cls, attr, orig in spied:
            setattr(cls, attr, orig)


def observer_uses_torch(ns, cfg, x):
    """Whether observing x and calculating qparams called torch.ao.quantization's observers."""
    with _torch_observer_calls() as calls:
        cfg = dict(cfg)
        cfg["dtype"] = getattr(torch, cfg["dtype"])
        obs = get(ns, "RangeObserver")(**cfg)
        obs(x)
        out = obs.calculate_qparams()
    return {"calls": sorted(set(calls)), "scale": _tensor(out[0])}


# ------------------------------------------------------------------ exercise 3: fake_quantize
def fake_quant(ns, x, scale, zero_point, quant_min, quant_max, g=None, layout="contiguous", nograd=False):
    """fake_quantize's output and, with g, the gradient of <g, output> with respect to x; the ops that ran. With
    nograd, also the output of a second call on a copy of x that does not require grad, and whether that copy was
    left as it was (an answer may take another path when there is no graph to keep)."""
    x0, x = x, relayout(x, layout)
    before = x.clone()
    x.requires_grad_(g is not None)
    with _OpLog() as log:
        out = get(ns, "fake_quantize")(x, scale, zero_point, quant_min, quant_max)
    res = {"out": _tensor(out), "ops": sorted({o[0] for o in log.ops}), "unchanged": bool(torch.equal(x.detach(), before))}
    if g is not None:
        if not isinstance(out, torch.Tensor) or out.grad_fn is None:
            res["grad"] = "the output has no autograd graph"
        else:
            (gx,) = torch.autograd.grad(out, [x], g, allow_unused=True)
            res["grad"] = gx if gx is not None else "no gradient reached x"
    if nograd:
        x2 = relayout(x0, layout)
        before2 = x2.clone()
        out2 = get(ns, "fake_quantize")(x2, scale, zero_point, quant_min, quant_max)
        res["out_nograd"], res["unchanged_nograd"] = _tensor(out2), bool(torch.equal(x2, before2))
    return res


def fake_quant_in_graph(ns, x, scale, zero_point, quant_min, quant_max, g, x2, args2, g2):
    """The gradients of <g, fake_quantize(x) + x> + <g2, fake_quantize(x2, *args2)> with respect to x and x2 (autograd
    hands the same incoming gradient to both branches; two calls run before one backward, as in QATLinear), and
    whether g itself was left as it was."""
    x = x.clone().requires_grad_(True)
    x2 = x2.clone().requires_grad_(True)
    before = g.clone()
    out = get(ns, "fake_quantize")(x, scale, zero_point, quant_min, quant_max)
    out2 = get(ns, "fake_quantize")(x2, *args2)
    if not all(isinstance(o, torch.Tensor) and o.grad_fn is not None for o in (out, out2)):
        return {"grad": "the output has no autograd graph", "grad2": None, "g_unchanged": True}
    gx, gx2 = torch.autograd.grad([out + x, out2], [x, x2], [g, g2])
    return {"grad": gx, "grad2": gx2, "g_unchanged": bool(torch.equal(g, before))}


def fake_quant_changed_before_backward(ns, x, scale, zero_point, quant_min, quant_max, g, factor):
    """The gradient of <g, fake_quantize(x, ...)> with respect to x when x is multiplied by factor in place (under
    no_grad, as an optimizer step or a reused buffer does) between the forward and the backward; or autograd's error
    (an implementation that saved x with save_for_backward is told of the change: that is not silent)."""
    x = x.clone().requires_grad_(True)
    out = get(ns, "fake_quantize")(x, scale, zero_point, quant_min, quant_max)
    if not isinstance(out, torch.Tensor) or out.grad_fn is None:
        return {"grad": "the output has no autograd graph"}
    with torch.no_grad():
        x.mul_(factor)
    try:
        (gx,) = torch.autograd.grad(out, [x], g, allow_unused=True)
    except RuntimeError as e:
        return {"error": f"{type(e).__name__}: {str(e)[:300]}"}
    return {"grad": gx if gx is not None else "no gradient reached x"}


def fake_quant_on_meta(ns, shape):
    """fake_quantize and its gradient with x off the default device."""
    def go(x):
        x.requires_grad_(True)
        y = get(ns, "fake_quantize")(x, 0.1, 2, -128, 127)
        (gx,) = torch.autograd.grad(y, [x], torch.ones_like(x))
        return y, gx
    return _meta_result(go, (torch.randn(shape, generator=torch.Generator().manual_seed(0)) * 20,))


# ------------------------------------------------------------------ exercise 4: quantized_linear
def qlinear(ns, qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    """quantized_linear's result, the matrix-product ops that ran (name, input dtypes, output dtype)."""
    with _OpLog() as log:
        out = get(ns, "quantized_linear")(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point)
    products = [o for o in log.ops if o[0] in ("mm", "addmm", "bmm", "baddbmm", "matmul", "dot", "mv", "addmv",
                                               "linear", "einsum", "tensordot", "_int_mm", "addbmm", "vdot",
                                               "tensordot", "_weight_int8pack_mm", "_convolution", "convolution")]
    return {"out": _tensor(out), "products": products, "ops": sorted({o[0] for o in log.ops})}


def qlinear_on_meta(ns, lead, k, m, bias=True):
    """quantized_linear with qx, qw, w_scale and bias off the default device."""
    gen = torch.Generator().manual_seed(k)
    qx = torch.randint(0, 256, list(lead) + [k], generator=gen).to(torch.uint8)
    qw = torch.randint(-128, 128, (m, k), generator=gen).to(torch.int8)
    ws = torch.rand(m, generator=gen) * 0.01 + 0.001

    def go(qx, qw, ws, *b):
        return get(ns, "quantized_linear")(qx, 0.1, 3, qw, ws, b[0] if b else None, 0.2, 7)
    return _meta_result(go, (qx, qw, ws) + ((torch.randn(m, generator=gen),) if bias else ()))


def call_error(ns, name, args):
    return capture_error(get(ns, name), *args)


# ------------------------------------------------------------------ exercise 5: QATLinear
def qat_forward(ns, weight, bias, xs, modes, g, weights=None):
    """A QATLinear holding weight and bias, fed xs in the given modes; gradients of <g, last output>. With
    weights, weights[i] is copied into the weight before call i (as an optimizer step would change it)."""
    m = get(ns, "QATLinear")(weight.shape[1], weight.shape[0], bias=bias is not None)
    info = {"is_linear": isinstance(m, torch.nn.Linear),
            "params": sorted(n for n, _ in m.named_parameters()),
            "observer": type(getattr(m, "act_observer", None)).__name__,
            "observer_is_student": type(getattr(m, "act_observer", None)) is ns.get("RangeObserver")}
    with torch.no_grad():
        m.weight.copy_(weight)
        if bias is not None:
            m.bias.copy_(bias)
    outs = []
    for i, (x, mode) in enumerate(zip(xs, modes)):
        m.train(mode == "train")
        if weights is not None:
            with torch.no_grad():
                m.weight.copy_(weights[i])
        last = i == len(xs) - 1
        x = x.clone().requires_grad_(last)
        out = m(x)
        outs.append(_tensor(out))
        if last and isinstance(out, torch.Tensor) and out.grad_fn is not None:
            params = [m.weight] + ([m.bias] if bias is not None else [])
            grads = torch.autograd.grad(out, [x] + params, g, allow_unused=True)
            info["grads"] = [gr if gr is not None else "none" for gr in grads]
    info["outs"] = outs
    obs = getattr(m, "act_observer", None)
    info["act_range"] = [_tensor(getattr(obs, "min_val", None)), _tensor(getattr(obs, "max_val", None))]
    return info


def qat_ops(ns, x):
    """The aten ops one training-mode and one eval-mode forward of QATLinear(5, 3) run (PyTorch's fake quantize must
    not be among them), and the methods of torch.ao.quantization's observers they called (none may be)."""
    m = get(ns, "QATLinear")(5, 3)
    with _OpLog() as log, _torch_observer_calls() as calls:
        m.train()
        m(x)
        m.eval()
        m(x)
    return {"ops": sorted({o[0] for o in log.ops}), "observers": sorted(set(calls))}


class _ScalarsWithInputs(TorchFunctionMode):
    """Inside torch.device("meta") with the inputs on the CPU (stand_in_device's second way): a 0-dim tensor a factory
    makes without device= goes to the CPU, the others to meta. A GPU kernel takes a 0-dim CPU tensor as a scalar next
    to GPU tensors (torch.tensor(eps) without device= runs there), but meta does not next to CPU ones; a tensor of
    one or more dimensions without device= (a zero bias, a range of C entries) raises on a GPU and here."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in _device_constructors() and kwargs.get("device") is None:
            with torch.device("cpu"):
                out = func(*args, **kwargs)
            if not (isinstance(out, torch.Tensor) and out.dim() == 0):
                out = func(*args, **kwargs)  # the default device's (meta) tensor
            return out
        return func(*args, **kwargs)


def qat_on_meta(ns, shape, bias):
    """A QATLinear(shape[-1], 3, bias) built on the inputs' device (torch.device), fed x1 in training mode and x2 in
    eval mode off the default device, then <1, eval output> backward: the devices (relative to the inputs), shapes
    and dtypes of the two outputs and of the weight's gradient, or the error."""
    gen = torch.Generator().manual_seed(len(shape) + 7 * bool(bias))

    def go(x1, x2):
        with torch.device(x1.device):
            m = get(ns, "QATLinear")(shape[-1], 3, bias=bias)
        with _ScalarsWithInputs() if x1.device.type == "cpu" else contextlib.nullcontext():
            m.train()
            out1 = m(x1)
            m.eval()
            out2 = m(x2)
            out2.sum().backward()
        return out1, out2, m.weight.grad
    return _meta_result(go, (torch.randn(shape, generator=gen), torch.randn(shape, generator=gen) * 2))


def qat_train(ns, init, X, y, Xt, steps, lr, batch, seed):
    """nn.Sequential(QATLinear(784, 64), ReLU, QATLinear(64, 10)) from the initial parameters init, trained with
    SGD (momentum 0.9) on batches drawn from a generator seeded seed; the eval-mode logits on Xt, the trained
    parameters and each act_observer's range."""
    torch.set_num_threads(1)
    Q = get(ns, "QATLinear")
    model = torch.nn.Sequential(Q(784, 64), torch.nn.ReLU(), Q(64, 10))
    with torch.no_grad():
        for p, v in zip([model[0].weight, model[0].bias, model[2].weight, model[2].bias], init):
            p.copy_(v)
    opt = torch.optim.SGD([model[0].weight, model[0].bias, model[2].weight, model[2].bias], lr=lr, momentum=0.9)
    g = torch.Generator().manual_seed(seed)
    model.train()
    for _ in range(steps):
        idx = torch.randint(0, X.shape[0], (batch,), generator=g)
        loss = torch.nn.functional.cross_entropy(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(Xt)
    ranges = [[_tensor(getattr(getattr(model[i], "act_observer", None), n, None)) for n in ("min_val", "max_val")]
              for i in (0, 2)]
    params = [_tensor(p) for p in (model[0].weight, model[0].bias, model[2].weight, model[2].bias)]
    return {"logits": _tensor(logits), "ranges": ranges, "params": params}
