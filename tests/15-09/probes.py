"""Probes for 15-09: run next to the submission, return plain data only.

The judge imports this file too (runpy), for the loss sources, the autograd Functions, the models and
the leaking steps it describes; what the student's code returns is judged in the test files.
"""
import gc
import math
import warnings
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F

from course.judge.probelib import (build_model, capture_error, functions_entered, get, off_default_device,
                                   relative_device)
from course.judge.worker import broad_warning_filters
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)

# ---------------------------------------------------------------- anomaly
# Loss functions compiled from source under their own file name, so that the line of each operation is
# known to the judge. Each defines `loss(x)`.
LOSS_SOURCES = {
    "sqrt": (
        "import torch\n"
        "def loss(x):\n"
        "    y = x * 2\n"
        "    z = torch.sqrt(y)\n"
        "    return z.sum()\n"),
    "masked_log": (
        "import torch\n"
        "\n"
        "def loss(x):\n"
        "    safe = torch.where(x > 0, torch.log(x), torch.zeros_like(x))\n"
        "    return (safe * 3).sum()\n"),
    "helper": (
        "import torch\n"
        "def helper(t):\n"
        "    t = t - 1\n"
        "    return torch.sqrt(t)\n"
        "\n"
        "def loss(x):\n"
        "    h = helper(x.exp())\n"
        "    return h.sum()\n"),
    "normalize": (
        "import torch\n"
        "import torch.nn.functional as F\n"
        "def loss(x):\n"
        "    h = x.pow(2)\n"
        "    n = F.normalize(h, dim=0, eps=0.0)\n"
        "    return n.sum()\n"),
    "two_logs": (
        "import torch\n"
        "def loss(x):\n"
        "    a = torch.log(x + 2)\n"
        "    b = torch.log(x)\n"
        "    c = torch.where(x > 0, b, a)\n"
        "    return c.sum()\n"),
    "std": (
        "import torch\n"
        "def loss(x):\n"
        "    s = x[:1].std()\n"
        "    return s + x.sum()\n"),
    "fine": (
        "import torch\n"
        "def loss(x):\n"
        "    return (torch.tanh(x) ** 2).sum()\n"),
    "inplace": (
        "import torch\n"
        "def loss(x):\n"
        "    y = torch.exp(x)\n"
        "    y.add_(1)\n"
        "    return y.sum()\n"),
    "value_error": (
        "import torch\n"
        "def loss(x):\n"
        "    raise ValueError('bad batch')\n"),
    # Ctrl-C while the forward pass runs: a KeyboardInterrupt is a BaseException, not an Exception, so anomaly mode
    # switched off in `except Exception:` (not in finally:) stays on after it
    "interrupt": (
        "import torch\n"
        "def loss(x):\n"
        "    y = torch.exp(x)\n"
        "    raise KeyboardInterrupt('deliberate interrupt inside loss_fn')\n"),
    # a custom Function: its node is named after the class, with no number ("Clamp01Backward")
    "custom_fn": (
        "import torch\n"
        "class Clamp01(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        ctx.save_for_backward(x)\n"
        "        return x.clamp(0, 1)\n"
        "\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        (x,) = ctx.saved_tensors\n"
        "        return g * (x > 0) / (x > 0)\n"
        "\n"
        "def loss(x):\n"
        "    y = x * 3\n"
        "    z = Clamp01.apply(y)\n"
        "    return z.sum()\n"),
    # a RuntimeError that mentions nan but is not anomaly mode's report: x / 0 is +-inf, softmax gives nan
    "multinomial": (
        "import torch\n"
        "def loss(x):\n"
        "    temperature = x.new_zeros(())\n"
        "    p = torch.softmax(x / temperature, 0)\n"
        "    i = torch.multinomial(p.detach(), 1)\n"
        "    return x[i].sum()\n"),
    # the loss's own warning, issued in the forward pass, before the NaN of sqrt's backward
    "warns": (
        "import warnings\n"
        "import torch\n"
        "def loss(x):\n"
        "    warnings.warn('loss: inputs are not normalised')\n"
        "    y = torch.sqrt(x * 2)\n"
        "    return y.sum()\n"),
    # sqrt's backward makes 0/0 = nan where m == 0, and where's backward then zeroes it: x.grad stays finite.
    # It counts its own calls (loss.calls): find_nan_origin runs loss_fn once.
    "masked_sqrt": (
        "import torch\n"
        "def loss(x):\n"
        "    loss.calls = getattr(loss, 'calls', 0) + 1\n"
        "    m = torch.where(x > 0, x, torch.zeros_like(x))\n"
        "    r = torch.sqrt(m)\n"
        "    return (r * 0).sum() + x.sum()\n"),
    # an in-place op on a view: the node that returns NaN is named 'torch::autograd::CopySlices' in the error (no
    # "Backward" in it, and a namespace): sqrt_'s backward makes 0 * inf = nan where a zero is in y[:2]
    "copy_slices": (
        "import torch\n"
        "def loss(x):\n"
        "    y = x * 1\n"
        "    y[:2].sqrt_()\n"
        "    return (y * 0).sum() + x.sum()\n"),
    # a NaN in a branch that only a parameter of the loss reaches (a penalty on a captured leaf w): backward restricted
    # to x (loss.backward(inputs=[x]), torch.autograd.grad(loss, x)) never runs LogBackward0 for w, loss.backward()
    # does; x.grad stays finite
    "param_branch": (
        "import torch\n"
        "w = torch.tensor([0.0, 1.0, 2.0], dtype=torch.float64, requires_grad=True)\n"
        "def loss(x):\n"
        "    penalty = torch.where(w > 0, torch.log(w), torch.zeros_like(w))\n"
        "    return (x * 2).sum() + penalty.sum()\n"),
}


