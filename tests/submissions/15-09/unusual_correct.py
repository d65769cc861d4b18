"""Correct answers written differently from the reference: every task must pass."""
EXPECT = {t: "pass" for t in ["anomaly", "gradcheck", "monitor", "zoo", "leaks"]}
CELLS = {
    "anomaly_impl": '''
def find_nan_origin(loss_fn, x):
    previous = torch.is_anomaly_enabled()
    torch.autograd.set_detect_anomaly(True)
    report = None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                loss_fn(x).backward()
            except RuntimeError as err:
                msg = str(err)
                if "returned nan values" not in msg or not msg.startswith("Function '"):
                    raise
                report = {"op": msg.split("'")[1], "lineno": None}
    finally:
        torch.autograd.set_detect_anomaly(previous)
    if report is None:
        return None
    wanted = 'File "' + loss_fn.__code__.co_filename + '", line '
    for w in caught:
        text = str(w.message)
        if not text.startswith("Error detected in " + report["op"] + "."):
            continue
        for line in text.splitlines():
            line = line.strip()
            if line.startswith(wanted):
                report["lineno"] = int(line[len(wanted):].split(",")[0])
    return report
''',
    "gradcheck_impl": '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    result = []
    with torch.no_grad():
        originals = [t.detach() for t in inputs]
        for k, t in enumerate(inputs):
            if not t.requires_grad:
                result.append(None)
                continue
            basis = torch.eye(t.numel(), dtype=t.dtype).reshape(t.numel(), *t.shape)
            cols = []
            for e in basis:
                args_p = list(originals)
                args_m = list(originals)
                args_p[k] = originals[k] + eps * e
                args_m[k] = originals[k] - eps * e
                cols.append((fn(*args_p).double().flatten() - fn(*args_m).double().flatten()) / (2 * eps))
            result.append(torch.stack(cols, dim=1))
    return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    numeric = numeric_jacobian(fn, inputs, eps)
    leaves = [t.detach().requires_grad_(t.requires_grad) for t in inputs]
    out = fn(*leaves)
    wrt = [l for l in leaves if l.requires_grad]
    analytic = [torch.zeros(out.numel(), l.numel(), dtype=torch.float64) for l in wrt]
    # an output no checked input reaches requires no gradient: its rows stay zero (gradcheck accepts it)
    for i in range(out.numel() if out.requires_grad else 0):
        onehot = torch.zeros(out.numel(), dtype=out.dtype)
        onehot[i] = 1.0
        grads = torch.autograd.grad(out, wrt, grad_outputs=onehot.reshape(out.shape), retain_graph=True,
                                    allow_unused=True)
        for a, g in zip(analytic, grads):
            if g is not None:
                a[i] = g.flatten()
    nums = [n for n in numeric if n is not None]
    return all(bool(torch.isclose(a, n, rtol=rtol, atol=atol).all()) for a, n in zip(analytic, nums))
''',
    "monitor_impl": '''
class GradMonitor:
    def __init__(self, model):
        self._model = model
        self._received = {}
        self._hooks = {}
        for p in model.parameters():  # each distinct parameter once
            if p.requires_grad:
                self._hooks[id(p)] = p.register_hook(self._make(id(p)))
        self._modules = [(n, [p for p in m.parameters(recurse=False) if p.requires_grad])
                         for n, m in model.named_modules()]
        self._modules = [(n, ps) for n, ps in self._modules if ps]

    def _make(self, key):
        def hook(grad):
            self._received.setdefault(key, []).append(grad.detach().clone())
        return hook

    def norms(self):
        result = {}
        for name, params in self._modules:
            pieces = [torch.stack(self._received[id(p)]).sum(0).double().flatten()
                      for p in params if id(p) in self._received]
            result[name] = torch.linalg.vector_norm(torch.cat(pieces)).item() if pieces else 0.0
        return result

    def clear(self):
        self._received.clear()

    def diagnose(self, low, high):
        norms = self.norms()
        order = {name: i for i, name in enumerate(norms)}
        bad = [n for n, v in norms.items() if v != v or v in (float("inf"), float("-inf"))]
        if bad:
            return ("nonfinite", bad[0])
        above = sorted((n for n, v in norms.items() if v > high), key=lambda n: (-norms[n], order[n]))
        if above:
            return ("exploding", above[0])
        below = sorted((n for n, v in norms.items() if v < low), key=lambda n: (norms[n], order[n]))
        return ("vanishing", below[0]) if below else None

    def remove(self):
        while self._hooks:
            self._hooks.popitem()[1].remove()
''',
    "zoo_impl": '''
def fixed_tanh_loss(x, w):
    return torch.tanh(x @ w).add(1).pow(2).mean()


def fixed_two_layer_loss(x, w1, w2):
    hidden = F.relu(torch.matmul(x, w1))
    return torch.matmul(hidden, w2).square().mean()


def fixed_add_positions(x):
    seq = x.shape[1]
    pos = torch.arange(seq, device=x.device).to(x.dtype).div(seq)
    return x + pos.view(seq, 1)


def fixed_train(model, batches, lr):
    out = []
    for xb, yb in batches:
        for p in model.parameters():
            p.grad = None
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                if p.grad is not None:
                    p -= lr * p.grad
        out.append(float(loss))
    return out


def fixed_predict_proba(model, x):
    mode = {name: m.training for name, m in model.named_modules()}
    model.train(False)
    try:
        with torch.inference_mode():
            logits = model(x)
        return logits.softmax(dim=1)
    finally:
        for name, m in model.named_modules():
            m.training = mode[name]
''',
    "leaks_impl": '''
import numpy as np


def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters):
    seen = weakref.WeakValueDictionary({id(t): t for t in _live_tensors()})
    suspects = []
    for i in range(1, n_iters + 1):
        step()
        current = weakref.WeakValueDictionary({id(t): t for t in _live_tensors()})
        if 2 <= i <= n_iters - 1:
            suspects += [weakref.ref(t) for k, t in list(current.items()) if seen.get(k) is not t]
        seen = current
    gc.collect()
    return [tuple(t.shape) for r in suspects if (t := r()) is not None]


def memory_growth(snapshots):
    if len(snapshots) < 2:
        raise ValueError("memory_growth needs two or more snapshots")
    b = np.diff(np.array([s["allocated_bytes.all.current"] for s in snapshots], dtype=np.int64))
    a = np.diff(np.array([s["allocation.all.current"] for s in snapshots], dtype=np.int64))
    return {"bytes_per_iter": int(b.min()), "allocs_per_iter": int(a.min()), "leaking": bool(b.min() > 0)}
''',
}
