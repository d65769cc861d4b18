"""Blind batch of #19 (2026-11-26): diagnose reports the first module below low, not the one with the
smallest norm. Breaks: "else vanishing (the module with the smallest norm below low)"."""
EXPECT = {'anomaly': 'pass', 'gradcheck': 'pass', 'monitor': 'fail', 'zoo': 'pass', 'leaks': 'pass'}
CELLS = {
    'monitor_impl': r'''
class GradMonitor:
    def __init__(self, model: nn.Module):
        self._owners = {}
        for name, m in model.named_modules():
            own = [p for p in m.parameters(recurse=False) if p.requires_grad]
            if own:
                self._owners[name] = own
        self._sum = {}
        self._handles = []
        seen = set()
        for own in self._owners.values():
            for p in own:
                if id(p) in seen:
                    continue
                seen.add(id(p))
                self._handles.append(p.register_hook(self._make(id(p))))

    def _make(self, key):
        def hook(g):
            prev = self._sum.get(key)
            self._sum[key] = g.detach().clone() if prev is None else prev + g.detach()
        return hook

    def norms(self) -> dict:
        out = {}
        for name, own in self._owners.items():
            sq = 0.0
            for p in own:
                g = self._sum.get(id(p))
                if g is not None:
                    sq += float(g.to(torch.float64).pow(2).sum())
            out[name] = math.sqrt(sq)
        return out

    def clear(self) -> None:
        self._sum = {}

    def diagnose(self, low: float, high: float):
        n = self.norms()
        for name, v in n.items():
            if not math.isfinite(v):
                return ("nonfinite", name)
        if any(v > high for v in n.values()):
            best = max(n.values())
            return ("exploding", next(k for k, v in n.items() if v == best))
        under = {k: v for k, v in n.items() if v < low}
        if under:
            return ("vanishing", next(iter(under)))
        return None

    def remove(self) -> None:
        for h in self._handles:
            h.remove()
        self._handles = []
''',
}