# The normalize loss lives in a file named functional.py, like torch/nn/functional.py, where F.normalize creates
# the node that returns NaN: only the whole path (loss_fn.__code__.co_filename) tells the two apart, not the base name.
LOSS_FILES = {"normalize": "/srv/models/nn/functional.py"}


def loss_file(name):
    return LOSS_FILES.get(name, f"/srv/models/losses_{name}.py")


def loss_source(name, pad=0):
    """The loss file's text, after ``pad`` comment lines (they move every line number down by pad)."""
    return "".join(f"# loss revision {k}\n" for k in range(pad)) + LOSS_SOURCES[name]


def make_loss(name, pad=0):
    scope = {}
    exec(compile(loss_source(name, pad), loss_file(name), "exec"), scope)
    return scope["loss"]


def nan_origin_quiet(ns, name, x, pad=0, action="ignore"):
    """find_nan_origin in a process that has turned warnings off (as many notebooks do), or with ``action``
    "error" into exceptions (as pytest -W error does)."""
    fn = get(ns, "find_nan_origin")
    torch.autograd.set_detect_anomaly(False)
    leaf = x.detach().clone().requires_grad_(True)
    with warnings.catch_warnings():
        warnings.simplefilter("error" if action == "error" else "ignore")
        before = broad_warning_filters()
        try:
            out = {"returned": fn(make_loss(name, pad), leaf), "error": None}
        except Exception as exc:
            out = {"returned": None, "error": {"type": type(exc).__name__, "message": str(exc)[:300]}}
        finally:
            torch.autograd.set_detect_anomaly(False)
        out["filters"] = [before, broad_warning_filters()]  # this block restores them for the worker
        return out


def innermost_frame(exc):
    """[file, line] of the innermost frame of exc's traceback (where it was raised): an exception that propagates
    unchanged keeps the frame of its first raise; a new one raised in its place starts where that happened."""
    import traceback
    frames = traceback.extract_tb(exc.__traceback__)
    return [frames[-1].filename, frames[-1].lineno] if frames else None


def nan_origin(ns, name, x, pad=0, stale=None):
    """find_nan_origin on one of the losses above; also whether anomaly mode is left on, how many
    warnings escaped the call and what x.grad holds afterwards (``stale``: the .grad x holds before the call, as
    an earlier backward leaves it)."""
    fn = get(ns, "find_nan_origin")
    torch.autograd.set_detect_anomaly(False)
    leaf = x.detach().clone().requires_grad_(True)
    if stale is not None:
        leaf.grad = stale.detach().clone()
    result = {}
    loss_fn = make_loss(name, pad)
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        before = broad_warning_filters()
        try:
            result["returned"] = fn(loss_fn, leaf)
            result["error"] = None
        except BaseException as exc:  # what find_nan_origin let through (the "interrupt" loss: a KeyboardInterrupt)
            result["returned"] = None
            result["error"] = {"type": type(exc).__name__, "message": str(exc)[:300], "origin": innermost_frame(exc)}
        result["filters"] = [before, broad_warning_filters()]  # this block restores them for the worker
    result["anomaly_on_after"] = bool(torch.is_anomaly_enabled())
    result["escaped_warnings"] = len(escaped)
    result["loss_calls"] = getattr(loss_fn, "calls", None)  # counted by the losses that count their calls
    result["x_grad"] = None if leaf.grad is None else leaf.grad.detach().clone()
    torch.autograd.set_detect_anomaly(False)
    return result


# ---------------------------------------------------------------- gradient checker
# The functions whose gradients check_gradients judges. Each family is one function whose backward carries
# a float64 ``defect`` drawn by the judge for each case: all zeros, the gradient is correct; otherwise it is
# wrong in that family's way, by an amount that grows with the defect. Whether a case should be accepted is
# therefore decided by the drawn values (and torch.autograd.gradcheck, judge side), never by a name or a flag.
class Smooth(torch.autograd.Function):
    """f(x, y) = x * sin(y) + x**2 / 2 (elementwise, broadcasting y over x's rows). Defect
    (scale, missing, sign, points): the x-gradient is (1 + scale) * (sin(y) + (1 - missing) * x), plus points
    where x > 1.5; the y-gradient is multiplied by (1 - 2 * sign)."""

    @staticmethod
    def forward(ctx, x, y, d):
        ctx.save_for_backward(x, y)
        ctx.d = d
        return x * torch.sin(y) + x * x / 2

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        scale, missing, sign, points = ctx.d
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (1 + scale) * g * (torch.sin(y) + (1 - missing) * x) + points * g * (x > 1.5).to(x.dtype)
        if ctx.needs_input_grad[1]:
            gy = ((1 - 2 * sign) * g * x * torch.cos(y)).sum_to_size(y.shape)
        return gx, gy, None


