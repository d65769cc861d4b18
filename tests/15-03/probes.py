"""Probes for 15-03 (advanced nn.Module patterns): run next to the submission, return plain data only.

The model classes defined here (OldNet, NewNet, the param-group and hook test models) are the
judge's own copies: the hidden tests load this file with runpy to build identical models on their
side, so expected values never depend on anything the submission defines.
"""
import torch
import torch.nn as nn

from course.judge.probelib import capture_error, changes, get, global_state, relative_device
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


# ====================================================================== shared models
class OldNet(nn.Module):
    """Version-1 FashionMNIST classifier (its checkpoints are what convert_checkpoint reads)."""

    def __init__(self, c1=8, c2=16, hidden=64, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, c1, 3, padding=1), nn.BatchNorm2d(c1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(c1, c2, 3, padding=1), nn.BatchNorm2d(c2), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(c2 * 7 * 7, hidden), nn.ReLU(), nn.Dropout(0.2), nn.Linear(hidden, num_classes))
        self.aux = nn.Linear(hidden, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x))


class ConvBNReLU(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.bn = nn.BatchNorm2d(c_out)

    def forward(self, x):
        return torch.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)


class NewNet(nn.Module):
    """Version-2, fully convolutional: the two Linear layers became a 7x7 and a 1x1 convolution."""

    def __init__(self, c1=8, c2=16, hidden=64, num_classes=10):
        super().__init__()
        self.block1 = ConvBNReLU(1, c1)
        self.block2 = ConvBNReLU(c1, c2)
        self.fc = nn.Conv2d(c2, hidden, 7)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Conv2d(hidden, num_classes, 1)

    def forward(self, x):
        h = self.block2(self.block1(x))
        h = self.drop(torch.relu(self.fc(h)))
        return self.out(h).flatten(1)


class TinyConvNet(nn.Module):
    """A model with every kind of parameter the param-group rule must handle."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.body = nn.Sequential(nn.Conv2d(4, 6, 3, bias=False), nn.GroupNorm(2, 6), nn.ReLU())
        self.proj = nn.Linear(6, 8)
        self.norm = nn.LayerNorm(8)
        self.head = nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8), nn.Linear(8, 3))

    def forward(self, x):
        h = self.body(torch.relu(self.bn(self.stem(x)))).mean((2, 3))
        return self.head(self.norm(self.proj(h)))


class FrozenStemNet(TinyConvNet):
    """TinyConvNet with a frozen stem and a frozen norm layer (fine-tuning style)."""

    def __init__(self):
        super().__init__()
        for p in self.stem.parameters():
            p.requires_grad_(False)
        for p in self.bn.parameters():
            p.requires_grad_(False)


class TiedNet(nn.Module):
    """Two body layers share one weight; the head is a single biasless layer."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(5, 5)
        self.enc2 = nn.Linear(5, 5)
        self.enc2.weight = self.enc.weight
        self.ln = nn.LayerNorm(5)
        self.head = nn.Linear(5, 2, bias=False)

    def forward(self, x):
        return self.head(self.ln(self.enc2(torch.relu(self.enc(x)))))


class PrefixNet(nn.Module):
    """Names that only look like the head: 'header', 'head2' and a nested 'body.head'; and 'body_head', which
    differs from the dotted prefix 'body.head' only where the dot is (a regular expression built from the prefix
    without re.escape, where the prefix's own '.' matches any character, takes it for the head 'body.head')."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential()
        self.body.add_module("head", nn.Linear(4, 4))
        self.header = nn.Linear(4, 4)
        self.head2 = nn.Linear(4, 4)
        self.body_head = nn.Linear(4, 4)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.body_head(self.head2(self.header(self.body(x)))))


class ScaledLayerNorm(nn.LayerNorm):
    """A LayerNorm subclass (still a normalisation layer)."""


class NormZoo(nn.Module):
    """Every normalisation layer kind the exercise names, one of them a subclass."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(2, 4, 1)
        self.bn3 = nn.BatchNorm3d(4)
        self.inorm = nn.InstanceNorm1d(4, affine=True)
        self.gn = nn.GroupNorm(2, 4)
        self.bn1 = nn.BatchNorm1d(4)
        self.sln = ScaledLayerNorm(4)
        self.bias_proj = nn.Linear(4, 4)  # a weight whose name contains "bias": it is not a bias
        self.head = nn.Linear(4, 3)
        # a bias owned by the model itself: its qualified name is plain "bias", with no "." before it
        self.bias = nn.Parameter(torch.linspace(-0.1, 0.1, 3))

    def forward(self, x):
        h = self.bn3(self.conv(x)).mean((3, 4))
        h = self.gn(self.inorm(h)).mean(2)
        return self.head(self.bias_proj(self.sln(self.bn1(h)))) + self.bias


