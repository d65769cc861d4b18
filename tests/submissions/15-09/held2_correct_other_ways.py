"""Held-out round 2 (15-09): correct for every task, written unlike the reference:

- anomaly: set_detect_anomaly(True) restored in finally, the node name from the error's quoted word, the
  line from the innermost frame in the warning text.
- gradcheck: one perturbed clone per column via index_put on a flattened copy, the analytic Jacobian from
  torch.autograd.grad with unit cotangent vectors (is_grads_batched off), compared with torch.le.
- monitor: a dict of lists of gradients per parameter, summed only when norms() is asked.
- zoo: chained tensor methods, positions reshaped to (1, seq, 1); fixed_train with
  zero_grad(set_to_none=False) and float(loss.detach()); predict_proba saving modes in a dict keyed by module.
- leaks: one scan function keyed by id with identity checks (iteration 0 = before the first call),
  memory_growth with itertools.pairwise.
"""
EXPECT = {'anomaly': 'pass', 'gradcheck': 'pass', 'monitor': 'pass', 'zoo': 'pass', 'leaks': 'pass'}

CELLS = {
    'anomaly_impl': '''
def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    previous = torch.is_anomaly_enabled()
    found = None
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        torch.autograd.set_detect_anomaly(True)
        try:
            loss_fn(x).backward()
        except RuntimeError as err:
            text = str(err)
            if "returned nan values in its" not in text:
                raise
            found = text.split("'")[1]
        finally:
            torch.autograd.set_detect_anomaly(previous)
    if found is None:
        return None
    target = loss_fn.__code__.co_filename
    lines = [int(m.group(2)) for w in log for m in re.finditer(r'File "(.*?)", line (\\d+)', str(w.message))
             if m.group(1) == target]
    return {"op": found, "lineno": lines[-1] if lines else None}
''',
    'gradcheck_impl': '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    """Central-difference Jacobians, one (out.numel(), inp.numel()) float64 tensor per input (None if no grad)."""
    base = [t.detach().clone() for t in inputs]
    jacobians = []
    with torch.no_grad():
        for k, t in enumerate(inputs):
            if not t.requires_grad:
                jacobians.append(None)
                continue
            columns = []
            flat = base[k].reshape(-1)
            for j in range(flat.numel()):
                shifted = []
                for sign in (1.0, -1.0):
                    v = flat.clone()
                    v[j] += sign * eps
                    args = list(base)
                    args[k] = v.reshape(base[k].shape)
                    shifted.append(fn(*args).reshape(-1).double())
                columns.append((shifted[0] - shifted[1]) / (2 * eps))
            n_out = fn(*base).numel()
            jacobians.append(torch.stack(columns, dim=1) if columns else torch.zeros(n_out, 0, dtype=torch.float64))
    return jacobians


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
    numeric = numeric_jacobian(fn, inputs, eps)
    leaves = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    out = fn(*leaves).reshape(-1)
    wanted = [leaf for leaf in leaves if leaf.requires_grad]
    analytic = [torch.zeros(out.numel(), leaf.numel(), dtype=torch.float64) for leaf in wanted]
    for r in range(out.numel() if out.requires_grad else 0):
        unit = torch.zeros_like(out)
        unit[r] = 1
        gs = torch.autograd.grad(out, wanted, grad_outputs=unit, retain_graph=True, allow_unused=True)
        for a, g in zip(analytic, gs):
            if g is not None:
                a[r] = g.reshape(-1).double()
    nums = [n for n in numeric if n is not None]
    return all(bool(torch.le((a - n).abs(), atol + rtol * n.abs()).all()) for a, n in zip(analytic, nums))
''',
    'monitor_impl': '''
class GradMonitor:
    def __init__(self, model: nn.Module):
        self._modules = {}
        self._log = {}
        self._handles = []
        for name, module in model.named_modules():
            params = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if params:
                self._modules[name] = params
                for p in params:
                    if id(p) not in self._log:
                        self._log[id(p)] = []
                        self._handles.append(p.register_hook(lambda g, key=id(p): self._log[key].append(g.detach().clone())))

    def norms(self) -> dict:
        result = {}
        for name, params in self._modules.items():
            sq = 0.0
            for p in params:
                got = self._log[id(p)]
                if got:
                    total = torch.stack([g.double() for g in got]).sum(0)
                    sq += float(torch.linalg.vector_norm(total)) ** 2
            result[name] = sq ** 0.5
        return result

    def clear(self) -> None:
        for v in self._log.values():
            v.clear()

    def diagnose(self, low: float, high: float):
        items = list(self.norms().items())
        bad = next((n for n, v in items if math.isnan(v) or math.isinf(v)), None)
        if bad is not None:
            return "nonfinite", bad
        high_items = [(v, -i, n) for i, (n, v) in enumerate(items) if v > high]
        if high_items:
            top = max(v for v, _, _ in high_items)
            return "exploding", next(n for n, v in items if v == top)
        low_items = [v for _, v in items if v < low]
        if low_items:
            return "vanishing", next(n for n, v in items if v == min(low_items))
        return None

    def remove(self) -> None:
        while self._handles:
            self._handles.pop().remove()
''',
    'zoo_impl': '''
def fixed_tanh_loss(x, w):
    return (torch.tanh(x @ w).add(1) ** 2).mean()


def fixed_two_layer_loss(x, w1, w2):
    return (torch.relu(x @ w1) @ w2).pow(2).mean()


def fixed_add_positions(x):
    seq = x.shape[1]
    k = torch.arange(seq, device=x.device, dtype=x.dtype)
    return x + (k / seq).reshape(1, seq, 1)


def fixed_train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    out = []
    for xb, yb in batches:
        opt.zero_grad(set_to_none=False)
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        out.append(float(loss.detach()))
    return out


def fixed_predict_proba(model, x):
    saved = {m: m.training for m in model.modules()}
    model.train(False)
    try:
        with torch.no_grad():
            logits = model(x)
        return torch.softmax(logits, 1)
    finally:
        for m, mode in saved.items():
            m.training = mode
''',
    'leaks_impl': '''
def _live_tensors():
    gc.collect()
    # issubclass(type(o), ...) rather than isinstance: isinstance reads o.__class__, which a few deprecated
    # module objects turn into a warning.
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    known = {}
    def scan(iteration):
        for t in _live_tensors():
            ref = known.get(id(t))
            if ref is None or ref[0]() is not t:
                known[id(t)] = (weakref.ref(t), iteration)
    scan(0)
    for i in range(1, n_iters + 1):
        step()
        scan(i)
    shapes = []
    for ref, born in known.values():
        t = ref()
        if t is not None and 1 < born < n_iters:
            shapes.append(tuple(t.shape))
        del t
    return shapes


def memory_growth(snapshots: list) -> dict:
    import itertools
    if len(snapshots) < 2:
        raise ValueError("memory_growth: need two or more snapshots")
    key_b, key_a = "allocated_bytes.all.current", "allocation.all.current"
    db = min(int(b[key_b]) - int(a[key_b]) for a, b in itertools.pairwise(snapshots))
    da = min(int(b[key_a]) - int(a[key_a]) for a, b in itertools.pairwise(snapshots))
    return dict(bytes_per_iter=db, allocs_per_iter=da, leaking=bool(db > 0))
''',
}
