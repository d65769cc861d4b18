"""Probes for 00-03 (run next to the submission; return plain data only)."""
import weakref

import torch
import torch.nn.functional as F

from course.judge.probelib import (aliases, build_model, capture_error, changes, get, global_state, module_state,
                                   needs_values, relative_device, stand_in_device)
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)

LOSSES = {"mse": F.mse_loss, "cross_entropy": F.cross_entropy, "smooth_l1": F.smooth_l1_loss}


def _raw(v):
    """A returned value as plain data: tensors and numbers as they are, anything else as its type's name."""
    if isinstance(v, (int, float, bool, str, type(None), torch.Tensor)):
        return v
    return f"<{type(v).__name__}>"


# ---------------------------------------------------------------- accumulate_grads
class _Saved:
    """A tensor a graph saved for backward (saved_tensors_hooks' packed form); freed when that graph is."""
    __slots__ = ("tensor", "__weakref__")

    def __init__(self, tensor):
        self.tensor = tensor


class _SharedAndUnused(torch.nn.Module):
    """The spec's model followed by two square layers that share one weight (tied, as embeddings often are),
    plus a head the forward never calls. test_accumulate.py builds the same model on the judge."""

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


class _TokenIds(torch.nn.Module):
    """An nn.Embedding fed int64 token ids of shape (N, 2), the two embeddings summed, then the spec's model: a
    model whose inputs are not floating point. test_accumulate.py builds the same model on the judge."""

    def __init__(self, inner, vocab, width, seed):
        super().__init__()
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.embed = torch.nn.Embedding(vocab, width).double()
        self.inner = inner

    def forward(self, ids):
        return self.inner(self.embed(ids).sum(dim=1))


def accumulate_run(ns, spec, loss, x, y, micro_batches, pre_grads, mode, frozen=(), shared_and_unused=False,
                   token_vocab=None):
    """Build the judge's model in mode "train", "eval" or "mixed", set some .grad beforehand, call accumulate_grads
    once and report the gradients, the forward batch sizes, the order of forwards and of backwards reaching each
    forward's output, the returned loss, and what changed around the call. The parameters
    at the indices in frozen get requires_grad=False first. shared_and_unused wraps the model in
    _SharedAndUnused (a tied weight and a parameter no forward uses). token_vocab puts an embedding of that many
    ids in front (_TokenIds: x holds int64 ids)."""
    fn = get(ns, "accumulate_grads")
    model = build_model(spec)
    if shared_and_unused:
        model = _SharedAndUnused(model, spec["out"], spec["seed"] + 1)
    if token_vocab is not None:
        model = _TokenIds(model, token_vocab, spec["in"], spec["seed"] + 2)
    model.train(mode != "eval")
    if mode == "mixed":  # a training model with its first submodule in eval mode (as a frozen block would be)
        for sub in list(model.modules())[1:2]:
            sub.eval()
    for i, p in enumerate(model.parameters()):
        p.requires_grad_(i not in frozen)
    for (name, p), g in zip(model.named_parameters(), pre_grads):
        p.grad = None if g is None else g.clone()
    params_before = {n: p.detach().clone() for n, p in model.named_parameters()}
    seen, events = [], []
    saved, alive_at_forward = [], []  # weak references to what each graph saved; per forward, how many still live

    def on_forward(m, args, kwargs, out):  # "f<j>" at each forward, "b<j>" when backward reaches its output
        j = sum(1 for e in events if e.startswith("f"))
        events.append(f"f{j}")
        if isinstance(out, torch.Tensor) and out.requires_grad:
            out.register_hook(lambda grad: events.append(f"b{j}"))

    def on_forward_pre(m, args, kwargs):
        # Saved by earlier micro-batches' graphs and not yet freed: backward() without retain_graph frees them.
        alive_at_forward.append(sum(1 for r in saved if r() is not None))
        first = (list(args) + list(kwargs.values()))[0].detach()
        # the first column tags each sample; inputs of shape (N, 0) have none, their size alone is recorded
        seen.append(first[:, 0].clone() if first.dim() > 1 and first.shape[1] > 0 else first.new_zeros(first.shape[:1]))

    def pack(t):  # every tensor a graph saves for backward, wrapped so that its release can be seen
        box = _Saved(t)
        saved.append(weakref.ref(box))
        return box
    handle = model.register_forward_pre_hook(on_forward_pre, with_kwargs=True)
    handle_out = model.register_forward_hook(on_forward, with_kwargs=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda box: box.tensor):
        g_before, m_before = global_state(), module_state(model)
        result = fn(model, LOSSES[loss], (x, y), micro_batches)
        g_after, m_after = global_state(), module_state(model)
    handle.remove()
    handle_out.remove()
    return {
        "loss": _raw(result),
        "grads": {n: (None if p.grad is None else p.grad.detach().clone()) for n, p in model.named_parameters()},
        "params_changed": [n for n, p in model.named_parameters() if not torch.equal(p.detach(), params_before[n])],
        "sizes": [int(t.shape[0]) for t in seen],
        "first_column": [t.tolist() for t in seen],
        "changes": changes(g_before, g_after) + changes(m_before, m_after),
        "events": events,
        "alive_at_forward": alive_at_forward,
        "x_after": x, "y_after": y,
    }


