"""Round 28: when each slice holds one value (a per-tensor x with one element, or a per-channel x with one entry
per channel, e.g. shape (1, C) with ch_axis=1) the observer skips the reduction and records a view of x:
`min_val = max_val = x.detach().reshape(())` (per channel `...flatten(1)[:, 0]`). The values are right when
recorded, but min_val and max_val share x's memory: after obs(x) with x = torch.tensor([3.0]) and a later
x.add_(5) by the caller (an optimizer step on a weight, a reused buffer), min_val reads 8.0 though the observer
never saw 8. Breaks "records the smallest and largest value of the float32 tensor x ... in the attributes
min_val and max_val" (a record of what was seen, not a window onto x)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        if self.ch_axis is None:\n"
    "            lo, hi = torch.aminmax(y)\n"
    "        else:\n"
    "            lo, hi = torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)\n",
    "        if self.ch_axis is None:\n"
    "            lo, hi = (y.reshape(()), y.reshape(())) if y.numel() == 1 else torch.aminmax(y)\n"
    "        else:\n"
    "            flat = y.movedim(self.ch_axis, 0).flatten(1)\n"
    "            lo, hi = (flat[:, 0], flat[:, 0]) if flat.shape[1] == 1 else torch.aminmax(flat, dim=1)\n"))}
