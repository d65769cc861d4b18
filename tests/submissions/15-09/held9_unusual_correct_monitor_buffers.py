"""Held-out round 9, correct: GradMonitor preallocates one flat float64 buffer of zeros per trainable parameter
and registers functools.partial hooks that add each gradient into it; norms() is the vector norm of the
concatenated buffers, clear() zeroes them, and diagnose sorts (value, position) pairs to break ties."""

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": '''
import functools


class GradMonitor:
    def __init__(self, model: nn.Module):
        self._bufs = {}  # id(parameter) -> flat float64 running sum
        self._owners = []  # (module name, ids of its own trainable parameters)
        self._handles = []
        for name, module in model.named_modules():
            ids = []
            for p in module.parameters(recurse=False):
                if not p.requires_grad:
                    continue
                ids.append(id(p))
                if id(p) not in self._bufs:
                    buf = torch.zeros(p.numel(), dtype=torch.float64, device=p.device)
                    self._bufs[id(p)] = buf
                    self._handles.append(p.register_hook(functools.partial(GradMonitor._add, buf)))
            if ids:
                self._owners.append((name, ids))

    @staticmethod
    def _add(buf, grad):
        buf.add_(grad.detach().reshape(-1).to(torch.float64))

    def norms(self) -> dict:
        return {name: float(torch.linalg.vector_norm(torch.cat([self._bufs[i].cpu() for i in ids])))
                for name, ids in self._owners}

    def clear(self) -> None:
        for buf in self._bufs.values():
            buf.zero_()

    def diagnose(self, low: float, high: float):
        items = list(self.norms().items())
        bad = [name for name, v in items if not math.isfinite(v)]
        if bad:
            return ("nonfinite", bad[0])
        above = sorted((-v, k) for k, (_, v) in enumerate(items) if v > high)
        if above:
            return ("exploding", items[above[0][1]][0])
        below = sorted((v, k) for k, (_, v) in enumerate(items) if v < low)
        if below:
            return ("vanishing", items[below[0][1]][0])
        return None

    def remove(self) -> None:
        while self._handles:
            self._handles.pop().remove()
'''}
