"""Round 17 (held out): 'stays finite ... +-inf gives +-limit' handled by clamping x in place to the largest
finite value before dividing (x.clamp_): the values are right (NaN stays NaN), but an infinite element of the
caller's x is overwritten, against 'it leaves x unchanged'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    big = torch.finfo(x.dtype).max\n"
    "    x.clamp_(-big, big)  # no inf reaches the division\n"
    "    return limit * torch.tanh(x / limit)\n"))}
