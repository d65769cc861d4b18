"""Probes for 15-05 (TorchScript and torch.export): run next to the submission, return plain data only.

The judge loads this file too (tests/15-05/judge.py) to build the very same models from the same
plain descriptions and seeded state_dicts, and computes every expected value on its own copy.

The model classes live in a source string registered in linecache: torch.jit.script reads the
source of the classes it compiles, and inside the sandbox this file's path is not readable.
"""
import linecache
import os
import sys
import tempfile
import warnings

import torch
import torch.nn as nn
from torch.overrides import TorchFunctionMode

from course.judge.probelib import build_model, get, run_fresh
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)

MODELS_FILE = "<course-15-05-models>"
MODELS_SRC = '''
import torch
import torch.nn as nn


class BranchyNet(nn.Module):
    """The notebook's model: invert a batch whose mean pixel is above 0.5, then an MLP."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        if x.mean() > 0.5:
            x = 1.0 - x
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))


class CondNet(nn.Module):
    """BranchyNet with torch.cond (the judge's own exportable version). Its argument is not called x:
    an export keyed by the notebook's literal name "x" must fail on it."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, images):
        x = torch.cond(images.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (images,))
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))


class CondNormNet(nn.Module):
    """CondNet with a BatchNorm over each image's pixels after the branch: in training mode it normalises with the
    batch's own statistics, in eval mode with its running ones, so a program exported from an eval() copy of a model
    handed over in training mode gives other logits. (Over (N, 1, 784), a batch of one image still has 784 values
    per channel: batch sizes from 1 up export and run.)"""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.norm = nn.BatchNorm1d(1)
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, images):
        x = torch.cond(images.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (images,))
        x = self.norm(x.reshape(x.shape[0], 1, -1))
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))


class SubtleNet(nn.Module):
    """A branch whose two sides differ by a factor 1.0005 only (about 5e-4 relative)."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        h = torch.tanh(self.fc1(x.flatten(1)))
        if x.mean() > 0.5:
            h = h * 1.0005
        return self.fc2(h)


class RoundingNet(nn.Module):
    """Logits near 100 and a branch that scales them by 1.000005: a difference of about 5e-4, within allclose's
    default tolerance (1e-8 + 1e-5 |logit|, about 1e-3) by a factor 2, never bitwise equal, and beyond a tighter
    one such as torch.testing.assert_close's float32 tolerance (1e-5 + 1.3e-6 |logit|, about 1.4e-4): a trace on
    the other branch agrees with the eager model by allclose, not by torch.equal or assert_close."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        y = self.fc2(torch.tanh(self.fc1(x.flatten(1)))) + 100.0
        if x.mean() > 0.5:
            y = y * 1.000005
        return y


class NudgeNet(nn.Module):
    """A branch that shifts every logit by 3e-5: beyond allclose's default tolerance (1e-8 + 1e-5 * |logit|)
    for logits under 3 in size, within a looser atol=1e-4."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        y = self.fc2(torch.tanh(self.fc1(x.flatten(1))))
        if x.mean() > 0.5:
            y = y + 3e-5
        return y


class EdgeNet(nn.Module):
    """float64 logits near 1000 and a branch that scales them by f = 1 + 1.000005e-5, so that the difference
    d = (f - 1) |y| lies between 1e-8 + 1e-5 |y| and 1e-8 + 1e-5 |f y| (margins about 5e-8, far above float64
    rounding): allclose(a, b) and allclose(b, a) disagree, and which one is asked decides the flag. A trace on
    the scaling branch is flagged on the other inputs, a trace on the other branch is not flagged."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)
        self.double()

    def forward(self, x):
        y = self.fc2(torch.tanh(self.fc1(x.flatten(1)))) + 1000.0
        if x.mean() > 0.5:
            y = y * (1.0 + 1.000005e-5)
        return y


class ScalarNet(nn.Module):
    """BranchyNet deciding on a Python float read from a tensor (float(x.mean())): tracing it warns about
    converting a tensor to a Python float, a TracerWarning whose message is not about a boolean."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        level = float(x.mean())
        if level > 0.5:
            x = 1.0 - x
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))


class PlainNet(nn.Module):
    """No branch at all: a trace is faithful on every input."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        return self.fc2(torch.sigmoid(self.fc1(x.flatten(1))))


class DropNet(nn.Module):
    """PlainNet with dropout: in training mode each forward call draws its own mask, so a trace and the
    eager model disagree on every input (and agree on none in eval mode)."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.drop = nn.Dropout(0.5)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        return self.fc2(self.drop(torch.sigmoid(self.fc1(x.flatten(1)))))


class SizeNet(nn.Module):
    """An MLP whose forward branches in Python on the batch size: a batch of more than 8 images gets its logits
    doubled. Eager mode runs every size; torch.export with a Dim range that spans 8 cannot keep both sides and raises
    (a constraint violation that names the guard), while a Dim.AUTO hint narrows the batch silently to the example's
    side and returns a program that rejects the other side's sizes (held-out round 27)."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        y = self.fc2(torch.relu(self.fc1(x.flatten(1))))
        if x.shape[0] > 8:
            y = y * 2.0
        return y


class CountNet(nn.Module):
    """No parameters at all; a buffer counts the forward calls, in every mode (as a model that keeps statistics in
    eval mode too): a forward call before exporting changes the caller's buffer, the export itself (fake tensors)
    does not."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        self.calls += 1
        return torch.relu(x.flatten(1) - 0.5)


def _double_logits(module, args, out):
    return out * 2.0


class HookNet(BranchyNet):
    """BranchyNet with a forward hook that doubles its logits: calling the module runs the hook, and
    torch.jit.trace records it; model.forward(x) skips it."""

    def __init__(self, hidden: int = 32):
        super().__init__(hidden)
        self.register_forward_hook(_double_logits)


class ScaleNet(nn.Module):
    """No branch; the logits are scaled by each image's largest pixel, so an image with an infinite pixel
    gets infinite logits, the same in a trace and in eager mode (torch.allclose counts them as close)."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        flat = x.flatten(1)
        return self.fc2(torch.sigmoid(self.fc1(flat.clamp(-1.0, 2.0)))) * flat.amax(dim=1, keepdim=True)


def _course_scale():
    """A custom operator outside the aten namespace (its OpOverload prints as course1505.scale.default),
    registered once a process."""
    if not hasattr(torch.ops.course1505, "scale"):
        @torch.library.custom_op("course1505::scale", mutates_args=())
        def scale(x: torch.Tensor, s: float) -> torch.Tensor:
            return x * s

        @scale.register_fake
        def _(x, s):
            return torch.empty_like(x)
    return torch.ops.course1505.scale


_course_scale()


class ConvNet(nn.Module):
    """A small CNN whose exported graph repeats operators (conv, batch norm, relu twice, or more: its second
    block runs `repeats` times)."""

    def __init__(self, hidden: int = 4, repeats: int = 1):
        super().__init__()
        self.repeats = repeats
        self.c1 = nn.Conv2d(1, hidden, 3, padding=1)
        self.b1 = nn.BatchNorm2d(hidden)
        self.c2 = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.b2 = nn.BatchNorm2d(hidden)
        self.head = nn.Linear(hidden, 10)

    def forward(self, images):
        x = torch.relu(self.b1(self.c1(images)))
        x = torch.nn.functional.max_pool2d(x, 2)
        for _ in range(self.repeats):
            x = torch.relu(self.b2(self.c2(x)))
        return self.head(x.mean(dim=(2, 3)))


@torch.compiler.nested_compile_region
def _squash(t):
    """One region called from two graphs (the inner cond's true side and the outer cond's false side): torch.export
    makes it ONE subgraph module, repeated_subgraph0, a child of both (held-out round 27)."""
    return t / (t.abs() + 1.0)


def _inner_true(t, s):
    return _squash(torch.sigmoid(1.0 - t)) * s


def _inner_false(t, s):
    return torch.exp(-t) * s


class CondConvNet(nn.Module):
    """A branch with several operators on each side, then the CNN: subgraphs hold real work. The logits pass
    through a custom operator (course1505.scale, an OpOverload outside aten) before the reshape. Two overloads of
    clamp (default and Tensor) differ only in case where their names part. The true
    side holds a second cond, whose branches are submodules of a branch (not children of the root).
    A function marked torch.compiler.nested_compile_region (_squash) is called on both sides: torch.export keeps
    it as one subgraph module shared by two parent graphs (ep.graph_module.modules() yields it once; a walk through
    each graph's children meets it twice).
    The no_grad block is a higher-order operator of another kind (wrap_with_set_grad_enabled, its body
    a submodule called submod_*, not *_graph_*). Exported with a dynamic batch, the final reshape's size
    is computed on the batch's symbol by operator.mul, a Python function that is not an operator."""

    def __init__(self, hidden: int = 4, repeats: int = 1):
        super().__init__()
        self.net = ConvNet(hidden, repeats)
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        with torch.no_grad():
            x = x * self.scale
        # aten.clamp.default and aten.clamp.Tensor (no change to x: pixels in [0, 1], scale 1): sorted() puts the
        # upper-case overload first, a case-insensitive sort the other
        x = x.clamp(-1.0, 2.0).clamp(min=self.scale - 1.0)
        x = torch.cond(x.mean() > 0.5,
                       lambda t, s: torch.cond(t.amax() > 0.9, _inner_true, _inner_false, (t, s)),
                       lambda t, s: _squash(torch.tanh(t)) + torch.tanh(t * s),
                       (x, self.scale))
        out = torch.ops.course1505.scale(self.net(x), 2.0)
        return out.reshape(out.shape[0] * out.shape[1])
'''

