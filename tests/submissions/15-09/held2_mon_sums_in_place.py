"""Held-out round 2 (15-09 monitor): the first gradient a hook receives is stored as it is, later ones added in place.

The tensor autograd hands a hook can be shared: for y = x * w + b1 + b2 the same gradient object reaches
b1 and b2, so both records are one tensor and each later += adds into both (after two backward passes each
reports g1 + 2 g2, not g1 + g2); a gradient that is an expanded view (out.sum()'s backward) cannot be added
into in place at all.
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
            if key in self.sums:
                self.sums[key] += grad
            else:
                self.sums[key] = grad
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
        if any(v > high for v in norms.values()):
            return ("exploding", max(norms, key=norms.get))
        if any(v < low for v in norms.values()):
            return ("vanishing", min(norms, key=norms.get))
        return None

    def remove(self) -> None:
        for h in self.handles:
            h.remove()
        self.handles = []
''',
}