class Exp(torch.autograd.Function):
    """exp(x) whose gradient is (1 + scale) times the true one (defect (scale,)); at x near 14 finite
    differences carry an absolute error larger than atol."""

    @staticmethod
    def forward(ctx, x, d):
        y = torch.exp(x)
        ctx.save_for_backward(y)
        ctx.d = d
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y * (1 + ctx.d[0]), None


class ExpLow(Exp):
    """exp(x) whose gradient is (1 + scale) times the true one only where x < 1 (defect (scale,)): next to entries
    of e**10 and more, an error on the small entries is tiny against the Jacobian's norm, not against each entry."""

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y * (1 + ctx.d[0] * (y < math.e).to(y.dtype)), None


class Mix(torch.autograd.Function):
    """out = A @ B (matrices), its output and gradients non-contiguous. Defect (t,): A's gradient is
    g @ ((1 - t) * B.T + t * B) (t = 1: B not transposed; the shapes fit only because B is square)."""

    @staticmethod
    def forward(ctx, a, b, d):
        ctx.save_for_backward(a, b)
        ctx.d = d
        return (b.T @ a.T).T  # A @ B, laid out transposed: a function's output need not be contiguous

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        t = ctx.d[0]
        # the gradients come back non-contiguous too (transposed products), as autograd allows
        return (((1 - t) * b + t * b.T) @ g.T).T, (g.T @ a).T, None


class Square(torch.autograd.Function):
    """f(x, y) = x**2, y unused. Defect (scale, extra): the x-gradient is (1 + scale) times the true one;
    with extra == 0, y is not an input of the graph (no gradient flows to it), otherwise backward gives y
    the gradient extra * g (summed to y's shape) although f does not depend on y."""

    @staticmethod
    def forward(ctx, x, y, d):
        ctx.save_for_backward(x)
        ctx.d = d
        ctx.y_shape = None if y is None else y.shape
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        scale, extra = ctx.d
        gy = None if ctx.y_shape is None else (extra * g).sum_to_size(ctx.y_shape)
        return 2 * g * x * (1 + scale), gy, None


class Three(torch.autograd.Function):
    """f(x, y, z) = x * y + z**2 (elementwise): three inputs that all need a gradient. Defect (sx, my, sz):
    x's gradient times (1 + sx), y's gradient g * (x + my * (y - x)) (my = 1: y instead of x), z's times
    (1 + sz); sz = -1 exactly: no gradient for z at all (None, as a backward that forgets an input returns),
    although f depends on z."""

    @staticmethod
    def forward(ctx, x, y, z, d):
        ctx.save_for_backward(x, y, z)
        ctx.d = d
        return x * y + z * z

    @staticmethod
    def backward(ctx, g):
        x, y, z = ctx.saved_tensors
        sx, my, sz = ctx.d
        gz = None if sz == -1 else 2 * g * z * (1 + sz)
        return g * y * (1 + sx), g * (x + my * (y - x)), gz, None


class NanGrad(torch.autograd.Function):
    """f(x) = x**2. Defect (on,): with on = 1 its backward computes 2·g·x·((x > 0) / (x > 0)), which is NaN
    (0 / 0) wherever x <= 0 and right elsewhere: wrong only on inputs that reach x <= 0."""

    @staticmethod
    def forward(ctx, x, d):
        ctx.save_for_backward(x)
        ctx.d = d
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        grad = 2 * g * x
        if ctx.d[0]:
            pos = (x > 0).to(x.dtype)
            grad = grad * (pos / pos)
        return grad, None


def sqrt(x):
    """torch.sqrt, a correct function: at x = 0 its central difference is NaN (sqrt(-eps)) and its gradient inf."""
    return torch.sqrt(x)


def linear32(x):
    """3x returned in float32 (the inputs are float64): on x and eps on a power-of-two grid the central
    differences are exactly 3 in float32 too."""
    return (3 * x).to(torch.float32)


def linear(x):
    """3x: with eps and x on a power-of-two grid its central differences are exact (an equality case)."""
    return 3 * x


def wave(x, k):
    """sin(k x): its third derivative is k**3 times larger than its first, so the central difference's eps**2 error
    tells eps = 1e-4 (about 1e-5) from eps = 1e-6 (about 1e-9) at k of 20 or more."""
    return torch.sin(k * x)


def view_of_input(x):
    """x.T[1:]: a correct function whose output is a view sharing x's memory (it changes when x is perturbed)."""
    return x.T[1:]


def ignores_x(x, y, leak=0.0):
    """2 sin(y) + leak·sum(x.detach()): with only x checked, no checked input reaches the output (it does not require
    a gradient). With leak 0 that is right (the Jacobian is zero); otherwise the output depends on x through a
    detached copy, so its central differences are leak everywhere while no gradient flows: gradcheck rejects it."""
    out = 2 * torch.sin(y)
    return out + leak * x.detach().sum() if leak else out


DEFECT_SIZE = {"smooth": 4, "exp": 1, "exp_low": 1, "mix": 1, "unused": 2, "three": 3, "linear": 1, "view": 1,
               "ignores": 1, "nan_grad": 1, "sqrt": 1, "linear32": 1, "wave": 1}