# ---------------------------------------------------------------- MomentumSGD
def _make_params(values, frozen=()):
    return [torch.nn.Parameter(v.clone(), requires_grad=i not in frozen) for i, v in enumerate(values)]


def _groups(params, groups):
    return [dict(g["hyper"], params=[params[i] for i in g["idx"]]) for g in groups]


def _set_grads(params, grads):
    for p, g in zip(params, grads):
        p.grad = None if g is None else g.clone()


def sgd_run(ns, values, groups, grads, resume_at=None, via=None, frozen=(), set_hyper=None, fresh_other=False):
    """Run MomentumSGD over the given gradients (one list per step, None for 'no grad'). With resume_at=k,
    after step k the optimizer is rebuilt from state_dict(): a fresh MomentumSGD (via 'mine'), or
    torch.optim.SGD that saved / continues (via 'from_torch' / 'to_torch'). Reports every step. The parameters
    at the indices in frozen get requires_grad=False (their .grad is still set). set_hyper: [step, group index,
    {name: value}] triples written into opt.param_groups just before that step, as a scheduler does. With
    fresh_other (via 'mine'), the fresh MomentumSGD is built with lr=0.5 and default hyperparameters, one group per
    saved group: load_state_dict() brings the saved ones."""
    cls = get(ns, "MomentumSGD")
    params = _make_params(values, frozen)
    if via == "from_torch" and resume_at is not None:
        opt = torch.optim.SGD(_groups(params, groups), lr=groups[0]["hyper"]["lr"], foreach=False)
    else:
        opt = cls(_groups(params, groups), lr=groups[0]["hyper"]["lr"])
    out = {"params": [], "grads_after": [], "stateless": []}
    for step, gs in enumerate(grads):
        _set_grads(params, gs)
        for when, gi, hyper in set_hyper or ():
            if when == step:
                opt.param_groups[gi].update(hyper)
        opt.step()
        out["params"].append([p.detach().clone() for p in params])
        out["grads_after"].append([None if p.grad is None else p.grad.detach().clone() for p in params])
        out["stateless"].append([i for i, p in enumerate(params) if len(opt.state.get(p, {})) == 0])
        out.setdefault("in_state", []).append([i for i, p in enumerate(params) if p in opt.state])
        if resume_at == step:
            saved = torch.load(_to_bytes(opt.state_dict()), weights_only=False)
            target = torch.optim.SGD if via == "to_torch" else cls
            kwargs = {"foreach": False} if via == "to_torch" else {}
            if fresh_other and via != "to_torch":
                opt = cls([{"params": [params[i] for i in g["idx"]]} for g in groups], lr=0.5)
            else:
                opt = target(_groups(params, groups), lr=groups[0]["hyper"]["lr"], **kwargs)
            opt.load_state_dict(saved)
    return out


