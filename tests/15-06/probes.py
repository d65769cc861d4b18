"""Probes for 15-06 (torch.fx): run next to the submission, return plain data only.

The model builders below are shared with the judge: the tests load this file
with importlib to build the very same architectures from the same plain
descriptions, so expected values are computed on the judge's own copy.
"""
import contextlib
import copy
import io
import operator

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.linear import NonDynamicallyQuantizableLinear

from course.judge.probelib import (capture_error, functions_entered, get, relative_device, relayout,
                                   stand_in_device)
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


# ====================================================================== builders
class SkipConvBN(nn.Module):
    """conv -> bn, plus a skip from the conv output: the conv output has two users."""

    def __init__(self, c, k, bias):
        super().__init__()
        self.conv = nn.Conv2d(c, c, k, padding=k // 2, bias=bias)
        self.bn = nn.BatchNorm2d(c)

    def forward(self, x):
        h = self.conv(x)
        return self.bn(h) + h


class BranchConvBN(nn.Module):
    """bn(conv_a(x)) + conv_b(x), with conv_b traced between them: the conv feeding bn is not bn's previous
    node in the graph (that one is conv_b, which has one user too)."""

    def __init__(self, c, k, bias):
        super().__init__()
        self.conv_a = nn.Conv2d(c, c, k, padding=k // 2, bias=bias)
        self.conv_b = nn.Conv2d(c, c, k, padding=k // 2, bias=bias)
        self.bn = nn.BatchNorm2d(c)

    def forward(self, x):
        a = self.conv_a(x)
        b = self.conv_b(x)
        return self.bn(a) + b


class ConvNet(nn.Module):
    """A conv/bn stack built from a plain description (a list of dicts).

    Kinds: ``conv`` (Conv2d, optionally followed by a BatchNorm2d when ``bn``),
    ``skip`` (SkipConvBN), ``branch`` (BranchConvBN), ``relu``, ``bn`` (a BatchNorm2d not fed by a conv).
    """

    def __init__(self, desc):
        super().__init__()
        self.desc = [dict(d) for d in desc]
        layers = []
        for d in self.desc:
            if d["kind"] == "conv":
                conv = nn.Conv2d(d["cin"], d["cout"], d["k"], padding=d["dilation"] * (d["k"] // 2),
                                 dilation=d["dilation"], groups=d["groups"], bias=d["bias"], stride=d.get("stride", 1))
                layers.append(conv)
                if d["bn"]:
                    layers.append(nn.BatchNorm2d(d["cout"], eps=d.get("eps", 1e-5)))
            elif d["kind"] == "skip":
                layers.append(SkipConvBN(d["c"], d["k"], d["bias"]))
            elif d["kind"] == "branch":
                layers.append(BranchConvBN(d["c"], d["k"], d["bias"]))
            elif d["kind"] == "relu":
                layers.append(nn.ReLU())
            elif d["kind"] == "bn":
                layers.append(nn.BatchNorm2d(d["c"]))
            else:
                raise ValueError(d["kind"])
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def build_convnet(desc, state):
    torch.manual_seed(0)
    model = ConvNet(desc).double()
    model.load_state_dict(state)
    return model.eval()


@torch.fx.wrap
def relu(x):
    """A user helper that is named relu but computes ReLU6 (min(max(x, 0), 6), as MobileNet code names its clipped
    activation). torch.fx.wrap keeps each call one call_function node: not one of the four ReLU forms, it stays."""
    return x.clamp(0.0, 6.0)


class OpsNet(nn.Module):
    """A small MLP-ish model whose graph has every kind of node, from a description.

    Ops: ``lin`` (a fresh Linear), ``reuse`` (the first Linear again), ``relu_mod``,
    ``relu_fn`` (F.relu), ``relu_torch``
    (torch.relu), ``relu_method`` (x.relu()), ``relu_inplace`` (F.relu(x, inplace=True)),
    ``relu_torch_`` (torch.relu_), ``relu_method_`` (x.relu_()), ``relu_kw`` / ``relu_kw_`` (torch.relu(input=x) /
    torch.relu_(input=x): the input as a keyword), ``relu_mod_kw`` (an nn.ReLU module called as m(input=x): a
    call_module node with empty args), ``relu_named_helper`` (the module's wrapped ``relu`` helper above: a
    function named relu that is not a ReLU, never overridden), ``relu6`` (F.relu6),
    ``leaky`` (nn.LeakyReLU), ``relu6_mod`` (an nn.ReLU6 module, on 4x its input so that some values are clipped),
    ``tanh_method``, ``scale`` (multiply by a parameter: get_attr),
    ``add_input`` (add the second input), ``flat_view`` (view with x.shape[0]), ``dead``
    (x.sum() whose result is never used: still a node of the traced graph), ``relu_shared`` (one nn.ReLU
    module, the same for every such op), ``dead_relu`` (F.relu(x) whose result is never used), ``train_branch``
    (x * 2.0 in training mode, x.neg() in eval mode: the traced graph depends on the mode the model is in).
    """

    def __init__(self, ops, width=6):
        super().__init__()
        self.ops = list(ops)
        self.first = nn.Linear(width, width)
        self.lins = nn.ModuleList()
        self.acts = nn.ModuleList()
        for op in self.ops:
            if op == "lin":
                self.lins.append(nn.Linear(width, width))
            elif op in ("relu_mod", "relu_mod_kw"):
                self.acts.append(nn.ReLU())
            elif op == "leaky":
                self.acts.append(nn.LeakyReLU(0.1))
            elif op == "relu6_mod":
                self.acts.append(nn.ReLU6())
        if "relu_shared" in self.ops:
            self.shared_act = nn.ReLU()
        self.unused = nn.Linear(width, 2)  # never called: not part of the graph
        self.scale = nn.Parameter(torch.linspace(0.5, 1.5, width))
        self.override = None  # judge-side only: compute every ReLU with this function instead

    def forward(self, x, y):
        x = self.first(x)
        li = ai = 0
        for op in self.ops:
            if op == "lin":
                x = self.lins[li](x)
                li += 1
            elif op == "reuse":
                x = self.first(x)
            elif op in ("relu_mod", "leaky", "relu6_mod", "relu_mod_kw"):
                m = self.acts[ai]
                ai += 1
                if op == "relu6_mod":
                    x = m(x * 4.0)  # a ReLU6 is not a ReLU: never overridden
                elif op == "relu_mod_kw":  # held-out round 27: fx keeps the input in node.kwargs
                    x = self.override(x) if self.override is not None else m(input=x)
                else:
                    x = self.override(x) if (self.override is not None and op != "leaky") else m(x)
            elif op in ("relu_torch_", "relu_method_"):
                x = x * 1.0  # a fresh tensor for the in-place ReLU
                if self.override is not None:
                    x = self.override(x)
                elif op == "relu_torch_":
                    x = torch.relu_(x)
                else:
                    x = x.relu_()
            elif op in ("relu_kw", "relu_kw_"):
                x = x * 1.0  # a fresh tensor for the in-place form
                if self.override is not None:
                    x = self.override(x)
                elif op == "relu_kw":
                    x = torch.relu(input=x)  # fx keeps the input in node.kwargs, not node.args
                else:
                    x = torch.relu_(input=x)
            elif op == "dead":
                x.sum()  # traced, never used
            elif op == "relu_shared":
                x = self.override(x) if self.override is not None else self.shared_act(x)
            elif op == "dead_relu":
                (self.override or F.relu)(x)  # traced, never used
            elif op == "relu_named_helper":
                x = relu(x * 4.0)  # scaled so that some values pass 6 and are clipped
            elif op in ("relu_fn", "relu_torch", "relu_method", "relu_inplace"):
                if self.override is not None:
                    x = self.override(x)
                elif op == "relu_fn":
                    x = F.relu(x)
                elif op == "relu_torch":
                    x = torch.relu(x)
                elif op == "relu_method":
                    x = x.relu()
                else:
                    x = F.relu(x * 1.0, inplace=True)
            elif op == "train_branch":
                x = x * 2.0 if self.training else x.neg()  # Python control flow: runs at trace time
            elif op == "relu6":
                x = F.relu6(x)
            elif op == "tanh_method":
                x = x.tanh()
            elif op == "scale":
                x = x * self.scale
            elif op == "add_input":
                x = x + y
            elif op == "flat_view":
                x = x.view(x.shape[0], -1)
            else:
                raise ValueError(op)
        return x


def build_opsnet(ops, state=None):
    torch.manual_seed(0)
    model = OpsNet(ops).double()
    if state is not None:
        model.load_state_dict(state)
    return model.eval()


class ObsNet(nn.Module):
    """A small conv classifier for the observer pass (every module called once)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.act1 = nn.ReLU()
        self.block = nn.Sequential(nn.Conv2d(4, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(2)
        self.fc1 = nn.Linear(24, 10)
        self.fc2 = nn.Linear(10, 5)

    def forward(self, x):
        x = self.act1(self.conv1(x))
        x = self.block(x)
        x = torch.flatten(self.pool(x), 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x) + x.mean(dim=1, keepdim=True)


class ObsReuse(nn.Module):
    """Observer edge cases: a module called twice, a subclass of nn.Linear, a value used inside a list
    (torch.cat) and as a keyword argument. torch.fx keeps only torch.nn's own classes as call_module
    nodes (a subclass defined elsewhere is traced through), so the subclass is one of torch's:
    NonDynamicallyQuantizableLinear, the Linear subclass inside nn.MultiheadAttention."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.sub = NonDynamicallyQuantizableLinear(4, 4)
        self.act = nn.ReLU()

    def forward(self, x):
        h = self.lin(x)
        a = self.act(h)
        b = self.act(self.sub(x) - 0.25)
        c = torch.cat([h, a, b], dim=1)
        return torch.add(c, other=torch.cat([b, h, a], dim=1))


class ObsDead(nn.Module):
    """A Linear call whose result forward never uses, and an in-place h.relu_() whose result is unused
    (it still changes h): both are nodes of the traced graph."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.act = nn.ReLU()

    def forward(self, x):
        h = self.lin(x)
        self.lin(x * 2.0 - 0.5)
        h = h - 0.1
        h.relu_()
        return self.act(h - 0.2) + h


def build_obsreuse(state, kind="reuse"):
    torch.manual_seed(0)
    model = (ObsDead() if kind == "dead" else ObsReuse()).double()
    model.load_state_dict(state)
    return model.eval()


def observers_reuse(ns, state, op_types, x, kind="reuse"):
    """Insert observers into ObsReuse; per observer node in graph order: what it follows, which observer
    object it calls (index of first appearance), its recorded range and the observed node's other users."""
    model = build_obsreuse(state, kind)
    types = tuple(getattr(nn, t) for t in op_types)
    gm = get(ns, "insert_observers")(model, types)
    graph = _graph_of(gm, "insert_observers")
    obs_cls = _observer_class(ns)
    with torch.no_grad():
        out = gm(x)
    objects, calls = [], []
    for n in graph.nodes:
        if n.op != "call_module":
            continue
        mod = gm.get_submodule(n.target)
        if not isinstance(mod, obs_cls):
            continue
        if not any(mod is o for o in objects):
            objects.append(mod)
        src = n.args[0] if n.args else None
        calls.append({
            "observed": str(src.target) if isinstance(src, torch.fx.Node) and src.op == "call_module" else "?",
            "object": next(i for i, o in enumerate(objects) if o is mod),
            "min": mod.min_val.detach().clone().double(), "max": mod.max_val.detach().clone().double(),
            "other_users": sorted(u.name for u in src.users if u is not n) if isinstance(src, torch.fx.Node) else [],
        })
    with torch.no_grad():
        ref = model(x)
    return {"out": out.detach() if isinstance(out, torch.Tensor) else repr(out), "ref": ref.detach(),
            "calls": calls}


def build_obsnet(state):
    torch.manual_seed(0)
    model = ObsNet().double()
    model.load_state_dict(state)
    return model.eval()


def dyn_smooth(x):
    return torch.sin(x) * torch.tanh(x) + x.cos()


def dyn_break(x):
    y = torch.sin(x) + 1.0
    torch._dynamo.graph_break()
    return torch.tanh(y) * x.exp()


class DynMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 7)
        self.fc2 = nn.Linear(7, 3)

    def forward(self, x):
        return self.fc2(torch.sigmoid(self.fc1(x))).softmax(dim=-1)


def dyn_scale_in_place(x):
    x.mul_(2.0)
    return x.sin() + 1.0


DYN_FUNCS = {"smooth": dyn_smooth, "break": dyn_break}


def target_name(target) -> str:
    """A stable short name for a node target (a function, a method name, or a module path)."""
    if isinstance(target, str):
        return target
    mod = getattr(target, "__module__", None) or ""
    name = getattr(target, "__name__", None) or repr(target)
    if target in (operator.add, operator.mul, operator.getitem):
        return f"operator.{name}"
    return f"{mod}.{name}" if mod else name


def _graph_of(gm, fname):
    if not isinstance(gm, torch.fx.GraphModule):
        raise TypeError(f"{fname} must return a torch.fx.GraphModule, got {type(gm).__name__}")
    return gm.graph


def _nodes(graph, gm):
    out = []
    for n in graph.nodes:
        item = {"op": n.op, "name": n.name, "target": target_name(n.target)}
        if n.op == "call_module":
            try:
                item["type"] = type(gm.get_submodule(n.target)).__name__
            except AttributeError:
                item["type"] = "?"
        out.append(item)
    return out


# ====================================================================== count_ops
def _plain_counts(res):
    if not isinstance(res, dict):
        raise TypeError(f"count_ops must return a dict, got {type(res).__name__}")
    out = {}
    for k, v in res.items():
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            out[str(k)] = repr(v)[:80]
        else:
            out[str(k)] = int(v)
    return out


def count_ops(ns, ops, state, twice=False, train=False):
    model = build_opsnet(ops, state)
    if train:  # count_ops traces the model in the mode it is given in
        model.train()
    res = _plain_counts(get(ns, "count_ops")(model))
    if twice:  # a second call on the same model must give the same answer
        return [res, _plain_counts(get(ns, "count_ops")(model))]
    return res


def count_ops_convnet(ns, desc, state):
    return _plain_counts(get(ns, "count_ops")(build_convnet(desc, state)))


# ====================================================================== fold_conv_bn
def refold_in_place(conv, bn):
    """Held-out round 29: what a training step between two folds does to the very same modules (in place)."""
    with torch.no_grad():
        conv.weight.mul_(-0.5)
        bn.running_mean.add_(0.75)
        bn.running_var.mul_(3.0)
        bn.weight.neg_()


def fold(ns, cfg, conv_state, bn_state, x, layout="contiguous", conv_training=False, refold=False):
    """Fold one Conv2d/BatchNorm2d pair built from plain data; report the result and the inputs afterwards.
    ``layout``: the memory layout of conv's weight (probelib.relayout: channels_last, transposed, strided, ...).
    ``conv_training``: the conv is left in training mode (only bn's mode matters for the fold; held-out round 27).
    ``refold``: afterwards conv's weight and bn's statistics change in place (refold_in_place) and fold_conv_bn is
    called again on the same two modules: that second result's output on x (held-out round 29)."""
    conv = nn.Conv2d(**cfg).double()
    conv.load_state_dict(conv_state)
    if layout != "contiguous":
        conv.weight = nn.Parameter(relayout(conv.weight.detach(), layout))
    bn = nn.BatchNorm2d(cfg["out_channels"], eps=bn_state.pop("__eps__", 1e-5)).double()
    bn.load_state_dict(bn_state)
    bn.eval()
    conv.train(conv_training)
    fused = get(ns, "fold_conv_bn")(conv, bn)
    if not isinstance(fused, nn.Conv2d):
        raise TypeError(f"fold_conv_bn must return an nn.Conv2d, got {type(fused).__name__}")
    with torch.no_grad():
        out = fused(x)
    conv_after = {k: v.clone() for k, v in conv.state_dict().items()}
    bn_after = {k: v.clone() for k, v in bn.state_dict().items()}
    out_again = None
    if refold:
        refold_in_place(conv, bn)
        again = get(ns, "fold_conv_bn")(conv, bn)
        with torch.no_grad():
            out_again = again(x).detach() if isinstance(again, nn.Module) else repr(again)
    return {
        "out_again": out_again,
        "weight": fused.weight.detach().clone(),
        "bias": fused.bias.detach().clone() if fused.bias is not None else None,
        "out": out,
        "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in
                   (("in_channels", fused.in_channels), ("out_channels", fused.out_channels),
                    ("kernel_size", fused.kernel_size), ("stride", fused.stride), ("padding", fused.padding),
                    ("dilation", fused.dilation), ("groups", fused.groups))},
        "conv_after": conv_after,
        "bn_after": bn_after,
        # held-out round 24: which of conv's and bn's parameters still require grad (all did before the call)
        "requires_grad_after": {f"{label}.{k}": bool(v.requires_grad) for label, m in (("conv", conv), ("bn", bn))
                                for k, v in m.named_parameters()},
        "conv_has_bias": conv.bias is not None,
        "padding_mode": str(getattr(fused, "padding_mode", "?")),
        "same_object": fused is conv,
        "training_after": {"conv": conv.training, "bn": bn.training},  # held-out round 27
    }


def fold_typed(ns, cfg, conv_state, bn_state, conv_dtype, bn_dtype, device="cpu", affine=True):
    """Fold a conv and a BatchNorm of their own dtypes (names) on a device (values loaded from the states), or off
    the default device ("meta": probelib.stand_in_device, the stand-in for a GPU: meta modules, or CPU ones with
    meta as the default device where the code needs values): the folded parameters' dtypes, devices (relative
    to conv's) and (off meta) values, or the error. ``affine=False``: a BatchNorm2d without weight and bias."""
    def run(where):
        conv = nn.Conv2d(**cfg, device=where, dtype=getattr(torch, conv_dtype))
        bn = nn.BatchNorm2d(cfg["out_channels"], device=where, dtype=getattr(torch, bn_dtype), affine=affine)
        if conv_state is not None:
            conv.load_state_dict(conv_state)
            bn.load_state_dict(bn_state)
        conv.eval()
        bn.eval()
        fused = get(ns, "fold_conv_bn")(conv, bn)
        return {"weight": fused.weight, "bias": fused.bias}
    try:
        params, home = stand_in_device(run) if device == "meta" else (run(device), device)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    return {k: None if t is None else {"dtype": str(t.dtype), "device": relative_device(t, home) if device == "meta"
                                       else str(t.device), "value": None if t.is_meta else t.detach().clone()}
            for k, t in params.items()}


# ====================================================================== fuse_conv_bn
def fuse(ns, desc, state, x, channels_last=False, watch_library=False):
    """Fuse a ConvNet (in channels_last memory format when asked, as model.to(memory_format=...) leaves it); report
    outputs, the fused graph's modules and the fused conv parameters. ``watch_library``: also report the functions
    of torch/nn/utils/fusion.py entered during the call, under any name (probelib.functions_entered)."""
    from course.judge.probelib import changes, module_state
    model = build_convnet(desc, state)
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
    before = model(x).detach()
    modes_before = module_state(model)  # held-out round 24 (second pass): modes, hooks, requires_grad
    entered = None
    if watch_library:
        gm, entered = functions_entered(lambda: get(ns, "fuse_conv_bn")(model), ["torch/nn/utils/fusion.py"])
    else:
        gm = get(ns, "fuse_conv_bn")(model)
    graph = _graph_of(gm, "fuse_conv_bn")
    nodes = _nodes(graph, gm)
    n_bn_fn = sum(1 for n in graph.nodes if n.op == "call_function" and "batch_norm" in target_name(n.target))
    with torch.no_grad():
        out = gm(x)
    params = {}
    for name, mod in model.named_modules():
        if isinstance(mod, nn.Conv2d):
            try:
                sub = gm.get_submodule(name)
            except AttributeError:
                params[name] = None
                continue
            w = getattr(sub, "weight", None)
            b = getattr(sub, "bias", None)
            params[name] = {"type": type(sub).__name__,
                            "weight": w.detach().clone() if isinstance(w, torch.Tensor) else None,
                            "bias": b.detach().clone() if isinstance(b, torch.Tensor) else None}
    with torch.no_grad():
        after = model(x)
    return {"out": out.detach() if isinstance(out, torch.Tensor) else repr(out),
            "before": before, "orig_after": after.detach(),
            "orig_changes": changes(modes_before, module_state(model)),
            "orig_types": [type(m).__name__ for _, m in model.named_modules()],
            "nodes": nodes, "n_bn_fn": n_bn_fn, "params": params,
            "lint": capture_error(graph.lint), "library_entered": entered}


def fuse_training(ns, desc, state, which):
    """Call fuse_conv_bn on a model (``which``: 'model' -> whole model in train mode,
    'one_bn' -> eval model with a single BatchNorm switched back to training)."""
    model = build_convnet(desc, state)
    if which == "model":
        model.train()
    else:
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.train()
                break
    return capture_error(get(ns, "fuse_conv_bn"), model)


def fuse_notebook_model(ns, x, seed=2):
    """The notebook's own FashionNet with BatchNorm statistics drawn from ``seed``."""
    torch.manual_seed(1)
    model = get(ns, "FashionNet")().double()
    g = torch.Generator().manual_seed(seed)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=g, dtype=torch.float64))
            m.running_var.copy_(torch.rand(m.num_features, generator=g, dtype=torch.float64) + 0.5)
            m.weight.data.copy_(torch.randn(m.num_features, generator=g, dtype=torch.float64))
            m.bias.data.copy_(torch.randn(m.num_features, generator=g, dtype=torch.float64))
    model.eval()
    state = {k: v.clone() for k, v in model.state_dict().items()}
    before = model(x).detach()
    ref_gm = torch.fx.symbolic_trace(copy.deepcopy(model))
    orig_nodes = []
    for n in ref_gm.graph.nodes:
        item = {"op": n.op, "name": n.name, "n_users": len(n.users),
                "arg0": n.args[0].name if n.args and isinstance(n.args[0], torch.fx.Node) else ""}
        if n.op == "call_module":
            item["type"] = type(ref_gm.get_submodule(n.target)).__name__
        orig_nodes.append(item)
    gm = get(ns, "fuse_conv_bn")(model)
    graph = _graph_of(gm, "fuse_conv_bn")
    with torch.no_grad():
        out = gm(x)
    return {"before": before, "out": out.detach() if isinstance(out, torch.Tensor) else repr(out),
            "nodes": _nodes(graph, gm), "orig_nodes": orig_nodes,
            "n_bn_fn": sum(1 for n in graph.nodes if n.op == "call_function" and "batch_norm" in target_name(n.target)),
            "n_bn": sum(isinstance(m, nn.BatchNorm2d) for m in model.modules())}


