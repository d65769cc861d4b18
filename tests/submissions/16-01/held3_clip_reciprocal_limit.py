"""Wrong (held-out round 3): smooth_clip multiplies by the reciprocal, limit * tanh(x * (1 / limit)); for a
tiny (subnormal) limit such as 1e-310, 1 / limit is inf and x = 0 gives 0 * inf = nan, where the text's
limit * tanh(x / limit) is 0 for any limit > 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n", "    return limit * torch.tanh(x * (1.0 / limit))\n"))}