def sgd_repeat(ns, values, groups, grads, steps):
    """Set the gradients once, then call step() several times without touching .grad again."""
    params = _make_params(values)
    opt = get(ns, "MomentumSGD")(_groups(params, groups), lr=groups[0]["hyper"]["lr"])
    _set_grads(params, grads)
    out = {"params": [], "grads_after": []}
    for _ in range(steps):
        opt.step()
        out["params"].append([p.detach().clone() for p in params])
        out["grads_after"].append([None if p.grad is None else p.grad.detach().clone() for p in params])
    return out


def _to_bytes(obj):
    import io
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return buf


def sgd_state_keys(ns, values, hyper, steps):
    """The keys MomentumSGD keeps in state[p], and its momentum buffers, after steps with a gradient of ones."""
    params = _make_params(values)
    opt = get(ns, "MomentumSGD")(params, **hyper)
    for _ in range(steps):
        _set_grads(params, [torch.ones_like(p) for p in params])
        opt.step()
    states = [opt.state.get(p, {}) for p in params]
    return {"keys": [sorted(str(k) for k in st) for st in states],
            "buffers": [_raw(st.get("momentum_buffer")) for st in states]}


def sgd_rejects(ns, reject, accept, value, grad):
    """capture_error for each rejected argument set; for each accepted one, whether it raised and the
    parameter after one step with the given gradient."""
    cls = get(ns, "MomentumSGD")
    out = {"rejected": [], "accepted": [], "stepped": []}
    for kwargs in reject:
        out["rejected"].append(capture_error(cls, [torch.nn.Parameter(value.clone())], **kwargs))
    for kwargs in accept:
        p = torch.nn.Parameter(value.clone())
        holder = []
        out["accepted"].append(capture_error(lambda: holder.append(cls([p], **kwargs))))
        if holder:
            p.grad = grad.clone()
            holder[0].step()
        out["stepped"].append(p.detach().clone())
    return out


# ---------------------------------------------------------------- warmup_cosine_lr
def schedule_calls(ns, calls):
    """warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=..., eta_min=...) for each
    [step, base_lr, warmup_steps, total_steps, start_factor, eta_min] in calls, in that order."""
    fn = get(ns, "warmup_cosine_lr")
    return [_raw(fn(s, b, w, t, start_factor=f, eta_min=e)) for s, b, w, t, f, e in calls]


def schedule_values(ns, steps, base_lr, warmup_steps, total_steps, start_factor, eta_min):
    fn = get(ns, "warmup_cosine_lr")
    return [_raw(fn(s, base_lr, warmup_steps, total_steps, start_factor=start_factor, eta_min=eta_min))
            for s in steps]


# ---------------------------------------------------------------- pad_collate
def _label(v):
    kind, value = v
    return int(value) if kind == "int" else torch.tensor(value, dtype=getattr(torch, kind))


def collate_run(ns, seqs, labels, padding_value=None):
    """Call pad_collate on (seq, label) pairs; labels are (kind, value): ('int', 3) or ('int32', 3) ...
    Reports the returned dict, whether 'inputs' shares memory with a sample, and the samples afterwards."""
    fn = get(ns, "pad_collate")
    samples = [(s, _label(lb)) for s, lb in zip(seqs, labels)]
    before = [s.clone() for s in seqs]
    out = fn(samples) if padding_value is None else fn(samples, padding_value)
    if not isinstance(out, dict):
        return {"type": type(out).__name__}
    res = {"type": "dict", "keys": sorted(str(k) for k in out)}
    for key in ("inputs", "lengths", "mask", "labels"):
        res[key] = _raw(out.get(key))
    inputs = out.get("inputs")
    res["aliases"] = [i for i, s in enumerate(seqs) if isinstance(inputs, torch.Tensor) and aliases(inputs, s)]
    res["samples_changed"] = [i for i, (s, b) in enumerate(zip(seqs, before))
                              if s.shape != b.shape or not torch.equal(s, b)]
    return res


