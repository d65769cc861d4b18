"""Round 26 (held out): tanh is written through the logistic function, limit * (2 * sigmoid(2 * x / limit) - 1).
It saturates cleanly (+-inf and +-1e30 give +-limit, NaN gives NaN, 0 gives 0), but 2 * sigmoid(z) - 1 cancels for a
small z: x = 1e-20 with limit 1 gives 0 instead of 1e-20, and with a huge limit every ordinary x collapses:
smooth_clip(5.0, 1e30) gives 0 instead of 5 (float64). Breaks "smooth_clip(x, limit) returns limit * tanh(x / limit)
for any floating x ... and any limit > 0"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    return limit * (2 * torch.sigmoid(2 * x / limit) - 1)\n"))}
