"""GradMonitor's hook keeps the gradient tensor it receives without a copy and adds later ones to it in place
(self.sums[k] += grad): when backward delivers one tensor object to two parameters (out = self.a + self.b, whose
AddBackward passes the same gradient to both), the two records are one tensor and each later backward is added to
both, so a second backward without clear() reports the wrong norms, although the text says "a parameter that
received several gradients counts their sum"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    "                g = grad.detach().clone()\n"
    "                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g\n",
    "                if id(p) in self.sums:\n"
    "                    self.sums[id(p)] += grad.detach()\n"
    "                else:\n"
    "                    self.sums[id(p)] = grad.detach()\n"))}
