"""Symmetric scale over the full number of steps (255) instead of half of it: the levels cover only half the
range."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2)", "torch.maximum(-lo, hi) / float(self.qmax - self.qmin)"))}