KINDS = ("BranchyNet", "CondNet", "CondNormNet", "SubtleNet", "RoundingNet", "NudgeNet", "EdgeNet", "ScalarNet", "PlainNet", "DropNet",
         "ConvNet", "CondConvNet", "HookNet", "ScaleNet", "CountNet", "SizeNet")


def _models() -> dict:
    lines = MODELS_SRC.splitlines(True)
    linecache.cache[MODELS_FILE] = (len(MODELS_SRC), None, lines, MODELS_FILE)
    ns = {"__name__": "course_15_05_models"}
    exec(compile(MODELS_SRC, MODELS_FILE, "exec"), ns)
    return ns


_M = _models()


def build(kind: str, hidden: int, state: dict | None = None, repeats: int = 1) -> nn.Module:
    """The model ``kind`` with ``state`` loaded, in eval mode (float32); ``repeats`` only for the CNNs."""
    if kind not in KINDS:
        raise ValueError(kind)
    torch.manual_seed(0)
    model = _M[kind](hidden) if repeats == 1 else _M[kind](hidden, repeats)
    if state is not None:
        model.load_state_dict(state)
    return model.eval()


def _err(exc: BaseException) -> dict:
    return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}


def _plain_item(v):
    if isinstance(v, (bool, int, float, str)) or isinstance(v, torch.Tensor):
        return v
    return f"<{type(v).__name__}>"