# ====================================================================== insert_observers
def _observer_class(ns):
    return get(ns, "RangeObserver")


def observers(ns, state, op_types, batches, call_twice=False):
    model = build_obsnet(state)
    types = tuple(getattr(nn, t) for t in op_types)
    fn = get(ns, "insert_observers")
    if call_twice:  # a first, separate call must not share observers with the second
        first = fn(model, types)
        with torch.no_grad():
            first(batches[0] * 100.0)
    gm = fn(model, types)
    graph = _graph_of(gm, "insert_observers")
    lint = capture_error(graph.lint)
    obs_cls = _observer_class(ns)
    outs = []
    with torch.no_grad():
        for b in batches:
            outs.append(gm(b).detach())
    stats, placement = {}, []
    for n in graph.nodes:
        if n.op != "call_module":
            continue
        mod = gm.get_submodule(n.target)
        if not isinstance(mod, obs_cls):
            continue
        src = n.args[0] if n.args else None
        src_target = src.target if isinstance(src, torch.fx.Node) and src.op == "call_module" else None
        key = str(src_target) if src_target is not None else f"<{getattr(src, 'op', 'none')}>"
        stats[key] = {"min": mod.min_val.detach().clone().double(), "max": mod.max_val.detach().clone().double()}
        placement.append({
            "observed": key,
            "observed_users": [u.name for u in src.users] if isinstance(src, torch.fx.Node) else [],
            "observer": n.name,
            "self_loop": n in n.all_input_nodes,
        })
    orig_has_obs = any(isinstance(m, obs_cls) for m in model.modules())
    with torch.no_grad():
        ref_outs = [model(b).detach() for b in batches]
    return {"outs": outs, "ref_outs": ref_outs, "stats": stats, "placement": placement, "lint": lint,
            "orig_has_obs": orig_has_obs, "code_mentions": sum(1 for p in placement if p["observer"] in gm.code)}