def collate_twice(ns, first, second, labels):
    """pad_collate on the samples in first, then on those in second (same lengths and labels, other values).
    Reports the first result as returned, as it reads after the second call, and which of the first result's
    tensors share memory with the second's."""
    fn = get(ns, "pad_collate")
    a = fn([(s, _label(lb)) for s, lb in zip(first, labels)])
    if not isinstance(a, dict):
        return {"type": type(a).__name__}
    keys = ("inputs", "lengths", "mask", "labels")
    before = {k: (a[k].clone() if isinstance(a.get(k), torch.Tensor) else _raw(a.get(k))) for k in keys}
    b = fn([(s, _label(lb)) for s, lb in zip(second, labels)])
    if not isinstance(b, dict):
        return {"type": type(b).__name__}
    return {"type": "dict", "before": before, "after": {k: _raw(a.get(k)) for k in keys},
            "shared": [k for k in keys if aliases(a.get(k), b.get(k))]}


def collate_on_meta(ns, lengths, features):
    """pad_collate on float32 sequences off the default device (as probelib.stand_in_device, a stand-in for a
    GPU). Reports the device of "inputs" ("meta": the sequences'), the error if the call raised, or judged False
    where neither arrangement could tell (the code reads values the meta device does not hold). Copying a meta
    sample into a tensor elsewhere raises "Cannot copy out of meta tensor": on a GPU that copy works and leaves
    the batch off the sequences' device, so it is reported as such."""
    fn = get(ns, "pad_collate")

    def run(where):
        return fn([(torch.zeros((n, *features), device=where), i) for i, n in enumerate(lengths)])
    try:
        out, home = run("meta"), "meta"
    except Exception as exc:
        message = f"{type(exc).__name__}: {str(exc)[:300]}"
        if "copy out of meta" in str(exc):
            return {"judged": True, "error": None,
                    "device": f"another device than the sequences' (their values were copied off it: {message})"}
        if not needs_values(exc):
            return {"judged": True, "error": message}
        try:
            with torch.device("meta"):
                out, home = run("cpu"), "cpu"
        except Exception as exc2:
            return {"judged": not needs_values(exc2), "error": f"{type(exc2).__name__}: {str(exc2)[:300]}"}
    inputs = out.get("inputs") if isinstance(out, dict) else None
    return {"judged": True, "error": None,
            "device": _device_of(inputs, home) if isinstance(inputs, torch.Tensor) else _raw(inputs)}


def collate_empty(ns, seqs, labels):
    """pad_collate([]) (must raise), then an ordinary call."""
    return {"empty": capture_error(get(ns, "pad_collate"), []), "after": collate_run(ns, seqs, labels)}


# ---------------------------------------------------------------- ScratchAdamW
def _number(v):
    """A state's step as a float, whether kept as a Python number or a 0-dim tensor; anything else by type (a
    tensor of another shape, even of one element, by its shape: the text allows a number or a 0-dim tensor)."""
    if isinstance(v, torch.Tensor):
        return float(v.item()) if v.dim() == 0 else f"<a tensor of shape {list(v.shape)}>"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return _raw(v)


def _adam_state(opt, params):
    """Per parameter: the sorted keys of opt.state[p] and its exp_avg, exp_avg_sq and step (None when absent)."""
    out = []
    for p in params:
        st = opt.state.get(p, {})
        copy = {k: (v.detach().clone() if isinstance(v, torch.Tensor) else v) for k, v in st.items()}
        out.append({"keys": sorted(str(k) for k in st), "exp_avg": _raw(copy.get("exp_avg")),
                    "exp_avg_sq": _raw(copy.get("exp_avg_sq")), "step": _number(copy.get("step"))})
    return out


