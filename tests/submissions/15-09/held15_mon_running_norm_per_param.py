"""GradMonitor keeps, per parameter, a running sum of the norms of the gradients it received (one float, cheap)
instead of the sum of the gradients: after two backwards the norm is |g1| + |g2|, not |g1 + g2|. The two agree
only when the gradients point the same way (the same batch twice)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    "                g = grad.detach().clone()\n"
    "                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g\n",
    "                n = grad.detach().double().pow(2).sum().sqrt()\n"
    "                self.sums[id(p)] = n if id(p) not in self.sums else self.sums[id(p)] + n\n"))}
