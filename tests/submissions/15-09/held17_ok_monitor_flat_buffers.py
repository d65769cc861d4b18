"""A correct GradMonitor written differently: each parameter gets one float64 running-sum buffer, allocated when the
monitor is created and added to in place by a hook built with functools.partial; clear() zeroes the buffers in place;
norms() takes the L2 norm of the per-parameter norms (the same number as the norm over all elements), and diagnose
ranks the modules with sorted() on (norm, position) keys."""
EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": '''import functools


class GradMonitor:
    def __init__(self, model: nn.Module):
        self._buffers = {}
        self._groups = []
        self._handles = []
        for name, module in model.named_modules():
            keys = []
            for p in module.parameters(recurse=False):
                if not p.requires_grad:
                    continue
                keys.append(id(p))
                if id(p) not in self._buffers:
                    self._buffers[id(p)] = torch.zeros(p.shape, dtype=torch.float64, device=p.device)
                    self._handles.append(p.register_hook(functools.partial(self._record, id(p))))
            if keys:
                self._groups.append((name, keys))

    def _record(self, key, grad):
        self._buffers[key].add_(grad.detach().to(torch.float64))

    def norms(self) -> dict:
        result = {}
        for name, keys in self._groups:
            per_param = torch.stack([torch.linalg.vector_norm(self._buffers[k]).cpu() for k in keys])
            result[name] = torch.linalg.vector_norm(per_param).item()
        return result

    def clear(self) -> None:
        for buf in self._buffers.values():
            buf.zero_()

    def diagnose(self, low: float, high: float):
        ranked = list(enumerate(self.norms().items()))
        bad = [name for _, (name, n) in ranked if n != n or n in (math.inf, -math.inf)]
        if bad:
            return ("nonfinite", bad[0])
        above = sorted((-n, i, name) for i, (name, n) in ranked if n > high)
        if above:
            return ("exploding", above[0][2])
        below = sorted((n, i, name) for i, (name, n) in ranked if n < low)
        if below:
            return ("vanishing", below[0][2])
        return None

    def remove(self) -> None:
        while self._handles:
            self._handles.pop().remove()
'''}
