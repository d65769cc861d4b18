"""Round 19: RangeObserver detaches x on its per-tensor path but takes the per-channel extremes of x itself, so
for an x that requires grad, min_val / max_val per channel carry an autograd graph (and keep x's graph alive
through every later update). Values are right. The text: "An empty tensor changes nothing, and recording never
builds an autograd graph" (per tensor and per channel alike)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            lo, hi = torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)\n",
    "            lo, hi = torch.aminmax(x.movedim(self.ch_axis, 0).flatten(1), dim=1)\n"))}
