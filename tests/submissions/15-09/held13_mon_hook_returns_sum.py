"""Held-out round 13 (GradMonitor, "registers a tensor hook ... and records the gradients the hooks receive";
section 3: a hook answers "what did this backward deliver"): the hook returns what it has recorded, the
running sum, as hooks that "hand the gradient on" do. A value a tensor hook returns replaces the gradient,
so from the second backward without clear() on, every parameter's .grad gets the sum of all earlier
gradients added again: the monitor changes training."""
from course.grading.class_run.submissions import edited

EXPECT = {"monitor": "fail"}
BASE = "reference"
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    "                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g\n",
    "                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g\n"
    "                return self.sums[id(p)]  # hand the gradient on\n",
))}
