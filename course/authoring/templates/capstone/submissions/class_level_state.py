"""Keeps the running sums on the class, so every object shares them."""
EXPECT = {"running_stats": "fail"}
CELLS = {"running_stats_impl": '''
class RunningStats:
    n, total, total_sq = 0, 0.0, 0.0
    def update(self, x):
        RunningStats.n += x.numel()
        RunningStats.total += float(x.double().sum())
        RunningStats.total_sq += float((x.double() ** 2).sum())
    def mean(self):
        return RunningStats.total / RunningStats.n if RunningStats.n else math.nan
    def var(self):
        if not RunningStats.n:
            return math.nan
        m = self.mean()
        return RunningStats.total_sq / RunningStats.n - m * m
    def state_dict(self):
        return {"n": RunningStats.n, "total": RunningStats.total, "total_sq": RunningStats.total_sq}
    def load_state_dict(self, state):
        RunningStats.n, RunningStats.total, RunningStats.total_sq = state["n"], state["total"], state["total_sq"]
'''}
