"""Correct for every task, written from the task texts alone in ways of its own (held-out round 4):

- anomaly: the detect_anomaly() context manager inside catch_warnings, the report's frames read with
  one regular expression and scanned from the innermost end.
- gradcheck: each input perturbed through copy_ from a saved original (exact restore), the analytic rows
  from autograd.grad with a one-hot grad_outputs over the whole output.
- monitor: each hook appends the gradient it receives to a list; norms() sums them in float64 when asked;
  the modules' order is kept as a list of names.
- zoo: the fixes written with torch.add / torch.mean / F.relu, the positions reshaped to (1, seq, 1),
  gradients cleared by setting p.grad = None, modes saved as a list of (module, flag) pairs.
- leaks: weakref.WeakValueDictionary per iteration; memory_growth with itertools.pairwise.
"""
EXPECT = {t: "pass" for t in ["anomaly", "gradcheck", "monitor", "zoo", "leaks"]}

CELLS = {
    "anomaly_impl": '''
_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\\d+)')
_NAN_REPORT = re.compile(r"Function '(?P<op>[^']+)' returned nan values in its \\d+\\w* output")


def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    source_file = loss_fn.__code__.co_filename
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            with torch.autograd.detect_anomaly():
                loss_fn(x).backward()
        except RuntimeError as exc:
            hit = _NAN_REPORT.match(str(exc))
            if hit is None:
                raise
            op = hit.group("op")
        else:
            return None
    header = "Error detected in " + op + "."
    for w in reversed(seen):
        message = str(w.message)
        if message.startswith(header):
            frames = [(m.group("path"), int(m.group("line"))) for m in _FRAME.finditer(message)]
            for path, line in reversed(frames):
                if path == source_file:
                    return {"op": op, "lineno": line}
            break
    return {"op": op, "lineno": None}
''',
    "gradcheck_impl": '''
def _perturbed_outputs(fn, inputs, k, eps):
    """Yield (f(x + eps e_j) - f(x - eps e_j)) / (2 eps) for each element j of inputs[k]."""
    target = inputs[k]
    saved = target.detach().clone()
    n = saved.numel()
    try:
        for j in range(n):
            step = torch.zeros(n, dtype=saved.dtype, device=saved.device)
            step[j] = eps
            step = step.reshape(saved.shape)
            target.copy_(saved + step)
            upper = fn(*inputs).detach().reshape(-1).to(torch.float64).clone()
            target.copy_(saved - step)
            lower = fn(*inputs).detach().reshape(-1).to(torch.float64).clone()
            yield (upper - lower) / (2 * eps)
    finally:
        target.copy_(saved)


def numeric_jacobian(fn, inputs, eps=1e-6):
    """Central-difference Jacobians, one (out.numel(), inp.numel()) float64 tensor per input (None if no grad)."""
    answers = []
    with torch.no_grad():
        for k, t in enumerate(inputs):
            if isinstance(t, torch.Tensor) and t.requires_grad:
                answers.append(torch.stack(list(_perturbed_outputs(fn, inputs, k, eps)), dim=1))
            else:
                answers.append(None)
    return answers


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
    numeric = numeric_jacobian(fn, inputs, eps)
    picked = [k for k, n in enumerate(numeric) if n is not None]
    with torch.enable_grad():
        out = fn(*inputs)
    rows = {k: [] for k in picked}
    m = out.numel()
    for r in range(m):
        if out.requires_grad:
            onehot = torch.zeros(m, dtype=out.dtype, device=out.device)
            onehot[r] = 1
            grads = torch.autograd.grad(out, [inputs[k] for k in picked], grad_outputs=onehot.reshape(out.shape),
                                        retain_graph=True, allow_unused=True)
        else:
            grads = [None] * len(picked)
        for k, g in zip(picked, grads):
            rows[k].append(torch.zeros(inputs[k].numel(), dtype=torch.float64) if g is None
                           else g.reshape(-1).to(torch.float64))
    for k in picked:
        analytic = torch.stack(rows[k]) if rows[k] else torch.zeros_like(numeric[k])
        if not torch.le((analytic - numeric[k]).abs(), atol + rtol * numeric[k].abs()).all().item():
            return False
    return True
''',
    "monitor_impl": '''
class GradMonitor:
    def __init__(self, model: nn.Module):
        self._order = []
        self._holdings = {}
        self._received = {}
        self._handles = []
        params = {}
        for name, module in model.named_modules():
            mine = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if mine:
                self._order.append(name)
                self._holdings[name] = [id(p) for p in mine]
                for p in mine:
                    params[id(p)] = p
        for key, p in params.items():
            self._received[key] = []
            self._handles.append(p.register_hook(lambda g, key=key: self._received[key].append(g.detach().clone())))

    def norms(self) -> dict:
        out = {}
        for name in self._order:
            squares = 0.0
            for key in self._holdings[name]:
                if self._received[key]:
                    total = torch.stack([g.to(torch.float64) for g in self._received[key]]).sum(0)
                    squares += float(torch.sum(total * total))
            out[name] = math.sqrt(squares)
        return out

    def clear(self) -> None:
        for grads in self._received.values():
            grads.clear()

    def diagnose(self, low: float, high: float):
        norms = self.norms()
        bad = next((n for n in self._order if not math.isfinite(norms[n])), None)
        if bad is not None:
            return ("nonfinite", bad)
        high_names = [n for n in self._order if norms[n] > high]
        if high_names:
            top = max(norms[n] for n in high_names)
            return ("exploding", next(n for n in high_names if norms[n] == top))
        low_names = [n for n in self._order if norms[n] < low]
        if low_names:
            bottom = min(norms[n] for n in low_names)
            return ("vanishing", next(n for n in low_names if norms[n] == bottom))
        return None

    def remove(self) -> None:
        while self._handles:
            self._handles.pop().remove()
''',
    "zoo_impl": '''
def fixed_tanh_loss(x, w):
    shifted = torch.add(torch.tanh(torch.matmul(x, w)), 1)
    return torch.mean(shifted * shifted)


def fixed_two_layer_loss(x, w1, w2):
    hidden = F.relu(torch.matmul(x, w1))
    return torch.mean(torch.matmul(hidden, w2).square())


def fixed_add_positions(x):
    seq = x.shape[1]
    k = torch.arange(seq, device=x.device, dtype=torch.float64)
    return x + (k / seq).to(dtype=x.dtype).reshape(1, seq, 1)


def fixed_train(model, batches, lr):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    history = []
    for inputs, targets in batches:
        for p in model.parameters():
            p.grad = None
        loss = F.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
        history.append(float(loss.detach()))
    return history


def fixed_predict_proba(model, x):
    saved = [(m, m.training) for m in model.modules()]
    model.train(False)
    try:
        with torch.no_grad():
            logits = model(x)
            return torch.softmax(logits, dim=1)
    finally:
        for m, mode in saved:
            m.training = mode
''',
    "leaks_impl": '''
import itertools


def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def _register_new(alive, born_now):
    for t in _live_tensors():
        if alive.get(id(t)) is not t:
            alive[id(t)] = t
            born_now[id(t)] = t


def find_leaks(step, n_iters: int) -> list:
    alive = weakref.WeakValueDictionary()
    _register_new(alive, weakref.WeakValueDictionary())
    by_iteration = []
    for _ in range(n_iters):
        step()
        born_now = weakref.WeakValueDictionary()
        _register_new(alive, born_now)
        by_iteration.append(born_now)
    gc.collect()
    return [tuple(t.shape) for born in by_iteration[1:-1] for t in list(born.values())]


def memory_growth(snapshots: list) -> dict:
    if len(snapshots) < 2:
        raise ValueError("memory_growth needs at least two snapshots")
    pairs = list(itertools.pairwise(snapshots))
    byte_steps = [b["allocated_bytes.all.current"] - a["allocated_bytes.all.current"] for a, b in pairs]
    alloc_steps = [b["allocation.all.current"] - a["allocation.all.current"] for a, b in pairs]
    return {"bytes_per_iter": int(min(byte_steps)), "allocs_per_iter": int(min(alloc_steps)),
            "leaking": bool(min(byte_steps) > 0)}
''',
}