# ====================================================================== swap_relu
NEW_FNS = {"gelu": F.gelu, "tanh": torch.tanh, "silu": F.silu, "sigmoid": torch.sigmoid}
RELU_NEW_FNS = {"torch.relu": torch.relu, "F.relu": F.relu}  # a new_fn that is itself a ReLU function


def swap(ns, ops, state, new, x, y):
    model = build_opsnet(ops, state)
    fn = NEW_FNS[new] if new in NEW_FNS else RELU_NEW_FNS[new]
    gm = get(ns, "swap_relu")(model, fn)
    graph = _graph_of(gm, "swap_relu")
    lint = capture_error(graph.lint)
    with torch.no_grad():
        try:
            out = gm(x, y)
        except Exception as exc:  # reported by the check, with the model and the clause
            out = f"running it raised {type(exc).__name__}: {str(exc)[:300]}"
        orig = model(x, y)
    nodes = _nodes(graph, gm)
    n_new = sum(1 for n in graph.nodes if n.op == "call_function" and n.target is fn)
    n_helper = sum(1 for n in graph.nodes if n.op == "call_function" and n.target is relu)
    return {"out": out.detach() if isinstance(out, torch.Tensor) else out if isinstance(out, str) else repr(out),
            "orig": orig.detach(), "nodes": nodes, "n_new": n_new, "n_helper": n_helper, "lint": lint}