def grad_function(family, defect):
    """The function of ``family`` with this defect (a float64 tensor of DEFECT_SIZE[family] values)."""
    d = [float(v) for v in defect.reshape(-1).tolist()]
    if len(d) != DEFECT_SIZE[family]:
        raise ValueError(f"{family}: defect of {len(d)} values, expected {DEFECT_SIZE[family]}")
    if family == "smooth":
        return lambda x, y: Smooth.apply(x, y, d)
    if family == "exp":
        return lambda x: Exp.apply(x, d)
    if family == "exp_low":
        return lambda x: ExpLow.apply(x, d)
    if family == "mix":
        return lambda a, b: Mix.apply(a, b, d)
    if family == "unused":
        return lambda x, y: Square.apply(x, y if d[1] != 0 else None, d)
    if family == "three":
        return lambda x, y, z: Three.apply(x, y, z, d)
    if family == "nan_grad":
        return lambda x: NanGrad.apply(x, d)
    if family == "sqrt":
        return sqrt
    if family == "linear32":
        return linear32
    if family == "view":
        return view_of_input
    if family == "ignores":
        return lambda x, y: ignores_x(x, y, d[0])
    if family == "wave":
        return lambda x: wave(x, d[0])
    return linear


def _inputs(inputs, needs):
    """Fresh leaves in the inputs' own memory layouts (each call unpickles its own copies; clone() would
    make strided slices contiguous)."""
    return [t.detach().requires_grad_(bool(n)) for t, n in zip(inputs, needs)]


def _watched(call, watch):
    """call(), and with ``watch`` the names of the functions of torch.autograd.gradcheck's module it entered
    (probelib.functions_entered: an import under another name is seen too): "write both from scratch"."""
    if not watch:
        return call(), []
    return functions_entered(call, ("torch/autograd/gradcheck.py",))


def numeric_jac(ns, family, defect, inputs, needs, eps, watch=False):
    """numeric_jacobian's answer (``eps`` None: called without eps, its default)."""
    xs = _inputs(inputs, needs)
    f = grad_function(family, defect)
    grad_mode = []  # torch.is_grad_enabled() at each call of fn: "compute it with autograd off"

    def fn(*args):
        grad_mode.append(torch.is_grad_enabled())
        return f(*args)
    args = (fn, xs) if eps is None else (fn, xs, eps)
    jac, yardstick = _watched(lambda: get(ns, "numeric_jacobian")(*args), watch)
    return {"jac": list(jac) if isinstance(jac, (list, tuple)) else jac,
            "inputs_after": [x.detach().clone() for x in xs],
            "calls": len(grad_mode), "calls_with_grad": sum(grad_mode), "yardstick": yardstick}


def verdict(ns, family, defect, inputs, needs, kwargs, stale=None, watch=False, catch=False, alias=None):
    """check_gradients' verdict; with ``stale``, every input that requires a gradient already holds a .grad
    (filled with that value), as after an earlier backward; with ``catch``, an exception check_gradients raises
    comes back described (as "error") instead of failing the call; with ``alias``, fn's k-th argument is the
    tensor object built for inputs[alias[k]] (one tensor passed at two positions)."""
    xs = _inputs(inputs, needs)
    if alias is not None:
        xs = [xs[int(i)] for i in alias]
    if stale is not None:
        for x in xs:
            if x.requires_grad:
                x.grad = torch.full_like(x, float(stale))
    try:
        v, yardstick = _watched(lambda: get(ns, "check_gradients")(grad_function(family, defect), xs, **kwargs),
                                watch)
    except Exception as exc:
        if not catch:
            raise
        return {"verdict": None, "type": "raised", "error": f"{type(exc).__name__}: {str(exc)[:200]}",
                "inputs_after": [x.detach().clone() for x in xs], "yardstick": []}
    return {"verdict": v if isinstance(v, (bool, int, float, str)) or v is None else repr(v)[:100],
            "type": type(v).__name__, "inputs_after": [x.detach().clone() for x in xs], "yardstick": yardstick}


# ---------------------------------------------------------------- gradient monitor
class MonitorNet(nn.Module):
    """Tied weights (proj and head hold one Parameter), parameter-free modules, a frozen module, a module
    whose only parameter is frozen, a module holding one Parameter under two names (aux.weight is aux.tied:
    parameters(recurse=False) lists it once, module._parameters twice), and (optionally) a parameter held by the root
    module itself."""

    def __init__(self, root_param=False):
        super().__init__()
        if root_param:
            self.gain = nn.Parameter(torch.tensor(1.5))
        self.proj = nn.Linear(5, 5, bias=False)
        self.body = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 5))
        self.frozen = nn.Linear(5, 5)
        self.frozen.requires_grad_(False)
        self.head = nn.Linear(5, 5, bias=False)
        self.head.weight = self.proj.weight
        self.aux = nn.Linear(5, 2)
        self.aux.tied = self.aux.weight  # one Parameter, two names in one module: it counts once in aux's norm
        self.partial = nn.Linear(5, 5)
        self.partial.weight.requires_grad_(False)

    def loss(self, x, k):
        h = self.proj(x)
        if hasattr(self, "gain"):
            h = h * self.gain
        h = self.partial(self.frozen(self.body(h)))
        return (self.head(h) ** 2).mean() * k[0] + (self.aux(x) ** 2).mean() * k[1]


