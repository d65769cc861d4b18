"""Correct but unusual GradMonitor: the hooks append each received gradient (a detached clone) to a per-parameter
list and do no arithmetic; norms() sums the lists lazily in float64 (in place into a fresh float64 buffer on the
parameter's device, so nothing the hooks received is changed), the norm of each module is computed with
torch.linalg.vector_norm of the concatenated float64 sums; diagnose sorts by (value, position) instead of scanning; a
parameter held by several modules is registered once through a dict keyed by id(p); remove() keeps what was recorded."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
_REF = edited("15-09", "monitor_impl")
_START = _REF.index("        ### BEGIN SOLUTION")
_END = _REF.index("    def remove(self) -> None:")
CELLS = {"monitor_impl": _REF[:_START] + '''        ### BEGIN SOLUTION
        self.received = {}  # id(p) -> list of gradients received since creation / clear()
        self.params = {}    # id(p) -> p, each trainable parameter once
        self.layout = [(name, [id(p) for p in module.parameters(recurse=False) if p.requires_grad])
                       for name, module in model.named_modules()]
        self.layout = [(name, keys) for name, keys in self.layout if keys]
        for module in model.modules():
            for p in module.parameters(recurse=False):
                if p.requires_grad:
                    self.params.setdefault(id(p), p)
        self.handles = [p.register_hook(self._recorder(key)) for key, p in self.params.items()]
        ### END SOLUTION

    def _recorder(self, key):
        def hook(grad):
            self.received.setdefault(key, []).append(grad.detach().clone())
        return hook

    def norms(self) -> dict:
        ### BEGIN SOLUTION
        sums = {}
        for key, grads in self.received.items():
            acc = torch.zeros(grads[0].shape, dtype=torch.float64, device=grads[0].device)
            for g in grads:
                acc.add_(g.to(torch.float64))
            sums[key] = acc.reshape(-1)
        result = {}
        for name, keys in self.layout:
            parts = [sums[k] for k in keys if k in sums]
            result[name] = float(torch.linalg.vector_norm(torch.cat(parts))) if parts else 0.0
        return result
        ### END SOLUTION

    def clear(self) -> None:
        ### BEGIN SOLUTION
        self.received.clear()
        ### END SOLUTION

    def diagnose(self, low: float, high: float):
        ### BEGIN SOLUTION
        ranked = [(n, i, name) for i, (name, n) in enumerate(self.norms().items())]
        bad = sorted((i, name) for n, i, name in ranked if n != n or n in (float("inf"), float("-inf")))
        if bad:
            return ("nonfinite", bad[0][1])
        above = sorted((-n, i, name) for n, i, name in ranked if n > high)
        if above:
            return ("exploding", above[0][2])
        below = sorted((n, i, name) for n, i, name in ranked if n < low)
        if below:
            return ("vanishing", below[0][2])
        return None
        ### END SOLUTION

''' + _REF[_END:]}
