"""Correct, written differently: keeps every value in a float64 tensor and recomputes from it."""
EXPECT = {"running_stats": "pass"}
CELLS = {"running_stats_impl": '''
class RunningStats:
    def __init__(self):
        self._seen = torch.empty(0, dtype=torch.float64)
    def update(self, x):
        self._seen = torch.cat([self._seen, x.detach().to(torch.float64).reshape(-1)])
    def mean(self):
        return self._seen.mean().item() if self._seen.numel() else float("nan")
    def var(self):
        return self._seen.var(unbiased=False).item() if self._seen.numel() else float("nan")
    def state_dict(self):
        return {"values": [float(v) for v in self._seen.tolist()]}
    def load_state_dict(self, state):
        self._seen = torch.tensor(state["values"], dtype=torch.float64)
'''}
