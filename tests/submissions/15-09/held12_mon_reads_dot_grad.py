"""Held-out round 12: GradMonitor registers its hooks but takes the values from .grad: norms() is the growth of each
p.grad since the monitor was created or cleared. A zero_grad() between two backwards (set_to_none, as the optimizer
does by default), or a torch.autograd.grad call (no .grad at all), is lost. The text says: it records the gradients
the hooks receive (a hook answers "what did this backward deliver"; .grad accumulates since the last zero_grad())."""
EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": '''
class GradMonitor:
    def __init__(self, model: nn.Module):
        self.owners = []
        self.handles = []
        self.params = {}
        for name, module in model.named_modules():
            own = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if own:
                self.owners.append((name, own))
            for p in own:
                if id(p) not in self.params:
                    self.params[id(p)] = p
                    self.handles.append(p.register_hook(lambda g: None))  # .grad holds the values
        self.frozen = None
        self.clear()

    def _grads(self):
        return {k: None if p.grad is None else p.grad.detach().clone() for k, p in self.params.items()}

    def _received(self):
        if self.frozen is not None:
            return self.frozen
        now = self._grads()
        out = {}
        for k, g in now.items():
            s = self.start.get(k)
            out[k] = None if g is None else (g if s is None else g - s)
        return out

    def norms(self) -> dict:
        got = self._received()
        out = {}
        for name, params in self.owners:
            total = 0.0
            for p in params:
                g = got.get(id(p))
                if g is not None:
                    total += float(g.double().pow(2).sum())
            out[name] = math.sqrt(total)
        return out

    def clear(self) -> None:
        self.start = self._grads()
        if self.frozen is not None:
            self.frozen = {}

    def diagnose(self, low: float, high: float):
        norms = list(self.norms().items())
        for name, n in norms:
            if not math.isfinite(n):
                return ("nonfinite", name)
        big = [(name, n) for name, n in norms if n > high]
        if big:
            top = max(n for _, n in big)
            return ("exploding", next(name for name, n in big if n == top))
        small = [(name, n) for name, n in norms if n < low]
        if small:
            bottom = min(n for _, n in small)
            return ("vanishing", next(name for name, n in small if n == bottom))
        return None

    def remove(self) -> None:
        self.frozen = self._received()
        for h in self.handles:
            h.remove()
        self.handles = []
'''}