# ====================================================================== recording backend
def backend_capture(ns, fname, x, state=None, recast=False):
    """Two calls with the same shapes (the second served from Dynamo's cache) on an x that requires grad, the
    gradient of the first result's sum, and with ``recast`` a third call on x.float() (a recompilation: new
    graphs whose code is the same). What the backend printed and recorded."""
    make = get(ns, "make_recording_backend")
    made = make()
    if not (isinstance(made, tuple) and len(made) == 2):
        raise TypeError("make_recording_backend() must return a pair (backend, graphs)")
    backend, graphs = made
    if fname == "mlp":
        torch.manual_seed(0)
        f = DynMLP().double()
        f.load_state_dict(state)
    else:
        f = DYN_FUNCS[fname]
    torch._dynamo.reset()
    buf = io.StringIO()
    xg = x.detach().clone().requires_grad_(True)
    grad, out3 = None, None
    try:
        with contextlib.redirect_stdout(buf):
            compiled = torch.compile(f, backend=backend)
            out1 = compiled(xg)
            out2 = compiled(xg * 0.5)  # same shapes (and requires_grad): served from Dynamo's cache
            if isinstance(out1, torch.Tensor) and out1.requires_grad:
                grad = torch.autograd.grad(out1.sum(), xg)[0].detach()
            if recast:
                out3 = compiled(x.detach().float()).detach()  # another dtype: Dynamo recompiles
    finally:
        torch._dynamo.reset()
    glist = list(graphs)
    described = []
    for g in glist:
        if isinstance(g, torch.fx.GraphModule):
            described.append([{"op": n.op, "target": target_name(n.target)} for n in g.graph.nodes])
        else:
            described.append(repr(type(g).__name__))
    return {"out1": out1.detach(), "out2": out2.detach(), "out3": out3, "grad": grad,
            "out1_requires_grad": bool(getattr(out1, "requires_grad", False)), "graphs": described,
            "printed": buf.getvalue()[-20000:]}