# ====================================================================== exercise 1: trace_mismatches
OWN_WARNING = "course-15-05: the model's own warning"


def trace_flags(ns, kind, hidden, state, example, inputs, train=False, warn=False, outer_no_grad=False):
    """Call trace_mismatches on the judge's model (in training mode if ``train``); report what it returned,
    the warnings that escaped it, whether gradients were enabled in each forward call of the model, how many
    of those calls ran under torch.jit's tracer, and the train/eval mode of its modules after the call. With
    ``warn``, every forward call of the model warns (a UserWarning of its own) and the probe records whether
    that warning reached the caller. The caller silences torch.jit's deprecation FutureWarning, as the notebook
    does: the probe records each one that still came through (a simplefilter("always") inside the function
    overrides the caller's filter, round 25). With ``outer_no_grad``, the call is made inside the caller's own
    torch.no_grad() block, and the probe records whether gradients are still disabled there after the call."""
    fn = get(ns, "trace_mismatches")
    model = build(kind, hidden, state)
    if train:
        model.train()
    grad_seen, traced_calls, own_escaped = [], [], []

    def pre_hook(m, args):
        grad_seen.append(torch.is_grad_enabled())
        traced_calls.append(torch.jit.is_tracing())
        if warn:
            n0 = len(caught)
            warnings.warn(OWN_WARNING, UserWarning)
            own_escaped.append(len(caught) > n0)

    model.register_forward_pre_hook(pre_hook)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", message=r"`torch\.jit\.\w+` is deprecated", category=FutureWarning)
        before = list(warnings.filters)
        grad_after = None
        if outer_no_grad:
            with torch.no_grad():
                result = fn(model, example.clone(), [x.clone() for x in inputs])
                grad_after = torch.is_grad_enabled()
        else:
            result = fn(model, example.clone(), [x.clone() for x in inputs])
        # filters the call left behind (a global filterwarnings instead of one inside catch_warnings)
        left = [f"{f[0]!r} for {getattr(f[2], '__name__', f[2])}" for f in warnings.filters if f not in before]
        if not left and list(warnings.filters) != before:
            left = ["(the filter list was reordered or shortened)"]
    escaped = [w.category.__name__ for w in caught if issubclass(w.category, torch.jit.TracerWarning)]
    deprecations = [str(w.message)[:90] for w in caught
                    if issubclass(w.category, FutureWarning) and "is deprecated" in str(w.message)]
    if isinstance(result, (list, tuple)):
        flags = [_plain_item(v) for v in result]
    else:
        flags = f"<{type(result).__name__}>"
    return {"flags": flags, "container": type(result).__name__, "escaped": escaped, "grad_enabled": grad_seen,
            "filters_left": left, "training_after": [name for name, m in model.named_modules() if m.training],
            "traced_calls": sum(traced_calls), "own_escaped": own_escaped, "deprecations": deprecations,
            "grad_after": grad_after}


def trace_flags_calls(ns, kind, hidden, state, calls):
    """trace_mismatches called once for each (example, inputs) in ``calls``, on one and the same model object, one
    call after the other (a trace kept from an earlier call is a trace of another example); per call, what it
    returned."""
    fn = get(ns, "trace_mismatches")
    model = build(kind, hidden, state)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for example, inputs in calls:
            result = fn(model, example.clone(), [x.clone() for x in inputs])
            flags = [_plain_item(v) for v in result] if isinstance(result, (list, tuple)) else f"<{type(result).__name__}>"
            out.append({"flags": flags, "container": type(result).__name__})
    return out


