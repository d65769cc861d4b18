"""Breaks: "`norms()` returns a dict `{module name: float}` for every module of `model.named_modules()`"
when one module is registered under two parents.

The monitor finds the modules by its own recursive walk over named_children(). named_modules() lists a
module object once, under the first name it is reached by; the walk reaches a module shared by two
sub-blocks twice and reports it under both names (and diagnose can then name the second one).
"""
EXPECT = {"monitor": "fail"}

CELLS = {
    "monitor_impl": '''
class GradMonitor:
    def __init__(self, model: nn.Module):
        self.owners = []
        self.sums = {}
        self.handles = []

        def walk(module, prefix):
            own = [p for p in module.parameters(recurse=False) if p.requires_grad]
            if own:
                self.owners.append((prefix, own))
            for name, child in module.named_children():
                walk(child, f"{prefix}.{name}" if prefix else name)

        walk(model, "")
        hooked = set()
        for _, params in self.owners:
            for p in params:
                if id(p) not in hooked:
                    hooked.add(id(p))
                    self.handles.append(p.register_hook(self._hook_for(id(p))))

    def _hook_for(self, key):
        def hook(grad):
            g = grad.detach().to(torch.float64)
            self.sums[key] = g if key not in self.sums else self.sums[key] + g

        return hook

    def norms(self) -> dict:
        result = {}
        for name, params in self.owners:
            total = sum(float(self.sums[id(p)].pow(2).sum()) for p in params if id(p) in self.sums)
            result[name] = math.sqrt(total)
        return result

    def clear(self) -> None:
        self.sums = {}

    def diagnose(self, low: float, high: float):
        items = list(self.norms().items())
        for name, value in items:
            if not math.isfinite(value):
                return ("nonfinite", name)
        above = [(value, -i, name) for i, (name, value) in enumerate(items) if value > high]
        if above:
            return ("exploding", max(above)[2])
        below = [(value, i, name) for i, (name, value) in enumerate(items) if value < low]
        if below:
            return ("vanishing", min(below)[2])
        return None

    def remove(self) -> None:
        for h in self.handles:
            h.remove()
        self.handles = []
''',
}