def backend_in_place(ns, x):
    """One compiled call of dyn_scale_in_place (which doubles its argument in place) through the submission's
    backend: what it returns and what its argument holds afterwards."""
    backend, graphs = get(ns, "make_recording_backend")()
    arg = x.clone()
    torch._dynamo.reset()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            out = torch.compile(dyn_scale_in_place, backend=backend)(arg)
    finally:
        torch._dynamo.reset()
    return {"out": out.detach(), "arg_after": arg.detach().clone(), "n_graphs": len(graphs)}


def backend_fresh(ns):
    """Two calls of make_recording_backend(), nothing compiled yet: are the lists empty and distinct?"""
    make = get(ns, "make_recording_backend")
    first, second = make(), make()
    out = {}
    for key, made in (("first", first), ("second", second)):
        ok = isinstance(made, tuple) and len(made) == 2
        g = made[1] if ok else None
        out[key] = {"pair": ok, "graphs_type": type(g).__name__, "length": len(g) if isinstance(g, list) else -1}
    out["same_list"] = bool(out["first"]["pair"] and out["second"]["pair"] and first[1] is second[1])
    return out


# ====================================================================== issue 39: gap-hunting checks
def fold_recorded(ns, cfg, conv_state, bn_state, x, affine=True):
    """fold_conv_bn with torch's own fusion helpers recorded (the judge's copy of them: torch.nn.utils.fusion and
    every name the submission bound to them); the BatchNorm may have no affine parameters."""
    import torch.nn.utils as nn_utils
    import torch.nn.utils.fusion as fusion
    calls = []
    originals = {}

    def recorder(name, fn):
        def wrapped(*args, **kwargs):
            calls.append(name)
            return fn(*args, **kwargs)
        return wrapped

    names = ("fuse_conv_bn_eval", "fuse_conv_bn_weights")
    for mod in (fusion, nn_utils):
        for n in names:
            if hasattr(mod, n):
                originals[(mod, n)] = getattr(mod, n)
                setattr(mod, n, recorder(n, getattr(mod, n)))
    targets = {id(f): n for (m, n), f in originals.items()}
    ns_saved = {k: v for k, v in ns.items() if id(v) in targets}
    for k, v in ns_saved.items():
        ns[k] = recorder(targets[id(v)], v)
    try:
        conv = nn.Conv2d(**cfg).double()
        conv.load_state_dict(conv_state)
        bn = nn.BatchNorm2d(cfg["out_channels"], eps=bn_state.pop("__eps__", 1e-5), affine=affine).double()
        bn.load_state_dict(bn_state)
        bn.eval()
        conv.eval()
        err = capture_error(lambda: calls.append(("result", get(ns, "fold_conv_bn")(conv, bn))))
    finally:
        for (mod, n), f in originals.items():
            setattr(mod, n, f)
        ns.update(ns_saved)
    fused = next((c[1] for c in calls if isinstance(c, tuple)), None)
    out = None
    if isinstance(fused, nn.Module):
        with torch.no_grad():
            out = fused(x).detach()
    return {"calls": [c for c in calls if isinstance(c, str)], "error": err, "out": out,
            "bias": (fused.bias.detach().clone() if isinstance(getattr(fused, "bias", None), torch.Tensor)
                     else None)}


class SpecialConvBN(nn.Module):
    """ConvTranspose2d -> BatchNorm2d (not a Conv2d: must stay), then Conv2d -> BatchNorm2d; or, for kind
    "shared_bn", norm(a(x)) + norm(b(x)) + norm(x) with one BatchNorm2d module (two foldable pairs, one call
    that stays); for kind "shared_conv", conv modules that forward calls twice (their pairs stay) next to one
    foldable pair; for kind "trident", two convs of other dilations sharing one weight Parameter, each followed
    by its own BatchNorm2d (both pairs are valid: each folded conv is a new module with weights of its own); for kind
    "dead_inplace", a foldable pair whose output an in-place y.relu_() changes, a node with no users (dead-code
    elimination would drop it and change the result)."""

    def __init__(self, kind, c=3):
        super().__init__()
        self.kind = kind
        self.up = nn.ConvTranspose2d(c, c + 1, 3, stride=2, padding=1)
        self.up_bn = nn.BatchNorm2d(c + 1)
        self.conv = nn.Conv2d(c + 1, c, 3, padding=1)
        self.bn = nn.BatchNorm2d(c)
        if kind == "shared_bn":  # held-out round 6: one BatchNorm2d module called three times
            self.a = nn.Conv2d(c, c, 3, padding=1)
            self.b = nn.Conv2d(c, c, 1, bias=False)
            self.norm = nn.BatchNorm2d(c)
        if kind == "shared_conv":  # held-out round 10: a conv module called twice
            self.a = nn.Conv2d(c, c, 3, padding=1)
            self.b = nn.Conv2d(c, c, 1)
            self.c = nn.Conv2d(c, c, 3, padding=1, bias=False)
            self.n1, self.n2, self.n3, self.n4 = (nn.BatchNorm2d(c) for _ in range(4))
        if kind == "trident":  # held-out round 15: tied weights (TridentNet's branches share their kernels)
            self.a = nn.Conv2d(c, c, 3, padding=1)
            self.b = nn.Conv2d(c, c, 3, padding=2, dilation=2, bias=False)
            self.b.weight = self.a.weight
            self.n1, self.n2 = nn.BatchNorm2d(c), nn.BatchNorm2d(c)
        if kind == "dead_inplace":  # held-out round 27: y.relu_() has no users but changes y
            self.a = nn.Conv2d(c, c, 3, padding=1)
            self.n1 = nn.BatchNorm2d(c)

    def forward(self, x):
        if self.kind == "shared_bn":
            return self.norm(self.a(x)) + self.norm(self.b(x)) + self.norm(x)
        if self.kind == "shared_conv":
            return (self.n1(self.a(x)) + self.a(x * 2.0) + self.n2(self.b(x)) + self.n3(self.b(-x))
                    + self.n4(self.c(x)))
        if self.kind == "trident":
            return self.n1(self.a(x)) + self.n2(self.b(x)) * 0.5
        if self.kind == "dead_inplace":
            y = self.n1(self.a(x))
            y.relu_()
            return y * 2.0 - 0.5
        x = torch.relu(self.up_bn(self.up(x)))
        return self.bn(self.conv(x))


