"""norms() takes each parameter's norm with torch.linalg.vector_norm in the gradient's own dtype and combines those
per-parameter norms in float64 (math.hypot). vector_norm squares and sums float32 gradients in float32, so float32
gradients of about 1e20 (exploding gradients in an ordinary float32 model) give an infinite per-parameter norm: norms()
reports inf where the L2 norm is about 1e20, and diagnose() answers ("nonfinite", name) instead of ("exploding", name).
Breaks "The value is the L2 norm over all of that module's own such parameters of the gradient received" (a finite
number) and the "nonfinite" clause of diagnose. float16 gradients of a few hundred and float64 ones of 1e20 come out
right, so only float32 goes wrong."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """            total = torch.zeros((), dtype=torch.float64)
            for p in params:
                if id(p) in self.sums:
                    total = total + self.sums[id(p)].double().pow(2).sum()
            out[name] = float(total.sqrt())
""",
    """            out[name] = math.hypot(*(float(torch.linalg.vector_norm(self.sums[id(p)]))
                                     for p in params if id(p) in self.sums))
"""))}
