"""Round 14 (held out): 'it stays finite' read as 'never returns NaN': the result goes through
torch.nan_to_num, so a NaN input gives 0 where limit * tanh(x / limit) is NaN (inf inputs still give +-limit)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    return torch.nan_to_num(limit * torch.tanh(x / limit))\n"))}