def build_special(kind, state):
    torch.manual_seed(0)
    model = SpecialConvBN(kind).double()
    model.load_state_dict(state)
    return model.eval()


def fuse_special(ns, kind, state, x):
    model = build_special(kind, state)
    gm = get(ns, "fuse_conv_bn")(model)
    graph = _graph_of(gm, "fuse_conv_bn")
    with torch.no_grad():
        out = gm(x)
    left = [n.target for n in graph.nodes
            if n.op == "call_module" and isinstance(gm.get_submodule(n.target), nn.BatchNorm2d)]
    return {"out": out.detach() if isinstance(out, torch.Tensor) else repr(out), "bn_left": left,
            "is_graph_module": isinstance(gm, torch.fx.GraphModule), "lint": capture_error(graph.lint)}


class SubBatchNorm2d(nn.BatchNorm2d):
    """A subclass of BatchNorm2d, as user code defines one: its instances are BatchNorm2d modules."""


def fuse_modes(ns, desc, state, which, x):
    """fuse_conv_bn on a model whose modes are set by ``which``: 'train_bns_eval' (model.train(), then every
    BatchNorm2d back to eval), 'others_train' (model.eval(), then every module that is not a BatchNorm2d, nor
    the model, back to train), 'spare_bn2d_train' / 'spare_bn1d_train' (model.eval(), plus a BatchNorm2d /
    BatchNorm1d submodule that forward never calls, in training mode), 'spare_sub_bn2d_train' (the same with an
    instance of SubBatchNorm2d, a subclass of BatchNorm2d)."""
    model = build_convnet(desc, state)
    spare = {"spare_bn2d_train": nn.BatchNorm2d, "spare_bn1d_train": nn.BatchNorm1d,
             "spare_sub_bn2d_train": SubBatchNorm2d}
    if which in spare:
        model.eval()
        model.spare = spare[which](3).double().train()
    elif which == "train_bns_eval":
        model.train()
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()
    else:
        for m in model.modules():
            if m is not model and not isinstance(m, nn.BatchNorm2d):
                m.training = True  # this module only (train() would reach the BatchNorms inside a container)
    result = []
    err = capture_error(lambda: result.append(get(ns, "fuse_conv_bn")(model)))
    out = None
    if result:
        with torch.no_grad():
            out = result[0](x)
        out = out.detach() if isinstance(out, torch.Tensor) else repr(out)
    return {"error": err, "out": out}


def observers_leave_model(ns, state, op_types, x=None):
    """insert_observers on a model in training mode: the model's modes, submodule names and state afterwards;
    with ``x``, also the result's output on x, run after those are recorded (in whatever mode it returns)."""
    from course.judge.probelib import module_state
    model = build_obsnet(state).train()
    before = module_state(model)
    names = [n for n, _ in model.named_modules()]
    sd = {k: v.clone() for k, v in model.state_dict().items()}
    types = tuple(getattr(nn, t) for t in op_types)
    gm = get(ns, "insert_observers")(model, types)
    res = {"before": before, "after": module_state(model), "names_before": names,
           "names_after": [n for n, _ in model.named_modules()],
           "state_same": all(torch.equal(sd[k], v) for k, v in model.state_dict().items()) and
           set(sd) == set(model.state_dict()), "out": None}
    if x is not None:  # after the above: in training mode BatchNorm updates the statistics it may share
        with torch.no_grad():
            out = gm(x)
        res["out"] = out.detach() if isinstance(out, torch.Tensor) else repr(out)
    return res


# ====================================================================== held-out round 12
class _NodeCapExceeded(BaseException):
    pass


@contextlib.contextmanager
def _node_cap(limit):
    """At most ``limit`` torch.fx graph nodes created inside (tracing included): a pass that walks the live node
    list and keeps matching the nodes it inserts never ends; this stops it."""
    original = torch.fx.Graph.create_node
    made = [0]

    def create_node(self, *args, **kwargs):
        made[0] += 1
        if made[0] > limit:
            raise _NodeCapExceeded(limit)
        return original(self, *args, **kwargs)

    torch.fx.Graph.create_node = create_node
    try:
        yield
    finally:
        torch.fx.Graph.create_node = original


def capped(ns, probe, limit, **kwargs):
    """Another probe of this file, run with at most ``limit`` fx graph nodes created; "capped" says whether the
    cap stopped it (the submission kept inserting nodes)."""
    try:
        with _node_cap(limit):
            return {"capped": False, "result": globals()[probe](ns, **kwargs)}
    except _NodeCapExceeded:
        return {"capped": True, "result": None}


# ====================================================================== held-out round 21
def count_ops_flip(ns, ops, state, train=False):
    """count_ops on one model, then on the same model switched to the other mode (its forward branches on
    self.training): two calls, each must trace the model as it is at that call."""
    model = build_opsnet(ops, state)
    model.train(train)
    fn = get(ns, "count_ops")
    first = _plain_counts(fn(model))
    model.train(not train)
    second = _plain_counts(fn(model))
    model.train(train)  # back to the first call's mode, with a submodule replaced
    swap_first_layer(model)
    third = _plain_counts(fn(model))
    extend_ops(model)  # held-out round 24: then only a plain attribute that forward reads changes
    fourth = _plain_counts(fn(model))
    # held-out round 29: a GraphModule whose graph keeps model.first (now a Sequential) as one call_module node
    return [first, second, third, fourth, _plain_counts(fn(leaf_sequential_graphmodule(model)))]


class LeafSequentialTracer(torch.fx.Tracer):
    """A tracer that keeps every nn.Sequential as one call_module node (symbolic_trace goes into them)."""

    def is_leaf_module(self, m, qualname):
        return isinstance(m, nn.Sequential) or super().is_leaf_module(m, qualname)


def leaf_sequential_graphmodule(model):
    """fx.GraphModule(model, LeafSequentialTracer().trace(model)): tracing it again with symbolic_trace gives
    one call_module node per layer inside each Sequential, where its stored graph has one for the Sequential."""
    return torch.fx.GraphModule(model, LeafSequentialTracer().trace(model))


def extend_ops(model):
    """Append a tanh_method op to OpsNet's plain list attribute ``ops`` (forward reads it): one more call_method
    node, with the same mode and the same submodules."""
    model.ops = list(model.ops) + ["tanh_method"]