def trace_flags_raising(ns, kind, hidden, state, example, inputs):
    """trace_mismatches on inputs of which one makes the model raise (rows of another width than fc1's): whatever
    the call does with it (raise or not), report whether it raised, then, in the caller, whether gradients are enabled
    (they were when the call began) and the warning filters the call left behind (held-out round 27: a
    set_grad_enabled(False) or a filterwarnings undone only on the way out of a normal return). The probe's own
    context puts both back for the next probe."""
    fn = get(ns, "trace_mismatches")
    model = build(kind, hidden, state)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"`torch\.jit\.\w+` is deprecated", category=FutureWarning)
        before = list(warnings.filters)
        with torch.enable_grad():
            raised = ""
            try:
                fn(model, example.clone(), [x.clone() for x in inputs])
            except Exception as exc:
                raised = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0][:120]}"
            grad_after = torch.is_grad_enabled()
        left = [f"{f[0]!r} for {getattr(f[2], '__name__', f[2])}" for f in warnings.filters if f not in before]
        if not left and list(warnings.filters) != before:
            left = ["(the filter list was reordered or shortened)"]
    return {"raised": raised, "grad_after": grad_after, "filters_left": left}


# ====================================================================== exercise 2: CondBranchyNet
_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
_WORKER = os.path.join("course", "judge", "worker.py")
_READS = {"__bool__": "bool(tensor) (an `if`, `and`, `or` or `not` on a tensor)", "item": "tensor.item()",
          "__float__": "float(tensor)", "__int__": "int(tensor)", "__index__": "a tensor used as a Python index",
          "tolist": "tensor.tolist()", "is_nonzero": "torch.is_nonzero(tensor)", "numpy": "tensor.numpy()",
          "__array__": "numpy.asarray(tensor)", "__contains__": "`value in tensor`"}


class _PythonValues(TorchFunctionMode):
    """Records each place where code outside torch turns a tensor into a Python value (bool(t), t.item(),
    float(t), ...): the `if` on a tensor value that exercise 2 rules out. Besides the names above, any torch call
    that hands back a Python bool, float or complex or a numpy array (torch.equal, torch.allclose: red team 23, a
    Python `if` on them kept full marks) is one, but a tensor's metadata (is_*, has_*, a property such as
    requires_grad). torch's own frames (torch.cond's eager path among them) are not recorded; the call itself runs
    unchanged."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        self._note(_READS.get(name))  # before the call (bool() of a batch raises)
        out = func(*args, **(kwargs or {}))
        if name not in _READS and name != "__get__" and not name.startswith(("is_", "has_", "_is_")) and (
                type(out) in (bool, float, complex) or type(out).__module__ == "numpy"):
            self._note(f"{name}(...) returning a Python {type(out).__name__}")
        return out

    def _note(self, what):
        if what is not None:
            frame = sys._getframe(2)
            while frame is not None and frame.f_code.co_filename.endswith(_WORKER):  # the judge's wrapper of this mode
                frame = frame.f_back
            if frame is not None and not frame.f_code.co_filename.startswith(_TORCH_DIR):
                self.seen.append(f"{what} in {frame.f_code.co_name}(), line {frame.f_lineno} of its cell")


def _student_cond(ns, hidden, state):
    model = get(ns, "CondBranchyNet")(hidden=hidden)
    model.load_state_dict(state)
    return model.eval()


def cond_eager(ns, hidden, state, inputs, double=False, half=False):
    """CondBranchyNet with the judge's weights (converted with .double() if ``double``, .half() if ``half``), called
    eagerly on each input; its outputs, and where its code read a tensor's value into Python (bool(t), t.item(), ...)."""
    model = _student_cond(ns, hidden, state)
    if double:
        model.double()
    if half:
        model.half()
    out, given = [], [x.clone() for x in inputs]
    with torch.no_grad(), _PythonValues() as reads:
        for x in given:
            try:
                out.append(model(x))
            except Exception as exc:
                out.append(_err(exc))
    # the caller's batches afterwards, read outside the recording mode (NaN where NaN was counts as unchanged)
    changed = [g.shape != x.shape or bool(((g != x) & ~(g.isnan() & x.isnan())).any()) for g, x in zip(given, inputs)]
    return {"outputs": out, "python_values": list(dict.fromkeys(reads.seen)), "changed": changed}