class SeqNet(nn.Module):
    """Biases not named plain 'bias' (a two-layer bidirectional LSTM's bias_ih_l0 ... bias_hh_l1_reverse,
    attention's in_proj_bias) and a learned 0-dim temperature, which is neither a bias nor a normalisation
    parameter."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 4, num_layers=2, bidirectional=True, batch_first=True)
        self.attn = nn.MultiheadAttention(8, 2, batch_first=True)
        self.temperature = nn.Parameter(torch.tensor(1.5))
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        h, _ = self.rnn(x)
        h, _ = self.attn(h, h, h)
        return self.head(h.mean(1)) / self.temperature


def RootLSTM():
    """An nn.LSTM handed over as the model itself: its parameter names have no "." at all (weight_ih_l0,
    bias_ih_l0, ..., bias_hh_l1_reverse), so a test for ".bias" or for a module name before the bias misses them."""
    return nn.LSTM(3, 4, num_layers=2, bidirectional=True)


def RootGroupNorm():
    """A normalisation layer handed over as the model itself: its scale is named plain "weight", and the module
    that owns it is the model (named "" by named_modules()), not a module named "weight"."""
    return nn.GroupNorm(2, 6)


PG_MODELS = {"tiny": TinyConvNet, "frozen": FrozenStemNet, "tied": TiedNet, "prefix": PrefixNet, "norms": NormZoo,
             "seq": SeqNet, "rnn": RootLSTM, "rootnorm": RootGroupNorm}


def build_pg_model(name, seed, freeze=()):
    torch.manual_seed(seed)
    m = PG_MODELS[name]().double()
    for n, p in m.named_parameters():
        if n in freeze:
            p.requires_grad_(False)
    return m


def pg_grads(model, seed, step):
    """Deterministic fake gradients for every trainable parameter (same on both sides)."""
    g = torch.Generator().manual_seed(seed * 1000 + step)
    return {n: torch.randn(p.shape, generator=g, dtype=p.dtype) for n, p in model.named_parameters() if p.requires_grad}


class Twice(nn.Module):
    """Uses one ReLU module twice, so it is called twice per forward."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 3, 3)
        self.act = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(2)
        self.mlp = nn.Sequential(nn.Flatten(), nn.Linear(12, 6), nn.Tanh(), nn.Linear(6, 4))

    def forward(self, x):
        h = self.pool(self.act(self.conv(x)))
        return self.act(self.mlp(h))


class Blowup(nn.Module):
    """A scale layer whose output overflows to inf (then NaN further on) for large inputs."""

    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def forward(self, x):
        return torch.exp(x * self.factor)


class Scale(nn.Module):
    """Multiplies by a constant: with 1e100, float64 outputs far past float32's range, every value finite."""

    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def forward(self, x):
        return x * self.factor


class Saturate(nn.Module):
    """Maps into (1.2e308, 1.7e308): every value finite in float64, their sum (and so output.mean()) is not."""

    def forward(self, x):
        return torch.sigmoid(x) * 0.5e308 + 1.2e308


class Crowd(nn.Module):
    """Maps into (2000, 3000): in float16 every value is finite, a few dozen of them sum past 65504 (output.sum()
    is inf), while output.mean() and output.std(), which PyTorch accumulates in float32, are finite."""

    def forward(self, x):
        return torch.sigmoid(x) * 1000 + 2000


class Raiser(nn.Module):
    """Raises in forward: a RuntimeError, or (interrupt=True) a KeyboardInterrupt, Ctrl-C while debugging,
    which is a BaseException but not an Exception."""

    def __init__(self, interrupt=False):
        super().__init__()
        self.interrupt = interrupt

    def forward(self, x):
        # kept: the caller must get this very object
        self.raised = KeyboardInterrupt("deliberate interrupt inside forward") if self.interrupt else \
            RuntimeError("deliberate failure inside forward")
        raise self.raised


class OptionalSlot(nn.Module):
    """A layer with an optional sub-layer switched off: its slot is registered as None
    (register_module("act", None)), so it has no children (children() and named_modules() skip None) and is a
    leaf, though its registry _modules is not empty."""

    def __init__(self):
        super().__init__()
        self.register_module("act", None)

    def forward(self, x):
        return x * 2.0 if self.act is None else self.act(x)