def swap_first_layer(model):
    """Replace OpsNet's first Linear by a Linear followed by a Tanh (two call_module nodes instead of one)."""
    torch.manual_seed(1)
    model.first = nn.Sequential(nn.Linear(6, 6), nn.Tanh()).double()


def fuse_device(ns, desc, state):
    """fuse_conv_bn on a ConvNet off the default device (probelib.stand_in_device: meta, the grader's stand-in for
    a GPU): where every parameter and buffer of the fused GraphModule is, relative to the model's device, or the
    error."""
    def run(where):
        model = build_convnet(desc, state).to(where)
        gm = get(ns, "fuse_conv_bn")(model)
        _graph_of(gm, "fuse_conv_bn")
        return {name: t for name, t in list(gm.named_parameters()) + list(gm.named_buffers())}
    try:
        tensors, home = stand_in_device(run)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "where": {}}
    return {"error": None, "where": {k: relative_device(t, home) for k, t in tensors.items()}}


class PlainNet(nn.Module):
    """A model without parameters or buffers (ReLU, MaxPool2d, Hardtanh modules): its observers need no
    parameter to decide anything."""

    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.clip = nn.Hardtanh(-0.5, 0.5)

    def forward(self, x):
        h = self.pool(x)
        return self.clip(self.act(h - 0.3)) + self.pool(-x)


def swap_leave_model(ns, ops, state, new, x, y):
    """swap_relu on a model in training mode: its modes and state afterwards, and the result's output next to the
    model's (both in training mode)."""
    from course.judge.probelib import module_state
    model = build_opsnet(ops, state).train()
    before = module_state(model)
    sd = {k: v.clone() for k, v in model.state_dict().items()}
    gm = get(ns, "swap_relu")(model, NEW_FNS[new])
    _graph_of(gm, "swap_relu")
    res = {"before": before, "after": module_state(model),
           "state_same": set(sd) == set(model.state_dict()) and
           all(torch.equal(sd[k], v) for k, v in model.state_dict().items())}
    with torch.no_grad():
        out = gm(x, y)
        res["orig"] = model(x, y).detach()
    res["out"] = out.detach() if isinstance(out, torch.Tensor) else repr(out)
    # held-out round 29: the same model, then changed (eval mode, model.first replaced, one more op), swapped again
    change_opsnet(model)
    again = get(ns, "swap_relu")(model, NEW_FNS[new])
    _graph_of(again, "swap_relu")
    with torch.no_grad():
        out2 = again(x, y)
    res["out_again"] = out2.detach() if isinstance(out2, torch.Tensor) else repr(out2)
    res["same_object"] = again is gm
    return res


def change_opsnet(model):
    """Held-out round 29: eval mode, model.first replaced by Linear + Tanh, one more x.tanh() op."""
    model.eval()
    swap_first_layer(model)
    extend_ops(model)


def observers_plain(ns, op_types, batches):
    """insert_observers on PlainNet: per observer (in graph order) the module it follows and its recorded range,
    the outputs, or the error."""
    model = PlainNet().double().eval()
    types = tuple(getattr(nn, t) for t in op_types)
    try:
        gm = get(ns, "insert_observers")(model, types)
        graph = _graph_of(gm, "insert_observers")
        with torch.no_grad():
            outs = [gm(b).detach() for b in batches]
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    obs_cls = _observer_class(ns)
    calls = []
    for n in graph.nodes:
        if n.op == "call_module" and isinstance(gm.get_submodule(n.target), obs_cls):
            mod = gm.get_submodule(n.target)
            src = n.args[0] if n.args else None
            calls.append({"observed": str(src.target) if isinstance(src, torch.fx.Node) and src.op == "call_module"
                          else "?", "min": mod.min_val.detach().clone().double(),
                          "max": mod.max_val.detach().clone().double()})
    return {"error": None, "outs": outs, "calls": calls}


def backend_reshape(ns, x, x2):
    """The recording backend on dyn_smooth called on x, then on x2 of another shape: Dynamo recompiles, and with
    automatic dynamic shapes the new graph takes the size as a SymInt input next to the tensor. Results (or the
    error), graphs recorded after each call, what was printed."""
    backend, graphs = get(ns, "make_recording_backend")()
    torch._dynamo.reset()
    buf = io.StringIO()
    outs, counts, err = [], [], None
    try:
        with contextlib.redirect_stdout(buf):
            compiled = torch.compile(dyn_smooth, backend=backend)
            for t in (x, x2):
                outs.append(compiled(t.clone()).detach())
                counts.append(len(graphs))
    except Exception as exc:
        err = f"{type(exc).__name__}: {str(exc)[:300]}"
    finally:
        torch._dynamo.reset()
    return {"outs": outs, "counts": counts, "error": err, "printed": buf.getvalue()[-20000:],
            "gm": [isinstance(g, torch.fx.GraphModule) for g in graphs]}


# ====================================================================== held-out round 24
def dyn_break_fresh(x):
    """A graph break whose second piece reads no input: it only builds a new tensor (its graph has no inputs)."""
    y = torch.sin(x) + 1.0
    torch._dynamo.graph_break()
    z = torch.linspace(-1.0, 1.0, 5, dtype=torch.float64).exp()
    return y, z


def backend_no_input(ns, x):
    """The recording backend on dyn_break_fresh: results (or the error), graphs recorded, how many placeholders each
    recorded graph has, what was printed."""
    backend, graphs = get(ns, "make_recording_backend")()
    torch._dynamo.reset()
    buf = io.StringIO()
    out, err = None, None
    try:
        with contextlib.redirect_stdout(buf):
            out = torch.compile(dyn_break_fresh, backend=backend)(x.clone())
    except Exception as exc:
        err = f"{type(exc).__name__}: {str(exc)[:300]}"
    finally:
        torch._dynamo.reset()
    return {"out": [t.detach() for t in out] if isinstance(out, tuple) else None, "error": err,
            "n_graphs": len(graphs), "printed": buf.getvalue()[-20000:],
            "placeholders": [sum(1 for n in g.graph.nodes if n.op == "placeholder")
                             if isinstance(g, torch.fx.GraphModule) else -1 for g in graphs]}


# ====================================================================== held-out round 27
def fuse_split_devices(ns, desc, state, split):
    """fuse_conv_bn on a ConvNet whose layers from index ``split`` on sit on the meta device (the grader's stand-in
    for a second GPU) and the rest on the CPU, as a pipeline split leaves a model. Where each conv of the fused
    GraphModule is, by qualified name, or the error. Nothing runs (meta holds no values): fx traces, the folds are
    arithmetic on each pair's own device."""
    model = build_convnet(desc, state)
    for i, layer in enumerate(model.layers):
        if i >= split:
            layer.to("meta")
    try:
        gm = get(ns, "fuse_conv_bn")(model)
        _graph_of(gm, "fuse_conv_bn")
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "where": {}}
    where = {}
    for name, mod in model.named_modules():
        if isinstance(mod, nn.Conv2d):
            try:
                sub = gm.get_submodule(name)
            except AttributeError:
                where[name] = None
                continue
            where[name] = {k: str(t.device) for k, t in (("weight", getattr(sub, "weight", None)),
                                                         ("bias", getattr(sub, "bias", None)))
                           if isinstance(t, torch.Tensor)}
    return {"error": None, "where": where}