def cond_device(ns, hidden, state, inputs):
    """CondBranchyNet with the judge's weights moved with .to(device) to a device other than the default one
    (probelib.stand_in_device: the meta device, or the CPU while the default device is meta), called on each input
    moved there too: its outputs (on the CPU they carry values), each with the device it came back on relative to
    the inputs' ("meta" when the same), or the error the call raised (a tensor made without device= mixes devices)."""
    from course.judge.probelib import relative_device, stand_in_device

    def run(device):
        with torch.device("cpu"):  # the module is built with values, then moved
            model = _student_cond(ns, hidden, state)
        model.to(device)
        out = []
        with torch.no_grad():
            for x in inputs:
                if device == "meta":  # an error that needs values moves the whole run to the CPU (stand_in_device)
                    out.append(model(x.to(device)))
                    continue
                try:
                    out.append(model(x.to(device)))
                except Exception as exc:
                    out.append(_err(exc))
        return out

    try:
        out, home = stand_in_device(run)
    except Exception as exc:  # on the meta device, an error that is not about values (devices mixed)
        return {"home": "meta", "outputs": [_err(exc) for _ in inputs]}
    return {"home": home, "outputs": [{"device": relative_device(o, home), "shape": list(o.shape),
                                       "value": o.detach().to("cpu") if home == "cpu" else None}
                                      if isinstance(o, torch.Tensor) else o if isinstance(o, dict)
                                      else f"<{type(o).__name__}>" for o in out]}


def cond_export(ns, hidden, state, example, inputs):
    """torch.export.export(CondBranchyNet with the judge's weights, (example,)), then .module() on each input."""
    model = _student_cond(ns, hidden, state)
    try:
        ep = torch.export.export(model, (example.clone(),))
    except Exception as exc:
        return _err(exc)
    runner = ep.module()
    out = []
    with torch.no_grad():
        for x in inputs:
            try:
                out.append(runner(x.clone()))
            except Exception as exc:
                out.append(_err(exc))
    return {"outputs": out}


INPUT_GRAD = "the input batch"  # the key of the input's gradient in cond_train's rows


def cond_train(ns, hidden, state, inputs, targets):
    """CondBranchyNet with the judge's weights, called with autograd on (as in training) on each input; per
    input: whether the logits carry a graph, the gradients of cross_entropy(logits, target) for each named
    parameter and for the input batch (given as a tensor that requires grad, as a saliency map or an adversarial
    step does), and whether the call changed the caller's tensor."""
    model = _student_cond(ns, hidden, state)
    out = []
    with torch.enable_grad():
        for x, y in zip(inputs, targets):
            source = x.clone().requires_grad_()
            given, kept = source.clone(), x.clone()  # not a leaf: an in-place change is recorded, not refused
            try:
                logits = model(given)
                row = {"changed": not torch.equal(given.detach(), kept),
                       "graph": bool(getattr(logits, "requires_grad", False))}
                if row["graph"]:
                    params = dict(model.named_parameters())
                    grads = torch.autograd.grad(nn.functional.cross_entropy(logits, y),
                                                list(params.values()) + [source], allow_unused=True)
                    row["grads"] = {k: (g.detach().clone() if g is not None else "none")
                                    for k, g in zip(list(params) + [INPUT_GRAD], grads)}
                out.append(row)
            except Exception as exc:
                out.append(_err(exc))
    return out


# ====================================================================== exercise 3: export_dynamic_batch
def export_dynamic(ns, kind, hidden, state, example, min_batch, max_batch, inputs, double=False, train=False,
                   frozen=()):
    """Call export_dynamic_batch on the judge's model (in float64 if ``double``: the example and inputs are
    then float64 too; in training mode if ``train``: its BatchNorm then normalises with each batch's statistics,
    except the submodules named in ``frozen``, left in eval mode as in fine-tuning); run the program's module on
    each input; report the modules whose train/eval mode the call changed, and the parameters and buffers whose
    values it changed (read before the program runs: its module shares the model's buffers)."""
    fn = get(ns, "export_dynamic_batch")
    model = build(kind, hidden, state)
    if double:
        model.double()
    if train:
        model.train()
        for name in frozen:
            model.get_submodule(name).eval()
    modes = {name or "(the model)": m.training for name, m in model.named_modules()}
    given = {name: t.detach().clone() for name, t in model.state_dict().items()}
    ep = fn(model, example.clone(), min_batch, max_batch)
    res = {"type": type(ep).__name__, "ranges": [], "outputs": []}
    after = {name or "(the model)": m.training for name, m in model.named_modules()}
    res["modes_changed"] = [f"{name} (given in {'training' if modes[name] else 'eval'} mode, now in "
                            f"{'training' if after[name] else 'eval'} mode)"
                            for name in modes if name in after and after[name] != modes[name]]
    now = model.state_dict()
    res["state_changed"] = [name for name, t in given.items()
                            if name not in now or now[name].shape != t.shape or not torch.equal(now[name], t)]
    if not isinstance(ep, torch.export.ExportedProgram):
        return res
    res["ranges"] = [[str(vr.lower), str(vr.upper)] for vr in ep.range_constraints.values()]
    res["outputs"] = _run_program(ep, inputs)
    return res


