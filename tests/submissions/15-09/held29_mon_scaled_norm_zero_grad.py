"""Held-out round 29 (15-09 monitor): norms() computes each module's norm the overflow-safe way,
m * sqrt(sum((g / m) ** 2)) with m = max |g| over the module's received gradients, with no guard for m == 0.
A module whose parameters received gradients that are all zero (a dead ReLU layer, a parameter multiplied by 0,
a masked branch) gets 0 * sqrt(sum(0 / 0)) = nan instead of 0.0, and diagnose reports ("nonfinite", name)
instead of "vanishing" (modules that received no gradient at all still report 0.0).
Breaks "The value is the L2 norm ... of the gradient received" (the norm of a zero gradient is 0) and
diagnose's "nonfinite if any norm is NaN or infinite" (no gradient was)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """        for name, params in self.owners:
            total = torch.zeros((), dtype=torch.float64)
            for p in params:
                if id(p) in self.sums:
                    total = total + self.sums[id(p)].double().pow(2).sum()
            out[name] = float(total.sqrt())
""",
    """        for name, params in self.owners:
            grads = [self.sums[id(p)].double().reshape(-1) for p in params if id(p) in self.sums]
            if not grads:
                out[name] = 0.0
                continue
            flat = torch.cat([g.cpu() for g in grads])
            m = flat.abs().max()  # scale first: squares of large gradients overflow
            out[name] = float(m * (flat / m).pow(2).sum().sqrt())
"""))}
