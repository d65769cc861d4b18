"""Divides by n - 1 (the sample variance) where the text asks for the population variance."""
EXPECT = {"running_stats": "fail"}
CELLS = {"running_stats_impl": '''
class RunningStats:
    def __init__(self):
        self.values = []
    def update(self, x):
        self.values += x.double().tolist()
    def mean(self):
        return sum(self.values) / len(self.values) if self.values else math.nan
    def var(self):
        n = len(self.values)
        if n < 2:
            return math.nan if n == 0 else 0.0
        m = self.mean()
        return sum((v - m) ** 2 for v in self.values) / (n - 1)
    def state_dict(self):
        return {"values": list(self.values)}
    def load_state_dict(self, state):
        self.values = list(state["values"])
'''}