def monitor_net(state, root_param, frozen=(), half=False, twin=False, device=None):
    """MonitorNet with ``state``, the parameters named in ``frozen`` frozen as well (in float16 if ``half`` is
    True, in float64 if it is "double"; on ``device`` if given);
    with ``twin``, its 'aux' Linear is registered a second time, as 'twin.0' (named_modules() lists it once, as
    'aux'; a walk of one's own over named_children() reaches it twice)."""
    net = MonitorNet(root_param)
    net.load_state_dict(state)
    if device is not None:
        net.to(device)
    if twin:
        net.twin = nn.Sequential(net.aux)
    if half == "double":
        net.double()
    elif half:
        net.half()
    for name, p in net.named_parameters():
        if name in frozen:
            p.requires_grad_(False)
    return net


def monitor_script(ns, state, root_param, actions, frozen=(), half=False, twin=False, device=None):
    """Run a list of actions on one model and one or two monitors (0 and 1):
    ["backward", x, k], ["autograd_grad", x, k] (torch.autograd.grad: no .grad), ["zero_grad"],
    ["inject", {parameter name: gradient}], ["norms", m], ["clear", m],
    ["diagnose", m, low, high], ["remove", m], ["new", m] (create monitor m, once the model exists),
    ["released", m] (drop monitor m: after its remove(), no hook may keep it alive). Returns what each read action
    gave. With ``device`` ("cuda"), the model, the inputs and the injected gradients are on that device."""
    net = monitor_net(state, root_param, frozen, half, twin, device)
    if device is not None:
        moved = lambda v: v.to(device) if isinstance(v, torch.Tensor) else v  # noqa: E731
        actions = [[a[0]] + [({n: moved(g) for n, g in v.items()} if isinstance(v, dict) else moved(v))
                             for v in a[1:]] for a in actions]
    cls = get(ns, "GradMonitor")
    monitors = {}
    out = []
    for act in actions:
        kind = act[0]
        if kind == "new":
            monitors[act[1]] = cls(net)
        elif kind == "backward":
            net.loss(act[1], act[2]).backward()
        elif kind == "autograd_grad":  # the hooks fire; .grad is not touched
            trainable = [p for p in net.parameters() if p.requires_grad]
            torch.autograd.grad(net.loss(act[1], act[2]), trainable, allow_unused=True)
        elif kind == "zero_grad":  # as optimizer.zero_grad() does by default: .grad becomes None
            net.zero_grad(set_to_none=True)
        elif kind == "inject":  # chosen gradients delivered straight to the named parameters (hooks fire)
            params = dict(net.named_parameters())
            torch.autograd.backward([params[n] for n in act[1]], [act[1][n] for n in act[1]])
        elif kind == "clear":
            monitors[act[1]].clear()
        elif kind == "remove":
            monitors[act[1]].remove()
        elif kind == "released":  # this script's reference is the last one unless a hook still holds the monitor
            try:
                ref = weakref.ref(monitors.pop(act[1]))
            except TypeError:  # a class with __slots__ and no __weakref__: nothing to tell
                out.append({"released": None})
                continue
            gc.collect()
            out.append({"released": ref() is None})
        elif kind == "norms":
            n = monitors[act[1]].norms()
            out.append({"types": {str(k): type(v).__name__ for k, v in n.items()}, "norms": n}
                       if isinstance(n, dict) else {"types": {}, "norms": repr(n)[:200]})
        elif kind == "grads":
            out.append({n: (p.grad.detach().clone() if p.grad is not None else None) for n, p in net.named_parameters()})
        elif kind == "diagnose":
            d = monitors[act[1]].diagnose(act[2], act[3])
            out.append({"diagnose": list(d) if isinstance(d, tuple) else d, "type": type(d).__name__})
    return out


def monitor_bounds(ns, state, root_param, x, k):
    """One backward, then diagnose(low, high) with low and high set to the smallest and largest of the
    monitor's own norms (the ends of the range, whatever rounding its norms have)."""
    net = monitor_net(state, root_param)
    mon = get(ns, "GradMonitor")(net)
    net.loss(x, k).backward()
    n = mon.norms()
    vals = [float(v) for v in n.values()] if isinstance(n, dict) else []
    if not vals:
        return {"error": f"norms() returned {repr(n)[:100]}"}
    low, high = min(vals), max(vals)
    d = mon.diagnose(low, high)
    return {"low": low, "high": high, "diagnose": list(d) if isinstance(d, tuple) else d, "type": type(d).__name__}


# ---------------------------------------------------------------- bug zoo
def zoo_tanh(ns, x, w):
    w = w.detach().clone().requires_grad_(True)
    x = x.detach().clone().requires_grad_(True)
    loss = get(ns, "fixed_tanh_loss")(x, w)
    err = capture_error(lambda: loss.backward())
    return {"loss": loss.detach() if isinstance(loss, torch.Tensor) else repr(loss)[:100],
            "error": err, "gx": x.grad, "gw": w.grad}


def zoo_two_layer(ns, x, w1, w2):
    w1 = w1.detach().clone().requires_grad_(True)
    w2 = w2.detach().clone().requires_grad_(True)
    loss = get(ns, "fixed_two_layer_loss")(x, w1, w2)
    err = capture_error(lambda: loss.backward())
    return {"loss": loss.detach() if isinstance(loss, torch.Tensor) else repr(loss)[:100],
            "error": err, "g1": w1.grad, "g2": w2.grad}


