"""A GradMonitor that is right about the norms but breaks ties by module name (alphabetically) instead of
named_modules() order, and whose remove() forgets the hooks without removing them."""
EXPECT = {"monitor": "fail"}
CELLS = {
    "monitor_impl": '''
class GradMonitor:
    def __init__(self, model):
        self.model = model
        self.grads = {}
        self.handles = []
        params = {}
        for p in model.parameters():
            if p.requires_grad:
                params[id(p)] = p
        for p in params.values():
            self.handles.append(p.register_hook(lambda g, k=id(p): self._add(k, g)))

    def _add(self, k, g):
        self.grads[k] = g.detach().clone() if k not in self.grads else self.grads[k] + g.detach()

    def norms(self):
        out = {}
        for name, m in self.model.named_modules():
            own = [p for p in m.parameters(recurse=False) if p.requires_grad]
            if own:
                s = sum(float(self.grads[id(p)].double().pow(2).sum()) for p in own if id(p) in self.grads)
                out[name] = float(torch.tensor(s, dtype=torch.float64).sqrt())
        return out

    def clear(self):
        self.grads = {}

    def diagnose(self, low, high):
        items = sorted(self.norms().items())
        for name, n in items:
            if not math.isfinite(n):
                return ("nonfinite", name)
        big = [(n, name) for name, n in items if n > high]
        if big:
            return ("exploding", max(big, key=lambda t: t[0])[1])
        small = [(n, name) for name, n in items if n < low]
        if small:
            return ("vanishing", min(small, key=lambda t: t[0])[1])
        return None

    def remove(self):
        self.handles = []
''',
}
