"""Round 23: per tensor, the observer keeps min_val / max_val of shape (1,), like the (1,) qparams it returns,
instead of 0-dim: `lo, hi = torch.aminmax(y.reshape(1, -1), dim=1)`. Values are right and the qparams are the
same. Contradicts "records the smallest and largest value ... in the attributes min_val and max_val, float32
tensors: over the whole tensor (0-dim) when ch_axis is None"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            lo, hi = torch.aminmax(y)\n",
    "            lo, hi = torch.aminmax(y.reshape(1, -1), dim=1)  # shape (1,), as the qparams\n"))}
