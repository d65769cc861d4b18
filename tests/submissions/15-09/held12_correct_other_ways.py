"""Held-out round 12: a correct answer written differently everywhere: the global anomaly switch turned off in a
finally block; numeric Jacobians built column by column with torch.stack under inference_mode, perturbing a
flattened copy; the analytic Jacobian from one-hot grad_outputs; a monitor that keeps every received gradient in a
list and sums them when asked, with torch.linalg.vector_norm in float64; positions from an integer arange cast to x's
dtype; a training loop that sets .grad to None; predictions under inference_mode; memory_growth with
itertools.pairwise."""
EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {
"anomaly_impl": '''
def find_nan_origin(loss_fn, x: torch.Tensor):
    pattern = re.compile(r"Function '([^']+)' returned nan values in its \\d+th output")
    here = loss_fn.__code__.co_filename
    with warnings.catch_warnings(record=True) as log:
        warnings.resetwarnings()
        warnings.simplefilter("always")
        torch.autograd.set_detect_anomaly(True)
        try:
            loss_fn(x).backward()
            return None
        except RuntimeError as exc:
            hit = pattern.search(str(exc))
            if not hit:
                raise
        finally:
            torch.autograd.set_detect_anomaly(False)
    name = hit.group(1)
    line = None
    for record in reversed(log):
        text = str(record.message)
        if text.startswith(f"Error detected in {name}."):
            frames = [(f, int(n)) for f, n in re.findall(r'File "([^"]*)", line (\\d+)', text) if f == here]
            if frames:
                line = frames[-1][1]
            break
    return {"op": name, "lineno": line}
''',
"gradcheck_impl": '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    result = []
    with torch.inference_mode():
        frozen = [t.detach().clone() for t in inputs]
        for k, t in enumerate(inputs):
            if not t.requires_grad:
                result.append(None)
                continue
            cols = []
            flat = frozen[k].reshape(-1)
            for j in range(flat.numel()):
                outs = []
                for sign in (1.0, -1.0):
                    moved = flat.clone()
                    moved[j] = moved[j] + sign * eps
                    args = list(frozen)
                    args[k] = moved.reshape(frozen[k].shape)
                    outs.append(fn(*args).reshape(-1).double())
                cols.append((outs[0] - outs[1]) / (2 * eps))
            if cols:
                result.append(torch.stack(cols, dim=1).clone())
            else:
                n_out = fn(*frozen).numel()
                result.append(torch.zeros(n_out, 0, dtype=torch.float64))
    return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    numeric = numeric_jacobian(fn, inputs, eps)
    leaves = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    wrt = [v for v in leaves if v.requires_grad]
    out = fn(*leaves)
    n_out = out.numel()
    analytic = [torch.zeros(n_out, v.numel(), dtype=torch.float64) for v in wrt]
    if out.requires_grad:
        for i in range(n_out):
            onehot = torch.zeros(n_out, dtype=out.dtype)
            onehot[i] = 1
            grads = torch.autograd.grad(out, wrt, grad_outputs=onehot.reshape(out.shape), retain_graph=True,
                                        allow_unused=True)
            for a, g in zip(analytic, grads):
                if g is not None:
                    a[i] = g.reshape(-1).double()
    nums = [n for n in numeric if n is not None]
    return all(bool(torch.le((a - n).abs(), atol + rtol * n.abs()).all()) for a, n in zip(analytic, nums))
''',
"monitor_impl": '''
class GradMonitor:
    def __init__(self, model: nn.Module):
        self._received = {}
        self._hooks = []
        self._groups = {}
        hooked = {}
        for name, module in model.named_modules():
            mine = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if not mine:
                continue
            self._groups[name] = [id(p) for p in mine]
            for p in mine:
                if id(p) not in hooked:
                    hooked[id(p)] = p
                    self._hooks.append(p.register_hook(self._make_hook(id(p))))

    def _make_hook(self, key):
        def hook(grad):
            self._received.setdefault(key, []).append(grad.detach().to(torch.float64, copy=True))
        return hook

    def norms(self) -> dict:
        result = {}
        for name, keys in self._groups.items():
            parts = [torch.stack(self._received[k]).sum(0).reshape(-1) for k in keys if self._received.get(k)]
            flat = torch.cat(parts) if parts else torch.zeros(1, dtype=torch.float64)
            result[name] = torch.linalg.vector_norm(flat).item()
        return result

    def clear(self) -> None:
        self._received.clear()

    def diagnose(self, low: float, high: float):
        items = list(self.norms().items())
        bad = [name for name, v in items if math.isnan(v) or math.isinf(v)]
        if bad:
            return ("nonfinite", bad[0])
        order = {name: i for i, (name, _) in enumerate(items)}
        over = [(-v, order[name], name) for name, v in items if v > high]
        if over:
            return ("exploding", min(over)[2])
        under = [(v, order[name], name) for name, v in items if v < low]
        if under:
            return ("vanishing", min(under)[2])
        return None

    def remove(self) -> None:
        while self._hooks:
            self._hooks.pop().remove()
''',
"zoo_impl": '''
def fixed_tanh_loss(x, w):
    return torch.tanh(x @ w).add(1).square().mean()


def fixed_two_layer_loss(x, w1, w2):
    return torch.relu(x @ w1).matmul(w2).pow(2).mean()


def fixed_add_positions(x):
    seq = x.shape[1]
    offsets = torch.arange(seq, device=x.device).to(x.dtype).div(seq)
    return x + offsets[:, None]


def fixed_train(model, batches, lr):
    sgd = torch.optim.SGD(model.parameters(), lr=lr)
    out = []
    for xb, yb in batches:
        for p in model.parameters():
            p.grad = None
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        sgd.step()
        out.append(float(loss))
    return out


def fixed_predict_proba(model, x):
    saved = {m: m.training for m in model.modules()}
    model.train(False)
    try:
        with torch.inference_mode():
            return model(x).softmax(dim=1)
    finally:
        for m, flag in saved.items():
            setattr(m, "training", flag)  # m.train(flag) would recurse into the children
''',
"leaks_impl": '''
def _live_tensors():
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]


def find_leaks(step, n_iters: int) -> list:
    previous = {id(t): weakref.ref(t) for t in _live_tensors()}
    births = {}
    for it in range(1, n_iters + 1):
        step()
        current = {}
        for t in _live_tensors():
            r = previous.get(id(t))
            if r is None or r() is not t:
                births[id(t), it] = weakref.ref(t)
            current[id(t)] = weakref.ref(t)
        previous = current
        t = None
    previous = current = None
    gc.collect()
    shapes = []
    for (_, it), r in births.items():
        obj = r()
        if obj is not None and 2 <= it <= n_iters - 1:
            shapes.append(tuple(obj.shape))
    return shapes


def memory_growth(snapshots: list) -> dict:
    import itertools
    if len(snapshots) < 2:
        raise ValueError(f"need two snapshots or more, got {len(snapshots)}")
    pairs = list(itertools.pairwise(snapshots))
    db = min(int(b["allocated_bytes.all.current"]) - int(a["allocated_bytes.all.current"]) for a, b in pairs)
    da = min(int(b["allocation.all.current"]) - int(a["allocation.all.current"]) for a, b in pairs)
    return {"bytes_per_iter": db, "allocs_per_iter": da, "leaking": bool(db > 0)}
''',
}