def adamw_run(ns, values, groups, grads, resume_at=None, repeat=False, frozen=(), set_hyper=None,
              fresh_defaults=False):
    """Run ScratchAdamW over the given gradients (one list per step, None for 'no grad'; with repeat=True the
    first list is set once and step() is called len(grads) times). With resume_at=k, after step k the optimizer
    is rebuilt from its torch.save'd state_dict() in a fresh ScratchAdamW (with fresh_defaults, one built with
    its default hyperparameters: load_state_dict() brings the saved ones). Reports every step. The parameters at
    the indices in frozen get requires_grad=False (their .grad is still set). set_hyper: [step, group index,
    {name: value}] triples written into opt.param_groups just before that step, as a scheduler does."""
    cls = get(ns, "ScratchAdamW")
    params = _make_params(values, frozen)
    opt = cls(_groups(params, groups), lr=groups[0]["hyper"]["lr"])
    out = {"params": [], "grads_after": [], "state": []}
    for step, gs in enumerate(grads):
        if step == 0 or not repeat:
            _set_grads(params, gs)
        for when, gi, hyper in set_hyper or ():
            if when == step:
                opt.param_groups[gi].update({k: tuple(v) if k == "betas" else v for k, v in hyper.items()})
        opt.step()
        out["params"].append([p.detach().clone() for p in params])
        out["grads_after"].append([None if p.grad is None else p.grad.detach().clone() for p in params])
        out["state"].append(_adam_state(opt, params))
        out.setdefault("in_state", []).append([i for i, p in enumerate(params) if p in opt.state])
        if resume_at == step:
            saved = torch.load(_to_bytes(opt.state_dict()), weights_only=False)
            if fresh_defaults:
                opt = cls([{"params": [params[i] for i in g["idx"]]} for g in groups])
            else:
                opt = cls(_groups(params, groups), lr=groups[0]["hyper"]["lr"])
            opt.load_state_dict(saved)
    return out


def _step_off_device(ns, name, shapes, hyper, steps):
    """The optimizer ``name`` stepping float64 parameters off the default device (probelib.stand_in_device, a
    stand-in for a GPU: meta parameters, or CPU ones with meta as the default device where the code reads values;
    a tensor made without device= lands elsewhere). Returns the parameters, the optimizer (None if its
    constructor raised), the error, if any, and the parameters' device type."""
    def run(where):
        params = [torch.nn.Parameter(torch.zeros(s, dtype=torch.float64, device=where)) for s in shapes]
        error, opt = None, None
        try:
            opt = get(ns, name)(params, **hyper)
            for _ in range(steps):
                for p in params:
                    p.grad = torch.zeros_like(p)
                opt.step()
        except Exception as exc:
            if where == "meta" and needs_values(exc):
                raise  # right on a GPU, maybe: stand_in_device runs it again with values
            error = f"{type(exc).__name__}: {str(exc)[:300]}"
        return params, opt, error
    (params, opt, error), home = stand_in_device(run)
    return params, opt, error, home


def _device_of(value, home):
    return relative_device(value, home) if isinstance(value, torch.Tensor) else None


def sgd_on_meta(ns, shapes, hyper, steps):
    """MomentumSGD stepping float64 parameters off the default device (_step_off_device). Returns the error, if
    any, and the device of each momentum buffer kept ("meta": the parameter's)."""
    params, opt, error, home = _step_off_device(ns, "MomentumSGD", shapes, hyper, steps)
    state = [] if opt is None else [opt.state.get(p, {}) for p in params]
    return {"error": error, "buffers": [_device_of(st["momentum_buffer"], home) if isinstance(
        st.get("momentum_buffer"), torch.Tensor) else _raw(st.get("momentum_buffer")) for st in state]}


