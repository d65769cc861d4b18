'''Held-out round 13: a correct answer written differently from the reference in every task.
find_nan_origin switches anomaly mode with set_detect_anomaly (restored in finally) and reads any node name,
namespaced ones included; numeric_jacobian indexes with unravel_index on fresh copies; check_gradients takes
the analytic rows from one-hot grad_outputs and compares with torch.allclose(analytic, numeric); GradMonitor
keeps per-parameter lists and takes norms of norms in float64; the zoo builds positions with arange(seq).to(x),
zeroes .grad with set_to_none=False, predicts under inference_mode and restores modes with train(mode) in
modules() order; find_leaks keeps one weak reference per cohort; memory_growth uses itertools.pairwise.'''

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
BASE = "reference"
CELLS = {
    "anomaly_impl": '''
def find_nan_origin(loss_fn, x: torch.Tensor):
    """Run loss_fn(x).backward() under anomaly detection; return None, or {"op": node name, "lineno": line}."""
    target = loss_fn.__code__.co_filename
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        previous = torch.is_anomaly_enabled()
        torch.autograd.set_detect_anomaly(True)
        try:
            loss_fn(x).backward()
            return None
        except RuntimeError as exc:
            match = re.match(r"Function '([^']+)' returned nan values in its", str(exc))
            if not match:
                raise
            node = match.group(1)
        finally:
            torch.autograd.set_detect_anomaly(previous)
    line = None
    for w in log:
        text = str(w.message)
        if "Error detected in " + node + "." in text:
            hits = [int(n) for f, n in re.findall(r'File "([^"]*)", line (\\d+)', text) if f == target]
            if hits:
                line = hits[-1]
    return {"op": node, "lineno": line}
''',
    "gradcheck_impl": '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    """Central-difference Jacobians, one (out.numel(), inp.numel()) float64 tensor per input (None if no grad)."""
    result = []
    with torch.no_grad():
        frozen = [t.detach().clone() for t in inputs]
        n_out = fn(*frozen).numel()
        for which, t in enumerate(inputs):
            if not t.requires_grad:
                result.append(None)
                continue
            cols = torch.empty(t.numel(), n_out, dtype=torch.float64)
            for j in range(t.numel()):
                spot = tuple(int(i) for i in torch.unravel_index(torch.tensor(j), t.shape))
                hi = [f.clone() for f in frozen]
                lo = [f.clone() for f in frozen]
                hi[which][spot] = frozen[which][spot] + eps
                lo[which][spot] = frozen[which][spot] - eps
                cols[j] = (fn(*hi).double().flatten() - fn(*lo).double().flatten()) / (2 * eps)
            result.append(cols.T.contiguous())
    return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
    numeric = numeric_jacobian(fn, inputs, eps)
    copies = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    checked = [c for c in copies if c.requires_grad]
    out = fn(*copies)
    n_out = out.numel()
    analytic = [torch.zeros(n_out, c.numel(), dtype=torch.float64) for c in checked]
    if out.requires_grad:
        for i in range(n_out):
            onehot = torch.zeros(n_out, dtype=out.dtype)
            onehot[i] = 1
            grads = torch.autograd.grad(out, checked, grad_outputs=onehot.view(out.shape),
                                        retain_graph=True, allow_unused=True)
            for row, g in zip(analytic, grads):
                if g is not None:
                    row[i] = g.reshape(-1).double()
    numeric = [n for n in numeric if n is not None]
    return all(bool(torch.allclose(a, n, rtol=rtol, atol=atol)) for a, n in zip(analytic, numeric))
''',
    "monitor_impl": '''
class GradMonitor:
    def __init__(self, model: nn.Module):
        self._groups = {}
        self._received = {}
        self._handles = []
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
                self._received[id(p)] = []
                self._handles.append(p.register_hook(lambda g, key=id(p): self._received[key].append(g.detach().clone())))

    def norms(self) -> dict:
        result = {}
        for name, params in self._groups.items():
            parts = []
            for p in params:
                got = self._received[id(p)]
                if got:
                    total = got[0].double()
                    for g in got[1:]:
                        total = total + g.double()
                    parts.append(torch.linalg.vector_norm(total))
            result[name] = float(torch.linalg.vector_norm(torch.stack(parts))) if parts else 0.0
        return result

    def clear(self) -> None:
        for got in self._received.values():
            got.clear()

    def diagnose(self, low: float, high: float):
        items = list(self.norms().items())
        bad = next((n for n, v in items if math.isnan(v) or math.isinf(v)), None)
        if bad is not None:
            return ("nonfinite", bad)
        over = [(v, -i, n) for i, (n, v) in enumerate(items) if v > high]
        if over:
            return ("exploding", max(over)[2])
        under = [(v, i, n) for i, (n, v) in enumerate(items) if v < low]
        if under:
            return ("vanishing", min(under)[2])
        return None

    def remove(self) -> None:
        while self._handles:
            self._handles.pop().remove()
''',
    "zoo_impl": '''
def fixed_tanh_loss(x, w):
    return (torch.tanh(x @ w).add(1) ** 2).mean()


def fixed_two_layer_loss(x, w1, w2):
    hidden = F.relu(torch.matmul(x, w1))
    return torch.matmul(hidden, w2).square().mean()


def fixed_add_positions(x):
    seq = x.shape[1]
    return x + (torch.arange(seq).to(x) / seq).view(1, seq, 1)


def fixed_train(model, batches, lr):
    sgd = torch.optim.SGD(model.parameters(), lr=lr)
    out = []
    for xb, yb in batches:
        loss = F.cross_entropy(model(xb), yb)
        sgd.zero_grad(set_to_none=False)
        loss.backward()
        sgd.step()
        out.append(float(loss.detach()))
    return out


def fixed_predict_proba(model, x):
    saved = [(m, m.training) for m in model.modules()]
    try:
        model.train(False)
        with torch.inference_mode():
            return model(x).softmax(dim=1)
    finally:
        for m, mode in saved:
            m.train(mode)
''',
    "leaks_impl": '''
def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    def census():
        return {id(t): weakref.ref(t) for t in _live_tensors()}

    before = census()
    suspects = []
    for i in range(1, n_iters + 1):
        step()
        after = census()
        if 2 <= i <= n_iters - 1:
            suspects.extend(ref for key, ref in after.items()
                            if key not in before or before[key]() is not ref())
        before = after
        after = None
    before = None
    gc.collect()
    shapes = []
    for ref in suspects:
        t = ref()
        if t is not None:
            shapes.append(tuple(t.shape))
        t = None
    return shapes


def memory_growth(snapshots: list) -> dict:
    import itertools
    if len(snapshots) < 2:
        raise ValueError(f"need two or more snapshots, got {len(snapshots)}")
    steps = list(itertools.pairwise(snapshots))
    db = min(int(b["allocated_bytes.all.current"]) - int(a["allocated_bytes.all.current"]) for a, b in steps)
    da = min(int(b["allocation.all.current"]) - int(a["allocation.all.current"]) for a, b in steps)
    return {"bytes_per_iter": db, "allocs_per_iter": da, "leaking": bool(db > 0)}
''',
}