def _run_program(ep, inputs) -> list:
    """The program's module on each input: its output, or the error it raised."""
    runner, out = ep.module(), []
    with torch.no_grad():
        for x in inputs:
            try:
                out.append(runner(x.clone()))
            except Exception as exc:
                out.append(_err(exc))
    return out


def export_some_sizes(ns, task, kind, hidden, state, example, inputs, min_batch=None, max_batch=None):
    """export_dynamic_batch(model, example, min_batch, max_batch) (task "dynamic") or save_exported(model, example,
    path) then torch.export.load(path).module() in this process (task "save"), on the judge's SizeNet, whose code
    works for every batch size eagerly but cannot be exported with one range across its Python branch on the batch
    size (held-out round 27). Reports what the call raised ("" when nothing), the program's results on each input
    when it gave one, and the parameters whose requires_grad the call changed (on whichever way it ended)."""
    model = build(kind, hidden, state)
    flags = {name: p.requires_grad for name, p in model.named_parameters()}
    res = {"raised": "", "export_refused": False, "type": "", "outputs": []}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.pt2")
        ep = None
        try:  # only what the student's function raises counts as the export refusing the model
            if task == "dynamic":
                ep = get(ns, "export_dynamic_batch")(model, example.clone(), min_batch, max_batch)
            else:
                get(ns, "save_exported")(model, example.clone(), path)
        except Exception as exc:
            res["raised"] = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0][:200]}"
            # torch.export's own refusal of a range the code cannot keep (a UserError: "Constraints violated")
            user_error = getattr(getattr(getattr(torch, "_dynamo", None), "exc", None), "UserError", ())
            res["export_refused"] = isinstance(exc, user_error) or "Constraints violated" in str(exc)
        if not res["raised"] and task == "dynamic":
            res["type"] = type(ep).__name__
        if not res["raised"] and task != "dynamic":
            if not os.path.isfile(path):
                res["type"] = "(no file written)"
            else:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        ep = torch.export.load(path)
                except Exception as exc:
                    res["type"] = f"(a file torch.export.load refuses: {type(exc).__name__})"
        if not res["raised"] and ep is not None:
            res["type"] = type(ep).__name__
            if isinstance(ep, torch.export.ExportedProgram):
                res["outputs"] = _run_program(ep, inputs)
    res["grad_changed"] = [f"{name} (requires_grad given {flags.get(name)}, now {p.requires_grad})"
                           for name, p in model.named_parameters() if p.requires_grad != flags.get(name)]
    return res


def export_dynamic_spec(ns, spec, example, min_batch, max_batch, inputs):
    """export_dynamic_batch on a model from a strategies.model_specs() description (its forward argument
    is not always called x; in eval mode); the program's module run on each input."""
    ep = get(ns, "export_dynamic_batch")(build_model(spec).eval(), example.clone(), min_batch, max_batch)
    ok = isinstance(ep, torch.export.ExportedProgram)
    return {"type": type(ep).__name__, "outputs": _run_program(ep, inputs) if ok else []}


# ====================================================================== exercise 4: aten_ops / unsupported_ops
def _export(kind, hidden, state, example, repeats=1):
    # CondConvNet: a dynamic batch (its symbolic size arithmetic) and grad mode on (its no_grad block is kept)
    dynamic = ({0: torch.export.Dim("batch", min=2, max=64)},) if kind == "CondConvNet" else None
    with torch.enable_grad():
        return torch.export.export(build(kind, hidden, state, repeats), (example,), dynamic_shapes=dynamic)


def _all_code(ep) -> str:
    return "\n".join(m.code for m in ep.graph_module.modules() if isinstance(m, torch.fx.GraphModule))


FORMS = ("plain", "decomposed")  # the program as exported, and its run_decompositions()


def _relink_shared(ep):
    """torch.export.save/load writes a subgraph shared by two parent graphs (a nested_compile_region's
    repeated_subgraphN) once per parent: give every parent the first copy again, as torch.export.export returned the
    program (one module, two parents; the judge counts that program)."""
    first = {}
    for gm in [m for m in ep.graph_module.modules() if isinstance(m, torch.fx.GraphModule)]:
        for name, child in list(gm.named_children()):
            if name.startswith("repeated_subgraph") and isinstance(child, torch.fx.GraphModule):
                setattr(gm, name, first.setdefault(name, child))
    return ep


def _recount(ns, ep) -> dict:
    """aten_ops(ep), then an in-place edit of the same program object (every aten.relu.default node now calls
    aten.sigmoid.default, as a rewriting pass does), then aten_ops(ep) again: the second count must be of the program
    as it is then (held-out round 27: a result cached by id(ep) is the first program's)."""
    fn = get(ns, "aten_ops")
    first = fn(ep)
    for gm in ep.graph_module.modules():
        if isinstance(gm, torch.fx.GraphModule):
            for node in gm.graph.nodes:
                if node.op == "call_function" and node.target is torch.ops.aten.relu.default:
                    node.target = torch.ops.aten.sigmoid.default
            gm.recompile()
    second = fn(ep)
    plain = (lambda c: {str(k): _plain_item(v) for k, v in c.items()} if isinstance(c, dict) else f"<{type(c).__name__}>")
    return {"first": plain(first), "second": plain(second)}