def zoo_loss_off_device(ns, which, dtype):
    """fixed_tanh_loss (``which`` "tanh": x (4, 3), w (3, 2)) or fixed_two_layer_loss ("two_layer": x (4, 3),
    w1 (3, 5), w2 (5, 2)) on inputs of ``dtype`` off the default device (probelib.off_default_device): the device
    (relative to the inputs'), dtype and shape of the loss, or the error (a tensor made without device= raises)."""
    dt = getattr(torch, dtype)
    shapes = [(4, 3), (3, 2)] if which == "tanh" else [(4, 3), (3, 5), (5, 2)]
    args = [torch.linspace(-1, 1, a * b).reshape(a, b).to(dt) for a, b in shapes]
    try:
        out, home = off_default_device(get(ns, "fixed_tanh_loss" if which == "tanh" else "fixed_two_layer_loss"),
                                       args)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    if not isinstance(out, torch.Tensor):
        return {"error": f"returned {type(out).__name__}, not a tensor"}
    return {"error": None, "device": relative_device(out, home), "dtype": str(out.dtype), "shape": list(out.shape)}


def zoo_positions_meta(ns, shape, dtype):
    """fixed_add_positions on x off the default device (probelib.off_default_device): the device (relative to
    x's), dtype and shape of the result, or the error."""
    x = torch.randn(*shape).to(getattr(torch, dtype))
    try:
        out, home = off_default_device(get(ns, "fixed_add_positions"), (x,))
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    if not isinstance(out, torch.Tensor):
        return {"error": f"returned {type(out).__name__}, not a tensor"}
    return {"error": None, "device": relative_device(out, home), "dtype": str(out.dtype), "shape": list(out.shape)}


def zoo_positions_values(ns, x):
    arg = x.clone()  # same (non-contiguous) layout as x
    out = get(ns, "fixed_add_positions")(arg)
    return {"out": out, "x_changed": not torch.equal(arg, x)}


def zoo_model(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 3))


def zoo_train(ns, state, batches, lr, stale=None, frozen=()):
    """fixed_train on zoo_model with ``state``; the parameters named in ``frozen`` do not require a gradient (a frozen
    layer: backward gives them none, .grad stays None)."""
    model = zoo_model(0)
    model.load_state_dict(state)
    for name, p in model.named_parameters():
        if name in frozen:
            p.requires_grad_(False)
    for p, g in zip(model.parameters(), stale or []):
        p.grad = g.clone()  # what an earlier backward left behind
    losses = get(ns, "fixed_train")(model, [(x, y) for x, y in batches], lr)
    if not isinstance(losses, list):
        return {"kind": type(losses).__name__, "types": [], "values": [], "state": model.state_dict()}
    return {"kind": "list", "types": [type(v).__name__ for v in losses],
            "values": [v if type(v) is float else None for v in losses],
            "state": {k: v.detach().clone() for k, v in model.state_dict().items()}}


class PredictNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(6, 8)
        self.bn = nn.BatchNorm1d(8)
        self.drop = nn.Dropout(0.5)
        self.out = nn.Linear(8, 4)

    def forward(self, x):
        return self.out(self.drop(torch.relu(self.bn(self.lin(x)))))


def _predict_twice(ns, model, x, start_training, flip=None) -> dict:
    """fixed_predict_proba(model, x) twice, the model put in the given mode first (and the module named
    ``flip`` in the other mode: a frozen batch norm in a training model, a dropout left on in an eval one)."""
    model.train(start_training)
    if flip is not None:
        model.get_submodule(flip).train(not start_training)
    fn = get(ns, "fixed_predict_proba")
    recording = []  # for each forward pass of the model: was autograd recording it (a graph being built)?
    handle = model.register_forward_hook(
        lambda mod, args, out: recording.append(torch.is_grad_enabled() or bool(getattr(out, "requires_grad", False))))
    try:
        p1 = fn(model, x)
        p2 = fn(model, x)
        with torch.no_grad():  # a caller's evaluation loop: grad mode must still be off after the call
            fn(model, x)
            grad_mode_after = torch.is_grad_enabled()
    finally:
        handle.remove()
    if not isinstance(p1, torch.Tensor) or not isinstance(p2, torch.Tensor):
        return {"error": "fixed_predict_proba returned something other than a tensor"}
    return {"error": None, "p1": p1.detach().clone(), "p2": p2.detach().clone(),
            "requires_grad": bool(p1.requires_grad), "graph_built": any(recording[:2]),
            "grad_mode_after_no_grad_call": bool(grad_mode_after)}


def zoo_predict(ns, state, x, start_training, flip=None):
    torch.manual_seed(1234)
    model = PredictNet()
    model.load_state_dict(state)
    res = _predict_twice(ns, model, x, start_training, flip)
    if res["error"]:
        return res
    return {**res, "training_after": bool(model.training),
            "children_training": [bool(m.training) for m in model.children()],
            "modes": {name: bool(m.training) for name, m in model.named_modules()},
            "running_mean": model.bn.running_mean.clone()}


class InterruptedPredictNet(PredictNet):
    """PredictNet whose forward is interrupted (Ctrl-C) after its first layer: a KeyboardInterrupt, a BaseException
    that is not an Exception."""

    def forward(self, x):
        self.lin(x)
        raise KeyboardInterrupt("deliberate interrupt inside forward")


