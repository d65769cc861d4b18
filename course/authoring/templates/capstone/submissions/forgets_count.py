"""Saves the mean and M2 but not the count: a resumed object weighs new values as if it were new."""
EXPECT = {"running_stats": "fail"}
CELLS = {"running_stats_impl": '''
class RunningStats:
    def __init__(self):
        self.n, self.mu, self.m2 = 0, 0.0, 0.0
    def update(self, x):
        for v in x.double().tolist():
            self.n += 1
            d = v - self.mu
            self.mu += d / self.n
            self.m2 += d * (v - self.mu)
    def mean(self):
        return self.mu if self.n else math.nan
    def var(self):
        return self.m2 / self.n if self.n else math.nan
    def state_dict(self):
        return {"mean": self.mu, "m2": self.m2}
    def load_state_dict(self, state):
        self.mu, self.m2 = state["mean"], state["m2"]
        self.n = 1 if self.mu else 0
'''}
