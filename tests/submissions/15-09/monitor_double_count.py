"""A GradMonitor that hooks each module's parameters separately (a shared parameter gets two hooks, so
its gradient is counted twice), reports every module (parameter-free ones as 0.0), and checks for
exploding norms before non-finite ones."""
EXPECT = {"monitor": "fail"}
CELLS = {
    "monitor_impl": '''
class GradMonitor:
    def __init__(self, model):
        self.handles, self.sq, self.names = [], {}, []
        for name, m in model.named_modules():
            self.names.append(name)
            self.sq[name] = {}
            for i, p in enumerate(m.parameters(recurse=False)):
                if p.requires_grad:
                    self.handles.append(p.register_hook(self._rec(name, i)))

    def _rec(self, name, i):
        def hook(g):
            prev = self.sq[name].get(i)
            self.sq[name][i] = g.detach().clone() if prev is None else prev + g.detach()
            # a shared parameter: both modules' hooks run, each adds to its own entry
        return hook

    def norms(self):
        out = {}
        for name in self.names:
            total = sum((float(g.double().pow(2).sum()) for g in self.sq[name].values()), 0.0)
            out[name] = math.sqrt(total)
        return out

    def clear(self):
        for d in self.sq.values():
            d.clear()

    def diagnose(self, low, high):
        norms = self.norms()
        big = {k: v for k, v in norms.items() if v > high}
        if big:
            return ("exploding", max(big, key=big.get))
        for k, v in norms.items():
            if not math.isfinite(v):
                return ("nonfinite", k)
        small = {k: v for k, v in norms.items() if v < low}
        if small:
            return ("vanishing", min(small, key=small.get))
        return None

    def remove(self):
        for h in self.handles:
            h.remove()
''',
}