def zoo_predict_error(ns, state, width, start_training, flip=None, interrupt=False):
    """fixed_predict_proba on PredictNet (``flip`` in the other mode) with an input of the wrong width: model(x)
    raises (``interrupt``: the forward pass raises KeyboardInterrupt instead). What it raised, and every module's
    mode and the grad mode afterwards."""
    model = InterruptedPredictNet() if interrupt else PredictNet()
    model.load_state_dict(state)
    model.train(start_training)
    if flip is not None:
        model.get_submodule(flip).train(not start_training)
    x = torch.randn(3, width)
    if interrupt:
        try:
            get(ns, "fixed_predict_proba")(model, x)
            err = {"raised": False, "type": "", "message": "", "mro": []}
        except BaseException as exc:  # the interrupt, or whatever the submission raised in its place
            err = {"raised": True, "type": type(exc).__name__, "message": str(exc)[:500],
                   "mro": [c.__name__ for c in type(exc).__mro__]}
    else:
        err = capture_error(get(ns, "fixed_predict_proba"), model, x)
    return {"error": err, "modes": {name: bool(m.training) for name, m in model.named_modules()},
            "grad_mode": bool(torch.is_grad_enabled())}


class PerPositionNet(nn.Module):
    """A per-position classifier: outputs (N, classes, L), so softmax over dim 1 differs from dim -1."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(3, 4, 1)
        self.drop = nn.Dropout(0.3)

    def forward(self, x):
        return self.drop(self.conv(x))


def zoo_predict_per_position(ns, state, x):
    """fixed_predict_proba on PerPositionNet (in training mode) with ``state``, in x's dtype."""
    model = PerPositionNet().to(x.dtype)
    model.load_state_dict(state)
    p = get(ns, "fixed_predict_proba")(model.train(), x)
    return {"p": p.detach().clone() if isinstance(p, torch.Tensor) else repr(p)[:100]}


def zoo_predict_spec(ns, spec, x, start_training, flip=None):
    """fixed_predict_proba twice on a nested model from a strategies.model_specs() description (the module named
    ``flip`` put in the other mode first); the mode of every module afterwards."""
    model = build_model(spec)
    res = _predict_twice(ns, model, x, start_training, flip)
    if res["error"]:
        return res
    return {**res, "modes": {name: bool(m.training) for name, m in model.named_modules()},
            "buffers": {n: b.detach().clone() for n, b in model.named_buffers()}}


# ---------------------------------------------------------------- leaks
STEP_DIMS = {"a": 2, "b": 3, "vr": 7, "vc": 6, "p": 9}  # the sizes below; the judge draws others per student
GROWN_COLS = 19  # the (i, 19) buffer each step appends, every earlier one grown in place to (i, 19): (n, 19) at the end
CYCLE_ROWS = 11  # the (11, i + 30) tensor each step leaves in a garbage reference cycle
HOLDER_ROWS = 13  # the (13, i + 50) tensor each step keeps in a self-referencing holder, replacing the previous one


