"""Round 19s (contract walk, not counted): RangeObserver's per-tensor moving average reads the batch's extremes
from x itself, self.min_val + c * (x.min() - self.min_val), while every other path uses the detached extremes:
after a second tensor that requires grad, min_val / max_val carry an autograd graph (and keep x's graph alive).
The text: "An empty tensor changes nothing, and recording never builds an autograd graph"; before round 19 the
graph was read per tensor with min-max and per channel with a moving average only."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            self.min_val = self.min_val + self.c * (lo - self.min_val)\n"
    "            self.max_val = self.max_val + self.c * (hi - self.max_val)\n",
    "            if self.ch_axis is None:\n"
    "                self.min_val = self.min_val + self.c * (x.min() - self.min_val)\n"
    "                self.max_val = self.max_val + self.c * (x.max() - self.max_val)\n"
    "            else:\n"
    "                self.min_val = self.min_val + self.c * (lo - self.min_val)\n"
    "                self.max_val = self.max_val + self.c * (hi - self.max_val)\n"))}