def adamw_on_meta(ns, shapes, hyper, steps):
    """ScratchAdamW stepping float64 parameters off the default device (_step_off_device). Returns, per parameter,
    the devices of exp_avg and exp_avg_sq as kept in the state ("meta": the parameter's; read even when a step
    raised) and the error, if any."""
    params, opt, error, home = _step_off_device(ns, "ScratchAdamW", shapes, hyper, steps)
    state = [] if opt is None else [opt.state.get(p, {}) for p in params]
    return {"error": error, "param_devices": [_device_of(p, home) for p in params],
            "moments": [{k: (_device_of(st[k], home) if isinstance(st[k], torch.Tensor) else type(st[k]).__name__)
                         for k in ("exp_avg", "exp_avg_sq") if k in st} for st in state]}


def adamw_rejects(ns, reject, accept, value, grad):
    """capture_error for each rejected argument set; for each accepted one, whether it raised and the
    parameter after one step with the given gradient."""
    cls = get(ns, "ScratchAdamW")
    out = {"rejected": [], "accepted": [], "stepped": []}
    for kwargs in reject:
        out["rejected"].append(capture_error(cls, [torch.nn.Parameter(value.clone())], **kwargs))
    for kwargs in accept:
        p = torch.nn.Parameter(value.clone())
        holder = []
        out["accepted"].append(capture_error(lambda: holder.append(cls([p], **kwargs))))
        if holder:
            p.grad = grad.clone()
            holder[0].step()
        out["stepped"].append(p.detach().clone())
    return out


# ---------------------------------------------------------------- arguments by position (round 27)
def optimizer_by_position(ns, name, value, grads, args):
    """``name``([p], *args): the optimizer built with its arguments after params given by position, in the
    text's order, then stepped once per gradient. Returns the constructor's capture_error and p after each step."""
    cls = get(ns, name)
    p = torch.nn.Parameter(value.clone())
    holder = []
    made = capture_error(lambda: holder.append(cls([p], *args)))
    out = {"made": made, "params": []}
    if holder:
        for g in grads:
            p.grad = g.clone()
            holder[0].step()
            out["params"].append(p.detach().clone())
    return out


def schedule_by_position(ns, calls):
    """warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor, eta_min), every argument by
    position, for each list in calls; the error, as type and message, where a call raised."""
    fn = get(ns, "warmup_cosine_lr")
    out = []
    for c in calls:
        try:
            out.append(_raw(fn(*c)))
        except Exception as exc:
            out.append(f"raised {type(exc).__name__}: {str(exc)[:200]}")
    return out


def optimizer_from_generator(ns, name, values, grads, hyper):
    """``name``(generator of parameters, **hyper), as ``name(model.parameters(), ...)`` is called: a one-shot
    iterator, not a list. Steps once per gradient list; returns the constructor's capture_error, the number of
    parameters in its param_groups and every parameter after each step."""
    cls = get(ns, name)
    params = _make_params(values)
    holder = []
    made = capture_error(lambda: holder.append(cls((p for p in params), **hyper)))
    out = {"made": made, "in_groups": None, "params": []}
    if holder:
        opt = holder[0]
        out["in_groups"] = sum(len(g["params"]) for g in opt.param_groups)
        for gs in grads:
            _set_grads(params, gs)
            opt.step()
            out["params"].append([p.detach().clone() for p in params])
    return out


def accumulate_half(ns, weight, bias, x, y, micro_batches):
    """accumulate_grads on a float16 nn.Linear with the given weight and bias (mse loss): the returned loss and the
    gradients."""
    fn = get(ns, "accumulate_grads")
    model = torch.nn.Linear(weight.shape[1], weight.shape[0]).half()
    with torch.no_grad():
        model.weight.copy_(weight)
        model.bias.copy_(bias)
    result = fn(model, F.mse_loss, (x, y), micro_batches)
    return {"loss": _raw(result),
            "grads": {n: (None if p.grad is None else p.grad.detach().clone()) for n, p in model.named_parameters()}}
