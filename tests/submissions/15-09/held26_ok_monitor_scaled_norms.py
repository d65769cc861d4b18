"""Correct but unusual: norms() computes each parameter's norm with scaling (the largest magnitude factored out, as
BLAS nrm2 does) in float64 on the gradient's own device, and combines the parameters of a module with math.hypot,
so that no square overflows even for float64 gradients near the top of the range; NaN wins over inf as in a sum of
squares, an empty gradient counts zero. Everything else is the reference."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """        out = {}
        for name, params in self.owners:
            total = torch.zeros((), dtype=torch.float64)
            for p in params:
                if id(p) in self.sums:
                    total = total + self.sums[id(p)].double().pow(2).sum()
            out[name] = float(total.sqrt())
        return out
""",
    """        def scaled_norm(t):
            a = t.detach().reshape(-1).double()
            if a.numel() == 0:
                return 0.0
            top = float(a.abs().amax())  # NaN if any element is NaN
            if top == 0.0 or not math.isfinite(top):
                return top
            return top * math.sqrt(float((a / top).pow(2).sum()))

        out = {}
        for name, params in self.owners:
            parts = [scaled_norm(self.sums[id(p)]) for p in params if id(p) in self.sums]
            out[name] = math.nan if any(math.isnan(v) for v in parts) else math.hypot(*parts)
        return out
"""))}
