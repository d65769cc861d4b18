"""Round 19s (contract walk, not counted): RangeObserver starts its range at +-inf, torch.full(lo.shape, inf) with
no device=, and lets the first tensor's extremes replace it through torch.minimum / torch.maximum. Per tensor the
0-dim CPU start mixes with a CUDA tensor (a 0-dim CPU tensor counts as a scalar), per channel the (C,) CPU start
does not: on a GPU forward raises. The text: "Every tensor it creates is on x's device, so it runs on a GPU as on
the CPU"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        if self.min_val is None:\n"
    "            self.min_val, self.max_val = lo, hi\n"
    "        elif self.c is None:\n",
    "        first = self.min_val is None\n"
    "        if first:  # start from +-inf: the first tensor's extremes replace them\n"
    "            self.min_val = torch.full(lo.shape, float('inf'))\n"
    "            self.max_val = torch.full(hi.shape, float('-inf'))\n"
    "        if first or self.c is None:\n"))}
