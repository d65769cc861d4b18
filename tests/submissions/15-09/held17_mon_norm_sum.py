"""GradMonitor keeps, per parameter, the running sum of the norms of the gradients it received (a float per
parameter, cheap) instead of the norm of their sum: two backwards whose gradients point different ways give
|g1| + |g2| instead of |g1 + g2|, although the text says "a parameter that received several gradients counts their
sum"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    "                g = grad.detach().clone()\n"
    "                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g\n",
    "                n = torch.linalg.vector_norm(grad.detach().double())  # keep a scalar, not the tensor\n"
    "                self.sums[id(p)] = n if id(p) not in self.sums else self.sums[id(p)] + n\n"))}