class SelfTracing(nn.Module):
    """A debugging wrapper whose forward traces its own sub-model with a trace function (`tracer`, a plain
    attribute: the submission's trace_activations in the worker, the judge's own in the test), so two traces
    overlap: the outer one's hooks sit on every leaf, the inner one's on inner's leaves. inner_names: the
    record names the inner call returned."""

    def __init__(self):
        super().__init__()
        self.pre = nn.Linear(4, 5)
        self.inner = nn.Sequential(nn.Linear(5, 5), nn.Tanh())
        self.post = nn.Linear(5, 2)
        self.tracer = None
        self.inner_names = None

    def forward(self, x):
        h, recs = self.tracer(self.inner, self.pre(x))
        self.inner_names = [str(r.get("name")) if isinstance(r, dict) else repr(r) for r in list(recs)]
        return self.post(h)


class DirectCall(nn.Module):
    """Runs its Tanh through the method, self.act.forward(h): that is no module call (Module.__call__, and with it
    every forward hook, is bypassed), so a trace made of forward hooks has no record of it."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.act = nn.Tanh()
        self.out = nn.Linear(3, 2)

    def forward(self, x):
        return self.out(self.act.forward(self.fc(x)))


def build_hook_model(name, seed):
    torch.manual_seed(seed)
    if name == "seq":
        # in training mode with a BatchNorm: its output uses the batch's statistics, so a trace that
        # switches the model to eval() returns something other than model(x)
        m = nn.Sequential(nn.Linear(7, 9), nn.ReLU(), nn.Sequential(nn.Linear(9, 5), nn.BatchNorm1d(5), nn.GELU()),
                          nn.Linear(5, 3))
    elif name == "twice":
        m = Twice()
    elif name == "nan":
        m = nn.Sequential(nn.Linear(4, 6), Blowup(400.0), nn.Linear(6, 3), nn.Softmax(-1))
    elif name == "huge":
        m = nn.Sequential(nn.Linear(4, 3), Scale(1e100))
    elif name == "vast":
        # the middle layer's values are all finite but sum past float64's range: 'finite' is still True there
        m = nn.Sequential(nn.Linear(4, 3), Saturate(), Scale(1e-300))
    elif name == "empty":
        # called on an empty batch (0, 5): every output is empty, and an empty output has no value that is
        # not finite ('finite' True, as torch.isfinite(out).all() gives), while its mean and std are nan
        m = nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 2))
    elif name == "leaf":
        # a model that is itself a leaf module (named_modules() names it ""), here a one-value regressor that
        # the test calls on one example: its output has one element, so output.std() is nan (correction 1)
        m = nn.Linear(7, 1)
    elif name == "shared":
        # one Linear registered in two sub-blocks ('0.0' and '1.0'): named_modules() lists the object once, as
        # '0.0', so it carries one hook and each of its two calls gives one record named '0.0'; a walk of its
        # own over named_children() reaches it twice (two hooks, four records)
        shared = nn.Linear(5, 5)
        m = nn.Sequential(nn.Sequential(shared, nn.ReLU()), nn.Sequential(shared, nn.Tanh()), nn.Linear(5, 2))
    elif name == "half":
        # float16: the Crowd layer's 48 values (about 2500 each) are finite and so are their mean and std, but
        # their sum is not: a mean taken as output.sum() / numel, or a 'finite' from the sum, says inf
        return nn.Sequential(nn.Linear(4, 6), Crowd(), nn.Tanh()).half()
    elif name == "optional":
        # the middle layer's only slot is None: a leaf all the same (a leaf test on the registry, `not
        # module._modules`, skips it)
        m = nn.Sequential(nn.Linear(4, 3), OptionalSlot(), nn.Tanh())
    elif name == "nested":
        # forward traces its own sub-model (set m.tracer before calling): records of overlapping traces
        m = SelfTracing()
    elif name == "direct":
        # fc, then act through act.forward(h) (no module call, no hook fires), then out: records for fc and out only
        m = DirectCall()
    elif name == "raises":
        m = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), Raiser(), nn.Linear(4, 2))
    elif name == "interrupt":
        m = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), Raiser(interrupt=True), nn.Linear(4, 2))
    else:
        raise KeyError(name)
    return m.double()


def build_lazy_model(kind="cnn"):
    """A lazy model with a LazyBatchNorm (its running stats show whether the dry run left a trace);
    kind "mlp": an MLP on flattened images whose LazyBatchNorm1d, in training mode, refuses a batch of one;
    kind "shared": one Dropout registered in two sub-blocks ('1.1' and '3.1'; model.modules() lists it once,
    after its first parent), so restoring modes with the recursive m.train(mode), parents first, lets the second
    parent overwrite it;
    kind "buffers": for 2-channel images, a model whose only lazy part is a LazyBatchNorm2d(affine=False): no
    UninitializedParameter at all, only two UninitializedBuffer (running_mean, running_var) that the dry run
    materialises."""
    if kind == "shared":
        drop = nn.Dropout(0.25)
        return nn.Sequential(nn.LazyConv2d(4, 3, padding=1), nn.Sequential(nn.LazyBatchNorm2d(), drop), nn.Flatten(),
                             nn.Sequential(nn.LazyLinear(5), drop), nn.ReLU(), nn.LazyLinear(3))
    if kind == "buffers":
        return nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.LazyBatchNorm2d(affine=False), nn.ReLU(),
                             nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 3))
    if kind == "mlp":
        return nn.Sequential(nn.Flatten(), nn.LazyLinear(6), nn.LazyBatchNorm1d(), nn.ReLU(), nn.Dropout(0.5),
                             nn.LazyLinear(3))
    return nn.Sequential(nn.LazyConv2d(4, 3, padding=1), nn.LazyBatchNorm2d(), nn.ReLU(), nn.Flatten(),
                         nn.LazyLinear(5), nn.ReLU(), nn.LazyLinear(3))


def _plain_state(module):
    return {k: v.detach().clone() for k, v in module.state_dict().items()}


# ====================================================================== dynamic
def skipmlp_run(ns, in_features, widths, num_classes, norm, x, drop, v, seed, no_grad=False, again=None):
    """Build SkipMLP, randomise its parameters, run forward(x, drop) (under torch.no_grad() if asked) and a
    backward with cotangent v; x_after: the batch handed to forward, as it is afterwards. again: a second
    drop list; the same model is then called once more, forward(x, drop=again) under no_grad (out_again)."""
    cls = get(ns, "SkipMLP")
    torch.manual_seed(seed)
    model = cls(in_features, list(widths), num_classes, norm=norm)
    model = model.double()
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn(p.shape, generator=g, dtype=p.dtype) * 0.5)
    state = _plain_state(model)
    n_params = sum(p.numel() for p in model.parameters())
    x_in = x.clone()
    with torch.set_grad_enabled(not no_grad):
        out = model(x_in) if drop is None else model(x_in, drop=list(drop))
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"SkipMLP.forward returned {type(out).__name__}, expected a tensor")
    grads = {}
    if out.requires_grad and v is not None and tuple(v.shape) == tuple(out.shape):
        out.backward(v.to(out.dtype))
        grads = {n: (p.grad.detach().clone() if p.grad is not None else None) for n, p in model.named_parameters()}
    out_again = None
    if again is not None:  # the drop of the first call must not carry over into this one
        with torch.no_grad():
            out_again = model(x.clone(), drop=list(again))
        out_again = out_again.detach() if isinstance(out_again, torch.Tensor) else None
    return {"state": state, "n_params": n_params, "out": out.detach(), "grads": grads,
            "requires_grad": bool(out.requires_grad), "x_after": x_in.detach().clone(), "out_again": out_again}


def skipmlp_keys(ns, in_features, widths, num_classes, norm):
    """The parameter/buffer names and shapes of a freshly built SkipMLP, and of a second one built from the
    same list object (as a caller building two models from one config does), with that list afterwards."""
    cls = get(ns, "SkipMLP")
    ws = list(widths)
    model = cls(in_features, ws, num_classes, norm=norm)
    keys = {k: list(v.shape) for k, v in model.state_dict().items()}
    second = cls(in_features, ws, num_classes, norm=norm)
    return {"keys": keys, "keys_again": {k: list(v.shape) for k, v in second.state_dict().items()},
            "widths_after": [int(w) if isinstance(w, int) else repr(w) for w in ws]}


# ====================================================================== param groups
def param_groups_run(ns, model, seed, lr, weight_decay, head_lr_mult, steps, head_prefix=None, freeze=()):
    """Call param_groups on a fresh model (the parameters named in ``freeze`` frozen too); describe each
    group by parameter names; run AdamW for a few steps."""
    fn = get(ns, "param_groups")
    m = build_pg_model(model, seed, freeze)
    name_of = {}
    for n, p in m.named_parameters(remove_duplicate=False):
        name_of.setdefault(id(p), n)
    kw = {} if head_prefix is None else {"head_prefix": head_prefix}
    groups = fn(m, lr=lr, weight_decay=weight_decay, head_lr_mult=head_lr_mult, **kw)
    groups = list(groups)
    described = []
    for g in groups:
        if not isinstance(g, dict):
            return {"error": f"param_groups returned a {type(g).__name__} inside the list, expected dicts",
                    "groups": [], "params": {}}
        ps = g.get("params", [])
        ps = [ps] if isinstance(ps, torch.Tensor) else list(ps)
        described.append({"names": [name_of.get(id(p), "<a tensor that is not a parameter of the model>")
                                    for p in ps],
                          "keys": sorted(str(k) for k in g.keys()),
                          "lr": float(g["lr"]) if "lr" in g else None,
                          "weight_decay": float(g["weight_decay"]) if "weight_decay" in g else None})
    # Rebuild the groups on the same param objects for the optimizer (the student's lists may be generators).
    opt_groups = []
    for g, d in zip(groups, described):
        ps = g.get("params", [])
        ps = [ps] if isinstance(ps, torch.Tensor) else list(ps)
        opt_groups.append({**{k: v for k, v in g.items() if k != "params"}, "params": ps})
    holder = {}
    err = capture_error(lambda: holder.setdefault("opt", torch.optim.AdamW(opt_groups, lr=1e-3, weight_decay=1e-2)))
    params = {}
    if not err["raised"]:
        opt = holder["opt"]
        for step in range(steps):
            grads = pg_grads(m, seed, step)
            for n, p in m.named_parameters():
                p.grad = grads[n].clone() if n in grads else None
            opt.step()
        params = {n: p.detach().clone() for n, p in m.named_parameters()}
    return {"error": "", "groups": described, "optimizer_error": err, "params": params}


# ====================================================================== state_dict surgery
def convert_run(ns, old_state, second_state=None):
    """convert_checkpoint on a checkpoint dict; also hand back the input afterwards (must be unchanged).
    second_state: a second checkpoint converted right after; the first result must be a dict of its own that
    the second call leaves as it was (same_object / first_changed)."""
    fn = get(ns, "convert_checkpoint")
    before_keys = list(old_state.keys())
    new = fn(old_state)
    if not isinstance(new, dict):
        raise TypeError(f"convert_checkpoint returned {type(new).__name__}, expected a dict")
    second = {}
    if second_state is not None:
        snap = {k: (v.detach().clone() if isinstance(v, torch.Tensor) else v) for k, v in new.items()}
        new2 = fn(second_state)
        changed = sorted(str(k) for k in set(snap) | set(new) if k not in snap or k not in new or not (
            isinstance(new[k], torch.Tensor) and isinstance(snap[k], torch.Tensor) and new[k].shape == snap[k].shape
            and torch.equal(new[k], snap[k])))
        second = {"same_object": new2 is new, "first_changed": changed}
    out = {}
    for k, v in new.items():
        if isinstance(v, torch.Tensor):
            out[str(k)] = v.detach().clone()
        else:
            out[str(k)] = repr(v)[:100]
    return {"new": out, "old_after": {k: (v.detach().clone() if isinstance(v, torch.Tensor) else repr(v)[:100])
                                       for k, v in old_state.items()},
            "old_keys_before": before_keys, "second": second}


# ====================================================================== lazy modules
def lazy_net_run(ns, num_classes, shapes, seed):
    """make_lazy_net: uninitialized before a first call, then one fresh model per input shape."""
    fn = get(ns, "make_lazy_net")
    res = []
    for shape in shapes:
        torch.manual_seed(seed)
        m = fn(num_classes)
        if not isinstance(m, nn.Module):
            raise TypeError(f"make_lazy_net returned {type(m).__name__}, expected an nn.Module")
        lazy_before = any(isinstance(p, nn.parameter.UninitializedParameter) for p in m.parameters())
        lazy_mods = sorted({type(mod).__name__ for mod in m.modules() if isinstance(mod, nn.modules.lazy.LazyModuleMixin)})
        x = torch.randn(*shape)
        y = m(x)
        still_lazy = any(isinstance(p, nn.parameter.UninitializedParameter) for p in m.parameters())
        res.append({"lazy_before": lazy_before, "still_lazy": still_lazy,
                    "out_shape": list(y.shape) if isinstance(y, torch.Tensor) else None,
                    "n_params": sum(p.numel() for p in m.parameters()), "lazy_modules": lazy_mods})
    return res


def lazy_net_structure(ns, num_classes, shape, seed):
    """make_lazy_net materialized on one input, then every parameter (in order) refilled from a seeded
    generator: the parameter shapes and the output on a second input (the judge builds the same net)."""
    fn = get(ns, "make_lazy_net")
    torch.manual_seed(seed)
    m = fn(num_classes)
    if not isinstance(m, nn.Module):
        raise TypeError(f"make_lazy_net returned {type(m).__name__}, expected an nn.Module")
    with torch.no_grad():
        m.eval()
        m(torch.zeros(*shape))
        g = torch.Generator().manual_seed(seed)
        shapes = []
        for p in m.parameters():
            shapes.append(list(p.shape))
            p.copy_(torch.randn(p.shape, generator=g) * 0.3)
        x = torch.randn(*shape, generator=g)
        y = m(x)
    return {"shapes": shapes, "out": y.detach() if isinstance(y, torch.Tensor) else None}


def _modes_pattern(m, pattern):
    """Set each module's own training flag (not recursively): 'train', 'eval', 'mixed', or a list of flags
    (one per module, in model.modules() order)."""
    for k, mod in enumerate(m.modules()):
        mod.training = bool(pattern[k]) if isinstance(pattern, list) else \
            pattern == "train" or (pattern == "mixed" and k % 2 == 1)


def prepare_lazy_run(ns, x, lr, train_mode, seed, steps=1, caller_no_grad=False, frozen_first=False,
                     ready=False, bn_stats=None, kind="cnn", example_device=None):
    """prepare_lazy on a fresh lazy model; report what the dry run left behind (on the model and in the
    process-wide settings; ``caller_no_grad``: the call is made inside the caller's torch.no_grad() block;
    ``frozen_first``: the model starts with a frozen, already materialised 1x1 conv, like a pretrained stem;
    ``ready``: the model is already materialised, in float32, before the call: 'possibly lazy';
    ``bn_stats``: with ``ready``, its BatchNorm then gets these running statistics, as after training;
    ``kind``: which lazy model, see build_lazy_model), then take SGD steps (outside any such block).
    ``values_before``/``values_after_call``: the parameters that existed before the call (all of them with
    ``ready``, the frozen stem with ``frozen_first``), before and after it.
    ``example_device``: "meta", the judge's stand-in for a GPU (as probelib.stand_in_device): the example goes
    there, the model stays on the CPU; then only the moves asked for, where each parameter and buffer ended
    (probelib.relative_device: "meta", the example's device) and the error raised, if any, come back. Use it
    with ``ready``: moving an uninitialized lazy parameter to meta makes a plain empty Parameter of it (the
    tensor types differ, Module._apply replaces it), whose dry run then fails, where a GPU would keep it lazy."""
    fn = get(ns, "prepare_lazy")
    torch.manual_seed(seed)
    m = build_lazy_model(kind)
    if frozen_first:
        stem = nn.Conv2d(x.shape[1], x.shape[1], 1).requires_grad_(False)
        m = nn.Sequential(stem, *m)
    if ready:  # materialise it here, in float32, in eval mode (BatchNorm statistics stay fresh)
        with torch.no_grad():
            m.float().eval()(x.detach().float())
    if bn_stats is not None:
        bn = next(mod for mod in m.modules() if isinstance(mod, nn.modules.batchnorm._BatchNorm))
        with torch.no_grad():
            bn.running_mean.copy_(bn_stats["running_mean"])
            bn.running_var.copy_(bn_stats["running_var"])
            bn.num_batches_tracked.fill_(int(bn_stats["num_batches_tracked"]))
    trainable_before = {n: bool(p.requires_grad) for n, p in m.named_parameters()}
    values_before = {n: p.detach().clone() for n, p in m.named_parameters()
                     if not isinstance(p, nn.parameter.UninitializedParameter)}
    pattern = train_mode if isinstance(train_mode, (str, list)) else ("train" if train_mode else "eval")
    _modes_pattern(m, pattern)
    modes_before = [bool(mod.training) for mod in m.modules()]
    seen = {}

    def watch(mod, inputs, output):
        seen["grad_enabled"] = torch.is_grad_enabled()
        seen["inference_mode"] = torch.is_inference_mode_enabled()
        seen["requires_grad"] = bool(getattr(output, "requires_grad", False))

    handle = m[-1].register_forward_hook(watch)  # the last layer: called through __call__ in any dry run
    if example_device is not None:
        x = x.to(example_device)
    x_in = x.clone()
    # for each optimizer built during the call: did it get placeholder parameters? Watched at
    # torch.optim.Optimizer.__init__, which every optimizer runs through super(), so that a class imported by
    # name before the call (`from torch.optim import SGD`) is seen too, not only torch.optim.SGD looked up late
    built_on = []
    real_opt_init = torch.optim.Optimizer.__init__

    def _watched_init(self, *args, **kwargs):
        real_opt_init(self, *args, **kwargs)
        built_on.append(any(isinstance(q, nn.parameter.UninitializedParameter)
                            for g in self.param_groups for q in g["params"]))

    # where the model was asked to move (Module.to / cpu / cuda on any of its modules): the device half of
    # "moves and casts", which a CPU-only run cannot see in the result (a GPU run does: make test-gpu)
    moved_to, ours = [], {id(mod) for mod in m.modules()}
    real_to, real_cpu, real_cuda = nn.Module.to, nn.Module.cpu, nn.Module.cuda

    def _to(self, *args, **kwargs):
        if id(self) in ours:
            device = torch._C._nn._parse_to(*args, **kwargs)[0]
            moved_to.append(None if device is None else torch.device(device).type)
        return real_to(self, *args, **kwargs)

    def _cpu(self):
        if id(self) in ours:
            moved_to.append("cpu")
        return real_cpu(self)

    def _cuda(self, device=None):
        if id(self) in ours:
            moved_to.append("cuda")
        return real_cuda(self, device)

    torch.optim.Optimizer.__init__ = _watched_init
    nn.Module.to, nn.Module.cpu, nn.Module.cuda = _to, _cpu, _cuda
    error = None
    try:
        with torch.set_grad_enabled(not caller_no_grad):
            glob_before = global_state()
            try:
                opt = fn(m, x_in, lr)
            except Exception as exc:
                if example_device is None:
                    raise
                error = f"{type(exc).__name__}: {str(exc)[:300]}"
            glob_left = changes(glob_before, global_state())
    finally:
        torch.optim.Optimizer.__init__ = real_opt_init
        nn.Module.to, nn.Module.cpu, nn.Module.cuda = real_to, real_cpu, real_cuda
        handle.remove()
    if example_device is not None:
        home = x.device.type
        return {"moved_to": moved_to, "error": error,
                "devices": {n: relative_device(t, home) for n, t in [*m.named_parameters(), *m.named_buffers()]}}
    uninit = [n for n, p in m.named_parameters() if isinstance(p, nn.parameter.UninitializedParameter)]
    uninit_buffers = [n for n, b in m.named_buffers() if isinstance(b, nn.parameter.UninitializedBuffer)]
    info = {"uninitialized": uninit, "uninitialized_buffers": uninit_buffers, "training": bool(m.training), "modes_before": modes_before,
            "modes": [bool(mod.training) for mod in m.modules()], "dry_run": seen,
            "inference_params": [n for n, p in m.named_parameters()
                                 if not isinstance(p, nn.parameter.UninitializedParameter) and p.is_inference()],
            "grads_set": [n for n, p in m.named_parameters() if p.grad is not None],
            "x_after": x_in.detach().clone() if isinstance(x_in, torch.Tensor) else None,
            "is_optimizer": isinstance(opt, torch.optim.Optimizer),
            "opt_on_placeholders": any(built_on), "global_changes": glob_left, "moved_to": moved_to,
            "requires_grad_changed": sorted(
                f"{n}: requires_grad {trainable_before[n]} before the call, {p.requires_grad} after"
                for n, p in m.named_parameters() if n in trainable_before and p.requires_grad != trainable_before[n])}
    info["buffers"] = {k: v.detach().clone() for k, v in m.named_buffers() if k not in uninit_buffers}
    info["values_before"] = values_before
    info["values_after_call"] = {n: p.detach().clone() for n, p in m.named_parameters() if n in values_before}
    info["dtypes"] = {n: str(p.dtype) for n, p in m.named_parameters()}
    if uninit or uninit_buffers or not info["is_optimizer"]:
        return info
    if any(p.dtype != x.dtype for p in m.parameters()):  # not cast: no training step (the test names the dtypes)
        info["opt_names"] = info["opt_lrs"] = []
        return info
    ids = {id(p): n for n, p in m.named_parameters()}
    opt_params = [p for g in opt.param_groups for p in g["params"]]
    info["opt_names"] = [ids.get(id(p), "<not a parameter of the model>") for p in opt_params]
    info["opt_lrs"] = [float(g["lr"]) for g in opt.param_groups]
    if info["inference_params"]:
        return info
    # Real training steps on the materialized model (the judge replays them on its own copy), from starting
    # values the judge draws too (seed + 1, in parameter order): a model left all zeros has zero gradients,
    # and then any optimizer's steps would match the replay.
    start = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.randn(p.shape, generator=start, dtype=p.dtype) * 0.5)
    before = {n: p.detach().clone() for n, p in m.named_parameters()}
    state = {k: v.detach().clone() for k, v in m.state_dict().items()}
    m.train()
    grads = {}
    for _ in range(steps):
        opt.zero_grad()
        y = m(x.clone())
        y.square().mean().backward()
        grads = {n: (p.grad.detach().clone() if p.grad is not None else None) for n, p in m.named_parameters()}
        opt.step()
    after = {n: p.detach().clone() for n, p in m.named_parameters()}
    info.update(before=before, state=state, grads=grads, after=after)
    return info


# ====================================================================== hooks
def _hook_counts(model):
    from torch.nn.modules import module as module_mod
    counts = {}
    for n, mod in model.named_modules():
        counts[n] = [len(mod._forward_hooks), len(mod._forward_pre_hooks), len(mod._backward_hooks),
                     len(getattr(mod, "_backward_pre_hooks", {}))]
    glob = [len(module_mod._global_forward_hooks), len(module_mod._global_forward_pre_hooks),
            len(module_mod._global_backward_hooks), len(getattr(module_mod, "_global_backward_pre_hooks", {}))]
    return counts, glob


def trace_run(ns, model, seed, x, user_hook=False, again=None):
    """trace_activations on a fresh model; report records, output, and which hooks are left afterwards.
    again=(model, seed, x): a second call on another fresh model right after, to see whether it touches the
    list the first call returned."""
    fn = get(ns, "trace_activations")
    m = build_hook_model(model, seed)
    if isinstance(m, SelfTracing):
        m.tracer = fn
    fired = []
    if user_hook:
        # A hook the user had registered before: it must survive and keep working.
        m[0].register_forward_hook(lambda mod, i, o: fired.append(1)) if isinstance(m, nn.Sequential) else \
            m.conv.register_forward_hook(lambda mod, i, o: fired.append(1))
    counts_before, glob_before = _hook_counts(m)
    modes_before = [bool(mod.training) for mod in m.modules()]
    res = fn(m, x.clone())
    inner_names = getattr(m, "inner_names", None)  # SelfTracing: what its own inner trace returned, this call
    counts_after, glob_after = _hook_counts(m)
    modes_after = [bool(mod.training) for mod in m.modules()]
    if not (isinstance(res, tuple) and len(res) == 2):
        raise TypeError("trace_activations must return a pair (output, records)")
    out, records = res
    recs = []
    for r in list(records):
        if not isinstance(r, dict):
            raise TypeError(f"each record must be a dict, got {type(r).__name__}")
        recs.append({"types": {k: type(r.get(k)).__name__ for k in ("name", "shape", "mean", "std", "finite")},
                     "name": str(r.get("name")),
                     "shape": [int(s) for s in r.get("shape", ())] if r.get("shape") is not None else None,
                     "mean": float(r["mean"]) if "mean" in r else None,
                     "std": float(r["std"]) if "std" in r else None,
                     "finite": bool(r["finite"]) if "finite" in r else None,
                     # keys whose value is a tensor: a record holding one keeps that activation (and its graph)
                     "tensor_keys": sorted(str(k) for k, v in r.items() if isinstance(v, torch.Tensor))})
    fired_during = len(fired)
    second = None
    if again is not None:
        first_names = [str(r.get("name")) if isinstance(r, dict) else None for r in list(records)]
        res2 = fn(build_hook_model(again[0], again[1]), again[2].clone())
        records2 = res2[1] if isinstance(res2, tuple) and len(res2) == 2 else None
        now = [str(r.get("name")) if isinstance(r, dict) else None for r in list(records)]
        second = {"same_object": records2 is records, "names_before": first_names, "names_after": now}
    plain = m(x.clone())  # a later plain forward: only the user's own hook may still fire
    return {"out": out.detach() if isinstance(out, torch.Tensor) else None, "records": recs,
            "out_requires_grad": bool(getattr(out, "requires_grad", False)),
            "plain_requires_grad": bool(plain.requires_grad) if isinstance(plain, torch.Tensor) else None,
            "counts_before": counts_before, "counts_after": counts_after,
            "modes_before": modes_before, "modes_after": modes_after,
            "glob_before": glob_before, "glob_after": glob_after,
            "user_fired_during": fired_during, "user_fired_later": len(fired) - fired_during, "second": second,
            "inner_names": inner_names}


def trace_raising_run(ns, seed, x, model="raises"):
    """trace_activations on a model whose forward raises (model "interrupt": a KeyboardInterrupt): the error
    must propagate, hooks must be gone."""
    fn = get(ns, "trace_activations")
    m = build_hook_model(model, seed)
    counts_before, glob_before = _hook_counts(m)
    err = {"raised": False, "type": "", "message": "", "mro": []}
    same = False
    try:
        fn(m, x.clone())
    except BaseException as exc:  # the very exception object forward raised must arrive, not a new one wrapping it
        err = {"raised": True, "type": type(exc).__name__, "message": str(exc)[:500],
               "mro": [c.__name__ for c in type(exc).__mro__]}
        same = exc is getattr(m[2], "raised", None)
    counts_after, glob_after = _hook_counts(m)
    return {"error": err, "same_exception": same, "counts_before": counts_before, "counts_after": counts_after,
            "glob_before": glob_before, "glob_after": glob_after}