def op_inventory(ns, programs, supported, recount=False):
    """aten_ops(ep) and unsupported_ops(ep, supported[form]) for each form in ``supported`` (FORMS): ``programs``
    maps a form to the judge's own ExportedProgram of its model, as torch.export.save wrote it (the judge exports
    once and counts its own copy; loading here costs a fraction of exporting and decomposing again, and every
    program is loaded before any student call); per form, the results and the program's generated code before
    and after both calls. With ``recount``, then aten_ops before and after an in-place edit of the plain program
    (_recount), under "recount"."""
    import io
    from course.judge.worker import describe
    loaded = {}
    for form in FORMS:
        if form in supported:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                loaded[form] = _relink_shared(torch.export.load(io.BytesIO(programs[form])))
    out = {form: _inventory(ns, loaded[form], supported[form]) for form in FORMS if form in supported}
    if recount:  # the plain program the inventory has just read (its code before and after is recorded already)
        try:
            out["recount"] = _recount(ns, loaded["plain"])
        except Exception as exc:
            out["recount"] = {"raised": describe(exc)}
    return out


def _inventory(ns, ep, supported) -> dict:
    """One form's results; what the student's code raised, as the worker reports a raising probe, under
    "raised" (the judge fails only that form's checks with it, as when each form had a call of its own)."""
    from course.judge.worker import describe
    try:
        return _inventory_of(ns, ep, supported)
    except Exception as exc:
        return {"raised": describe(exc)}


def _inventory_of(ns, ep, supported) -> dict:
    before = _all_code(ep)
    counts = get(ns, "aten_ops")(ep)
    missing = get(ns, "unsupported_ops")(ep, set(supported))
    after = _all_code(ep)
    if isinstance(counts, dict):
        counts = {str(k): _plain_item(v) for k, v in counts.items()}
    else:
        counts = f"<{type(counts).__name__}>"
    if isinstance(missing, (list, tuple)):
        missing_items = [_plain_item(v) for v in missing]
    else:
        missing_items = f"<{type(missing).__name__}>"
    return {"counts": counts, "missing": missing_items, "missing_type": type(missing).__name__,
            "before": before, "after": after}


# ====================================================================== exercise 5: save and load in a fresh process
# The fresh interpreter has torch and nothing else: not the notebook, not probes.py, not any class
# (course.judge.pristine: a copy of the worker forked before the submission's code ran).
# One interpreter loads both files.
FRESH_LOADER = r'''
import sys, warnings
warnings.filterwarnings("ignore")
import torch
jobs = torch.load(sys.argv[1], weights_only=True)
results = {}
for kind, job in jobs.items():
    result = {"loaded": "", "outputs": []}
    runner = None
    try:
        if kind == "script":
            obj = torch.jit.load(job["path"], map_location="cpu")
            runner = obj
            result["training"] = bool(obj.training)
        else:
            obj = torch.export.load(job["path"])
            # the dtypes the program records for its user inputs (a runtime compiles for them)
            users = set(obj.graph_signature.user_inputs)
            result["input_dtypes"] = [str(getattr(n.meta.get("val"), "dtype", None)) for n in obj.graph.nodes
                                      if n.op == "placeholder" and n.name in users]
            # round 28: the range the program records for its input's dimension 0 (a runtime compiles for it; the
            # module's run-time guards do not check a lower bound of 2, so a program declared [2, 1024] still runs a
            # batch of 1 here)
            try:
                first = [n for n in obj.graph.nodes if n.op == "placeholder" and n.name in users][0]
                size = first.meta["val"].shape[0]
                if isinstance(size, torch.SymInt):
                    vr = obj.range_constraints.get(size.node.expr)
                    result["batch_range"] = ["?", "?"] if vr is None else [str(vr.lower), str(vr.upper)]
                else:
                    result["batch_range"] = ["static", str(int(size))]
            except Exception as exc:
                result["batch_range"] = ["?", f"{type(exc).__name__}: {str(exc)[:100]}"]
            runner = obj.module()
        result["loaded"] = type(obj).__name__
    except Exception as exc:
        result["load_error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
    if runner is not None:
        with torch.no_grad():
            for x in job["inputs"]:
                try:
                    y = runner(x)
                    result["outputs"].append(y.detach().clone() if isinstance(y, torch.Tensor)
                                             else f"<{type(y).__name__}>")
                except Exception as exc:
                    result["outputs"].append(f"{type(exc).__name__}: {str(exc)[:200]}")
    results[kind] = result
torch.save(results, sys.argv[2])
'''