def make_step(store, dims=None):
    """One step function for find_leaks that does several things at once, each with its own shapes
    (a, b, vr, vc, p from ``dims``; the defaults in STEP_DIMS):
    - appends a new (i + 1, a) tensor to a list every iteration (a leak);
    - keeps its temporary (b, i + 10) tensor on even iterations only (a leak there);
    - keeps a (2, vc) view of a temporary (vr, vc) tensor (a leak of both: the view keeps its base alive);
    - a training step (SGD with momentum) that keeps its loss tensors, shape () (a leak);
    - keeps only its latest (4, i + 20) output, replacing the previous one (not a leak);
    - creates (5, 5) and (6,) state on the first call only and updates it in place (not a leak);
    - keeps, many times, a (3, 3) tensor created before the first call (not a leak);
    - appends a new nn.Parameter of shape (i + 1, p) (a leak of a Tensor subclass);
    - appends a new (i, GROWN_COLS) buffer to a list and first grows every earlier one in place (resize_) to
      (i, GROWN_COLS): a leak whose shape changes after its birth, (n, GROWN_COLS) at the end for every one;
    - drops, in its first call, a (1, 1) tensor created before the first call (not a leak);
    - leaves a (CYCLE_ROWS, i + 30) tensor in a dict that refers to itself, dropped at once: garbage that only
      gc.collect() frees (not a leak; a finder that does not collect first blames it);
    - keeps its latest (HOLDER_ROWS, i + 50) tensor in a dict that refers to itself (and in store), replacing both on
      the next call: the replaced holder is garbage that only gc.collect() frees (not a leak; a finder that collects
      before each call but not after the last one blames the tensor of iteration n - 1);
    - returns a detached copy of its loss, a () tensor that nothing else refers to (not a leak).
    It also notes in ``store["held"]`` each iteration where the 'latest' tensor it just replaced is still alive,
    and in ``store["held_returned"]`` each iteration that starts with the tensor the previous call returned still
    alive (only a finder holding strong references between calls can keep either: `_ = step()` keeps the
    second), and in ``store["held_pre"]`` each iteration that starts with the (1, 1) tensor the first call dropped
    still alive (only a finder that keeps the tensors alive before its first call of step can hold it).
    Everything it keeps lives in ``store``, which the caller clears afterwards."""
    d = {**STEP_DIMS, **(dims or {})}
    counter = {"i": 0}
    store.update(history=[], pre=torch.zeros(3, 3), kept=[], held=[], held_returned=[], held_pre=[], grown=[],
                 dropped=torch.zeros(1, 1))

    def step():
        counter["i"] += 1
        i = counter["i"]
        # the holder's tensor is also held by store itself (until the next call replaces both): reached straight from
        # store, the collection does not move it behind the 'latest' tensor below, which must stay the last survivor
        # that gc.get_objects() lists
        store["holder_t"] = torch.randn(HOLDER_ROWS, i + 50)
        holder = {"t": store["holder_t"]}
        holder["self"] = holder
        store["holder"] = holder  # the previous holder (and its tensor) is now garbage in a reference cycle
        del holder
        if "returned" in store and store["returned"]() is not None:  # only the finder can still refer to it
            store["held_returned"].append(i)
        if i == 1:  # a tensor that existed before find_leaks was called, dropped now: nothing else refers to it
            store["dropped_ref"] = weakref.ref(store.pop("dropped"))
        elif store["dropped_ref"]() is not None:
            store["held_pre"].append(i)
        for t in store["grown"]:
            t.resize_(i, GROWN_COLS)
        store["grown"].append(torch.zeros(i, GROWN_COLS))
        store["history"].append(torch.full((i + 1, d["a"]), float(i)))
        tmp = torch.randn(d["b"], i + 10)
        if i % 2 == 0:
            store["history"].append(tmp)
        base = torch.randn(d["vr"], d["vc"])
        store["history"].append(base[1:3, :].T.T)
        del tmp, base
        if "model" not in store:  # (momentum SGD by hand: torch.optim's first use imports torch._dynamo, slowly)
            torch.manual_seed(0)
            store["model"] = nn.Linear(4, 3)
            store["x"] = torch.randn(8, 4)
            store["momentum"] = [torch.zeros_like(p) for p in store["model"].parameters()]
            store["state"] = [torch.zeros(5, 5), torch.zeros(6)]
        model = store["model"]
        model.zero_grad()
        loss = model(store["x"]).pow(2).mean()
        loss.backward()
        with torch.no_grad():
            for p, buf in zip(model.parameters(), store["momentum"]):
                buf.mul_(0.9).add_(p.grad)
                p.sub_(0.1 * buf)
        store["history"].append(loss)
        store["state"][0].add_(1)
        store["pre"].add_(1)
        store["kept"].append(store["pre"])
        store["history"].append(nn.Parameter(torch.zeros(i + 1, d["p"])))
        cycle = {"t": torch.randn(CYCLE_ROWS, i + 30)}
        cycle["self"] = cycle
        del cycle
        # the 'latest' tensor last of all that survive the call: gc.get_objects() lists it last after the collection,
        # so a finder whose own `for t in ...:` loop leaves t bound to the last tensor it scanned holds this one
        old = weakref.ref(store["last"]) if "last" in store else None
        store["last"] = torch.randn(4, i + 20)
        if old is not None and old() is not None:  # nothing else refers to it: only the finder can keep it
            store["held"].append(i)
        out = loss.detach()
        store["returned"] = weakref.ref(out)
        return out
    return step


def leaks(ns, n_iters, dims=None):
    # Speed: objects that exist now go to the collector's permanent generation, which gc.collect() skips and
    # gc.get_objects() does not list. None of them can be born during the calls, so the answer is the same.
    gc.collect()
    gc.freeze()
    # No automatic collection during the call: whatever a reference cycle holds stays until an explicit
    # gc.collect(), as the text's "after each call it runs gc.collect()" expects (the same for every run).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        store = {}
        step = make_step(store, dims)
        res = get(ns, "find_leaks")(step, n_iters)
    finally:
        if was_enabled:
            gc.enable()
        gc.unfreeze()
    out = {"kind": type(res).__name__,
           "items": [list(s) if isinstance(s, tuple) else repr(s)[:60] for s in res]
           if isinstance(res, (list, tuple)) else [],
           "item_types": [type(s).__name__ for s in res] if isinstance(res, (list, tuple)) else [],
           "held": list(store["held"]), "held_returned": list(store["held_returned"]),
           "held_pre": list(store["held_pre"])}
    del res
    store.clear()
    gc.collect()
    return out


def growth(ns, snapshots):
    res = get(ns, "memory_growth")([dict(s) for s in snapshots])
    if not isinstance(res, dict):
        return {"kind": type(res).__name__}
    return {"kind": "dict", "keys": sorted(str(k) for k in res),
            "values": {str(k): v if isinstance(v, (bool, int, float)) else repr(v)[:60] for k, v in res.items()},
            "types": {str(k): type(v).__name__ for k, v in res.items()}}


def growth_error(ns, snapshots):
    return capture_error(get(ns, "memory_growth"), [dict(s) for s in snapshots])


def growth_on_gpu(ns, leak_elems, iters):
    """memory_growth on real torch.cuda.memory_stats() snapshots of a loop that keeps (or not) one float32
    tensor of leak_elems elements per iteration."""
    kept = []
    snaps = []
    for _ in range(iters):
        a = torch.randn(256, 256, device="cuda")
        b = (a @ a).sum()
        if leak_elems:
            kept.append(torch.ones(leak_elems, device="cuda"))
        del a, b
        torch.cuda.synchronize()
        snaps.append(torch.cuda.memory_stats())
    res = get(ns, "memory_growth")(snaps)
    kept.clear()
    return {"values": {str(k): v for k, v in res.items()} if isinstance(res, dict) else repr(res)[:100]}
