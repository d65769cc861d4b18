# Per tensor, the extremes are reduced over a (1, N) view, so min_val / max_val have shape (1,) instead of
# being 0-dim. Breaks "over the whole tensor (0-dim) when ch_axis is None".
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            lo, hi = torch.aminmax(y)\n",
    "            lo, hi = torch.aminmax(y.reshape(1, -1), dim=1)\n"))}