def _save(fn, args, path) -> dict:
    try:
        fn(*args, path)
    except Exception as exc:
        return {"save_error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    if not os.path.isfile(path):
        return {"missing_file": True}
    return {}


def fresh_load(ns, hidden, state, example, script_inputs, export_inputs, export_state, plain=None):
    """save_scripted(the judge's BranchyNet in training mode, path1) and save_exported(the judge's CondNormNet in
    training mode, example, path2), then torch.jit.load(path1) and torch.export.load(path2).module() in one fresh
    interpreter, each run on its inputs. With ``plain`` (a dict: state, example, inputs), also save_exported(the
    judge's PlainNet in float64, the float64 example) as the job "export64" (round 25: an export made on a float32
    tensor of the student's own instead of the example given fails on a model whose first layer is a Linear)."""
    with tempfile.TemporaryDirectory() as folder:
        paths = {"script": os.path.join(folder, "model.pt"), "export": os.path.join(folder, "model.pt2")}
        # the BranchyNet is handed over in training mode, as a caller may: it has no dropout or BatchNorm, so its
        # logits are those of eval mode, and scripting it must not need eval() (torch.jit.freeze does)
        given = build("BranchyNet", hidden, state).train()
        # its fc1 is frozen with .eval() (a Linear computes the same in either mode): scripting
        # model.train(model.training) switches it back to training in the caller's model (round 25)
        given.fc1.eval()
        given_modes = {name or "(the model)": m.training for name, m in given.named_modules()}
        # the model to export is handed over in training mode too: its BatchNorm then uses each batch's statistics,
        # and a program exported from an eval() copy (running statistics) gives other logits
        to_export = build("CondNormNet", hidden, export_state).train()
        # its fc1 is frozen (.eval() on that submodule alone, as in fine-tuning; a Linear computes the same in
        # either mode): "leave it in that mode" is each module's own mode, and model.train(was_training) after the
        # export would switch fc1 back to training (held-out round 23)
        to_export.fc1.eval()
        modes = {name or "(the model)": m.training for name, m in to_export.named_modules()}
        out = {"script": _save(get(ns, "save_scripted"), (given,), paths["script"]),
               "export": _save(get(ns, "save_exported"), (to_export, example.clone()), paths["export"])}
        if plain is not None:
            paths["export64"] = os.path.join(folder, "model64.pt2")
            model64 = build("PlainNet", hidden, plain["state"]).double()
            out["export64"] = _save(get(ns, "save_exported"), (model64, plain["example"].clone()), paths["export64"])
        switched = [f"{name or '(the model)'} (given in {'training' if modes.get(name or '(the model)') else 'eval'} "
                    f"mode, now in {'training' if m.training else 'eval'} mode)"
                    for name, m in to_export.named_modules() if modes.get(name or "(the model)") != m.training]
        jobs = {kind: {"path": paths[kind], "inputs": [x.clone() for x in inputs]}
                for kind, inputs in (("script", script_inputs), ("export", export_inputs),
                                     ("export64", plain["inputs"] if plain is not None else []))
                if kind in out and not out[kind]}
        if not jobs:
            return out
        if "export" in jobs:
            out["export"] = {"switched": switched}
        job_file, result_file = os.path.join(folder, "jobs.pt"), os.path.join(folder, "results.pt")
        torch.save(jobs, job_file)
        code, output = run_fresh(FRESH_LOADER, [job_file, result_file], cwd=folder, timeout=55)
        if not os.path.exists(result_file):
            why = "it ran past 55 s" if code is None else f"exit code {code}"
            for kind in jobs:
                out[kind] = {**out.get(kind, {}), "process_error": f"{why}: {output[-400:]}"}
            return out
        results = torch.load(result_file, weights_only=True)
        for kind in jobs:
            r = results.get(kind, {})
            out[kind] = {**out.get(kind, {}), "loaded": str(r.get("loaded", "")), "load_error": str(r.get("load_error", "")),
                         "outputs": [o if isinstance(o, torch.Tensor) else str(o) for o in r.get("outputs", [])],
                         "input_dtypes": [str(d) for d in r.get("input_dtypes", [])],
                         "batch_range": [str(b) for b in r.get("batch_range", [])]}
        if "script" in jobs:  # the loaded module's mode ("" when it did not load), and the caller's model's
            out["script"]["training"] = str(results.get("script", {}).get("training", ""))
            out["script"]["given_training_after"] = bool(given.training)
            out["script"]["given_switched"] = [
                f"{name or '(the model)'} (given in {'training' if given_modes.get(name or '(the model)') else 'eval'} "
                f"mode, now in {'training' if m.training else 'eval'} mode)"
                for name, m in given.named_modules() if given_modes.get(name or "(the model)") != m.training]
        return out
