"""Held-out round 9: GradMonitor keeps the first gradient a hook receives as it is and adds later ones into it
in place (sums[k] += grad); autograd may hand one gradient tensor to two parameters (out = x @ (a + b)), so
both records are the same tensor and a second backward adds into both twice; the text says norms() is the
norm of the sum of the gradients each parameter received."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited(
    "15-09", "monitor_impl",
    ("                g = grad.detach().clone()\n"
     "                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g\n",
     "                if id(p) in self.sums:\n"
     "                    self.sums[id(p)] += grad.detach()\n"
     "                else:\n"
     "                    self.sums[id(p)] = grad.detach()\n"))}
