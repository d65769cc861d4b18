"""Correct, written differently: find_nan_origin with the global anomaly switch in try/finally and the frames read
with the traceback-line regex per warning; numeric_jacobian by index_put on unravelled indices of per-column
clones; check_gradients from backward(gradient=one-hot) on fresh leaves; GradMonitor keeping the list of received
gradients per parameter and summing at norms(); fixed_predict_proba under inference_mode with a dict of modes;
memory_growth with itertools.pairwise."""

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}

_ANOMALY = '''def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    report = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.autograd.set_detect_anomaly(True)
        try:
            loss_fn(x).backward()
        except RuntimeError as err:
            text = str(err)
            head, sep, rest = text.partition("Function '")
            if not sep or "' returned nan values" not in rest:
                raise
            report = rest.split("' returned nan values")[0]
        finally:
            torch.autograd.set_detect_anomaly(False)
    if report is None:
        return None
    where = loss_fn.__code__.co_filename
    line = None
    for w in caught:
        msg = str(w.message)
        if ("Error detected in " + report + ".") in msg:
            hits = [int(n) for f, n in re.findall(r'File "(.*)", line (\\d+)', msg) if f == where]
            if hits:
                line = hits[-1]
    return {"op": report, "lineno": line}
'''

_GRADCHECK = '''def _unravel(j, shape):
    out = []
    for size in shape[::-1]:
        j, r = divmod(j, size)
        out.append(r)
    return tuple(out[::-1])


def numeric_jacobian(fn, inputs, eps=1e-6):
    """Central-difference Jacobians, one (out.numel(), inp.numel()) float64 tensor per input (None if no grad)."""
    with torch.no_grad():
        frozen = [t.detach().contiguous().clone() for t in inputs]
        m = fn(*frozen).numel()
        result = []
        for k, t in enumerate(inputs):
            if not t.requires_grad:
                result.append(None)
                continue
            cols = torch.empty(m, t.numel(), dtype=torch.float64)
            for j in range(t.numel()):
                where = _unravel(j, tuple(t.shape))
                up, down = list(frozen), list(frozen)
                up[k] = frozen[k].clone()
                down[k] = frozen[k].clone()
                up[k][where] = up[k][where] + eps
                down[k][where] = down[k][where] - eps
                f_up = fn(*up).reshape(-1).double()
                f_down = fn(*down).reshape(-1).double()
                cols[:, j] = (f_up - f_down) / (2 * eps)
            result.append(cols)
    return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
    numeric = [n for n in numeric_jacobian(fn, inputs, eps) if n is not None]
    leaves = [t.detach().clone().requires_grad_(bool(t.requires_grad)) for t in inputs]
    checked = [l for l in leaves if l.requires_grad]
    out = fn(*leaves)
    flat = out.reshape(-1)
    analytic = [torch.zeros(flat.numel(), l.numel(), dtype=torch.float64) for l in checked]
    if flat.requires_grad:
        for i in range(flat.numel()):
            for l in checked:
                l.grad = None
            onehot = torch.zeros_like(flat)
            onehot[i] = 1
            flat.backward(onehot, retain_graph=True)
            for a, l in zip(analytic, checked):
                if l.grad is not None:
                    a[i] = l.grad.reshape(-1).double()
    verdict = True
    for a, n in zip(analytic, numeric):
        verdict = verdict and bool(torch.le((a - n).abs(), atol + rtol * n.abs()).all().item())
    return verdict
'''

_MONITOR = '''class GradMonitor:
    def __init__(self, model: nn.Module):
        self._groups = {}
        self._received = {}
        self._hooks = []
        hooked = {}
        for name, module in model.named_modules():
            mine = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if not mine:
                continue
            self._groups[name] = mine
            for p in mine:
                if id(p) in hooked:
                    continue
                hooked[id(p)] = p
                self._hooks.append(p.register_hook(self._make(id(p))))

    def _make(self, key):
        def _on_grad(g):
            self._received.setdefault(key, []).append(g.detach().to(torch.float64, copy=True))
        return _on_grad

    def norms(self) -> dict:
        result = {}
        for name, params in self._groups.items():
            sq = 0.0
            for p in params:
                got = self._received.get(id(p), [])
                if got:
                    s = got[0].clone()
                    for g in got[1:]:
                        s = s + g
                    sq += float((s * s).sum())
            result[name] = math.sqrt(sq)
        return result

    def clear(self) -> None:
        self._received.clear()

    def diagnose(self, low: float, high: float):
        items = list(self.norms().items())
        bad = [n for n, v in items if math.isnan(v) or math.isinf(v)]
        if bad:
            return ("nonfinite", bad[0])
        above = [(v, i, n) for i, (n, v) in enumerate(items) if v > high]
        if above:
            return ("exploding", min(above, key=lambda t: (-t[0], t[1]))[2])
        below = [(v, i, n) for i, (n, v) in enumerate(items) if v < low]
        if below:
            return ("vanishing", min(below)[2])
        return None

    def remove(self) -> None:
        while self._hooks:
            self._hooks.pop().remove()
'''

_ZOO = '''def fixed_tanh_loss(x, w):
    return torch.tanh(x @ w).add(1).pow(2).mean()


def fixed_two_layer_loss(x, w1, w2):
    return F.relu(torch.matmul(x, w1)).matmul(w2).square().mean()


def fixed_add_positions(x):
    seq = x.shape[1]
    k = torch.arange(seq, device=x.device, dtype=x.dtype)
    return x + k.div(seq)[:, None]


def fixed_train(model, batches, lr):
    sgd = torch.optim.SGD(model.parameters(), lr=lr)
    out = []
    for xb, yb in batches:
        model.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        sgd.step()
        out.append(float(loss.detach()))
    return out


def fixed_predict_proba(model, x):
    before = {m: m.training for m in model.modules()}
    model.eval()
    try:
        with torch.inference_mode():
            logits = model(x)
            return torch.softmax(logits, 1)
    finally:
        for m, mode in before.items():
            m.training = mode
'''

_LEAKS = '''def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    def census():
        return {id(t): weakref.ref(t) for t in _live_tensors()}

    before = census()
    births = {}
    for it in range(1, n_iters + 1):
        step()
        after = census()
        births[it] = [r for i, r in after.items() if i not in before or before[i]() is not r()]
        before = after
    del before, after
    gc.collect()
    shapes = []
    for it in range(2, n_iters):
        for r in births[it]:
            t = r()
            if t is not None:
                shapes.append(tuple(t.shape))
            del t
    return shapes


def memory_growth(snapshots: list) -> dict:
    import itertools
    snapshots = list(snapshots)
    if len(snapshots) < 2:
        raise ValueError(f"memory_growth: {len(snapshots)} snapshot(s), need two or more")
    db = [int(q["allocated_bytes.all.current"]) - int(p["allocated_bytes.all.current"])
          for p, q in itertools.pairwise(snapshots)]
    da = [int(q["allocation.all.current"]) - int(p["allocation.all.current"])
          for p, q in itertools.pairwise(snapshots)]
    return {"bytes_per_iter": min(db), "allocs_per_iter": min(da), "leaking": bool(min(db) > 0)}
'''

CELLS = {"anomaly_impl": _ANOMALY, "gradcheck_impl": _GRADCHECK, "monitor_impl": _MONITOR, "zoo_impl": _ZOO,
         "leaks_impl": _LEAKS}
