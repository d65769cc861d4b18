"""Round 19: RangeObserver treats per tensor as "one channel": it reshapes x to (1, N) and takes the extremes
along dim 1, so min_val / max_val are of shape (1,) instead of 0-dim. The values and the qparams are right.
The text: "records the smallest and largest value ... in the attributes min_val and max_val, float32 tensors:
over the whole tensor (0-dim) when ch_axis is None"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        if self.ch_axis is None:\n"
    "            lo, hi = torch.aminmax(y)\n"
    "        else:\n"
    "            lo, hi = torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)\n",
    "        rows = y.reshape(1, -1) if self.ch_axis is None else y.movedim(self.ch_axis, 0).flatten(1)\n"
    "        lo, hi = torch.aminmax(rows, dim=1)  # per tensor is a single channel\n"))}
