"""Held-out round 2 (15-09 monitor): diagnose takes max() and min() over the norms before looking at them.

Right whenever some module holds a trainable parameter, but for a model with none (every parameter frozen,
or a parameter-free model), norms() is {} and "None when every norm is finite and within [low, high]"
holds vacuously; here max() of an empty sequence raises ValueError.
"""
EXPECT = {'monitor': 'fail'}

CELLS = {
    'monitor_impl': '''
class GradMonitor:
    def __init__(self, model: nn.Module):
        self.owners = []        # (module name, [its own trainable parameters])
        self.sums = {}          # id(parameter) -> summed gradient
        self.handles = []
        hooked = set()
        for name, module in model.named_modules():
            own = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if own:
                self.owners.append((name, own))
            for p in own:
                if id(p) not in hooked:
                    hooked.add(id(p))
                    self.handles.append(p.register_hook(self._recorder(id(p))))

    def _recorder(self, key):
        def hook(grad):
            g = grad.detach()
            self.sums[key] = g.clone() if key not in self.sums else self.sums[key] + g
        return hook

    def norms(self) -> dict:
        out = {}
        for name, own in self.owners:
            total = 0.0
            for p in own:
                g = self.sums.get(id(p))
                if g is not None:
                    total += float(g.double().pow(2).sum())
            out[name] = math.sqrt(total)
        return out

    def clear(self) -> None:
        self.sums = {}

    def diagnose(self, low: float, high: float):
        norms = self.norms()
        for name, v in norms.items():
            if not math.isfinite(v):
                return ("nonfinite", name)
        top, bottom = max(norms, key=norms.get), min(norms, key=norms.get)
        if norms[top] > high:
            return ("exploding", top)
        if norms[bottom] < low:
            return ("vanishing", bottom)
        return None

    def remove(self) -> None:
        for h in self.handles:
            h.remove()
        self.handles = []
''',
}