def _graph_snapshot(gm):
    return [(n.op, n.name, target_name(n.target)) for n in gm.graph.nodes]


def _module_snapshot(gm):
    return {name: id(m) for name, m in gm.named_modules()}


def graphmodule_input(ns, fname, build, x_args, **kwargs):
    """``fname`` ("fuse_conv_bn" or "swap_relu") called on a GraphModule: fx.symbolic_trace of the model ``build``
    makes. What the given GraphModule looks like afterwards (its graph, its submodules, its code, its output) next
    to before, whether the result is that same object, and the result's output."""
    gm_in = torch.fx.symbolic_trace(build())
    graph_before, mods_before, code_before = _graph_snapshot(gm_in), _module_snapshot(gm_in), gm_in.code
    sd_before = {k: v.clone() for k, v in gm_in.state_dict().items()}
    with torch.no_grad():
        out_before = gm_in(*x_args).detach()
    fn = get(ns, fname)
    gm = fn(gm_in, NEW_FNS[kwargs["new"]]) if fname == "swap_relu" else fn(gm_in)
    graph = _graph_of(gm, fname)
    with torch.no_grad():
        out = gm(*x_args)
        in_after = gm_in(*x_args).detach()
    sd_after = gm_in.state_dict()
    return {"same_object": gm is gm_in,
            "graph_changed": _graph_snapshot(gm_in) != graph_before,
            "modules_changed": sorted(k for k in mods_before.keys() | _module_snapshot(gm_in).keys()
                                      if mods_before.get(k) != _module_snapshot(gm_in).get(k))[:6],
            "code_changed": gm_in.code != code_before,
            "state_same": set(sd_before) == set(sd_after) and all(torch.equal(sd_before[k], v)
                                                                  for k, v in sd_after.items()),
            "in_before": out_before, "in_after": in_after,
            "out": out.detach() if isinstance(out, torch.Tensor) else repr(out),
            "lint": capture_error(graph.lint)}


def fuse_graphmodule(ns, desc, state, x):
    return graphmodule_input(ns, "fuse_conv_bn", lambda: build_convnet(desc, state), (x,))


def swap_graphmodule(ns, ops, state, new, x, y):
    return graphmodule_input(ns, "swap_relu", lambda: build_opsnet(ops, state), (x, y), new=new)


class ObsTaken(ObsNet):
    """ObsNet plus its own Tanh modules registered under the given names, applied in turn to its output: a model
    that already uses some names for submodules that forward calls. ``kind="buffers"`` (held-out round 29):
    (non-persistent) buffers under those names instead, that forward multiplies the output by: the traced module
    holds them as attributes of those names, not as submodules."""

    def __init__(self, names, kind="modules"):
        super().__init__()
        self.taken = list(names)
        self.kind = kind
        for i, name in enumerate(self.taken):
            if kind == "buffers":
                self.register_buffer(name, torch.tensor(1.0 + 0.25 * i), persistent=False)
            else:
                self.add_module(name, nn.Tanh())

    def forward(self, x):
        out = super().forward(x)
        for name in self.taken:
            out = out * getattr(self, name) if self.kind == "buffers" else getattr(self, name)(out) * 2.0
        return out


def taken_names(names):
    """The names an ObsTaken can register: no dots, not already an attribute of ObsNet."""
    probe = ObsNet()
    out = []
    for n in names:
        if isinstance(n, str) and n and "." not in n and not hasattr(probe, n) and n not in out:
            out.append(n)
    return out


def build_obstaken(names, state, kind="modules"):
    torch.manual_seed(0)
    model = ObsTaken(names, kind).double()
    model.load_state_dict(state)
    return model.eval()


def observers_names_taken(ns, state, op_types, x):
    """insert_observers on ObsNet, to learn the names the submission gives its observers; then on an ObsTaken
    holding its own Tanh modules under exactly those names (forward calls them): the names used, and the second
    result's output, observer calls (what each follows, its range) and the model's output afterwards. Held-out
    round 29: the same for an ObsTaken holding buffers under those names (under "buffers", or the error)."""
    types = tuple(getattr(nn, t) for t in op_types)
    fn = get(ns, "insert_observers")
    obs_cls = _observer_class(ns)
    first = fn(build_obsnet(state), types)
    graph = _graph_of(first, "insert_observers")
    names = taken_names([n.target for n in graph.nodes
                         if n.op == "call_module" and isinstance(first.get_submodule(n.target), obs_cls)])
    res = _observers_on_taken(fn, obs_cls, build_obstaken(names, state), types, x)
    result = []
    err = capture_error(lambda: result.append(_observers_on_taken(fn, obs_cls, build_obstaken(names, state, "buffers"),
                                                                  types, x)))
    return {"names": names, **res, "buffers": result[0] if result else {"error": err}}


def _observers_on_taken(fn, obs_cls, model, types, x):
    gm = fn(model, types)
    graph = _graph_of(gm, "insert_observers")
    with torch.no_grad():
        out = gm(x)
        orig = model(x).detach()
    calls = []
    for n in graph.nodes:
        if n.op == "call_module" and isinstance(gm.get_submodule(n.target), obs_cls):
            mod = gm.get_submodule(n.target)
            src = n.args[0] if n.args else None
            calls.append({"observed": str(src.target) if isinstance(src, torch.fx.Node) and src.op == "call_module"
                          else "?", "min": mod.min_val.detach().clone().double(),
                          "max": mod.max_val.detach().clone().double()})
    return {"out": out.detach() if isinstance(out, torch.Tensor) else repr(out), "orig": orig,
            "calls": calls, "lint": capture_error(graph.lint), "error": None}


def fuse_twice(ns, desc, state, state2, x):
    """fuse_conv_bn on a model, then the model's weights and statistics change (load ``state2``: another training
    step) and fuse_conv_bn is called on the same model again. Both results' outputs, whether the second is the
    first object, and the model's output after the change."""
    model = build_convnet(desc, state)
    fn = get(ns, "fuse_conv_bn")
    first = fn(model)
    _graph_of(first, "fuse_conv_bn")
    with torch.no_grad():
        out1 = first(x)
    model.load_state_dict(state2)
    second = fn(model)
    _graph_of(second, "fuse_conv_bn")
    with torch.no_grad():
        out2 = second(x)
        orig = model(x).detach()
    plain = (lambda o: o.detach() if isinstance(o, torch.Tensor) else repr(o))
    return {"out1": plain(out1), "out2": plain(out2), "orig": orig, "same_object": second is first}
